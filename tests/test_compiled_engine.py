"""The compiled core and the Python engine side by side, where users meet them: the lab's games
(move by move, result by result, every statistic), the agents' choices and searches (and the
random stream they leave behind), and perft. The rules-level comparison (legal moves, positions,
evaluations from many positions) is in test_compiled_rules.py, the search's in
test_compiled_search.py.

Without a built core these tests are skipped, saying so (CI requires the core: conftest.py).
"""
from __future__ import annotations

import random

import pytest

from kiwara_designer.agents import make_agent
from kiwara_designer.agents.base import AgentSpecError
from kiwara_designer.agents.mcts import MctsAgent
from kiwara_designer.agents.solver import solve
from kiwara_designer.core.game import perft, perft_divide
from kiwara_designer.games.kiwara import KIWARA, KiwaraVariant, new_game
from kiwara_designer.games.kiwara import compiled
from kiwara_designer.games.kiwara.expert import ExpertAgent
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.layout import Layout
from kiwara_designer.lab.matches import Pairing, play_games, play_in_python

from engine_layouts import hand_layout

if compiled._engine is None:      # CI requires it (conftest.py: KIWARA_REQUIRE_CORE)
    pytest.skip("the compiled core is not built (no C compiler at install time)",
                allow_module_level=True)

VARIANTS = {
    "classic": KiwaraVariant(),
    "swap-anywhere": KiwaraVariant(crocodile_swap_needs_river=False),
    "one-swap": KiwaraVariant.load("single_crocodile_swap"),
    "no-swaps": KiwaraVariant.load("no_crocodile_swaps"),
    "gentle-lion": KiwaraVariant(lion_gazelles_flee=False, lion_flips_zebras=False,
                                 lion_blocked_by_rivers=True, face_down_next_to_lion=False),
    "anticlockwise": KiwaraVariant(totem_direction="anticlockwise", totem_min_step=2,
                                   totem_max_step=4, first_placer="first"),
    "tie-both": KiwaraVariant(territory_tie="both", okapi_points=0, gazelle_tokens=9,
                              swapped_gazelle_face_down_next_to_lion=False),
    "sparse": KiwaraVariant(zebra_tokens=2, gazelle_tokens=2, crocodile_tokens=1,
                            totem_min_step=3, totem_max_step=3),
}
# Boards of other sizes than 6 × 5: the engine takes any layout.
ODD_BOARDS = {
    "7x4": Layout.from_rows(["AAABBBB", "CCABBDD", "CCEEEDD", "FFFEEDD"]),
    "3x3": Layout.from_rows(["AAB", "CAB", "CCB"]),
}


def setups():
    yield "classic", load_layout("classic"), VARIANTS["classic"]
    yield "twin-nines", load_layout("twin-nines"), VARIANTS["swap-anywhere"]
    yield "president", load_layout("president"), VARIANTS["one-swap"]
    yield "mixed", hand_layout("mixed"), VARIANTS["gentle-lion"]
    yield "strips", hand_layout("strips"), VARIANTS["anticlockwise"]
    yield "six-fives", load_layout("six-fives"), VARIANTS["tie-both"]
    yield "7x4", ODD_BOARDS["7x4"], VARIANTS["sparse"]
    yield "3x3", ODD_BOARDS["3x3"], VARIANTS["no-swaps"]


SETUPS = list(setups())
IDS = [name for name, _, _ in SETUPS]


@pytest.fixture
def python_engine(monkeypatch):
    """Run the body with the Python engine: ``with python_engine(): ...``."""
    class Switch:
        def __enter__(self):
            monkeypatch.setenv(compiled.ENGINE_VARIABLE, "python")

        def __exit__(self, *exc):
            monkeypatch.delenv(compiled.ENGINE_VARIABLE)
    return Switch


def both_engines(python_engine, play):
    """``play()`` with the compiled core, then with the Python engine."""
    assert compiled.engine_name() == "compiled"
    fast = play()
    with python_engine():
        assert compiled.engine_name() == "python"
        slow = play()
    return fast, slow


def assert_same_games(fast, slow):
    assert len(fast) == len(slow)
    for a, b in zip(fast, slow):
        assert a.moves == b.moves, f"game {a.index}: the moves differ"
        assert a == b, f"game {a.index}: {a} != {b}"     # result, statistics, leads
        assert a.stats == b.stats


@pytest.mark.parametrize("name, layout, variant", SETUPS, ids=IDS)
@pytest.mark.parametrize("pairing, games", [("random,random", 60), ("greedy,random", 16),
                                            ("greedy,greedy", 10), ("mcts:25,greedy", 2),
                                            ("mcts:20:greedy,random", 2),
                                            ("mcts:12:egreedy,greedy", 2)])
def test_lab_games_are_the_same_games(python_engine, name, layout, variant, pairing, games):
    fast, slow = both_engines(python_engine, lambda: play_games(
        layout, variant, Pairing.parse(pairing), games, seed=11, workers=1, keep_moves=True))
    assert_same_games(fast, slow)


def positions(layout, variant, count, seed):
    """Positions of random games, every ply of a few games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_game(layout, variant)
        while not state.is_terminal() and len(found) < count:
            found.append(state)
            state = state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("name, layout, variant", SETUPS, ids=IDS)
def test_agents_choose_alike_and_leave_the_same_random_stream(python_engine, name, layout,
                                                               variant):
    agents = [make_agent("greedy", KIWARA), MctsAgent(iterations=40),
              MctsAgent(iterations=15, playout="greedy", exploration=0.6),
              MctsAgent(iterations=10, playout="egreedy", exploration=1.4)]
    for i, state in enumerate(positions(layout, variant, 40, seed=len(name))):
        if len(state.legal_moves()) < 2:
            continue
        for agent in agents:
            def decide():
                rng = random.Random(i)
                if isinstance(agent, MctsAgent):
                    result = agent.search(state, rng)
                    chosen = (result.move, result.iterations,
                              [(str(c.move), c.visits, c.mean) for c in result.children])
                else:
                    chosen = agent.choose(state, rng)
                return chosen, rng.random()
            fast, slow = both_engines(python_engine, decide)
            assert fast == slow, f"{agent.name} at ply {state.ply}"


@pytest.mark.parametrize("name, layout, variant", SETUPS, ids=IDS)
def test_perft_agrees(python_engine, name, layout, variant):
    depth = 4 if name in ("classic", "3x3") else 3
    starts = [new_game(layout, variant)] + positions(layout, variant, 3, seed=5)[1:]
    starts.append(positions(layout, variant, 14, seed=6)[-1])
    for state in starts:
        fast, slow = both_engines(python_engine, lambda: [perft(state, d)
                                                          for d in range(depth + 1)])
        assert fast == slow
        fast, slow = both_engines(python_engine, lambda: perft_divide(state, 2))
        assert fast == slow


def test_classic_perft_figures_by_hand():
    """The core's counts from the start of the classic board, by hand (the rules reference):
    22 openings, then (12 column stones × 5 cells + 10 row stones × 6 cells) × 5 kinds × 3
    totem steps."""
    state = new_game(load_layout("classic"))
    assert compiled.twin(state).perft(1) == 22
    assert compiled.twin(state).perft(2) == (12 * 5 + 10 * 6) * 5 * 3 == 1800


def test_time_budget_search_runs_in_the_core():
    state = positions(load_layout("classic"), KiwaraVariant(), 3, seed=1)[2]
    result = MctsAgent(iterations=None, seconds=0.05).search(state, random.Random(1))
    assert result.iterations > 50 and result.seconds < 1.0
    assert sum(c.visits for c in result.children) == result.iterations


def test_deck_games_stay_in_python():
    deck = KiwaraVariant(reinforcement="deck")
    state = new_game(load_layout("classic"), deck)
    assert KIWARA.compiled(state) is None
    assert KIWARA.compiled(new_game(load_layout("classic"))) is not None


def test_the_engine_variable_forces_python(python_engine):
    with python_engine():
        assert KIWARA.compiled(new_game(load_layout("classic"))) is None


# The full count: 100,000 random games and 2,000 greedy ones, over four setups, each
# compared move by move and result by result (both engines on every core: about two minutes).
AGREEMENT_SETUPS = [SETUPS[i] for i in (0, 2, 4, 6)]


@pytest.mark.slow
@pytest.mark.parametrize("name, layout, variant", AGREEMENT_SETUPS,
                         ids=[s[0] for s in AGREEMENT_SETUPS])
@pytest.mark.parametrize("pairing, games", [("random,random", 25_000), ("greedy,greedy", 500)])
def test_many_games_agree(python_engine, name, layout, variant, pairing, games):
    fast, slow = both_engines(python_engine, lambda: play_games(
        layout, variant, Pairing.parse(pairing), games, seed=23, workers=2, keep_moves=True))
    assert_same_games(fast, slow)


# -- the exact endgame search and the expert --------------------------------------------------
def endgame_positions(layout, variant, left, count, seed):
    """Positions of random games with ``left`` placements left (a player to move)."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = new_game(layout, variant)
        while not state.is_terminal() and state.placements_left > left:
            state = state.apply(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            found.append(state)
    return found


def minimax(state, root):
    """Win/draw/loss for ``root`` by brute force: every line to the end, no pruning (the
    independent check of the alpha-beta search)."""
    if state.is_terminal():
        return round(state.returns()[root])
    values = [minimax(state.apply(m), root) for m in state.legal_moves()]
    return max(values) if state.current_player() == root else min(values)


@pytest.mark.parametrize("name, layout, variant", SETUPS[:6], ids=IDS[:6])
def test_solver_values_are_the_brute_force_values(python_engine, name, layout, variant):
    for state in endgame_positions(layout, variant, 2, 12, seed=3):
        root = state.current_player()
        expected = max(minimax(state.apply(m), root) for m in state.legal_moves())
        for engine in ("compiled", "python"):
            if engine == "python":
                with python_engine():
                    value, index = solve(state, 10**6)
            else:
                value, index = solve(state, 10**6)
            assert value == expected
            # the move chosen reaches that value, and it is the first that does
            values = [minimax(state.apply(m), root) for m in state.legal_moves()]
            assert values[index] == value and values.index(value) == index


@pytest.mark.parametrize("name, layout, variant", SETUPS, ids=IDS)
def test_solver_agrees_node_for_node(python_engine, name, layout, variant):
    for state in endgame_positions(layout, variant, 6, 6, seed=8):
        for budget in (50, 400, 3000, 20_000):
            fast, slow = both_engines(python_engine, lambda: solve(state, budget))
            assert fast == slow, f"budget {budget}"
        # the smallest budget that suffices is the same: both count the same positions
        def smallest(low=1, high=20_000):
            if solve(state, high) is None:
                return None
            while low < high:
                middle = (low + high) // 2
                low, high = (low, middle) if solve(state, middle) else (middle + 1, high)
            return low
        fast, slow = both_engines(python_engine, smallest)
        assert fast == slow


@pytest.mark.parametrize("name, layout, variant", SETUPS[:4], ids=IDS[:4])
def test_the_expert_plays_alike_in_both_engines(python_engine, name, layout, variant):
    expert = ExpertAgent("expert:test", iterations=30, solve_cells=9, solve_nodes=4000)
    for i, state in enumerate(positions(layout, variant, 30, seed=2)
                              + endgame_positions(layout, variant, 8, 4, seed=4)):
        if len(state.legal_moves()) < 2:
            continue

        def decide():
            rng = random.Random(i)
            return expert.choose(state, rng), rng.random()
        fast, slow = both_engines(python_engine, decide)
        assert fast == slow, f"ply {state.ply}"
    # a whole game in one call of the core, against the protocol's loop
    start = new_game(layout, variant)
    agents = (expert, make_agent("greedy", KIWARA))
    fast = compiled.twin(start).play(agents, ["1:a", "1:b"])
    slow = play_in_python(KIWARA, start, agents, [random.Random("1:a"), random.Random("1:b")],
                          random.Random(3))
    assert (fast.moves, fast.legal, fast.leads, fast.final) == \
        (slow.moves, slow.legal, slow.leads, slow.final)
    assert fast.tracker_stats == slow.tracker_stats


def test_expert_spec():
    assert make_agent("expert", KIWARA) == ExpertAgent("expert")
    assert make_agent("expert:500", KIWARA).iterations == 500
    for bad in ("expert:0", "expert:x", "expert:5:6"):
        with pytest.raises(AgentSpecError):
            make_agent(bad, KIWARA)


@pytest.mark.parametrize("seed", ["0:a", "123456789:b", "", "é" * 70, "x" * 1000])
def test_a_stream_started_from_its_seed_is_random_Random_of_that_seed(seed):
    """The lab's games start each agent's stream in the core from its seed's key: the same
    numbers as random.Random(seed) (checked through a whole random game's moves)."""
    state = new_game(load_layout("classic"))
    agents = (make_agent("random", KIWARA), make_agent("random", KIWARA))
    fast = compiled.twin(state).play(agents, [seed, seed + "!"])
    slow = play_in_python(KIWARA, state, agents, [random.Random(seed), random.Random(seed + "!")],
                          random.Random(0))
    assert fast.moves == slow.moves and fast.final == slow.final
