"""The compiled rules core (_engine.Rules, kiwara_designer/games/kiwara/_core/rules.c) against
the Python engine, the reference: the same legal moves in the same order, the same position
after every one of them, the same scores, holders, results and evaluations (bit for bit), the
same perft counts; on the classic board and others, under variants that switch every rule."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

engine = pytest.importorskip("kiwara_designer.games.kiwara._engine")

from kiwara_designer.games.kiwara import (KiwaraVariant, Move, builtin_variant_names,  # noqa: E402
                                          load_layout, load_variant, new_game, perft,
                                          perft_divide)
from kiwara_designer.games.kiwara.compiled import position_tuple, rules_tables  # noqa: E402
from kiwara_designer.games.kiwara.evaluation import evaluate  # noqa: E402
from kiwara_designer.games.kiwara.game import territory_holders  # noqa: E402
from kiwara_designer.games.kiwara.generator import sample_layouts  # noqa: E402
from kiwara_designer.games.kiwara.geometry import Grid  # noqa: E402
from kiwara_designer.games.kiwara.layout import Layout  # noqa: E402


@pytest.fixture(autouse=True)
def python_reference(monkeypatch):
    """The Python side of every comparison is the pure-Python engine: the agents and perft
    would otherwise hand the work to the compiled core itself."""
    monkeypatch.setenv("KIWARA_ENGINE", "python")

KINDS = "ZGELC"


def move_tuple(move: Move) -> tuple:
    """A Python Move as _engine gives it: (kind, cell, swaps, totem), -1 for what is not set."""
    return (-1 if move.kind is None else KINDS.index(move.kind),
            -1 if move.cell is None else move.cell, tuple(move.swaps),
            -1 if move.totem is None else move.totem)


def tuple_move(t: tuple, width: int) -> Move:
    """An _engine move as the Python Move (opening, pass or placement)."""
    kind, cell, swaps, totem = t
    if kind < 0:
        return Move(totem=None if totem < 0 else totem)
    return Move(KINDS[kind], cell, tuple(swaps), None if totem < 0 else totem, width)


# -- layouts and variants --------------------------------------------------------------------
def random_rows(rng: random.Random, width: int, height: int, territories: int) -> list[str]:
    """Any assignment of cells to territories (the engine does not need a valid layout)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[:territories]
    while True:
        rows = ["".join(rng.choice(letters) for _ in range(width)) for _ in range(height)]
        if len(set("".join(rows))) == territories:
            return rows


_rng = random.Random(20261202)
BUILTIN_LAYOUTS = ["classic", "president", "full-range", "great-plain", "long-grass",
                   "six-fives", "three-sevens", "twin-nines"]
OTHER_LAYOUTS = {
    "sample-4x4": sample_layouts(1, 7, grid=Grid(4, 4), territories=4, sizes=(3, 5))[0],
    "sample-7x5": sample_layouts(1, 11, grid=Grid(7, 5), territories=7, sizes=(3, 5, 7))[0],
    "rows-3x7": Layout.from_rows(random_rows(_rng, 3, 7, 4)),
    "rows-10x3": Layout.from_rows(random_rows(_rng, 10, 3, 6)),
    "rows-1x5": Layout.from_rows(random_rows(_rng, 1, 5, 2)),
    "rows-26x2": Layout.from_rows(random_rows(_rng, 26, 2, 9)),
    "rows-2x2": Layout.from_rows(["AB", "BA"]),
}


def layout(name: str) -> Layout:
    return OTHER_LAYOUTS[name] if name in OTHER_LAYOUTS else load_layout(name)


VARIANTS = {
    "classic": {},
    "swaps-0": {"crocodile_swaps": 0},
    "swaps-1": {"crocodile_swaps": 1},
    "chain-anywhere": {"crocodile_swap_needs_river": False, "gazelle_tokens": 9,
                       "crocodile_tokens": 4},
    "swap-1-anywhere": {"crocodile_swaps": 1, "crocodile_swap_needs_river": False},
    "quiet-lions": {"lion_gazelles_flee": False, "lion_flips_zebras": False,
                    "face_down_next_to_lion": False,
                    "swapped_gazelle_face_down_next_to_lion": False, "lion_tokens": 3},
    "river-lions": {"lion_blocked_by_rivers": True, "lion_tokens": 4, "gazelle_tokens": 8,
                    "crocodile_swap_needs_river": False},
    "flee-only": {"lion_flips_zebras": False, "face_down_next_to_lion": False, "lion_tokens": 5},
    "steps-2-5-anti": {"totem_min_step": 2, "totem_max_step": 5,
                       "totem_direction": "anticlockwise"},
    "step-1": {"totem_max_step": 1},
    "steps-far": {"totem_min_step": 7, "totem_max_step": 9},
    "first-first-tie-both": {"first_placer": "first", "territory_tie": "both",
                             "okapi_points": -3, "zebra_points": -2},
    "few-tokens": {"zebra_tokens": 0, "gazelle_tokens": 3, "elephant_tokens": 0,
                   "lion_tokens": 2, "crocodile_tokens": 1},
    "one-token": {"zebra_tokens": 1, "gazelle_tokens": 0, "elephant_tokens": 0,
                  "lion_tokens": 0, "crocodile_tokens": 0},
    "many-tokens": {"zebra_tokens": 99, "gazelle_tokens": 99, "elephant_tokens": 99,
                    "lion_tokens": 99, "crocodile_tokens": 99, "territory_tie": "both"},
}


def variant(name: str) -> KiwaraVariant:
    if name.startswith("builtin:"):
        return load_variant(name[len("builtin:"):])
    return KiwaraVariant(name=name, **VARIANTS[name])


BUILTIN_VARIANTS = [f"builtin:{n}" for n in builtin_variant_names()
                    if not load_variant(n).deck_game]


def rules_of(state) -> "engine.Rules":
    return engine.Rules(rules_tables(state._t))


# -- checking one position -------------------------------------------------------------------
def check_position(rules, state) -> None:
    """Everything the core computes about ``state`` is what the Python engine computes."""
    pos = position_tuple(state)
    moves = state.legal_moves()
    c_moves = rules.legal_moves(pos)
    assert c_moves == [move_tuple(m) for m in moves]
    width = state.grid.width
    for i, move in enumerate(moves):
        assert tuple_move(c_moves[i], width) == move
        assert rules.apply(pos, i) == position_tuple(state.apply(move)), (i, move)
    scoring = state.scoring()
    for player in (0, 1):
        c_value, py_value = rules.evaluate(pos, player), evaluate(state, player)
        assert c_value == py_value and repr(c_value) == repr(py_value)
    assert rules.score(pos) == scoring.totals
    assert rules.holders(pos) == territory_holders(scoring)
    assert rules.first_return(pos) == state.returns()[0]


def random_game(state, rng: random.Random, plies: int | None = None):
    """The states of a random game from ``state`` (itself included)."""
    states = [state]
    while not state.is_terminal() and (plies is None or len(states) <= plies):
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    return states


CASES = ([("classic", v) for v in list(VARIANTS) + BUILTIN_VARIANTS]
         + [(name, "classic") for name in BUILTIN_LAYOUTS[1:] + list(OTHER_LAYOUTS)]
         + [("president", "chain-anywhere"), ("twin-nines", "river-lions"),
            ("sample-4x4", "chain-anywhere"), ("sample-7x5", "steps-2-5-anti"),
            ("rows-3x7", "few-tokens"), ("rows-10x3", "quiet-lions"), ("rows-1x5", "step-1"),
            ("rows-26x2", "swaps-1"), ("rows-2x2", "few-tokens"), ("rows-2x2", "one-token"),
            ("sample-4x4", "many-tokens"), ("six-fives", "first-first-tie-both"),
            ("long-grass", "flee-only"), ("three-sevens", "steps-far"),
            ("full-range", "swap-1-anywhere")])


@pytest.mark.parametrize("layout_name, variant_name", CASES)
def test_every_position_of_random_games_matches(layout_name, variant_name):
    start = new_game(layout(layout_name), variant(variant_name))
    rules = rules_of(start)
    rng = random.Random(f"{layout_name}/{variant_name}")
    for _ in range(3):
        for state in random_game(start, rng):
            check_position(rules, state)


def test_the_largest_board_and_reserves():
    rng = random.Random(99)
    big = Layout.from_rows(random_rows(rng, 26, 99, 26))
    for name in ("classic", "many-tokens", "chain-anywhere"):
        start = new_game(big, variant(name))
        rules = rules_of(start)
        for state in random_game(start, rng, plies=12):
            check_position(rules, state)


# -- perft -----------------------------------------------------------------------------------
def mid_game(state, seed: int, plies: int):
    states = random_game(state, random.Random(seed), plies)
    return states[-1]


PERFT_CASES = [("classic", "classic"), ("classic", "swaps-1"), ("classic", "quiet-lions"),
               ("classic", "steps-2-5-anti"), ("president", "chain-anywhere"),
               ("sample-4x4", "few-tokens"), ("rows-10x3", "first-first-tie-both"),
               ("twin-nines", "river-lions"), ("rows-2x2", "classic")]


@pytest.mark.parametrize("layout_name, variant_name", PERFT_CASES)
def test_perft_1_to_3_matches_from_the_opening_and_mid_game(layout_name, variant_name):
    start = new_game(layout(layout_name), variant(variant_name))
    rules = rules_of(start)
    for state in (start, mid_game(start, 5, 9), mid_game(start, 6, 16)):
        pos = position_tuple(state)
        for depth in range(4):
            assert rules.perft(pos, depth) == perft(state, depth), (state.ply, depth)
        assert rules.divide(pos, 2) == [n for _, n in perft_divide(state, 2)]


def test_classic_perft_4_from_the_opening_and_mid_game():
    start = new_game(load_layout("classic"))
    rules = rules_of(start)
    assert rules.perft(position_tuple(start), 4) == 10601553 == perft(start, 4)
    state = mid_game(start, 17, 12)
    assert rules.perft(position_tuple(state), 4) == perft(state, 4)


def test_perft_at_the_end_of_a_game():
    start = new_game(load_layout("classic"), variant("few-tokens"))
    rules = rules_of(start)
    end = random_game(start, random.Random(3))[-1]
    assert end.is_terminal()
    pos = position_tuple(end)
    assert [rules.perft(pos, d) for d in range(4)] == [perft(end, d) for d in range(4)] == [1, 0, 0, 0]
    assert rules.legal_moves(pos) == [] and rules.divide(pos, 3) == []


# -- random move sequences -------------------------------------------------------------------
SEQUENCE_CASES = [("classic", "classic"), ("classic", "chain-anywhere"),
                  ("sample-4x4", "few-tokens"), ("rows-3x7", "river-lions"),
                  ("president", "first-first-tie-both"), ("rows-2x2", "many-tokens")]


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(SEQUENCE_CASES),
       choices=st.lists(st.integers(min_value=0, max_value=10 ** 6), max_size=60))
def test_random_move_sequences(case, choices):
    state = new_game(layout(case[0]), variant(case[1]))
    rules = rules_of(state)
    pos = position_tuple(state)
    for choice in choices:
        moves = state.legal_moves()
        c_moves = rules.legal_moves(pos)
        assert c_moves == [move_tuple(m) for m in moves]
        if not moves:
            break
        i = choice % len(moves)
        state = state.apply(moves[i])
        pos = rules.apply(pos, i)
        assert pos == position_tuple(state)
        assert rules.evaluate(pos, i % 2) == evaluate(state, i % 2)
        assert rules.score(pos) == state.scoring().totals


# -- bad input -------------------------------------------------------------------------------
def test_bad_tables_and_positions_raise_instead_of_crashing():
    start = new_game(load_layout("classic"))
    tables = rules_tables(start._t)
    rules = engine.Rules(tables)
    for key, value in [("width", 27), ("width", "6"), ("size", 31), ("positions", 0),
                       ("lines", ()), ("lines", ((30,),) * 22), ("crossing", ((0,),) * 22),
                       ("pos_line", (11,) * 22), ("cell_lines", ((0, 1, 2),) * 30),
                       ("step_targets", (((22, 0),),) * 22), ("jump_targets", ((1,),) * 22),
                       ("lion_reach", ((-1,),) * 30), ("swap_reach", 5),
                       ("territory", (6,) * 30), ("territory_cells", ()),
                       ("tokens", (5, 6, 1, 1)), ("tokens", (100, 0, 0, 0, 0)),
                       ("max_swaps", -2), ("lion_flee", 2), ("first_placer", 2),
                       ("okapi_points", 10 ** 30), ("okapi_points", 10 ** 9),
                       ("points", (10 ** 6, 0, 0, 0, 0)), ("tie_both", None)]:
        bad = dict(tables, **{key: value})
        with pytest.raises((ValueError, TypeError)):
            engine.Rules(bad)
    bad = dict(tables)
    del bad["lines"]
    with pytest.raises(ValueError):
        engine.Rules(bad)
    with pytest.raises(TypeError):
        engine.Rules([])
    with pytest.raises(TypeError):          # immutable: perft may be running without the GIL
        rules.__init__(tables)
    with pytest.raises(ValueError):
        engine.Rules.__new__(engine.Rules).legal_moves(position_tuple(start))
    pos = position_tuple(start)
    for i, value in [(0, (0,) * 29), (0, (6,) + (0,) * 29), (0, (32,) + (0,) * 29),
                     (1, (0,) * 9), (1, (-1,) + (0,) * 9), (2, (5,) * 10), (3, 31),
                     (4, 22), (4, -2), (5, 2), (6, -2), (7, "1")]:
        bad = pos[:i] + (value,) + pos[i + 1:]
        with pytest.raises((ValueError, TypeError)):
            rules.legal_moves(bad)
    with pytest.raises((ValueError, TypeError)):
        rules.legal_moves(pos[:7])
    with pytest.raises(IndexError):
        rules.apply(pos, 22)
    with pytest.raises(IndexError):
        rules.apply(pos, -1)
    with pytest.raises(ValueError):
        rules.perft(pos, -1)
    with pytest.raises(ValueError):
        rules.divide(pos, 0)
    with pytest.raises(ValueError):
        rules.evaluate(pos, 2)
