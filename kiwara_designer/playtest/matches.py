"""Seeded self-play matches: one game, a batch of games, a whole match over worker processes.

Every game is a pure function of (layout, variant, agent pairing, master seed, game index): its
seed is derived from the master seed and the index alone (so ``kiwara compare`` plays two variants
on the same seeds), and the seats alternate with the index (agent A opens even games, agent B odd
ones). Results are therefore identical whatever the number of workers, and any single game can be
replayed to write its record.
"""
from __future__ import annotations

import hashlib
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Sequence

from ..errors import KiwaraError
from ..layout import Layout
from ..workers import default_workers, parallel_map

FIRST, SECOND = 0, 1
# The default pairing and skill pairing: see README "Play-test lab", "Which agents".
DEFAULT_AGENTS = "greedy,greedy"
DEFAULT_SKILL = "greedy,random"


class PlaytestError(KiwaraError):
    """A play-test request that cannot be honoured (bad pairing, no games, …)."""


# -- the engine and agents a match is played with ------------------------------------------------
@dataclass(frozen=True)
class GameKit:
    """The engine and agent entry points the lab calls, gathered so a test can substitute a toy
    game. Production code uses :func:`kiwara_kit`; every callable must be a module-level function
    so the kit can travel to worker processes."""

    new_game: Callable[[Layout, Any], Any]
    make_agent: Callable[[str], Any]
    evaluate: Callable[[Any, int], float] | None
    default_variant: Callable[[], Any]
    make_record: Callable[..., Any] | None = None


def kiwara_kit() -> GameKit:
    """The real engine and agents."""
    from ..agents import evaluate, make_agent
    from ..engine import GameRecord, RuleVariant, new_game
    return GameKit(new_game=new_game, make_agent=make_agent, evaluate=evaluate,
                   default_variant=RuleVariant, make_record=GameRecord.from_moves)


# -- pairings and seeds ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Pairing:
    """Agent A against agent B (specs as accepted by ``make_agent``)."""

    a: str
    b: str

    @classmethod
    def parse(cls, text: str) -> "Pairing":
        """``"mcts:200,greedy"``; a single spec plays itself."""
        parts = [p.strip() for p in text.split(",")]
        if len(parts) == 1 and parts[0]:
            return cls(parts[0], parts[0])
        if len(parts) != 2 or not all(parts):
            raise PlaytestError(f"--agents wants one or two agent specs separated by a comma, "
                                f"got {text!r}")
        return cls(parts[0], parts[1])

    @property
    def name(self) -> str:
        return f"{self.a},{self.b}"

    def __str__(self) -> str:
        return self.name


def game_seed(master_seed: int, index: int) -> int:
    """A 63-bit seed for game ``index``: a hash, so neighbouring indices and master seeds give
    unrelated games, and the same on every platform and Python version."""
    digest = hashlib.sha256(f"kiwara-playtest:{master_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def agent_a_seat(index: int) -> int:
    """Seats alternate: agent A is the first player (totem opener) in even games."""
    return FIRST if index % 2 == 0 else SECOND


# -- one game ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameResult:
    """What the metrics need from one finished game. Seats: 0 = first player, 1 = second."""

    index: int
    seed: int
    a_seat: int                            # seat agent A played
    winner: int | None                     # seat, None for a draw
    scores: tuple[float, float]            # final totals (first, second)
    plies: int                             # moves played, opening included
    decisions: int                         # turns with more than one legal move
    branching: float                       # mean number of legal moves at the turns played
    lead_changes: int                      # switches of the evaluated leader
    decisiveness: float | None             # share of the game the final winner led to the end
    okapi: int | None                      # seat that took the Okapi
    control: tuple[int | None, ...]        # final controller of each territory
    control_changes: tuple[int, ...]       # times each territory's control changed hands
    moves: tuple[str, ...] | None = field(default=None, compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def margin(self) -> float:
        return self.scores[0] - self.scores[1]

    @property
    def winner_agent(self) -> str | None:
        """``"a"``, ``"b"`` or None (draw)."""
        if self.winner is None:
            return None
        return "a" if self.winner == self.a_seat else "b"


def _sign(x: float) -> int:
    return (x > 0) - (x < 0)


def lead_statistics(leads: Sequence[float], winner: int | None) -> tuple[int, float | None]:
    """Lead changes and decisiveness from the evaluated lead of the first player after each move.

    * lead changes: how often the side ahead switched (moves with nobody ahead are skipped);
    * decisiveness: 1 − k / L, where L = number of moves and k the move after which the final
      winner was ahead at every later evaluation (k = L when only the last move decided it).
      None for a draw.
    """
    changes, last = 0, 0
    for value in leads:
        s = _sign(value)
        if s and last and s != last:
            changes += 1
        if s:
            last = s
    if winner is None or not leads:
        return changes, None
    wanted = 1 if winner == FIRST else -1
    k = len(leads)
    while k > 0 and _sign(leads[k - 1]) == wanted:
        k -= 1
    # leads[k:] all favour the winner; it went ahead for good after move k + 1
    took_lead_for_good = min(k + 1, len(leads))
    return changes, 1 - took_lead_for_good / len(leads)


def territory_holders(scoring: Any) -> tuple[int | None, ...]:
    """Seat controlling each territory now (None on a tie or an empty territory): the engine's
    ``controller``, else the majority of its token counts (face-down tokens included)."""
    holders = []
    for t in scoring.territories:
        first, second = t.tokens
        holder = getattr(t, "controller", FIRST if first > second else SECOND if second > first
                         else None)
        holders.append(holder if holder in (FIRST, SECOND) else None)   # engine: -1 = shared tie
    return tuple(holders)


def play_game(layout: Layout, variant: Any, pairing: Pairing, master_seed: int, index: int,
              kit: GameKit | None = None, keep_moves: bool = False) -> GameResult:
    """Play game ``index`` of a match; the same arguments always give the same game."""
    kit = kit or kiwara_kit()
    started = time.perf_counter()
    seed = game_seed(master_seed, index)
    a_seat = agent_a_seat(index)
    specs = (pairing.a, pairing.b) if a_seat == FIRST else (pairing.b, pairing.a)
    agents = tuple(kit.make_agent(spec) for spec in specs)
    # one generator per seat, so one agent's appetite for random numbers never changes the other's
    rngs = tuple(random.Random(f"{seed}:{seat}") for seat in (FIRST, SECOND))
    state = kit.new_game(layout, variant)
    leads: list[float] = []
    moves: list[str] = []
    legal_total = decisions = turns = 0
    last_holders: list[int | None] | None = None
    changes: list[int] = []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_moves()
        turns += 1
        legal_total += len(legal)
        decisions += len(legal) > 1
        move = legal[0] if len(legal) == 1 else agents[player].choose(state, rngs[player])
        if keep_moves:
            moves.append(str(move))
        state = state.apply(move)
        scoring = state.scoring()
        holders = territory_holders(scoring)
        if last_holders is None:
            last_holders, changes = [None] * len(holders), [0] * len(holders)
        # a majority usually changes hands through a tie, so compare with the last real holder
        for t, now in enumerate(holders):
            if now is not None:
                changes[t] += last_holders[t] is not None and last_holders[t] != now
                last_holders[t] = now
        if state.is_terminal():
            leads.append(scoring.totals[0] - scoring.totals[1])
        elif kit.evaluate is not None:
            leads.append(kit.evaluate(state, FIRST))
        else:
            leads.append(scoring.totals[0] - scoring.totals[1])
    final = state.scoring()
    returns = state.returns()
    winner = FIRST if returns[0] > returns[1] else SECOND if returns[1] > returns[0] else None
    lead_changes, decisiveness = lead_statistics(leads, winner)
    return GameResult(
        index=index, seed=seed, a_seat=a_seat, winner=winner,
        scores=(float(final.totals[0]), float(final.totals[1])), plies=state.ply,
        decisions=decisions, branching=legal_total / turns if turns else 0.0,
        lead_changes=lead_changes, decisiveness=decisiveness, okapi=final.okapi,
        control=territory_holders(final), control_changes=tuple(changes),
        moves=tuple(moves) if keep_moves else None, seconds=time.perf_counter() - started)


# -- batches and parallel matches -------------------------------------------------------------------
@dataclass(frozen=True)
class Batch:
    """Games ``indices`` of one (layout, variant, pairing, master seed): the unit of work sent to
    a worker process or a Dask worker. ``key`` is returned untouched, for the caller's bookkeeping."""

    layout: Layout
    variant: Any
    pairing: Pairing
    master_seed: int
    indices: tuple[int, ...]
    kit: GameKit | None = None
    keep_moves: bool = False
    key: Any = None


def play_batch(batch: Batch) -> tuple[Any, list[GameResult]]:
    kit = batch.kit or kiwara_kit()
    return batch.key, [play_game(batch.layout, batch.variant, batch.pairing, batch.master_seed, i,
                                 kit, batch.keep_moves) for i in batch.indices]


def split_indices(indices: Sequence[int], size: int) -> list[tuple[int, ...]]:
    return [tuple(indices[i:i + size]) for i in range(0, len(indices), size)]


def run_batches(batches: Iterable[Batch], workers: int | None = None
                ) -> Iterator[tuple[Any, list[GameResult]]]:
    """Play batches on ``workers`` processes (in this process if 1), yielding each batch's results
    as soon as it is done (completion order; callers sort by game index). At most two batches per
    worker are in flight, so a huge sweep is never queued whole in memory."""
    return parallel_map(play_batch, batches, workers, ordered=False)


def batch_size(games: int, workers: int) -> int:
    """Small enough to spread the games over the workers, big enough to amortise the hand-off."""
    return max(1, min(16, games // (4 * max(1, workers)) or 1))


def play_match(layout: Layout, variant: Any = None, pairing: Pairing | str = "random",
               games: int = 100, seed: int = 0, workers: int | None = None,
               kit: GameKit | None = None, keep_moves: bool = False,
               first_index: int = 0,
               progress: Callable[[int, int], None] | None = None) -> list[GameResult]:
    """Play games ``first_index … first_index + games − 1``; results sorted by index.
    ``progress(done, games)`` is called as batches finish."""
    if games < 1:
        raise PlaytestError(f"the number of games must be at least 1, got {games}")
    kit = kit or kiwara_kit()
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    for spec in {pairing.a, pairing.b}:
        kit.make_agent(spec)            # fail early, in this process, on a bad spec
    variant = kit.default_variant() if variant is None else variant
    workers = workers or default_workers()
    indices = list(range(first_index, first_index + games))
    batches = [Batch(layout, variant, pairing, seed, chunk, kit, keep_moves)
               for chunk in split_indices(indices, batch_size(games, workers))]
    results: list[GameResult] = []
    for _, done in run_batches(batches, min(workers, len(batches))):
        results += done
        if progress:
            progress(len(results), games)
    return sorted(results, key=lambda r: r.index)


def replay_game(layout: Layout, variant: Any, pairing: Pairing | str, seed: int, index: int,
                kit: GameKit | None = None) -> tuple[GameResult, Any]:
    """Replay one game of a match with its moves, and its engine ``GameRecord`` (None if the
    kit has no record type)."""
    kit = kit or kiwara_kit()
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    variant = kit.default_variant() if variant is None else variant
    result = play_game(layout, variant, pairing, seed, index, kit, keep_moves=True)
    record = None
    if kit.make_record is not None:
        record = make_game_record(kit, layout, variant, pairing, seed, result)
    return result, record


def make_game_record(kit: GameKit, layout: Layout, variant: Any, pairing: Pairing, seed: int,
                     result: GameResult) -> Any:
    """Build the engine's record of a replayed game; adapted to the engine's GameRecord."""
    players = (pairing.a, pairing.b) if result.a_seat == FIRST else (pairing.b, pairing.a)
    return kit.make_record(layout, variant, list(result.moves or ()), players=list(players),
                           seed=result.seed, master_seed=seed, game_index=result.index)


def play_to_precision(layout: Layout, variant: Any = None, pairing: Pairing | str = DEFAULT_AGENTS,
                      half_width: float = 0.03, seed: int = 0, workers: int | None = None,
                      kit: GameKit | None = None, first_round: int = 200,
                      max_games: int = 20_000) -> list[GameResult]:
    """Play until the 95 % Wilson interval of the first-player win rate is at most ±half_width.

    After each round the games still needed are estimated from the current rate (normal
    approximation, plus 2 % for the Wilson interval being slightly wider) and played in one go,
    so the match rarely overshoots. Games are the same seeded sequence as one long match."""
    from .stats import games_for_half_width, proportion
    if not 0 < half_width < 0.5:
        raise PlaytestError(f"the precision must be between 0 and 0.5, got {half_width}")
    games: list[GameResult] = []
    want = min(first_round, max_games)
    while True:
        games += play_match(layout, variant, pairing, want - len(games), seed, workers, kit,
                            first_index=len(games))
        firsts = sum(g.winner == FIRST for g in games) + sum(g.winner is None for g in games) / 2
        rate = proportion(firsts, len(games))
        if rate.half_width <= half_width or len(games) >= max_games:
            return games
        needed = int(games_for_half_width(half_width, rate.value) * 1.02) + 1
        want = min(max(needed, len(games) + 20), max_games)
