"""Scoring breakdown of a position: per territory tokens, controller and points; Okapi; totals."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TerritoryScore:
    """One territory: tokens of each player on it (face-down included), who controls it
    (0, 1, None for nobody, or -1 when a tie scores for both), and the points of its face-up tokens."""

    name: str
    size: int
    tokens: tuple[int, int]
    controller: int | None
    points: int

    @property
    def full(self) -> bool:
        return sum(self.tokens) == self.size

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "size": self.size, "tokens": list(self.tokens),
                "controller": self.controller, "points": self.points}


@dataclass(frozen=True)
class Scoring:
    """Totals (first player, second player), winner (None for a draw or an unfinished tie),
    Okapi holder, and the per-territory breakdown. ``final`` is False for a provisional score."""

    totals: tuple[int, int]
    winner: int | None
    okapi: int | None
    okapi_points: int
    territories: tuple[TerritoryScore, ...]
    final: bool
    card_points: tuple[int, int] | None = None    # held points cards, in a deck game

    def to_dict(self) -> dict[str, Any]:
        result = {"scores": list(self.totals), "winner": self.winner, "okapi": self.okapi,
                  "final": self.final, "territories": [t.to_dict() for t in self.territories]}
        if self.card_points is not None:
            result["cards"] = list(self.card_points)
        return result


BOTH = -1   # controller value of a tied territory under territory_tie = "both"


def score_board(names, territory_cells, board_tokens, points, okapi: int, okapi_points: int,
                tie_rule: str, final: bool,
                card_points: tuple[int, int] | None = None) -> Scoring:
    """Score ``board_tokens`` (per cell: None or (owner, kind index, face_up)).

    The controller of a territory is the player with more tokens on it; it scores the points of
    every face-up token there, whoever owns it.
    """
    totals = [0, 0]
    rows = []
    for name, cells in zip(names, territory_cells):
        count = [0, 0]
        value = 0
        for cell in cells:
            token = board_tokens[cell]
            if token is None:
                continue
            owner, kind, face_up = token
            count[owner] += 1
            if face_up:
                value += points[kind]
        if count[0] != count[1]:
            controller = 0 if count[0] > count[1] else 1
            totals[controller] += value
        elif tie_rule == "both" and count[0]:
            controller = BOTH
            totals[0] += value
            totals[1] += value
        else:
            controller = None
        rows.append(TerritoryScore(name, len(cells), (count[0], count[1]), controller, value))
    if okapi >= 0:
        totals[okapi] += okapi_points
    if card_points is not None:
        totals[0] += card_points[0]
        totals[1] += card_points[1]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return Scoring((totals[0], totals[1]), winner, None if okapi < 0 else okapi, okapi_points,
                   tuple(rows), final, card_points)
