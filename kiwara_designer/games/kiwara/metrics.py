"""Kiwara's own play-test metrics (the lab's registry for this game, see :class:`Metric`): the
Okapi rows and the territory control table, from the statistics :class:`~.game.KiwaraGame` puts in
each game's outcome (``okapi``, ``control``, ``control_changes``). Formulas: docs/lab/metrics.md."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ...core.game import Metric
from ...core.stats import Proportion, proportion

FIRST, SECOND = 0, 1


def okapi_taker_win_rate(games: Sequence, setup: Any = None) -> Proportion:
    """Among games with an Okapi: how often the Okapi's taker won (a draw is half a win, as in
    every rate of the lab)."""
    taken = [g for g in games if g.stats.get("okapi") is not None]
    wins = sum(g.winner == g.stats["okapi"] for g in taken)
    return proportion(wins + sum(g.winner is None for g in taken) / 2, len(taken))


def okapi_first_player_rate(games: Sequence, setup: Any = None) -> Proportion:
    """Share of the Okapis taken by the first player."""
    taken = [g.stats["okapi"] for g in games if g.stats.get("okapi") is not None]
    return proportion(taken.count(FIRST), len(taken))


@dataclass(frozen=True)
class TerritoryStats:
    name: str
    size: int
    first: float          # share of games the first player controlled it at the end
    second: float
    nobody: float
    contested: float      # share of games in which its majority changed hands at least once

    def to_json(self) -> dict:
        return {"name": self.name, "size": self.size, "first": self.first, "second": self.second,
                "nobody": self.nobody, "contested": self.contested}


@dataclass(frozen=True)
class TerritoryTable:
    """Who held each territory at the end, and how often its majority changed hands."""

    rows: tuple[TerritoryStats, ...]

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    @property
    def contestedness(self) -> float | None:
        """Mean share of games in which a territory changed hands (``rank --by contestedness``)."""
        return sum(t.contested for t in self.rows) / len(self.rows) if self.rows else None

    def to_json(self) -> list:
        return [t.to_json() for t in self.rows]

    def text_lines(self, label_width: int) -> list[str]:
        lines = [f"  {'territory control':<{label_width}}size  1st    2nd    none   contested"]
        lines += [f"  {'  ' + t.name:<{label_width}}{t.size:>4}  {t.first:.3f}  {t.second:.3f}  "
                  f"{t.nobody:.3f}  {t.contested:.3f}" for t in self.rows]
        return lines


def territory_control(games: Sequence, setup: Any = None) -> TerritoryTable:
    """Per territory of ``setup`` (a layout; None: named A, B, … with size 0): the shares of
    games each seat, or nobody, controlled it at the end, and the share it was contested in."""
    n = len(games)
    names = list(setup.names) if setup is not None else []
    count = len(games[0].stats.get("control", ())) if games else len(names)
    names = names or [chr(ord("A") + i) for i in range(count)]
    sizes = list(setup.sizes) if setup is not None else [0] * count
    rows = []
    for t in range(count):
        held = [g.stats["control"][t] for g in games]
        rows.append(TerritoryStats(
            names[t], sizes[t],
            first=held.count(FIRST) / n if n else 0.0,
            second=held.count(SECOND) / n if n else 0.0,
            nobody=held.count(None) / n if n else 0.0,
            contested=sum(g.stats["control_changes"][t] > 0 for g in games) / n if n else 0.0))
    return TerritoryTable(tuple(rows))


METRICS = (
    Metric("okapi_taker_win_rate", okapi_taker_win_rate, label="Okapi taker win rate",
           rank={"okapi_taker_win_rate": lambda p: p.value}),
    Metric("okapi_first_player_rate", okapi_first_player_rate, label="Okapi taken by 1st player"),
    Metric("territories", territory_control, table=True,
           rank={"contestedness": lambda table: table.contestedness}),
)
