"""``expert``: a strong Kiwara agent at about a tenth of a CPU-second a move (with the compiled
core), not the strongest the project can make: ``expert:40000`` beat it in 19 of 26 seat-swapped
games on classic (exact p = 0.03, about +170 Elo) at some four times the time a move.

* **The endgame, exactly.** With at most ``solve_cells`` placements left (empty cells, or tokens
  in the reserves if fewer) it searches the rest
  of the game to the end (:func:`~kiwara_designer.agents.solver.solve`: alpha-beta over win,
  draw, loss) within ``solve_nodes`` positions, and plays the first move that wins or draws
  against any defence. A lost endgame (or one too big to search) goes to the search below,
  which still finds the moves that lose least often against a fallible opponent.
* **Otherwise MCTS** (UCT, ``iterations`` iterations, exploration ``exploration``) with
  greedy-biased playouts: each playout move is the best by the evaluation among four random
  candidates, far more like real play than uniform moves.

Everything runs in the compiled core when it is built (Okapi games); the same agent in Python
plays exactly the same moves, slowly. An iteration budget, not a time budget, so a game
replays from its seed on any machine. ``expert:N`` sets the iterations.

Measured (benchmarks/expert_strength.py, docs/developers/compiled-core.md): it beat ``mcts:200``
and ``greedy`` in all 200 games each. Transposition tables were left out (positions repeat
rarely: the totem's position is part of each); whether they would add strength was not measured.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ...agents.base import AgentSpecError, legal_moves_to_choose, register_agent
from ...agents.mcts import (MAX_ITERATIONS, MctsAgent, check_search_numbers,
                            hidden_information_refusal)
from ...agents.solver import solve
from ...core.errors import KiwaraError
from ...core.numbers import parse_whole, shorten

EXPERT_ITERATIONS = 10_000
EXPERT_EXPLORATION = 1.0
SOLVE_CELLS = 10       # placements left
SOLVE_NODES = 100_000


@dataclass(frozen=True)
class ExpertAgent:
    name: str = "expert"
    iterations: int = EXPERT_ITERATIONS
    exploration: float = EXPERT_EXPLORATION
    solve_cells: int = SOLVE_CELLS
    solve_nodes: int = SOLVE_NODES

    def __post_init__(self) -> None:
        check_search_numbers(type(self).__name__, self.iterations, None, self.exploration)
        for setting in ("solve_cells", "solve_nodes"):
            value = getattr(self, setting)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{type(self).__name__}: {setting} must be a whole number "
                                 f"from 0, got {value!r}")

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = legal_moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        if state.placements_left <= self.solve_cells:
            solved = solve(state, self.solve_nodes)
            if solved is not None and solved[0] >= 0:
                return moves[solved[1]]
        search = MctsAgent(self.name, iterations=self.iterations, playout="greedy",
                           exploration=self.exploration)
        return search.search(state, rng).move

    def core_spec(self) -> tuple:
        return ("expert", self.iterations, self.exploration, self.solve_cells, self.solve_nodes)


def make_expert(text: str, args: list, game: Any) -> ExpertAgent:
    """``expert`` or ``expert:N`` (N iterations of the search)."""
    if len(args) > 1:
        raise AgentSpecError(f"too many parts in {shorten(text)!r}; write expert or expert:N")
    if not args:
        return ExpertAgent(text)
    try:
        iterations = parse_whole(args[0], 1, MAX_ITERATIONS, "iterations")
    except KiwaraError:
        raise AgentSpecError(f"expert takes 1 to {MAX_ITERATIONS:,} iterations per move, got "
                             f"{shorten(text)!r}") from None
    return ExpertAgent(text, iterations=iterations)


register_agent("expert", make_expert, game="kiwara", syntax="expert[:N]",
               refusal=hidden_information_refusal)
