"""Ladders: a round robin of agents on a game's setups, Elo ratings from a Bradley–Terry fit,
and each agent's self-play balance per setup (does the board matter at this skill?).

Every pair of agents (A listed before B) plays ``games`` seat-swapped games on each setup, and
every agent plays itself ``games`` games there; each (setup, pairing) is an experiment of the
results store, played and resumed exactly like a sweep's (only missing games are played).

**The fit.** Bradley–Terry: P(i beats j) = πᵢ / (πᵢ + πⱼ), θ = log π. A draw counts as half a
win (wᵢⱼ = wins + draws/2). The maximum-likelihood θ is found by the MM algorithm (Hunter
2004, *MM algorithms for generalized Bradley–Terry models*, Ann. Statist. 32(1)):
πᵢ ← Wᵢ / Σⱼ nᵢⱼ / (πᵢ + πⱼ), run to a relative change below 1e-12, then θ centred. Ratings
are **anchored so that their mean is 0** and given on the Elo scale, Elo = 400 / ln 10 · θ
(so a win share p between two agents is 400·log10(p / (1 − p)) points).

**Intervals**: 95 %, ± 1.96 standard errors from the observed Fisher information at the MLE,
I = Σ over pairs nᵢⱼ pᵢⱼ (1 − pᵢⱼ) (eᵢ − eⱼ)(eᵢ − eⱼ)ᵀ, a graph Laplacian of rank k − 1; the
covariance of the mean-zero ratings is its Moore–Penrose inverse (I + J/k)⁻¹ − J/k, J the
all-ones matrix.

**When the MLE does not exist** (an agent won or lost every game that links it to others: the
"beats" graph is not strongly connected, and the likelihood grows without end), one virtual
drawn game is added to every pair that played (half a win each way), which keeps every rating
finite; ``prior`` says so in the result (and the text output).
"""
from __future__ import annotations

import math
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..core.game import Game
from ..core.stats import (Z95, Homogeneity, Summary, holm_together, rate_homogeneity, summarise,
                          wilson_interval)
from .matches import (Batch, FIRST, GameResult, Pairing, PlaytestError, check_agents,
                      play_batches, resolve_game, split_indices)
from .store import Store, open_store
from .sweep import SWEEP_BATCH, check_seed, check_seed_range

ELO = 400 / math.log(10)


# -- the Bradley–Terry fit ---------------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    agent: str
    elo: float
    low: float
    high: float
    se: float
    games: int           # games against other agents (self-play is not in the fit)
    score: float         # wins + draws/2 in those games

    def to_json(self) -> dict:
        return {"elo": self.elo, "low": self.low, "high": self.high, "se": self.se,
                "games": self.games, "score": self.score}


@dataclass(frozen=True)
class Fit:
    ratings: tuple[Rating, ...]      # in the agents' order
    iterations: int
    prior: bool                      # one virtual draw per pair was added (MLE at infinity)
    anchor: str = "mean 0"


def _strongly_connected(k: int, wins: Mapping[tuple[int, int], float]) -> bool:
    """Whether every agent reaches every other along "scored against" edges (i → j when i
    scored anything against j): the condition for a finite Bradley–Terry MLE (Zermelo, Ford)."""
    def reach(start: int, forward: bool) -> set[int]:
        seen, todo = {start}, [start]
        while todo:
            i = todo.pop()
            for j in range(k):
                edge = wins.get((i, j), 0) > 0 if forward else wins.get((j, i), 0) > 0
                if edge and j not in seen:
                    seen.add(j)
                    todo.append(j)
        return seen
    return len(reach(0, True)) == k and len(reach(0, False)) == k


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss–Jordan inverse with partial pivoting (small, well-conditioned matrices)."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [x / p for x in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [row[n:] for row in a]


def bradley_terry(agents: Sequence[str], results: Mapping[tuple[str, str], tuple[float, int]],
                  tolerance: float = 1e-12, max_iterations: int = 100_000) -> Fit:
    """Elo ratings (mean 0) with 95 % intervals from ``results``: (a, b) → (a's score against
    b, games), a draw counting ½; self-play pairs are ignored. See the module's docstring."""
    k = len(agents)
    if k < 2:
        raise PlaytestError("a ladder needs at least two different agents")
    index = {a: i for i, a in enumerate(agents)}
    wins: dict[tuple[int, int], float] = {}
    games: dict[tuple[int, int], int] = {}
    for (a, b), (score, n) in results.items():
        i, j = index[a], index[b]
        if i == j or n == 0:
            continue
        wins[i, j] = wins.get((i, j), 0.0) + score
        wins[j, i] = wins.get((j, i), 0.0) + (n - score)
        games[i, j] = games.get((i, j), 0) + n
        games[j, i] = games.get((j, i), 0) + n
    played = [sum(games.get((i, j), 0) for j in range(k)) for i in range(k)]
    scored = [sum(wins.get((i, j), 0.0) for j in range(k)) for i in range(k)]
    if not all(played):
        missing = agents[played.index(0)]
        raise PlaytestError(f"agent {missing} played no game against another agent")
    prior = not _strongly_connected(k, wins)
    w = {key: wins.get(key, 0.0) + (0.5 if prior else 0.0) for key in games}
    n = {key: v + (1 if prior else 0) for key, v in games.items()}
    total = [sum(w.get((i, j), 0.0) for j in range(k)) for i in range(k)]
    pi = [1.0] * k
    iterations = 0
    for iterations in range(1, max_iterations + 1):
        new = []
        for i in range(k):
            denominator = sum(n[i, j] / (pi[i] + pi[j]) for j in range(k) if (i, j) in n)
            new.append(total[i] / denominator)
        mean_log = sum(math.log(p) for p in new) / k
        new = [p / math.exp(mean_log) for p in new]
        change = max(abs(x - y) / y for x, y in zip(new, pi))
        pi = new
        if change < tolerance:
            break
    theta = [math.log(p) for p in pi]
    info = [[0.0] * k for _ in range(k)]
    for (i, j), count in n.items():
        if i < j:
            p = 1 / (1 + math.exp(theta[j] - theta[i]))
            v = count * p * (1 - p)
            info[i][i] += v
            info[j][j] += v
            info[i][j] -= v
            info[j][i] -= v
    shifted = _inverse([[x + 1 / k for x in row] for row in info])
    cov = [[x - 1 / k for x in row] for row in shifted]
    ratings = []
    for i, agent in enumerate(agents):
        se = ELO * math.sqrt(max(cov[i][i], 0.0))
        elo = ELO * theta[i]
        ratings.append(Rating(agent, elo, elo - Z95 * se, elo + Z95 * se, se, played[i],
                              scored[i]))
    return Fit(tuple(ratings), iterations, prior)


# -- self-play balance per setup -------------------------------------------------------------------
@dataclass(frozen=True)
class SelfPlay:
    setup: str
    games: int
    first_score: float                 # first-player wins + draws/2
    low: float | None
    high: float | None
    margin: Summary

    @property
    def rate(self) -> float | None:
        return self.first_score / self.games if self.games else None

    def to_json(self) -> dict:
        return {"setup": self.setup, "games": self.games, "first_player_win_rate": self.rate,
                "low": self.low, "high": self.high, "margin": self.margin.to_json()}


def self_play(label: str, results: Sequence[GameResult]) -> SelfPlay:
    score = sum(1.0 if g.winner == FIRST else 0.5 if g.winner is None else 0.0 for g in results)
    low, high = wilson_interval(score, len(results)) if results else (None, None)
    return SelfPlay(label, len(results), score, low, high, summarise([g.margin for g in results]))


# -- the ladder ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class LadderSummary:
    wanted: int
    already_stored: int
    played: int
    workers: int | str
    seconds: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class Ladder:
    agents: tuple[str, ...]
    setups: tuple[str, ...]
    games: int
    seed: int
    fit: Fit
    pair_scores: dict            # (a, b) → (a's score, games) over every setup
    self_play: dict              # agent → [SelfPlay per setup]
    homogeneity: dict            # agent → Homogeneity of the first-player rate between setups,
                                 # p Holm-adjusted over the levels
    summary: LadderSummary

    def ranked(self) -> list[Rating]:
        return sorted(self.fit.ratings, key=lambda r: -r.elo)

    def to_json(self) -> dict:
        return {
            "agents": list(self.agents), "setups": list(self.setups), "games": self.games,
            "seed": self.seed,
            "elo": {r.agent: r.to_json() for r in self.fit.ratings},
            "elo_fit": {"model": "Bradley-Terry, maximum likelihood (MM), draws as half a win",
                        "anchor": self.fit.anchor, "interval": "95 %, observed Fisher "
                        "information", "prior": self.fit.prior,
                        "iterations": self.fit.iterations},
            "pairs": [{"a": a, "b": b, "a_score": s, "games": n}
                      for (a, b), (s, n) in self.pair_scores.items()],
            "self_play": {agent: [s.to_json() for s in rows]
                          for agent, rows in self.self_play.items()},
            "homogeneity": {agent: {"first_player_win_rate": h.to_json()}
                            for agent, h in self.homogeneity.items()},
            "summary": {"games_wanted": self.summary.wanted,
                        "games_already_stored": self.summary.already_stored,
                        "games_played": self.summary.played, "workers": self.summary.workers,
                        "seconds": round(self.summary.seconds, 3)},
        }


def ladder_pairings(agents: Sequence[str]) -> list[Pairing]:
    """Every pair (A listed before B), then every agent against itself."""
    pairs = [Pairing(a, b) for i, a in enumerate(agents) for b in agents[i + 1:]]
    return pairs + [Pairing(a, a) for a in agents]


def check_ladder_agents(game: Game, agents: Sequence[str]) -> tuple[str, ...]:
    agents = tuple(a.strip() for a in agents)
    if any(not a for a in agents):
        raise PlaytestError("--agents: an empty agent spec (write A,B,C…)")
    if len(set(agents)) != len(agents):
        twice = next(a for a in agents if agents.count(a) > 1)
        raise PlaytestError(f"--agents: {twice} is listed twice")
    if len(agents) < 2:
        raise PlaytestError(f"--agents: a ladder needs at least two agents, got {len(agents)}")
    check_agents(game, *agents)
    return agents


def run_ladder(setups: Sequence[tuple[str, Any]], agents: Sequence[str], games: int,
               seed: int = 0, variant: Any = None, game: Game | None = None,
               store: Store | None = None, workers: int | None = None, scheduler: Any = None,
               progress: Callable[[int, int | None], None] | None = None) -> Ladder:
    """Play the ladder of ``agents`` on ``setups`` ((label, setup) pairs) into ``store``
    (None: a temporary one), only the games it misses, and fit it."""
    import time
    game = resolve_game(game)
    variant = game.default_variant() if variant is None else variant
    agents = check_ladder_agents(game, agents)
    check_seed_range(seed)
    if store is None:
        with tempfile.TemporaryDirectory() as folder:
            with open_store(Path(folder) / "ladder.sqlite") as temporary:
                return run_ladder(setups, agents, games, seed, variant, game, temporary,
                                  workers, scheduler, progress)
    started = time.perf_counter()
    store.require_paired_seeding()
    pairings = ladder_pairings(agents)
    experiments = {}
    batches: list[Batch] = []
    wanted = stored = 0
    for label, setup in setups:
        for pairing in pairings:
            exp = store.experiment(setup, variant, pairing, game)
            store.register(exp)
            experiments[label, pairing] = exp
            check_seed(store, exp, pairing, seed, game)
            have = store.stored_indices(exp)
            missing = [i for i in range(games) if i not in have]
            wanted += games
            stored += games - len(missing)
            representative = game.setup_from_key(game.setup_key(setup))
            batches += [Batch(representative, variant, pairing, seed, chunk, game, key=exp)
                        for chunk in split_indices(missing, SWEEP_BATCH)]
    played = 0
    used: int | str = 0
    if batches:
        results, used = play_batches(batches, workers, scheduler)
        for exp, done in results:
            for result in done:
                store.add_game(exp, seed, result)
            played += len(done)
            if progress:
                progress(stored + played, wanted)
    store.refresh_summaries(game)
    pair_scores: dict[tuple[str, str], tuple[float, int]] = {}
    selfplay: dict[str, list[SelfPlay]] = {a: [] for a in agents}
    for (label, pairing), exp in experiments.items():
        results_ = [g for g in store.games(exp) if g.index < games]
        if pairing.a == pairing.b:
            selfplay[pairing.a].append(self_play(label, results_))
            continue
        score = sum(1.0 if g.winner_agent == "a" else 0.5 if g.winner_agent is None else 0.0
                    for g in results_)
        old = pair_scores.get((pairing.a, pairing.b), (0.0, 0))
        pair_scores[pairing.a, pairing.b] = (old[0] + score, old[1] + len(results_))
    fit = bradley_terry(agents, pair_scores)
    # One test per level: adjusted over the levels, as a "differ" at any of them is the claim.
    homogeneity: dict[str, Homogeneity] = holm_together({
        a: rate_homogeneity([(s.first_score, s.games) for s in rows])
        for a, rows in selfplay.items()})
    summary = LadderSummary(wanted, stored, played, used, time.perf_counter() - started)
    return Ladder(agents, tuple(label for label, _ in setups), games, seed, fit, pair_scores,
                  selfplay, homogeneity, summary)


# -- text ----------------------------------------------------------------------------------------
def format_ladder(ladder: Ladder, noun: str = "layout", unit: str = "games") -> str:
    """The Elo table (best first), then per agent its self-play first-player rate on each setup
    and the between-setup homogeneity line."""
    from .homogeneity import verdict
    width = max(len(a) for a in ladder.agents)
    lines = [f"Elo (Bradley-Terry, mean 0; 95 % intervals from the Fisher information), "
             f"{ladder.games} {unit} a pairing a {noun}, seed {ladder.seed}"]
    if ladder.fit.prior:
        lines.append("  (an agent won or lost every game linking it to others: one virtual "
                     "draw per pair keeps the ratings finite)")
    count = max(6, len(unit))
    lines.append(f"  {'agent':<{width}}  {'elo':>6}  {'95 % interval':<17}  {unit:>{count}}  score")
    for r in ladder.ranked():
        lines.append(f"  {r.agent:<{width}}  {r.elo:+6.0f}  [{r.low:+6.0f}, {r.high:+6.0f}]  "
                     f"{r.games:>{count}}  {r.score:g}")
    labels = max(len(s) for s in ladder.setups)
    for agent in ladder.agents:
        lines.append(f"self-play {agent}:")
        for s in ladder.self_play[agent]:
            rate = "n/a" if s.rate is None else (f"{s.rate:.3f}  [{s.low:.3f}, {s.high:.3f}]")
            m = s.margin
            margin = ("n/a" if m.mean is None else f"{m.mean:+.1f}" + (
                "" if m.low is None else f" [{m.low:+.1f}, {m.high:+.1f}]"))
            lines.append(f"  {s.setup:<{labels}}  first-player {rate}  ({s.first_score:g}/"
                         f"{s.games})  margin {margin}")
        h = ladder.homogeneity[agent]
        if h.p_value is None:
            lines.append(f"  (one {noun}: no between-{noun} homogeneity test)")
        else:
            lines.append("  " + verdict("first_player_win_rate", h, noun))
    tested = sum(h.p_value is not None for h in ladder.homogeneity.values())
    if tested > 1:
        lines.append(f"(homogeneity p-values Holm-adjusted over the {tested} levels tested)")
    s = ladder.summary
    where = (f"{s.workers} worker" + ("" if s.workers == 1 else "s")
             if isinstance(s.workers, int) else s.workers)
    lines.append(f"{s.wanted:,} {unit} wanted: {s.already_stored:,} already stored, "
                 + (f"{s.played:,} played in {s.seconds:.1f} s ({where})" if s.played
                    else "nothing to play"))
    return "\n".join(lines)
