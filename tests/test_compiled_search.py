"""The compiled core's search (``_core/search.c``) against the Python agents it replaces: the same
random numbers as random.Random, and from the same random stream the same playouts, greedy moves,
MCTS statistics and whole games, leaving the stream in the same state. Skipped when the compiled
core is not built."""
from __future__ import annotations

import random
from functools import lru_cache

import pytest

_engine = pytest.importorskip("kiwara_designer.games.kiwara._engine")
if not hasattr(_engine, "Rules"):
    pytest.skip("the compiled core has no Rules type", allow_module_level=True)
compiled_tables = pytest.importorskip("kiwara_designer.games.kiwara.compiled")

from kiwara_designer.agents import make_agent                                # noqa: E402
from kiwara_designer.agents.greedy import GreedyAgent                         # noqa: E402
from kiwara_designer.agents.mcts import MctsAgent                             # noqa: E402
from kiwara_designer.agents.playouts import PLAYOUTS                          # noqa: E402
from kiwara_designer.games.kiwara import load_variant, new_game               # noqa: E402
from kiwara_designer.games.kiwara.formats import load_layout                  # noqa: E402
from kiwara_designer.games.kiwara.game import KIWARA, ControlTracker          # noqa: E402
from kiwara_designer.games.kiwara.layout import Layout                        # noqa: E402
from kiwara_designer.games.kiwara.moves import Move                           # noqa: E402
from kiwara_designer.games.kiwara.state import _restore                       # noqa: E402
from kiwara_designer.games.kiwara.variant import KINDS, KiwaraVariant         # noqa: E402
from kiwara_designer.lab.matches import (Pairing, agent_a_seat, game_seed,   # noqa: E402
                                         lead_statistics, play_game)


@pytest.fixture(autouse=True)
def python_reference(monkeypatch):
    """The Python side of every comparison is the pure-Python engine: the agents and perft
    would otherwise hand the work to the compiled core itself."""
    monkeypatch.setenv("KIWARA_ENGINE", "python")

Rules = _engine.Rules
rules_tables, position_tuple = compiled_tables.rules_tables, compiled_tables.position_tuple

# (layout, variant): classic, another board, and variants that change what search sees (a
# swap limit, the first player placing first so greedy looks ahead after the opening, a tie
# scoring for both so draws and ties appear).
SETUPS = {
    "classic": ("classic", None),
    "president-single-swap": ("president", "single_crocodile_swap"),
    "twin-nines-first-places": ("twin-nines", KiwaraVariant(first_placer="first",
                                                            territory_tie="both")),
    "great-plain-gazelles-3": ("great-plain", "gazelles_3"),
    # a bigger board where greedy's lookahead after the opening runs out of its budget
    "rows-14x12-first-places": (Layout.from_rows([("AABBCCDDEEFFGG" if y % 4 < 2 else
                                                   "HHIIJJKKLLMMNN")[y % 3:] + "PQR"[:y % 3]
                                                  for y in range(12)]),
                                KiwaraVariant(first_placer="first", crocodile_swaps=1)),
}


def variant_of(variant):
    return variant if isinstance(variant, KiwaraVariant) else load_variant(variant)


def layout_of(layout):
    return layout if isinstance(layout, Layout) else load_layout(layout)


def opening(setup: str):
    layout, variant = SETUPS[setup]
    return new_game(layout_of(layout), variant_of(variant))


@lru_cache(maxsize=None)
def compiled(setup: str):
    return Rules(rules_tables(opening(setup)._t))


def rng_state(rng: random.Random) -> tuple:
    return rng.getstate()[1]


def positions_along_a_game(setup: str, seed: int, every: int):
    """Positions of a random game (the opening included), one every ``every`` plies."""
    state = opening(setup)
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        if state.ply % every == 0:
            found.append(state)
        state = state.apply(rng.choice(state.legal_moves()))
    return found


def as_move(item, width: int) -> Move:
    """A compiled move tuple (kind, cell, swaps, totem) as the engine's Move."""
    kind, cell, swaps, totem = item
    if kind < 0:
        return Move() if totem < 0 else Move.opening(totem)
    return Move(KINDS[kind], cell, tuple(swaps), None if totem < 0 else totem, width)


# -- random numbers ------------------------------------------------------------------------------
def test_random_numbers_are_random_random():
    for seed in range(120):
        rng = random.Random(seed)
        for _ in range(seed % 5):        # states in the middle of a block, too
            rng.random()
        expected = random.Random()
        expected.setstate(rng.getstate())
        ops, wanted = [], []
        for i in range(300):
            c = (seed * 31 + i) % 6
            if c == 0:
                n = 1 + (seed * i * 7919) % 300
                ops.append(("below", n)); wanted.append(expected.randrange(n))
            elif c == 1:
                k = (i * 13) % 33
                ops.append(("bits", k)); wanted.append(expected.getrandbits(k))
            elif c == 2:
                ops.append(("random",)); wanted.append(expected.random())
            elif c == 3:         # both of sample's methods: a pool up to 21, then a set
                n = 4 + (seed + i) % 60
                k = min(n, i % 8)
                ops.append(("sample", n, k)); wanted.append(expected.sample(range(n), k))
            elif c == 4:
                n = 1 + i % 40
                ops.append(("below", n)); wanted.append(expected.choice(range(n)))
            else:
                n = [2**32 - 1, 2**31 + 5, 1, 2, 3][i % 5]
                ops.append(("below", n)); wanted.append(expected._randbelow(n))
        got, state = Rules.rng_draws(rng_state(rng), ops)
        assert got == wanted
        assert state == rng_state(expected)


def test_big_samples_use_the_set_of_indices():
    for seed in range(40):
        expected = random.Random(seed)
        ops = [("sample", 1000, 50), ("sample", 30, 6), ("sample", 100, 4), ("sample", 22, 4),
               ("sample", 21, 4), ("sample", 5, 5)]
        wanted = [expected.sample(range(n), k) for _, n, k in ops]
        got, state = Rules.rng_draws(rng_state(random.Random(seed)), ops)
        assert got == wanted and state == rng_state(expected)


# -- playouts ------------------------------------------------------------------------------------
@pytest.mark.parametrize("setup", list(SETUPS))
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_playouts_are_the_python_playouts(setup, policy):
    rules = compiled(setup)
    for k, state in enumerate(positions_along_a_game(setup, seed=3, every=4)):
        for seed in range(3):
            rng = random.Random(1000 * k + seed)
            got, after = rules.playout(position_tuple(state), policy, rng_state(rng))
            returns = PLAYOUTS[policy](state, rng)
            assert got == returns[0], (setup, policy, state.ply, seed)
            assert after == rng_state(rng)


def test_a_playout_from_the_end_draws_nothing():
    rules = compiled("classic")
    state = opening("classic")
    rng = random.Random(4)
    while not state.is_terminal():
        state = state.apply(rng.choice(state.legal_moves()))
    for policy in ("random", "greedy"):
        before = rng_state(rng)
        got, after = rules.playout(position_tuple(state), policy, before)
        assert got == state.returns()[0] and after == before


# -- greedy --------------------------------------------------------------------------------------
@pytest.mark.parametrize("setup", list(SETUPS))
def test_greedy_is_the_greedy_agent(setup):
    rules = compiled(setup)
    agent = GreedyAgent()
    for k, state in enumerate(positions_along_a_game(setup, seed=5, every=2)):
        legal = state.legal_moves()
        if len(legal) < 2:
            continue
        rng = random.Random(k)
        index, after = rules.greedy(position_tuple(state), rng_state(rng))
        assert legal[index] == agent.choose(state, rng), (setup, state.ply)
        assert after == rng_state(rng)


@pytest.mark.parametrize("setup", ["twin-nines-first-places", "rows-14x12-first-places"])
def test_greedy_looks_ahead_after_the_opening(setup):
    """The first player also places first: each opening is worth its best placement, within
    greedy's budget of weighed positions (which the 14 x 12 board runs out of)."""
    rules = compiled(setup)
    state = opening(setup)
    legal = state.legal_moves()
    for seed in range(8):
        rng = random.Random(seed)
        index, after = rules.greedy(position_tuple(state), rng_state(rng))
        assert legal[index] == GreedyAgent().choose(state, rng)
        assert after == rng_state(rng)


# -- MCTS ----------------------------------------------------------------------------------------
def ranked(children, legal):
    """The Python search's children order: most visited, better mean, engine move order."""
    stats = [(legal[i], visits, value / visits) for i, visits, value in children]
    order = {str(m): i for i, m in enumerate(legal)}
    return sorted(stats, key=lambda s: (-s[1], -s[2], order[str(s[0])]))


@pytest.mark.parametrize("setup, policy, iterations, exploration", [
    ("classic", "random", 300, 1.0),
    ("classic", "greedy", 120, 1.0),
    ("classic", "random", 200, 0.3),
    ("president-single-swap", "random", 150, 2.0),
    ("president-single-swap", "greedy", 60, 0.7),
    ("twin-nines-first-places", "random", 100, 1.0),
    ("twin-nines-first-places", "greedy", 50, 1.4),
    ("great-plain-gazelles-3", "random", 120, 1.0),
])
def test_mcts_is_the_mcts_agent(setup, policy, iterations, exploration):
    rules = compiled(setup)
    agent = MctsAgent(iterations=iterations, playout=policy, exploration=exploration)
    positions = positions_along_a_game(setup, seed=7, every=9)
    for k, state in enumerate(positions[:4]):
        legal = state.legal_moves()
        if len(legal) < 2:
            continue
        rng = random.Random(77 + k)
        done, children, after = rules.mcts(position_tuple(state), iterations, None, policy,
                                           exploration, rng_state(rng))
        result = agent.search(state, rng)
        assert done == result.iterations == iterations
        assert ranked(children, legal) == [(c.move, c.visits, c.mean) for c in result.children]
        assert after == rng_state(rng)


def test_mcts_with_a_deadline_runs_at_least_once():
    import time
    rules = compiled("classic")
    state = opening("classic")
    done, children, _ = rules.mcts(position_tuple(state), 1, time.perf_counter() - 1.0,
                                   "random", 1.0, rng_state(random.Random(1)))
    assert done == 1 and sum(v for _, v, _ in children) == 1
    done, children, _ = rules.mcts(position_tuple(state), 1, time.perf_counter() + 0.05,
                                   "random", 1.0, rng_state(random.Random(1)))
    assert done > 1 and sum(v for _, v, _ in children) == done


# -- whole games -----------------------------------------------------------------------------------
def c_spec(spec: str) -> tuple:
    agent = make_agent(spec)
    if isinstance(agent, MctsAgent):
        return ("mcts", agent.iterations, agent.playout, agent.exploration)
    return (agent.name,)


def reference_game(state, specs, rngs):
    """lab/matches.py play_game's loop, with its trace and the random streams after it."""
    agents = [make_agent(spec) for spec in specs]
    tracker = ControlTracker()
    moves, legal_counts, leads = [], [], []
    while not state.is_terminal():
        player = state.current_player()
        legal = state.legal_moves()
        legal_counts.append(len(legal))
        move = legal[0] if len(legal) == 1 else agents[player].choose(state, rngs[player])
        moves.append(move)
        state = state.apply(move)
        tracker.update(state)
        leads.append(KIWARA.outcome(state).margin if state.is_terminal()
                     else KIWARA.evaluate(state, 0))
    return moves, legal_counts, leads, tracker.changes, state


@pytest.mark.parametrize("setup", ["classic", "president-single-swap", "twin-nines-first-places"])
@pytest.mark.parametrize("pairing", ["random,greedy", "greedy,greedy", "mcts:30,greedy",
                                     "random,mcts:30"])
def test_play_game_is_the_lab_game(setup, pairing):
    rules = compiled(setup)
    layout, variant = SETUPS[setup]
    pairing = Pairing.parse(pairing)
    for index in range(2):
        seed = game_seed(5, index)
        a_seat = agent_a_seat(index)
        specs = (pairing.a, pairing.b) if a_seat == 0 else (pairing.b, pairing.a)
        streams = (random.Random(f"{seed}:a"), random.Random(f"{seed}:b"))
        rngs = streams if a_seat == 0 else streams[::-1]
        start = opening(setup)
        got = rules.play_game(position_tuple(start), tuple(c_spec(s) for s in specs),
                              tuple(rng_state(r) for r in rngs))
        moves, legal, leads, changes, final = reference_game(start, specs, rngs)
        width = start.grid.width
        assert [as_move(m, width) for m in got["moves"]] == moves
        assert got["legal"] == legal
        assert got["leads"] == leads
        assert got["control_changes"] == changes
        assert got["final"] == position_tuple(final)
        assert got["rngs"] == tuple(rng_state(r) for r in rngs)
        # and the lab's own record of the game
        lab = play_game(layout_of(layout), variant_of(variant), pairing, 5, index, KIWARA,
                        keep_moves=True)
        assert lab.moves == tuple(str(as_move(m, width)) for m in got["moves"])
        ended = _restore(start.layout, start.variant, *got["final"])
        returns = ended.returns()
        winner = 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else None
        assert lab.winner == winner
        assert (lab.lead_changes, lab.decisiveness) == lead_statistics(got["leads"], winner)
        assert lab.stats["control_changes"] == got["control_changes"]
        assert lab.plies == len(got["legal"])


# -- Ctrl-C ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", ["mcts", "play_game"])
def test_a_long_search_can_be_interrupted(call):
    """The search runs without the GIL but looks at the signals every 1,000 iterations: Ctrl-C
    (here interrupt_main from another thread) stops it within a moment, with KeyboardInterrupt."""
    import _thread
    import threading
    import time
    rules = compiled("classic")
    state = opening("classic")
    timer = threading.Timer(0.3, _thread.interrupt_main)
    started = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            if call == "mcts":
                rules.mcts(position_tuple(state), 10**8, None, "random", 1.0,
                           rng_state(random.Random(1)))
            else:
                rules.play_game(position_tuple(state), (("mcts", 10**8, "random", 1.0),) * 2,
                                (rng_state(random.Random(1)), rng_state(random.Random(2))))
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 10
