"""Kiwara's compiled rules core, driven from Python (as OpenSpiel drives its C++ games).

The C code in ``_core/`` (built by ``pip install`` into the ``_engine`` module when a C compiler
is there) knows the rules of Okapi games (``reinforcement = "okapi"``) and plays them exactly as
the Python engine does: the same legal moves in the same order, the same positions, scores and
evaluations bit for bit, and the same random numbers drawn from the same ``random.Random``
streams (CPython's Mersenne Twister), so a search, a playout or a whole game of the lab gives the
same result, to the last number, whichever engine runs it. The Python engine (:mod:`.state`)
stays the readable reference of the rules; the tests play the two side by side.

Deck games (``reinforcement = "deck"``) stay in Python. ``KIWARA_ENGINE=python`` forces the
Python engine everywhere; ``python -m kiwara_designer.games.kiwara.compiled`` says which runs.
"""
from __future__ import annotations

import hashlib
import os
import random
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from ...core.game import PlayedGame
from .moves import PASS, Move
from .state import _new_state, move_limit_error
from .variant import KINDS

try:
    from . import _engine
except ImportError:          # built without a C compiler: the pure-Python engine runs
    _engine = None

ENGINE_VARIABLE = "KIWARA_ENGINE"


def engine_name() -> str:
    """``"compiled"`` when the compiled core plays the games it can, else ``"python"``."""
    if _engine is None or os.environ.get(ENGINE_VARIABLE, "").strip().lower() == "python":
        return "python"
    return "compiled"


def engine_note() -> str:
    """One line saying which engine runs, and why."""
    if _engine is None:
        return ("kiwara: the compiled rules core is not built (no C compiler at install time?); "
                "the pure-Python engine runs, about 10 to 75 times slower")
    if engine_name() == "python":
        return f"kiwara: {ENGINE_VARIABLE}=python: the pure-Python engine runs"
    return "kiwara: the compiled rules core runs Okapi games; deck games run in Python"


def rules_tables(t: Any) -> dict[str, Any]:
    """The ``_engine.Rules`` dict of a state.py ``_Tables`` (``state._t``); Okapi games only."""
    variant = t.variant
    grid = t.grid
    max_swaps = t.max_swaps
    return {
        "width": grid.width,
        "height": grid.height,
        "size": grid.size,
        "positions": t.P,
        "lines": tuple(tuple(line) for line in t.lines),
        # aligned with lines[p]: the line crossing the faced one at each of its cells
        "crossing": tuple(tuple(t.crossing[p][c] for c in t.lines[p]) for p in range(t.P)),
        "pos_line": tuple(t.pos_line),
        "cell_lines": tuple(tuple(pair) for pair in t.cell_lines),
        "step_targets": tuple(tuple((q, line) for q, line in targets)
                              for targets in t.step_targets),
        "jump_targets": tuple(tuple((q, line) for q, line in targets)
                              for targets in t.jump_targets),
        "lion_reach": tuple(tuple(r) for r in t.lion_reach),
        "swap_reach": tuple(tuple(r) for r in t.swap_reach),
        "territory": tuple(t.territory),
        "territory_cells": tuple(tuple(cells) for cells in t.territory_cells),
        "tokens": tuple(t.tokens),
        "points": tuple(t.points),
        "max_swaps": -1 if max_swaps is None else int(max_swaps),
        "lion_flee": bool(t.lion_flee),
        "lion_flip": bool(t.lion_flip),
        "down_near_lion": bool(t.down_near_lion),
        "swap_down_near_lion": bool(t.swap_down_near_lion),
        "first_placer": t.first_placer,
        "okapi_points": variant.okapi_points,
        "tie_both": variant.territory_tie == "both",
    }


def core_rules(t: Any) -> Any:
    """The core's rules for the tables ``t`` (built once per tables), None for a deck game or
    when the Python engine runs."""
    if t.deck_game or engine_name() != "compiled":
        return None
    rules = getattr(t, "core_rules", None)
    if rules is None:
        try:
            rules = _engine.Rules(rules_tables(t))
        except ValueError:    # numbers the core's ints cannot hold: the Python engine plays
            rules = False
        t.core_rules = rules
    return rules or None


def position_tuple(state: Any) -> tuple:
    """A KiwaraState's position as the compiled core reads and writes it."""
    return (state._board, state._reserve, state._line_empty, state._empty, state._totem,
            state._to_move, state._okapi, state.ply)


def move_from_core(t: Any, move: tuple) -> Move:
    """The :class:`Move` of the core's ``(kind, cell, swaps, totem)`` (-1: not set)."""
    kind, cell, swaps, totem = move
    if kind < 0:
        return PASS if totem < 0 else t.openings[totem]
    if not swaps:
        return t.place[kind][cell][t.P if totem < 0 else totem]
    return Move(KINDS[kind], cell, tuple(swaps), None if totem < 0 else totem, t.width)


def seed_key(seed: str) -> bytes:
    """What ``random.Random(seed)`` seeds its Mersenne Twister with (``random.seed``, version
    2): the seed's UTF-8 bytes and their SHA-512 read as one integer, in 32-bit words, least
    significant first. The core starts a stream from it without a ``random.Random``."""
    data = seed.encode()
    number = int.from_bytes(data + hashlib.sha512(data).digest(), "big")
    return number.to_bytes(max(1, (number.bit_length() + 31) // 32) * 4, "little")


class _Stream:
    """A ``random.Random``'s Mersenne Twister state on its way into the core and back (read
    once: ``getstate`` copies 625 numbers)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.version, self.words, self.gauss_next = rng.getstate()

    def put(self, words: tuple) -> None:
        self.rng.setstate((self.version, words, self.gauss_next))


class CompiledKiwara:
    """A :class:`KiwaraState`'s twin in the core (:class:`~kiwara_designer.core.game.CompiledState`).

    Past the bound on chain swaps (``MAX_SWAP_MOVES``) every call raises the Python engine's
    :class:`~.state.MoveLimitError`, naming the variant, as the Python engine does."""

    PLAYOUTS = ("random", "greedy", "egreedy")
    AGENTS = ("random", "greedy", "mcts", "expert")      # the core_spec kinds play_game knows

    def __init__(self, state: Any, rules: Any) -> None:
        self.state, self.rules = state, rules

    @contextmanager
    def _limits(self) -> Iterator[None]:
        try:
            yield
        except _engine.MoveLimitError:
            raise move_limit_error(self.state._t) from None

    def perft(self, depth: int) -> int:
        with self._limits():
            return self.rules.perft(position_tuple(self.state), depth)

    def perft_divide(self, depth: int) -> list[int]:
        with self._limits():
            return self.rules.divide(position_tuple(self.state), depth)

    def search(self, iterations: int | None, deadline: float | None, playout: str,
               exploration: float, rng: random.Random
               ) -> tuple[int, list[tuple[int, int, float]]] | None:
        if playout not in self.PLAYOUTS:
            return None
        stream = _Stream(rng)
        with self._limits():
            done, children, words = self.rules.mcts(position_tuple(self.state), iterations or 0,
                                                    deadline, playout, exploration, stream.words)
        stream.put(words)
        return done, children

    def solve(self, budget: int) -> tuple[int, int] | None:
        with self._limits():
            return self.rules.solve(position_tuple(self.state), budget)

    def greedy(self, rng: random.Random) -> int | None:
        stream = _Stream(rng)
        with self._limits():
            index, words = self.rules.greedy(position_tuple(self.state), stream.words)
        stream.put(words)
        return index

    def play(self, agents: Sequence[Any], seeds: Sequence[str],
             keep_moves: bool = True) -> PlayedGame | None:
        specs = []
        for agent in agents:
            spec = getattr(agent, "core_spec", lambda: None)()
            if spec is None or spec[0] not in self.AGENTS or (
                    spec[0] == "mcts" and spec[2] not in self.PLAYOUTS):
                return None
            specs.append(spec)
        with self._limits():
            trace = self.rules.play_game(position_tuple(self.state), tuple(specs),
                                         tuple(seed_key(seed) for seed in seeds), keep_moves)
        t = self.state._t
        return PlayedGame(tuple(move_from_core(t, m) for m in trace["moves"]),
                          tuple(trace["legal"]), tuple(trace["leads"]),
                          _new_state(t, *trace["final"], None),
                          {"control_changes": trace["control_changes"]})


def twin(state: Any) -> CompiledKiwara | None:
    """The state's twin in the core, None when the Python engine plays it."""
    rules = core_rules(state._t)
    return None if rules is None else CompiledKiwara(state, rules)


if __name__ == "__main__":
    print(engine_note())
