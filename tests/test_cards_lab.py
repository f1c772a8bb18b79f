"""The deck's lab questions (kiwara_designer.games.kiwara.deck_lab and `kiwara cards`), with cheap agents."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara import KiwaraVariant
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.deck_lab import (card_values, deck_versus_okapi, fairness,
                                                   handicap_calibration)
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
        assert okapi.used.value == 0 and okapi.win_with.value >= okapi.win_without.value
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
    assert result.exit_code == 0 and result.output.count("\n") == 4, result.output
    for args, words in ((["value", "--agents", "nope"], "unknown agent 'nope'"),
                        # no agent may see the fixed deck order, not even the lab's cheat
                        (["versus", "--agents", "cheat-ismcts:5"], "kiwara has no hidden"),
                        (["value", "--card", "thunder"], "no card 'thunder'"),
                        (["handicap", "--cards", "x"], "whole numbers")):
        result = CliRunner().invoke(main, ["cards", *args, "--games", "1"])
        assert result.exit_code == 2 and words in result.output, result.output
