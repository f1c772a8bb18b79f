"""Seeded self-play matches: one game, a batch of games, a whole match over worker processes.

A match plays a game of the core protocol (:mod:`kiwara_designer.core.game`; default Kiwara) from
a setup (what the game starts from beside its rules) under a variant. Every game is a pure function of (game, setup,
variant, agent pairing, master seed, game index): its seed is derived from the master seed and the
index alone (so ``kiwara compare`` plays two variants on the same seeds), and the seats alternate
with the index (agent A opens even games, agent B odd ones). Results are therefore identical
whatever the number of workers, and any single game can be replayed to write its record.
"""
from __future__ import annotations

import dataclasses
import hashlib
import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from ..core.game import CHANCE, Game, PlayedGame, compiled_twin, get_game, sample_chance
from ..core.errors import KiwaraError
from ..core.workers import WorkerPool, default_workers, parallel_map

FIRST, SECOND = 0, 1
# The default skill pairing: see docs/lab/playtests.md. The default pairing is each game's
# (Game.default_agents): for Kiwara, the skill study's choice (docs/lab/skill-study.md).
DEFAULT_SKILL = "greedy,random"


class PlaytestError(KiwaraError):
    """A play-test request that cannot be honoured (bad pairing, no games, …)."""


def resolve_game(game: Game | None) -> Game:
    """``game``, or the default game when None."""
    return game if game is not None else get_game()


def lab_pairing(game: Game, pairing: Pairing | str | None) -> Pairing:
    """``pairing`` (text is parsed), or ``game``'s default pairing when None."""
    if pairing is None:
        pairing = game.default_agents
    return Pairing.parse(pairing) if isinstance(pairing, str) else pairing


def check_agents(game: Game, *specs: str) -> None:
    """Fail early, in this process, on a bad agent spec (or one the game refuses)."""
    from ..agents import make_agent
    for spec in dict.fromkeys(specs):
        make_agent(spec, game)


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
            raise PlaytestError.about("{agents} wants one or two agent specs separated by a "
                                      "comma, got {text!r}", text=text)
        return cls(parts[0], parts[1])

    @property
    def name(self) -> str:
        return f"{self.a},{self.b}"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class PlaySettings:
    """How a lab run plays its games: ``games`` games of ``pairing`` from the master ``seed``
    (and ``skill_games`` of the ``skill`` pairing, whose win rate is the skill gap), on
    ``workers`` local processes (None: one per core) or a Dask ``scheduler`` (an address or a
    ``distributed.Client``). Pairings may be given as text (``"mcts:200,greedy"``); no
    pairing means the game's own default (:meth:`for_game`)."""

    pairing: Pairing | str | None = None
    games: int = 100
    seed: int = 0
    workers: int | None = None
    scheduler: Any = None
    skill: Pairing | str | None = None
    skill_games: int = 0

    def __post_init__(self) -> None:
        for name in ("pairing", "skill"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, Pairing.parse(value))

    def for_game(self, game: Game) -> PlaySettings:
        """These settings with the pairing ``game`` plays by default when none was given."""
        return dataclasses.replace(self, pairing=lab_pairing(game, self.pairing))

    @property
    def skill_jobs(self) -> int:
        """Skill games played per setup: none without a skill pairing."""
        return self.skill_games if self.skill else 0


def game_seed(master_seed: int, index: int) -> int:
    """A 63-bit seed for game ``index``, shared by the two games of a seat-swapped pair (games
    2j and 2j + 1 hash (master seed, j)): the same agents with the same random streams and the
    same chance draws, seats exchanged, so the pair is a paired sample of the seat effect. A
    hash, so neighbouring pairs and master seeds give unrelated games, the same on every
    platform and Python version."""
    digest = hashlib.sha256(f"kiwara-playtest:{master_seed}:{index // 2}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def agent_a_seat(index: int) -> int:
    """Seats alternate: agent A is the first player (totem opener) in even games."""
    return FIRST if index % 2 == 0 else SECOND


# -- one game ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameResult:
    """What the metrics need from one finished game. Seats: 0 = first player, 1 = second.
    ``stats`` holds the game's own statistics (its outcome's and its tracker's), which its
    registered metrics read."""

    index: int
    seed: int
    a_seat: int                            # seat agent A played
    winner: int | None                     # seat, None for a draw
    scores: tuple[float, float]            # final totals (first, second)
    plies: int                             # players' moves played, opening included
    decisions: int                         # turns with more than one legal move
    branching: float                       # mean number of legal moves at the turns played
    lead_changes: int                      # switches of the evaluated leader
    decisiveness: float | None             # share of the game the final winner led to the end
    stats: Mapping[str, Any] = field(default_factory=dict, hash=False)
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


def lead_statistics(leads: Sequence[float], winner: int | None) -> tuple[int, float | None]:
    """Lead changes and decisiveness from the evaluated lead of the first player after each move.

    * lead changes: how often the side ahead switched (moves with nobody ahead are skipped);
    * decisiveness: 1 − k / L, where L = number of moves and k the move after which the final
      winner was ahead at every later evaluation (k = L when only the last move decided it).
      None for a draw.
    """
    signs = [(value > 0) - (value < 0) for value in leads]
    ahead = [s for s in signs if s]          # who led, wherever somebody did
    changes = sum(a != b for a, b in zip(ahead, ahead[1:]))
    if winner is None or not leads:
        return changes, None
    wanted = 1 if winner == FIRST else -1
    k = len(signs)
    while k > 0 and signs[k - 1] == wanted:
        k -= 1
    # leads[k:] all favour the winner; it went ahead for good after move k + 1
    took_lead_for_good = min(k + 1, len(leads))
    return changes, 1 - took_lead_for_good / len(leads)


def play_game(setup: Any, variant: Any, pairing: Pairing, master_seed: int, index: int,
              game: Game | None = None, keep_moves: bool = False) -> GameResult:
    """Play game ``index`` of a match; the same arguments always give the same game.

    The first player's lead after each move is the game's ``evaluate`` (the final score
    difference once the game is over); chance nodes are drawn with their own generator."""
    from ..agents import make_agent
    game = resolve_game(game)
    started = time.perf_counter()
    seed = game_seed(master_seed, index)
    a_seat = agent_a_seat(index)
    specs = (pairing.a, pairing.b) if a_seat == FIRST else (pairing.b, pairing.a)
    agents = tuple(make_agent(spec, game) for spec in specs)
    # one generator per agent, so one agent's appetite for random numbers never changes the
    # other's and an agent keeps its stream when the pair's seats are swapped; one for chance,
    # which no agent's choices can shift
    streams = (f"{seed}:a", f"{seed}:b")
    seeds = streams if a_seat == FIRST else streams[::-1]
    state = game.new_state(setup, variant)
    fast = compiled_twin(state)
    # the same game, played whole in the game's compiled core when it has one for these agents
    played = None if fast is None else fast.play(agents, seeds, keep_moves)
    if played is None:
        played = play_in_python(game, state, agents, [random.Random(s) for s in seeds],
                                random.Random(f"{seed}:chance"))
    final, legal = played.final, played.legal
    outcome = game.outcome(final)
    winner = _winner(final)
    lead_changes, decisiveness = lead_statistics(played.leads, winner)
    return GameResult(
        index=index, seed=seed, a_seat=a_seat, winner=winner,
        scores=(float(outcome.scores[0]), float(outcome.scores[1])), plies=len(legal),
        decisions=len(legal) - legal.count(1),
        branching=sum(legal) / len(legal) if legal else 0.0,
        lead_changes=lead_changes, decisiveness=decisiveness,
        stats={**outcome.stats, **played.tracker_stats},
        moves=tuple(map(str, played.moves)) if keep_moves else None,
        seconds=time.perf_counter() - started)


def play_in_python(game: Game, state: Any, agents: Sequence[Any], rngs: Sequence[random.Random],
                   chance_rng: random.Random) -> PlayedGame:
    """The game from ``state`` to its end through the protocol, ``agents[seat]`` choosing with
    ``rngs[seat]`` (a forced move without asking), chance drawn from ``chance_rng``."""
    tracker = game.tracker(state)
    leads: list[float] = []
    moves: list[Any] = []
    legal_counts: list[int] = []
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            move = sample_chance(state, chance_rng)
        else:
            legal = state.legal_moves()
            legal_counts.append(len(legal))
            move = legal[0] if len(legal) == 1 else agents[player].choose(state, rngs[player])
        moves.append(move)
        state = state.apply(move)
        if tracker is not None:
            tracker.update(state)
        if player != CHANCE:
            leads.append(game.outcome(state).margin if state.is_terminal()
                         else game.evaluate(state, FIRST))
    return PlayedGame(tuple(moves), tuple(legal_counts), tuple(leads), state,
                      tracker.stats() if tracker is not None else {})


def _winner(final: Any) -> int | None:
    returns = final.returns()
    return FIRST if returns[0] > returns[1] else SECOND if returns[1] > returns[0] else None


# -- batches and parallel matches -------------------------------------------------------------------
@dataclass(frozen=True)
class Batch:
    """Games ``indices`` of one (setup, variant, pairing, master seed): the unit of work sent to
    a worker process or a Dask worker. ``key`` is returned untouched, for the caller's bookkeeping."""

    setup: Any
    variant: Any
    pairing: Pairing
    master_seed: int
    indices: tuple[int, ...]
    game: Game | None = None
    keep_moves: bool = False
    key: Any = None


def play_batch(batch: Batch) -> tuple[Any, list[GameResult]]:
    game = resolve_game(batch.game)
    return batch.key, [play_game(batch.setup, batch.variant, batch.pairing, batch.master_seed, i,
                                 game, batch.keep_moves) for i in batch.indices]


def split_indices(indices: Sequence[int], size: int) -> list[tuple[int, ...]]:
    return [tuple(indices[i:i + size]) for i in range(0, len(indices), size)]


def run_batches(batches: Iterable[Batch], workers: int | None = None,
                pool: WorkerPool | None = None) -> Iterator[tuple[Any, list[GameResult]]]:
    """Play batches on ``workers`` processes (in this process if 1), or on an open ``pool``,
    yielding each batch's results as soon as it is done (completion order; callers sort by game
    index). At most two batches per worker are in flight, so a huge sweep is never queued whole
    in memory."""
    if pool is not None:
        return pool.map(play_batch, batches, ordered=False)
    return parallel_map(play_batch, batches, workers, ordered=False)


def connect_scheduler(scheduler: Any) -> Any:
    """A ``distributed.Client`` for a Dask scheduler's address (``tcp://host:8786``); a Client
    is returned as it is."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise PlaytestError.about("{scheduler} needs dask.distributed: pip install "
                                  "'kiwara-designer[cluster]'") from None
    if isinstance(scheduler, Client):
        return scheduler
    try:
        return Client(scheduler)
    except (OSError, ValueError) as exc:   # unreachable (timed out) or not an address at all
        raise PlaytestError.about("{scheduler} {address}: cannot reach the Dask scheduler: "
                                  "{error}", address=scheduler, error=exc) from None


def run_batches_dask(batches: Iterable[Batch], scheduler: Any, in_flight: int | None = None
                     ) -> Iterator[tuple[Any, list[GameResult]]]:
    """Play batches on a Dask cluster: ``scheduler`` is an address or a ``distributed.Client``
    (an address is connected to here and closed at the end). Results come back to this process
    as they finish, which alone writes any store; at most ``in_flight`` batches (default: 4
    per worker thread) are submitted at a time."""
    from dask.distributed import as_completed
    client = connect_scheduler(scheduler)
    try:
        limit = in_flight or 4 * max(1, sum(client.nthreads().values()))
        pending = iter(batches)
        first = [b for _, b in zip(range(limit), pending)]
        futures = as_completed(client.map(play_batch, first, pure=False))
        for future in futures:
            yield future.result()
            future.release()
            nxt = next(pending, None)
            if nxt is not None:
                futures.add(client.submit(play_batch, nxt, pure=False))
    finally:
        if client is not scheduler:
            client.close()


def play_batches(batches: Iterable[Batch], workers: int | None = None, scheduler: Any = None
                 ) -> tuple[Iterator[tuple[Any, list[GameResult]]], int | str]:
    """Batches played on a Dask ``scheduler`` if given, else on ``workers`` local processes;
    and where (the worker count, or the scheduler's address or ``"dask"``)."""
    if scheduler is not None:
        return (run_batches_dask(batches, scheduler),
                str(scheduler) if isinstance(scheduler, str) else "dask")
    workers = workers or default_workers()
    return run_batches(batches, workers), workers


def batch_size(games: int, workers: int) -> int:
    """Small enough to spread the games over the workers, big enough to amortise the hand-off."""
    return max(1, min(16, games // (4 * max(1, workers)) or 1))


def play_games(setup: Any = None, variant: Any = None, pairing: Pairing | str | None = None,
               games: int = 100, seed: int = 0, workers: int | None = None,
               game: Game | None = None, keep_moves: bool = False,
               first_index: int = 0,
               progress: Callable[[int, int], None] | None = None,
               scheduler: Any = None) -> list[GameResult]:
    """Play games ``first_index … first_index + games − 1`` of ``game`` (default: the default
    game) from ``setup``, on ``workers`` processes or a Dask ``scheduler`` (an address or a
    ``distributed.Client``); results sorted by index, the same wherever they were played.
    ``pairing`` None is the game's default. ``progress(done, games)`` is called as batches
    finish."""
    if games < 1:
        raise PlaytestError(f"the number of games must be at least 1, got {games}")
    game = resolve_game(game)
    pairing = lab_pairing(game, pairing)
    check_agents(game, pairing.a, pairing.b)
    variant = game.default_variant() if variant is None else variant
    workers = workers or default_workers()
    indices = list(range(first_index, first_index + games))
    batches = [Batch(setup, variant, pairing, seed, chunk, game, keep_moves)
               for chunk in split_indices(indices, batch_size(games, workers))]
    results: list[GameResult] = []
    played, _ = play_batches(batches, min(workers, len(batches)), scheduler)
    for _, done in played:
        results += done
        if progress:
            progress(len(results), games)
    return sorted(results, key=lambda r: r.index)


def replay_game(setup: Any, variant: Any, pairing: Pairing | str, seed: int, index: int,
                game: Game | None = None) -> tuple[GameResult, Any]:
    """Replay one game of a match with its moves, and the game's record of it."""
    game = resolve_game(game)
    pairing = Pairing.parse(pairing) if isinstance(pairing, str) else pairing
    variant = game.default_variant() if variant is None else variant
    result = play_game(setup, variant, pairing, seed, index, game, keep_moves=True)
    return result, make_game_record(game, setup, variant, pairing, seed, result)


def make_game_record(game: Game | None, setup: Any, variant: Any, pairing: Pairing, seed: int,
                     result: GameResult) -> Any:
    """The game's record of a game played with its moves kept (players, seeds and index in it)."""
    players = (pairing.a, pairing.b) if result.a_seat == FIRST else (pairing.b, pairing.a)
    return resolve_game(game).record(setup, variant, list(result.moves or ()),
                                     players=list(players), seed=result.seed, master_seed=seed,
                                     game_index=result.index)


def play_to_precision(setup: Any = None, variant: Any = None,
                      pairing: Pairing | str | None = None, half_width: float = 0.03,
                      seed: int = 0, workers: int | None = None,
                      game: Game | None = None, first_round: int = 200,
                      max_games: int = 20_000,
                      progress: Callable[[int, int], None] | None = None,
                      scheduler: Any = None) -> list[GameResult]:
    """Play until the 95 % Wilson interval of the first-player win rate is at most ±half_width.

    After each round the games still needed are estimated from the current rate (normal
    approximation, plus 2 % for the Wilson interval being slightly wider) and played in one go,
    so the match rarely overshoots. Games are the same seeded sequence as one long match.
    A precision that could need more than ``max_games`` (at a 50 % rate, the worst case) is
    refused up front. ``progress(done, games planned so far)`` is called as batches finish."""
    from ..core.stats import Z95, games_for_half_width, proportion
    if not 0 < half_width < 0.5:
        raise PlaytestError(f"the precision must be between 0 and 0.5, got {half_width}")
    try:
        worst = int(games_for_half_width(half_width, 0.5) * 1.02) + 1
    except (ZeroDivisionError, OverflowError):      # a precision of 1e-300: beyond any count
        worst = None
    if worst is None or worst > max_games:
        finest = Z95 * 0.5 * math.sqrt(1.02 / max_games)       # the worst case inverted
        need = f"{worst:,} games" if worst is not None else "more games than can be counted"
        raise PlaytestError(f"a precision of ±{half_width:g} may need {need} (at a 50 % "
                            f"win rate), more than the {max_games:,} played at most; ask for "
                            f"±{math.ceil(finest * 1000) / 1000:g} or more")
    games: list[GameResult] = []
    want = min(first_round, max_games)
    while True:
        done = len(games)
        report = progress and (lambda n, _total, done=done, want=want: progress(done + n, want))
        games += play_games(setup, variant, pairing, want - len(games), seed, workers, game,
                            first_index=len(games), progress=report, scheduler=scheduler)
        firsts = sum(g.winner == FIRST for g in games) + sum(g.winner is None for g in games) / 2
        rate = proportion(firsts, len(games))
        if rate.half_width <= half_width or len(games) >= max_games:
            return games
        needed = int(games_for_half_width(half_width, rate.value) * 1.02) + 1
        want = min(max(needed, len(games) + 20), max_games)
