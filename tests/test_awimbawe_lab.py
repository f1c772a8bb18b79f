"""The Awimbawé play-test lab: each round's facts from its history (powers, fled eagles and
what fighting would have changed), the metrics over matches, and the playtest and compare
commands."""
from __future__ import annotations

import json

from kiwara_designer.awimbawe.metrics import METRICS, round_facts
from kiwara_designer.awimbawe.state import RoundResult
from kiwara_designer.awimbawe.variant import AwimbaweVariant
from kiwara_designer.playtest import play_match

CROWNS = AwimbaweVariant().card_crowns


def a_round(moves, crowns, winner, by_hyenas=False):
    events = (("l", 0),) + tuple(("m", seat, text) for seat, text in moves)
    return RoundResult((), 0, events, winner, crowns, (0, 0), by_hyenas, len(moves) // 2)


# player 0 leads the mouse G1 (3 crowns); player 1's eagle flees; then a rhinoceros with its
# power, a bare cheetah, a snake blocking blind, and a fight
TRICKS = [(0, "G1"), (1, "E7:flee"), (0, "D2:3>1"), (1, "D3"), (1, "M5:h=G4"), (0, "M6"),
          (0, "P1"), (1, "E8:fight")]


def test_round_facts_count_powers_and_flees():
    facts = round_facts(a_round(TRICKS, (20, 25), 1), CROWNS)
    assert facts["played"] == {"rhinoceros": 1, "cheetah": 1, "snake": 1}
    assert facts["used"] == {"rhinoceros": 1, "cheetah": 0, "snake": 1}
    assert (facts["eagle_choices"], facts["flees"]) == (2, 1)


def test_a_fled_eagle_changes_the_winner_only_when_the_led_crowns_swing_it():
    # fighting would have moved the mouse's 3 crowns from player 0 to player 1
    assert round_facts(a_round(TRICKS, (20, 25), 1), CROWNS)["flee_changed_winner"] is False
    assert round_facts(a_round(TRICKS, (24, 21), 0), CROWNS)["flee_changed_winner"] is True
    # 22 - 3 = 19 against 20 + 3 = 23
    assert round_facts(a_round(TRICKS, (22, 20), 0), CROWNS)["flee_changed_winner"] is True
    # rounds ended by hyenas and rounds without a flee are not judged
    assert round_facts(a_round(TRICKS, (24, 21), 0, True), CROWNS)["flee_changed_winner"] is None
    assert round_facts(a_round(TRICKS[2:], (24, 21), 0), CROWNS)["flee_changed_winner"] is None


def test_metrics_over_matches_agree_with_the_rounds():
    from kiwara_designer.core.game import get_game
    game = get_game("awimbawe")
    games = play_match(None, None, "greedy,random", 12, 3, 1, game)
    values = {m.name: m.compute(games, None) for m in METRICS}
    rounds = [r for g in games for r in g.stats["round_facts"]]
    assert values["first_seat_round_win_rate"].trials == len(rounds) >= 2 * len(games)
    assert values["first_seat_round_win_rate"].successes == sum(r["winner"] == 0 for r in rounds)
    assert values["round1_leader_match_win_rate"].trials == 12
    assert values["hyena_round_rate"].successes == sum(r["by_hyenas"] for r in rounds)
    for g in games:                 # the match winner won the last round, and enough rounds
        facts = g.stats["round_facts"]
        assert facts[-1]["winner"] == g.winner
        assert sum(r["winner"] == g.winner for r in facts) == 2
        assert all(r["tricks"] <= 14 for r in facts)


def test_playtest_and_compare_commands(run):
    result = run("awimbawe", "playtest", "--games", "6", "--skill-games", "2", "-j", "1",
                 "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["games"] == 6 and out["metrics"]["skill_gap"]["trials"] == 2
    for name in ("round1_leader_match_win_rate", "hyena_round_rate", "flee_changes_winner_rate",
                 "snake_power_rate", "crowns_margin", "lead_changes"):
        assert name in out["metrics"], name
    text = run("awimbawe", "playtest", "--games", "4", "--skill-games", "0", "-j", "1")
    assert text.exit_code == 0 and "round-1 leader match win" in text.stdout
    compared = run("awimbawe", "compare", "--variant", "classic", "--variant", "gamepark",
                   "--games", "4", "-j", "1")
    assert compared.exit_code == 0, compared.output
    assert "McNemar" in compared.stdout and "gamepark" in compared.stdout
    bad = run("awimbawe", "compare", "--variant", "classic", "--games", "4")
    assert bad.exit_code == 2 and "exactly twice" in bad.output
    missing = run("awimbawe", "playtest", "--variant", "nowhere.toml", "--games", "2")
    assert missing.exit_code == 2 and "Traceback" not in missing.output
