"""Awimbawé's own play-test metrics (the lab's registry for this game; formulas in
docs/awimbawe/lab.md, "Play-test lab"): who wins rounds and matches, how rounds end, how often
the powers are used, and whether fled eagles decide rounds.

The :class:`RoundTracker` reads each finished round's history (its moves in record notation)
and puts plain per-round facts into the game's statistics (``round_facts``); the metrics read
them. Rates over rounds treat a match's rounds as independent trials (they are nearly so: each
round is dealt afresh; only the choice of leader after round 1 links them).
"""
from __future__ import annotations

import math

from typing import Any, Mapping, Sequence

from ...core.game import Metric
from ...core.stats import Proportion, Summary, proportion, summarise
from .cards import CHEETAH, KIND, RHINOCEROS, SNAKE
from .moves import (CHEETAH_CHOICE, EAGLE_FIGHT, EAGLE_FLEE, RHINO_SLIDE, SNAKE_HAND, SNAKE_PILE,
                    START, parse_move)

POWERS = {RHINOCEROS: ("rhinoceros", (RHINO_SLIDE,)), CHEETAH: ("cheetah", (CHEETAH_CHOICE,)),
          SNAKE: ("snake", (SNAKE_PILE, SNAKE_HAND))}


def round_facts(result: Any, card_crowns: Sequence[int]) -> dict[str, Any]:
    """Plain facts of one finished round (a :class:`~.state.RoundResult`)."""
    played = {name: 0 for name, _ in POWERS.values()}
    used = dict(played)
    eagle_choices = flees = 0
    fled_tricks = []              # (leader, follower, led card) of each trick an eagle fled
    lead = leader = None
    for event in result.events:
        if event[0] != "m":
            continue
        move = parse_move(event[2])
        if move.kind == START or move.card < 0:
            continue
        kind = KIND[move.card]
        if kind in POWERS:
            name, uses = POWERS[kind]
            played[name] += 1
            used[name] += move.kind in uses
        if move.kind in (EAGLE_FLEE, EAGLE_FIGHT):
            eagle_choices += 1
            flees += move.kind == EAGLE_FLEE
        if lead is None:
            lead, leader = move.card, event[1]
            continue
        if move.kind == EAGLE_FLEE:
            fled_tricks.append((leader, event[1], lead))
        lead = None
    changed = None
    if fled_tricks and not result.by_hyenas:
        # the same round with every fled eagle fighting instead: the led card to the follower
        crowns = list(result.crowns)
        for leader, follower, card in fled_tricks:
            crowns[leader] -= card_crowns[card]
            crowns[follower] += card_crowns[card]
        other = 0 if crowns[0] > crowns[1] else 1 if crowns[1] > crowns[0] else result.winner
        changed = other != result.winner
    return {"leader": result.leader, "winner": result.winner, "by_hyenas": result.by_hyenas,
            "tricks": result.tricks, "crowns": list(result.crowns),
            "played": played, "used": used, "eagle_choices": eagle_choices, "flees": flees,
            "flee_changed_winner": changed}


class RoundTracker:
    """Keeps the latest state; its statistics are the facts of every round played."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def update(self, state: Any) -> None:
        self.state = state

    def stats(self) -> Mapping[str, Any]:
        crowns = self.state.variant.card_crowns
        return {"round_facts": [round_facts(r, crowns) for r in self.state.rounds]}


# -- the metrics ------------------------------------------------------------------------------------
def _rounds(games: Sequence) -> list[dict]:
    return [r for g in games for r in g.stats.get("round_facts", ())]


def round1_leader_match_win(games: Sequence, setup: Any = None) -> Proportion:
    """Matches won by the player who led round 1, over matches with a winner."""
    decided = [g for g in games if g.winner is not None and g.stats.get("round_facts")]
    return proportion(sum(g.winner == g.stats["round_facts"][0]["leader"] for g in decided),
                      len(decided))


def round1_leader_round_win(games: Sequence, setup: Any = None) -> Proportion:
    """Rounds 1 won by their leader."""
    firsts = [g.stats["round_facts"][0] for g in games if g.stats.get("round_facts")]
    return proportion(sum(r["winner"] == r["leader"] for r in firsts), len(firsts))


def leader_round_win(games: Sequence, setup: Any = None) -> Proportion:
    """Rounds (all of them) won by the player who led their first trick."""
    rounds = _rounds(games)
    return proportion(sum(r["winner"] == r["leader"] for r in rounds), len(rounds))


def first_seat_round_win(games: Sequence, setup: Any = None) -> Proportion:
    """Rounds won by seat 0 (the first-seated player)."""
    rounds = _rounds(games)
    return proportion(sum(r["winner"] == 0 for r in rounds), len(rounds))


def hyena_rounds(games: Sequence, setup: Any = None) -> Proportion:
    """Rounds ended by a player's last hyena."""
    rounds = _rounds(games)
    return proportion(sum(bool(r["by_hyenas"]) for r in rounds), len(rounds))


def tricks_per_round(games: Sequence, setup: Any = None) -> Summary:
    return summarise([r["tricks"] for r in _rounds(games)], (0.0, math.inf))   # a count


def crowns_margin(games: Sequence, setup: Any = None) -> Summary:
    """Winner's crowns minus loser's, in rounds decided on crowns."""
    return summarise([r["crowns"][r["winner"]] - r["crowns"][1 - r["winner"]]
                      for r in _rounds(games) if not r["by_hyenas"]])


def power_use(name: str):
    """The rate of the ``name`` cards played with their power used, over those played."""
    def rate(games: Sequence, setup: Any = None) -> Proportion:
        rounds = _rounds(games)
        return proportion(sum(r["used"][name] for r in rounds),
                          sum(r["played"][name] for r in rounds))
    return rate


def eagle_flee_rate(games: Sequence, setup: Any = None) -> Proportion:
    """Eagles played by the follower on a land card that fled (over those that had the choice)."""
    rounds = _rounds(games)
    return proportion(sum(r["flees"] for r in rounds), sum(r["eagle_choices"] for r in rounds))


def flee_changes_winner(games: Sequence, setup: Any = None) -> Proportion:
    """Rounds decided on crowns with a fled eagle whose winner would differ had every fled
    eagle fought (the led card going to the follower instead)."""
    marked = [r["flee_changed_winner"] for r in _rounds(games)
              if r["flee_changed_winner"] is not None]
    return proportion(sum(marked), len(marked))


def _value(x):
    return x.value if isinstance(x, Proportion) else x.mean


def _balance(rate: Proportion) -> float | None:
    """1 − 2·|p − 0.5|: 1 when the round-1 leader wins half the matches, 0 when always or never
    (the distance from 0.5 on the lab's balance scale, so higher is fairer)."""
    return None if not rate.trials else 1 - 2 * abs(rate.value - 0.5)


def _metric(name: str, compute, label: str, **more_ranks) -> Metric:
    return Metric(name, compute, label=label, rank={name: _value, **more_ranks})


METRICS = (
    _metric("round1_leader_match_win_rate", round1_leader_match_win, "round-1 leader match win",
            round1_leader_balance=_balance),
    _metric("round1_leader_round_win_rate", round1_leader_round_win, "round-1 leader round win"),
    _metric("leader_round_win_rate", leader_round_win, "round leader round win"),
    _metric("first_seat_round_win_rate", first_seat_round_win, "first seat round win"),
    _metric("hyena_round_rate", hyena_rounds, "rounds ended by hyenas"),
    _metric("tricks_per_round", tricks_per_round, "tricks per round"),
    _metric("crowns_margin", crowns_margin, "crowns margin (crown rounds)"),
    _metric("rhinoceros_power_rate", power_use("rhinoceros"), "rhinoceros power used"),
    _metric("cheetah_power_rate", power_use("cheetah"), "cheetah power used"),
    _metric("snake_power_rate", power_use("snake"), "snake power used"),
    _metric("eagle_flee_rate", eagle_flee_rate, "eagle flees (of choices)"),
    _metric("flee_changes_winner_rate", flee_changes_winner, "fled eagle changes winner"),
)
