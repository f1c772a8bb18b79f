"""Is a setup fair for players of a given skill? One verdict, for any game of the protocol.

Self-play games of a pairing are played in seat-swapped pairs (games 2j and 2j + 1 share a seed,
the agents' seats swapped) until the first player's win rate (a draw counts half) is known to
± ``precision``, or decided sooner. The interval is the betting confidence sequence of the race
(:class:`~kiwara_designer.lab.racing.BettingSequence`, a pair's mean its unit): it holds at every
look at once, so looking after every round and stopping early costs nothing in validity.

The verdict, at the first look where one applies:

* **favours** a player: the interval lies wholly on one side of ½ (stops as soon as it does);
* **fair** at ± ``precision``: the interval holds ½ and is at most ± ``precision`` wide (no
  advantage detected at that precision: the advantage lies within the interval, not nowhere);
* **cannot tell**: the game budget ran out first.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Iterable, Sequence

from ..core.errors import KiwaraError
from .matches import FIRST, GameResult, Pairing, play_games, resolve_game
from .metrics import Metrics, compute_metrics
from .racing import BettingSequence

CONFIDENCE = 0.95
FIRST_ROUND = 200               # games before the first look
MAX_GAMES = 100_000             # the budget when none is given
GROWTH = 1.1                    # a round plays the games predicted to be needed, and 10 % more
FAIR, FAVOURS_FIRST, FAVOURS_SECOND, UNDECIDED = ("fair", "favours first", "favours second",
                                                  "cannot tell")


class FairnessError(KiwaraError):
    """A fairness question that cannot be asked as put (a precision out of range)."""


@dataclass(frozen=True)
class Fairness:
    """The answer: the first player's win rate in ``games`` games of ``pairing``, its interval
    [``low``, ``high``] (a confidence sequence at ``confidence``, 95 % by default), the precision asked for and the
    verdict's ``outcome`` (:data:`FAIR`, :data:`FAVOURS_FIRST`, :data:`FAVOURS_SECOND` or
    :data:`UNDECIDED`), the wall time it took, and the other metrics of its games."""

    pairing: str
    games: int
    first_wins: float
    low: float
    high: float
    precision: float
    outcome: str
    seconds: float
    metrics: Metrics | None = None        # the other metrics of the same games
    confidence: float = CONFIDENCE        # the level of the sequence (a comparison's sides: more)

    @property
    def rate(self) -> float:
        return self.first_wins / self.games

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    @property
    def players(self) -> str:
        """Who played, in the verdict's words: ``mcts:200`` for self-play, else ``A and B``."""
        a, b = self.pairing.split(",")
        return a if a == b else f"{a} and {b}"

    def verdict(self) -> str:
        """The verdict in words, first: what a designer reads."""
        rate = f"{100 * self.rate:.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"
        if self.outcome == FAIR:
            return (f"fair for {self.players} players at ±{_points(self.precision)}: the first "
                    f"player wins {rate}; no advantage detected at this precision")
        if self.outcome == FAVOURS_FIRST:
            return (f"favours the first player for {self.players} players by "
                    f"{_edge(self.rate, self.low, self.high)}: the first player wins {rate}")
        if self.outcome == FAVOURS_SECOND:
            return (f"favours the second player for {self.players} players by "
                    f"{_edge(1 - self.rate, 1 - self.high, 1 - self.low)}: the first player "
                    f"wins {rate}")
        return (f"cannot tell for {self.players} players within {self.games:,} games: the first "
                f"player wins {rate}, an edge of {_edge(self.rate, self.low, self.high)} (not "
                f"known to ±{_points(self.precision)})")

    def games_for(self, precision: float) -> int:
        """About how many games in all would know the rate to ± ``precision`` (an interval's
        width shrinks about as 1/√n)."""
        return max(self.games, math.ceil(self.games * (self.half_width / precision) ** 2))

    def to_json(self) -> dict:
        """The answer as JSON: the same bytes for the same seed (the time it took is left out)."""
        return {"verdict": self.verdict(), "outcome": self.outcome, "pairing": self.pairing,
                "rate": self.rate, "low": self.low, "high": self.high, "games": self.games,
                "precision": self.precision, "confidence": self.confidence,
                "metrics": self.metrics.to_json() if self.metrics else None}


def _edge(rate: float, low: float, high: float) -> str:
    """A player's edge over an even game, with its interval: ``3.2 points [1.4, 5.0]``."""
    return f"{_points(rate - 0.5)} [{100 * (low - 0.5):.1f}, {100 * (high - 0.5):.1f}]"


def _points(share: float) -> str:
    """A difference of win rates in percentage points (0.032: ``3.2 points``)."""
    value = round(100 * share, 1) + 0.0       # no "-0.0"
    return f"{value:.1f} points" if abs(value) != 1 else f"{value:.1f} point"


def judge_fairness(setup: Any = None, variant: Any = None, pairing: Pairing | str | None = None,
                   precision: float = 0.02, seed: int = 0, workers: int | None = None,
                   game: Any = None, max_games: int = MAX_GAMES,
                   progress: Callable[[int, int], None] | None = None,
                   clock: Callable[[], float] = time.perf_counter) -> Fairness:
    """Play ``pairing`` (default: the game's own) in seat-swapped pairs from ``setup`` under
    ``variant`` until the verdict is known (see the module's docstring), at most ``max_games``
    games. Game i is the lab's game i of (``seed``, i): the same seed, the same games and
    verdict. ``progress(done, planned)`` as the games are played. Each look is
    :func:`fairness_of_games` over the games so far."""
    game, pairing = _sequential_setting(precision, max_games, pairing, game)
    started = clock()
    results: list[GameResult] = []
    looks: list[int] = []
    budget = _even(max_games, down=True)
    want = min(_even(FIRST_ROUND), budget)
    while True:
        done = len(results)
        report = progress and (lambda n, _total, done=done, want=want: progress(done + n, want))
        new = play_games(setup, variant, pairing, want - done, seed, workers, game,
                         first_index=done, progress=report)
        new.sort(key=lambda result: result.index)
        results += new
        looks.append(len(results))
        found = fairness_of_games(results, pairing, precision, looks)
        if found.outcome != UNDECIDED or len(results) >= budget:
            seconds = clock() - started
            return replace(found, seconds=seconds,
                           metrics=compute_metrics(results, setup, (), game))
        want = _next_round(len(results), found.half_width, precision, budget)


def fairness_of_games(results: Iterable[GameResult], pairing: Pairing | str,
                      precision: float = 0.02, looks: Sequence[int] = (),
                      confidence: float = CONFIDENCE) -> Fairness:
    """The verdict on games already played in seat-swapped pairs (games 2j and 2j + 1 of a
    seed, as :func:`~kiwara_designer.lab.matches.play_games` plays them): the first player's
    rate over the pairs, its betting confidence sequence over the pairs' means and the outcome
    at ``precision``; :data:`UNDECIDED` ("cannot tell") when the games neither reach the
    precision nor show a clear advantage. A game whose partner is missing (the last of an odd
    count) is left out: ``games`` counts the paired games only. ``looks``: the game counts
    after which the interval was looked at before (a sequential test's rounds: the running
    intersection of the looks' intervals is kept, as the sequence allows); the last look is
    after all the games. ``confidence``: the sequence's level (α split between its two bounds).
    Pure: no game is played, no clock read (``seconds`` is 0, ``metrics`` None)."""
    _check_precision(precision)
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    share = {result.index: _first_share(result) for result in results}
    pairs = [(2 * j, (share[2 * j] + share[2 * j + 1]) / 2)
             for j in sorted({index // 2 for index in share}) if {2 * j, 2 * j + 1} <= share.keys()]
    if not pairs:
        raise FairnessError("at least one pair of games (the same seed, seats swapped) is "
                            "needed for a verdict")
    if not 0 < confidence < 1:
        raise FairnessError(f"the confidence must be between 0 and 1, got {confidence:g}")
    alpha = (1 - confidence) / 2
    sequence, low, high = BettingSequence(), 0.0, 1.0
    firsts, at = 0.0, 0
    for look in [*sorted(looks), math.inf]:
        before = at
        while at < len(pairs) and pairs[at][0] + 2 <= look:
            index, mean = pairs[at]
            firsts += share[index] + share[index + 1]
            sequence.add(mean)
            at += 1
        if at > before:                           # a look with new pairs narrows the interval
            low = max(low, sequence.bound(alpha, +1, low or None))
            high = min(high, sequence.bound(alpha, -1, high if high < 1 else None))
        if at == len(pairs):
            break
    outcome = _outcome(low, high, precision) or UNDECIDED
    return Fairness(pairing.name, 2 * len(pairs), firsts, low, high, precision, outcome, 0.0,
                    confidence=confidence)


FIRST_FAIRER, SECOND_FAIRER, NOT_APART = "first fairer", "second fairer", "cannot tell apart"


@dataclass(frozen=True)
class FairnessComparison:
    """Which of two setups is fairer: each side's :class:`Fairness` (its sequence at a level
    such that both hold together at 95 %: Bonferroni), their ``names`` and the ``outcome``
    (:data:`FIRST_FAIRER`, :data:`SECOND_FAIRER` or :data:`NOT_APART`). Fairer: the smaller
    imbalance, the first player's rate's distance from ½. ``answered``: False when the game
    budget ran out before an answer (one fairer, or both known to ± the precision)."""

    sides: tuple[Fairness, Fairness]
    names: tuple[str, str]
    outcome: str
    answered: bool

    @property
    def confidence(self) -> float:
        return 1 - sum(1 - side.confidence for side in self.sides)

    def verdict(self) -> str:
        """The comparison in words, first."""
        a, b = self.sides
        players = a.players
        if self.outcome in (FIRST_FAIRER, SECOND_FAIRER):
            win, lose = (0, 1) if self.outcome == FIRST_FAIRER else (1, 0)
            return (f"{self.names[win]} is fairer than {self.names[lose]} for {players} "
                    f"players: imbalance {_imbalance_text(self.sides[win])} against "
                    f"{_imbalance_text(self.sides[lose])}")
        both = f"imbalance {_imbalance_text(a)} and {_imbalance_text(b)}"
        if self.answered:
            return (f"{self.names[0]} and {self.names[1]} cannot be told apart at "
                    f"±{_points(a.precision)} for {players} players: {both}")
        return (f"{self.names[0]} and {self.names[1]} cannot be told apart within "
                f"{a.games:,} games each for {players} players: {both} (not known to "
                f"±{_points(a.precision)})")

    def to_json(self) -> dict:
        return {"verdict": self.verdict(), "outcome": self.outcome, "answered": self.answered,
                "confidence": self.confidence,
                "sides": [{"name": name, **side.to_json()}
                          for name, side in zip(self.names, self.sides)]}


def imbalance(found: Fairness) -> tuple[float, float, float]:
    """The first player's rate's distance from ½, and its interval from the rate's: 0 at the
    low end when the rate's interval holds ½."""
    ends = (abs(found.low - 0.5), abs(found.high - 0.5))
    low = 0.0 if found.low <= 0.5 <= found.high else min(ends)
    return abs(found.rate - 0.5), low, max(ends)


def _imbalance_text(found: Fairness) -> str:
    value, low, high = imbalance(found)
    return f"{_points(value)} [{100 * low:.1f}, {100 * high:.1f}]"


def compare_fairness(setups: Sequence[tuple[Any, Any]], names: Sequence[str],
                     pairing: Pairing | str | None = None, precision: float = 0.02,
                     seed: int = 0, workers: int | None = None, game: Any = None,
                     max_games: int = MAX_GAMES,
                     progress: Callable[[int, int], None] | None = None,
                     clock: Callable[[], float] = time.perf_counter) -> FairnessComparison:
    """Which of two (setup, variant) ``setups`` is fairer for ``pairing``? Both are played in
    the same rounds, paired: game i of both is the lab's game i of (``seed``, i), the same seats.
    Each side's sequence is at 97.5 % (both hold together at 95 %); the first look where one
    side's imbalance interval lies wholly below the other's names it fairer; both known to
    ± ``precision`` without that: they cannot be told apart; at most ``max_games`` a side."""
    if len(setups) != 2 or len(names) != 2:
        raise FairnessError("a comparison is of two setups")
    game, pairing = _sequential_setting(precision, max_games, pairing, game)
    confidence = 1 - (1 - CONFIDENCE) / 2
    results: list[list[GameResult]] = [[], []]
    seconds = [0.0, 0.0]
    looks: list[int] = []
    budget = _even(max_games, down=True)
    want = min(_even(FIRST_ROUND), budget)
    while True:
        done = len(results[0])
        for side, (setup, variant) in enumerate(setups):
            offset = 2 * done + side * (want - done)
            report = progress and (lambda n, _total, offset=offset, want=want:
                                   progress(offset + n, 2 * want))
            started = clock()
            new = play_games(setup, variant, pairing, want - done, seed, workers, game,
                             first_index=done, progress=report)
            seconds[side] += clock() - started
            results[side] += sorted(new, key=lambda result: result.index)
        looks.append(want)
        found = [fairness_of_games(side, pairing, precision, looks, confidence)
                 for side in results]
        (_, a_low, a_high), (_, b_low, b_high) = map(imbalance, found)
        outcome = FIRST_FAIRER if a_high < b_low else SECOND_FAIRER if b_high < a_low else None
        precise = all(side.half_width <= precision for side in found)
        if outcome or precise or want >= budget:
            sides = tuple(replace(side, seconds=took,
                                  metrics=compute_metrics(games, setup, (), game))
                          for side, games, took, (setup, _) in zip(found, results, seconds,
                                                                   setups))
            return FairnessComparison(sides, (names[0], names[1]), outcome or NOT_APART,
                                      bool(outcome) or precise)
        want = _next_round(want, max(side.half_width for side in found), precision, budget)


def _sequential_setting(precision: float, max_games: int, pairing: Pairing | str | None,
                        game: Any) -> tuple[Any, Pairing]:
    """The game and pairing (default: the game's own) of a sequential test, its precision and
    budget checked."""
    _check_precision(precision)
    if max_games < 2:
        raise FairnessError(f"at least one pair of games is needed, got a budget of {max_games}")
    game = resolve_game(game)
    if not isinstance(pairing, Pairing):
        pairing = Pairing.parse(pairing or game.default_agents)
    return game, pairing


def _next_round(played: int, half_width: float, precision: float, budget: int) -> int:
    """The games to have played after the next round: what an interval shrinking as 1/√n
    predicts for ± ``precision`` (and 10 % more), at least a quarter more, at most the budget."""
    needed = played * (half_width / precision) ** 2 * GROWTH
    return min(_even(max(needed, played * 1.25)), budget)


def _check_precision(precision: float) -> None:
    if not 0 < precision < 0.5:
        raise FairnessError(f"the precision must be between 0 and 0.5, got {precision:g}")


def _outcome(low: float, high: float, precision: float) -> str | None:
    if low > 0.5:
        return FAVOURS_FIRST
    if high < 0.5:
        return FAVOURS_SECOND
    if (high - low) / 2 <= precision:
        return FAIR
    return None


def _first_share(result: GameResult) -> float:
    """The first player's share of a game: 1 a win, ½ a draw, 0 a loss."""
    return 1.0 if result.winner == FIRST else 0.5 if result.winner is None else 0.0


def _even(games: float, down: bool = False) -> int:
    """``games`` as whole pairs (rounded up, or down)."""
    whole = math.floor(games) if down else math.ceil(games)
    return 2 * (whole // 2 if down else -(-whole // 2))
