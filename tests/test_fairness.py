"""`kiwara fair` and `kiwara awimbawe fair` (issue 34, point 1): one verdict a designer reads,
from a confidence sequence that holds however long the test ran."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.lab import fairness
from kiwara_designer.lab.fairness import (FAIR, FAVOURS_FIRST, FAVOURS_SECOND, UNDECIDED, Fairness,
                                          FairnessError, judge_fairness)
from kiwara_designer.lab.matches import GameResult

# The first player's rate in random self-play on classic, measured apart from the code under
# test: `kiwara playtest classic --agents random --games 200000 --seed 12345 --skill-games 0`,
# 99,507 / 200,000 = 0.498 [0.495, 0.500]
RANDOM_CLASSIC = 0.498


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


def coin_games(rate: float, seed: int):
    """A stand-in for the lab's games: the first player wins each with probability ``rate``
    (pairs independent), game i drawn from (seed, i) as the lab seeds its games."""
    def play(setup, variant, pairing, games, seed_, workers, game, first_index=0,
             progress=None):
        results = []
        for i in range(first_index, first_index + games):
            first_wins = random.Random(f"{seed}/{i}").random() < rate
            results.append(GameResult(i, i, i % 2, 0 if first_wins else 1, (1.0, 0.0), 10, 5,
                                      3.0, 1, 1.0))
        return results
    return play


@pytest.mark.parametrize("rate", [0.5, 0.47, 0.56])
def test_the_interval_holds_the_true_rate_and_the_verdict_follows_it(monkeypatch, rate):
    # coverage at 95 % whatever the stopping time: 200 seeded runs each
    misses, verdicts = 0, []
    for seed in range(200):
        monkeypatch.setattr(fairness, "play_games", coin_games(rate, seed))
        found = judge_fairness(precision=0.04, pairing="random", max_games=20_000)
        misses += not found.low <= rate <= found.high
        verdicts.append(found.outcome)
        assert found.games % 2 == 0 and found.games <= 20_000
        if found.outcome == FAIR:
            assert found.low <= 0.5 <= found.high and found.half_width <= 0.04
    assert misses <= 200 * 0.05 * 1.6             # at most 5 % (with room for chance): often 0
    if rate == 0.56:
        assert verdicts.count(FAVOURS_FIRST) >= 180
    if rate == 0.47:
        assert FAVOURS_FIRST not in verdicts
    if rate == 0.5:
        assert verdicts.count(FAIR) >= 190


def test_the_verdicts_in_words():
    # hand-written: what a designer reads first
    fair = Fairness("mcts:200,mcts:200", 4000, 2044, 0.493, 0.529, 0.02, FAIR, 60.0)
    assert fair.verdict() == ("fair for mcts:200 players at ±2.0 points: the first player wins "
                              "51.1 % [49.3, 52.9]; no advantage detected at this precision")
    first = Fairness("greedy,greedy", 200, 147, 0.608, 0.846, 0.02, FAVOURS_FIRST, 22.0)
    assert first.verdict() == ("favours the first player for greedy players by 23.5 points "
                               "[10.8, 34.6]: the first player wins 73.5 % [60.8, 84.6]")
    second = Fairness("random,greedy", 1000, 400, 0.35, 0.45, 0.02, FAVOURS_SECOND, 3.0)
    assert second.verdict() == ("favours the second player for random and greedy players by "
                                "10.0 points [5.0, 15.0]: the first player wins 40.0 % "
                                "[35.0, 45.0]")
    unknown = Fairness("random,random", 100, 53, 0.354, 0.706, 0.02, UNDECIDED, 0.1)
    assert unknown.verdict() == ("cannot tell for random players within 100 games: the first "
                                 "player wins 53.0 % [35.4, 70.6], an edge of 3.0 points [-14.6, "
                                 "20.6] (not known to ±2.0 points)")


def test_kiwara_fair_calls_random_play_on_classic_fair_within_the_precision():
    result = run("fair", "classic", "--agents", "random", "--precision", 0.02, "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["outcome"] == "fair" and found["verdict"].startswith("fair for random players")
    assert found["low"] <= RANDOM_CLASSIC <= found["high"]
    assert (found["high"] - found["low"]) / 2 <= 0.02
    assert found["games"] % 2 == 0 and found["pairing"] == "random,random"
    assert found["layout"] == "classic" and found["metrics"]["games"] == found["games"]
    again = run("fair", "classic", "--agents", "random", "--precision", 0.02, "--json")
    assert again.output == result.output                     # same seed, same bytes


def test_a_handicap_names_the_first_players_advantage(tmp_path):
    variant = tmp_path / "h30.toml"
    variant.write_text('reinforcement = "deck"\nhandicap = [3, 0]\n')
    result = run("fair", "classic", "--variant", variant, "--agents", "greedy")
    assert result.exit_code == 1
    assert result.output.startswith("classic: favours the first player for greedy players by ")
    lines = result.output.splitlines()
    assert "games of greedy,greedy in seat-swapped pairs" in lines[1]
    assert lines[2].startswith("  to know the rate to ±")


def test_a_budget_too_small_cannot_tell_and_bad_settings_are_one_line():
    result = run("fair", "classic", "--agents", "random", "--max-games", 100)
    assert result.exit_code == 1
    assert result.output.startswith("classic: cannot tell for random players within 100 games")
    for args, words in [(("--precision", 0), "0.0 is not in the range 0<x<0.5"),
                        (("--precision", "nan"), "--precision"),
                        (("--max-games", 1), "1 is not in the range 2<=x<=1000000"),
                        (("--agents", "nobody"), "unknown agent")]:
        bad = run("fair", "classic", *args)
        assert bad.exit_code == 2 and bad.output.count("\n") == 1 and words in bad.output, \
            bad.output
    with pytest.raises(FairnessError):
        judge_fairness(precision=0.5)


def test_awimbawe_fair_gives_the_same_verdict_in_its_words():
    result = run("awimbawe", "fair", "--precision", 0.1, "--json")
    found = json.loads(result.output)
    assert found["game"] == "awimbawe" and found["pairing"] == "greedy,greedy"
    assert found["verdict"].startswith(("fair for greedy players at ±10.0 points",
                                        "favours the"))
    text = run("awimbawe", "fair", "--precision", 0.1)
    assert text.output.startswith("awimbawe classic: ") and " matches of greedy,greedy" in \
        text.output
