"""The deck's lab questions (kiwara_designer.games.kiwara.deck_lab and `kiwara cards`), with cheap agents."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara import KiwaraVariant
from kiwara_designer.games.kiwara.formats import load_layout
import random

from kiwara_designer.games.kiwara import new_game
from kiwara_designer.games.kiwara.deck_lab import (HandicapLevel, _dealt, _extra_first,
                                                   _game_seed, _play, balancing_level,
                                                   card_values, deck_versus_okapi, fairness,
                                                   handicap_calibration, level_steps)
from kiwara_designer.core.stats import proportion, summarise
from kiwara_designer.lab.matches import PlaytestError

CLASSIC = [load_layout("classic")]


def test_a_points_card_is_worth_exactly_its_points_to_agents_that_cannot_see_the_deck():
    # A passive card changes no legal move and the other cards come in the same order, so each
    # pair is the same game but for the card's points.
    for agents in (("random", "random"), ("greedy", "random")):
        okapi, waterhole = card_values(CLASSIC, agents, games=6, seed=3,
                                       cards=["okapi", "waterhole"])
        assert (okapi.points.mean, okapi.points.std) == (5.0, 0.0)
        assert (waterhole.points.mean, waterhole.points.std) == (3.0, 0.0)
        # a points card is never used: it scores when held (no "used 0 %")
        assert okapi.used is None and okapi.win_with.value >= okapi.win_without.value
        assert okapi.to_json()["used"] is None and okapi.to_json()["scores_when_held"]
        assert okapi.used_at.n == 0


def test_card_values_are_reproducible_and_count_uses():
    one = card_values(CLASSIC, ("greedy", "greedy"), games=4, seed=1, cards=["jackal"])
    two = card_values(CLASSIC, ("greedy", "greedy"), games=4, seed=1, cards=["jackal"])
    assert one == two and one[0].effect == "chase" and one[0].used.trials == 4
    assert one[0].used.value > 0          # greedy uses the jackal when a gazelle is there
    # the move of its first use: never the opening (move 1)
    assert one[0].used_at.n == one[0].used.successes and one[0].used_at.low >= 2


def test_a_change_of_win_rate_stays_between_minus_and_plus_one():
    # a t interval over 3 pairs is wider than the values can go (it printed [-176.8, 110.1] %)
    [drums] = card_values(CLASSIC, ("greedy", "greedy"), games=3, seed=0, cards=["drums"])
    assert -1.0 <= drums.win_change.low <= drums.win_change.mean <= drums.win_change.high <= 1.0


def test_handicap_levels_and_their_seats():
    levels = handicap_calibration(CLASSIC, "random", "greedy", handicaps=(0, 2), games=8, seed=2)
    assert [level.cards for level in levels] == [0, 2]
    assert all(level.weaker_score.trials == 8 for level in levels)
    assert levels[0].weaker_score.value < 0.5 and levels[0].margin.mean < 0
    with pytest.raises(PlaytestError, match="0 to 10 cards"):
        handicap_calibration(CLASSIC, "random", "greedy", handicaps=(11,), games=1)


def test_deck_versus_okapi_plays_the_same_seeds_under_both():
    okapi, deck = deck_versus_okapi(CLASSIC, ("random", "random"), games=10, seed=4)
    assert okapi == fairness(CLASSIC, ("random", "random"), games=10, seed=4,
                             variant=KiwaraVariant(name="classic (okapi)"))
    assert okapi.draws.value == 0          # the classic totals are always odd
    assert 0 <= deck.first_score.value <= 1 and deck.margin.n == 10


def test_unknown_card_is_named():
    with pytest.raises(PlaytestError, match="no card 'thunder'"):
        card_values(CLASSIC, games=1, cards=["thunder"])


def test_cards_commands():
    result = CliRunner().invoke(main, ["cards", "value", "--games", "2", "--card", "okapi",
                                       "--agents", "random", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["cards"][0]["name"] == "okapi" and data["cards"][0]["points"]["mean"] == 5.0
    result = CliRunner().invoke(main, ["cards", "versus", "--games", "2", "--agents", "random"])
    assert result.exit_code == 0 and "okapi" in result.output and "deck" in result.output
    result = CliRunner().invoke(main, ["cards", "handicap", "--weaker", "random", "--stronger",
                                       "random", "--games", "2", "--cards", "0,1"])
    # three lines of levels, the level-to-level step, the balancing line
    assert result.exit_code == 0 and result.output.count("\n") == 8, result.output
    assert result.output.splitlines()[-1].startswith(("balancing level", "none of the levels"))
    for args, words in ((["value", "--agents", "nope"], "unknown agent 'nope'"),
                        # no agent may see the fixed deck order, not even the lab's cheat
                        (["versus", "--agents", "cheat-ismcts:5"], "kiwara has no hidden"),
                        (["value", "--card", "thunder"], "no card 'thunder'"),
                        (["handicap", "--cards", "x"], "whole numbers")):
        result = CliRunner().invoke(main, ["cards", *args, "--games", "1"])
        assert result.exit_code == 2 and words in result.output, result.output


# -- issue 27: the balancing level, paired steps, the variant's own handicap, small n ----------
def _level(cards, results, margins=None):
    margins = margins or [0] * len(results)
    return HandicapLevel(cards, proportion(sum(results), len(results)), summarise(margins),
                         tuple(results), tuple(margins))


def test_the_balancing_level_is_the_one_whose_interval_holds_one_half():
    # 0/20 → Wilson [0, 16.1 %]; 8/20 → [21.9, 61.3 %] (holds 50 %); 10/20 → [29.9, 70.1 %]
    low, mid, even = (_level(0, [0] * 20), _level(1, [1] * 8 + [0] * 12),
                      _level(2, [1] * 10 + [0] * 10))
    assert balancing_level([low, mid, even]).level == 2          # nearest 50 % of the two
    assert balancing_level([low, mid]).to_json() == {"level": 1, "between": None, "side": None}
    # no interval holds 50 % but the rate crosses it: between the two levels
    high = _level(3, [1] * 20)
    assert balancing_level([high, low]).between == (0, 3)
    assert "between 0 and 3 cards" in balancing_level([low, high]).text()
    # never reaching 50 %: none, and which way to go
    never = balancing_level([low, _level(1, [0] * 19 + [1])])
    assert never.level is None and never.between is None and never.side == "below"
    assert never.text().startswith("none of the levels tried balances them")
    assert "try more cards" in never.text()


def test_level_steps_pair_the_games_of_consecutive_levels():
    # hand-checked: differences 0, +1, +½, 0 → mean ⅜; sd √(11/48) = 0.4787, t(3) = 3.182:
    # half width 3.182 × 0.4787 / 2 = 0.762, clipped at −1 and 1; two pairs up, none down:
    # exact sign test p = 2 × ¼ = ½; margins +2, +4, 0, +2 → mean 2
    one = _level(0, [1, 0, 0.5, 1], [3, -5, 0, 7])
    two = _level(1, [1, 1, 1, 1], [5, -1, 0, 9])
    [step] = level_steps([one, two])
    assert (step.low_cards, step.high_cards) == (0, 1)
    assert step.score_change.mean == pytest.approx(0.375)
    assert step.score_change.low == pytest.approx(0.375 - 0.7617, abs=1e-3)
    assert step.score_change.high == 1.0
    assert step.test.p_value == pytest.approx(0.5) and step.margin_change.mean == 2


def test_the_handicap_study_keeps_the_variants_own_deal():
    # level 0 is the variant as written: the same games as playing it directly
    variant = KiwaraVariant(name="h01", reinforcement="deck", handicap=(0, 1))
    [level] = handicap_calibration(CLASSIC, "random", "greedy", handicaps=(0,), games=4,
                                   seed=5, variant=variant)
    cards = list(variant.cards)
    for i in range(4):
        seed = _game_seed(5, i)
        order = [c.name for c in random.Random(seed).sample(cards, len(cards))]
        specs = ("random", "greedy") if i % 2 == 0 else ("greedy", "random")
        totals, _, _ = _play((CLASSIC[0], variant, order, specs, seed))
        assert level.margins[i] == totals[i % 2] - totals[1 - i % 2]
    with pytest.raises(PlaytestError, match=r"0 to 9 cards .*handicap \[0, 1\]"):
        handicap_calibration(CLASSIC, "random", "greedy", handicaps=(10,), games=1,
                             variant=variant)


def test_the_deals_add_to_the_variants_own_without_changing_it():
    variant = KiwaraVariant(reinforcement="deck", handicap=(1, 1))
    order = ["okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise",
             "hunter", "jackal", "ford"]
    rest = [n for n in order if n != "ford"]

    def hands(handicap, deck):
        from dataclasses import replace
        cards = tuple(c for c in variant.cards if c.name in deck)
        state = new_game(CLASSIC[0], replace(variant, handicap=handicap, deck=cards), deck)
        return sorted(state.hand(0)), sorted(state.hand(1))

    plain = hands((1, 1), rest)                                   # okapi / waterhole
    assert plain == (["okapi"], ["waterhole"])
    # the card studied, dealt to either holder on top of the variant's deal
    assert hands((2, 1), _dealt(rest, 1, "ford", 0)) == (["ford", "okapi"], ["waterhole"])
    assert hands((1, 2), _dealt(rest, 1, "ford", 1)) == (["okapi"], ["ford", "waterhole"])
    # a handicap level: k more cards to the first player, the second's unchanged
    assert hands((3, 1), _extra_first(order, (1, 1), 2)) == (["drums", "okapi", "storm"],
                                                              ["waterhole"])
    assert hands((1, 3), order) == (["okapi"], ["drums", "storm", "waterhole"])


def test_card_value_prints_no_interval_below_two_pairs_and_names_the_holders_gain():
    result = CliRunner().invoke(main, ["cards", "value", "--games", "1", "--card", "okapi",
                                       "--card", "drums", "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "holder's gain" in result.output and "scores when held" in result.output
    okapi = next(line for line in result.output.splitlines() if line.startswith("okapi"))
    assert okapi.split()[3:4] == ["n/a"] and " 0%" not in okapi and "[" not in okapi
    data = json.loads(CliRunner().invoke(main, ["cards", "value", "--games", "1", "--card",
                                                "okapi", "--json", "-j", "1"]).output)
    assert data["cards"][0]["points"]["low"] is None and data["cards"][0]["used"] is None


def test_cards_handicap_json_names_the_balancing_level_and_the_steps():
    result = CliRunner().invoke(main, ["cards", "handicap", "--weaker", "random", "--stronger",
                                       "greedy", "--games", "4", "--cards", "0,2", "--json",
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert set(data["balancing"]) == {"level", "between", "side"}
    assert [(s["from"], s["to"]) for s in data["steps"]] == [(0, 2)]
    assert data["handicap"] == [0, 0]


def test_handicap_search_gallops_then_bisects(monkeypatch):
    # a made-up weaker agent that reaches 50 % from 5 cards on: 0, 1, 2, 4 below, 8 at 50 %,
    # then bisection 6 (at), 5 (at): the balance is 5 cards, found with 7 levels of the 11
    from kiwara_designer.games.kiwara import deck_lab
    asked = []

    def fake(layouts, weaker, stronger, *, handicaps, **options):
        [k] = handicaps
        asked.append(k)
        return [_level(k, [1, 0] if k >= 5 else [0] * 9 + [1])]

    monkeypatch.setattr(deck_lab, "handicap_calibration", fake)
    levels = deck_lab.handicap_search(CLASSIC, "random", "greedy", games=2)
    assert asked == [0, 1, 2, 4, 8, 6, 5]
    assert [level.cards for level in levels] == [0, 1, 2, 4, 5, 6, 8]
    assert balancing_level(levels).level == 5
    # never reaching 50 %: every power of two up to the deck's size (10 cards), then the size
    asked.clear()
    monkeypatch.setattr(deck_lab, "handicap_calibration",
                        lambda *a, handicaps, **o: asked.append(handicaps[0]) or
                        [_level(handicaps[0], [0] * 20)])
    assert balancing_level(deck_lab.handicap_search(CLASSIC, "a", "b", games=2)).side == "below"
    assert asked == [0, 1, 2, 4, 8, 10]


def test_cards_handicap_auto_searches():
    result = CliRunner().invoke(main, ["cards", "handicap", "--weaker", "random", "--stronger",
                                       "greedy", "--games", "2", "--cards", "auto", "--json",
                                       "-j", "1"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["searched"] and data["levels"][0]["cards"] == 0
    assert len(data["steps"]) == len(data["levels"]) - 1


def test_card_values_deal_the_card_on_top_of_the_variants_handicap(monkeypatch):
    from kiwara_designer.games.kiwara import deck_lab
    seen = []

    def recording(func, tasks, workers):
        seen.extend(tasks)
        return [func(task) for task in tasks]

    monkeypatch.setattr(deck_lab, "parallel_map", recording)
    variant = KiwaraVariant(reinforcement="deck", handicap=(0, 1))
    [okapi] = card_values(CLASSIC, ("random", "random"), games=2, seed=1, variant=variant,
                          cards=["okapi"])
    assert (okapi.points.mean, okapi.points.std) == (5.0, 0.0)   # the twins differ by the card
    (_, with_0, order_0, *_), (_, without_0, twin_0, *_) = seen[0], seen[1]
    (_, with_1, order_1, *_), (_, without_1, twin_1, *_) = seen[2], seen[3]
    assert (with_0.handicap, without_0.handicap) == ((1, 1), (0, 1))     # holder first
    assert (with_1.handicap, without_1.handicap) == ((0, 2), (0, 1))     # holder second
    assert order_0 == ["okapi"] + twin_0 and order_1 == ["okapi"] + twin_1   # a = 0: on top
    # the second player's own card is the same in both games of the pair
    assert new_game(CLASSIC[0], with_0, order_0).hand(1) == \
        new_game(CLASSIC[0], without_0, twin_0).hand(1)


def test_card_value_lines_fit_in_100_columns():
    result = CliRunner().invoke(main, ["cards", "value", "--games", "2", "--card", "migration",
                                       "--card", "okapi", "-j", "1"])
    assert result.exit_code == 0 and max(map(len, result.output.splitlines())) < 100
