"""`kiwara fair LAYOUT --against LAYOUT2` / `--against-variant V2` (issue 34, point 1): which of
two boards or variants is fairer, from both sides' confidence sequences over paired games."""
from __future__ import annotations

import json

from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.lab import fairness
from kiwara_designer.lab.fairness import (CONFIDENCE, FIRST_FAIRER, NOT_APART, SECOND_FAIRER,
                                          Fairness, FairnessComparison, compare_fairness,
                                          fairness_of_games, imbalance)
from test_fairness import coin_games


def run(*args, input=None):
    return CliRunner().invoke(main, [*map(str, args)], input=input)


def two_coins(rates: tuple[float, float], seed: int):
    """Two stand-ins for the lab's games, told apart by the variant ("A" or "B")."""
    plays = {"A": coin_games(rates[0], seed), "B": coin_games(rates[1], seed + 1_000_003)}

    def play(setup, variant, *args, **kwargs):
        return plays[variant](setup, variant, *args, **kwargs)
    return play


def compare(monkeypatch, rates, seed, precision=0.03, max_games=40_000):
    monkeypatch.setattr(fairness, "play_games", two_coins(rates, seed))
    return compare_fairness([(None, "A"), (None, "B")], ["a", "b"], "random", precision,
                            max_games=max_games)


def test_the_fair_side_is_named_fairer(monkeypatch):
    outcomes = []
    for seed in range(30):
        first = compare(monkeypatch, (0.5, 0.6), seed)
        outcomes.append(first.outcome)
        assert first.sides[0].games == first.sides[1].games      # the same rounds, paired
        assert first.sides[0].confidence == 1 - (1 - CONFIDENCE) / 2
        if first.outcome == FIRST_FAIRER:
            assert first.verdict().startswith("a is fairer than b for random players: "
                                              "imbalance ")
        second = compare(monkeypatch, (0.6, 0.5), seed)
        outcomes.append({FIRST_FAIRER: SECOND_FAIRER, SECOND_FAIRER: FIRST_FAIRER}.get(
            second.outcome, second.outcome))
    assert SECOND_FAIRER not in outcomes                          # never the wrong one
    assert outcomes.count(FIRST_FAIRER) >= 54                      # nearly always found


def test_equal_rates_cannot_be_told_apart(monkeypatch):
    wrong = 0
    for seed in range(30):
        found = compare(monkeypatch, (0.55, 0.55), seed, precision=0.04)
        wrong += found.outcome != NOT_APART
        if found.outcome == NOT_APART:
            assert found.answered and all(side.half_width <= 0.04 for side in found.sides)
            assert found.verdict().startswith("a and b cannot be told apart at ±4.0 points "
                                              "for random players: imbalance ")
    assert wrong <= 2                                            # rarely wrong (often never)


def test_a_budget_too_small_is_no_answer(monkeypatch):
    found = compare(monkeypatch, (0.5, 0.5), 0, precision=0.02, max_games=400)
    assert found.outcome == NOT_APART and not found.answered
    assert "cannot be told apart within 400 games each" in found.verdict()
    assert "(not known to ±2.0 points)" in found.verdict()


def test_the_imbalance_interval_and_the_default_level():
    holds = Fairness("random,random", 100, 53, 0.45, 0.58, 0.02, NOT_APART, 0.0)
    assert imbalance(holds) == (0.030000000000000027, 0.0, 0.07999999999999996)
    above = Fairness("random,random", 100, 60, 0.55, 0.65, 0.02, NOT_APART, 0.0)
    assert imbalance(above)[1:] == (0.050000000000000044, 0.15000000000000002)
    assert above.confidence == CONFIDENCE and above.to_json()["confidence"] == 0.95
    # the level only widens the sequence
    games = coin_games(0.55, 3)(None, None, None, 1000, 0, None, None)
    usual = fairness_of_games(games, "random,random")
    wider = fairness_of_games(games, "random,random", confidence=0.975)
    assert wider.low < usual.low and wider.high > usual.high and usual.confidence == 0.95
    both = FairnessComparison((usual, wider), ("x", "y"), NOT_APART, False)
    assert abs(both.confidence - 0.925) < 1e-12


def test_kiwara_fair_against_a_lopsided_variant(tmp_path):
    variant = tmp_path / "h90.toml"
    variant.write_text('reinforcement = "deck"\nhandicap = [9, 0]\n')
    result = run("fair", "classic", "--against-variant", variant, "--agents", "random",
                 "--precision", 0.05)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"classic: classic is fairer than {variant} for random players: "
                               f"imbalance ")
    assert lines[1].startswith("  classic: fair for random players at ±5.0 points")
    assert lines[2].startswith(f"  {variant}: favours the first player for random players by ")
    assert "on each side in seat-swapped pairs" in lines[3] and "97.5 %" in lines[3]


def test_kiwara_fair_against_a_board_in_json_and_bad_usage():
    args = ("fair", "classic", "--against", "twin-nines", "--agents", "random",
            "--precision", 0.05)
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["outcome"] in ("first fairer", "second fairer", "cannot tell apart")
    assert found["answered"] and found["confidence"] == 0.95 and found["seed"] == 0
    a, b = found["sides"]
    assert (a["name"], a["layout"], b["name"], b["layout"]) == ("classic", "classic",
                                                                "twin-nines", "twin-nines")
    assert a["games"] == b["games"] and a["confidence"] == b["confidence"] == 0.975
    assert found["verdict"].startswith(("classic and twin-nines cannot be told apart at ±5.0 "
                                        "points for random players: ", "classic is fairer",
                                        "twin-nines is fairer"))
    text = run(*args)
    assert text.output.splitlines()[0] == found["verdict"]
    assert text.output.splitlines()[1].startswith("  classic: ")
    assert text.output.splitlines()[2].startswith("  twin-nines: ")
    for bad, words in [(("fair", "classic", "--against", "twin-nines", "--against-variant",
                         "totem_1_2"), "give --against or --against-variant, not both"),
                       (("awimbawe", "fair", "--against", "classic"), "No such option"),
                       (("fair", "classic", "--against", "nowhere.txt"), "nowhere.txt")]:
        out = run(*bad)
        assert out.exit_code == 2 and out.output.count("\n") == 1 and words in out.output, \
            out.output


def test_awimbawe_fair_against_a_variant():
    result = run("awimbawe", "fair", "--against-variant", "gamepark", "--precision", 0.15,
                 "--json")
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.output)
    assert [side["name"] for side in found["sides"]] == ["classic", "gamepark"]
    assert found["verdict"].startswith(("classic and gamepark cannot be told apart",
                                        "classic is fairer", "gamepark is fairer"))
