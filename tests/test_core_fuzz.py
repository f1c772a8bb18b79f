"""A fuzz of the compiled core's entry points: every method of ``_engine.Rules`` (and the
constructor, and ``rng_draws``) called with wrong types, wrong lengths, values out of range,
NaN and infinities, positions no game reaches, hand-built tables and uninitialised objects. The
only thing allowed out is a Python exception of the kinds the core documents (never a crash,
never SystemError). Deterministic: seeded draws, the same calls every run.

``make sanitize`` runs this file (and the compiled-core tests) against a build with
AddressSanitizer and UBSan, which turns a read or write out of bounds, a use after free or an
undefined operation into a failure even where it happens not to crash."""
from __future__ import annotations

import math
import os
import random
import time

import pytest

engine = pytest.importorskip("kiwara_designer.games.kiwara._engine")

from kiwara_designer.games.kiwara import KiwaraVariant, load_layout, new_game  # noqa: E402
from kiwara_designer.games.kiwara.compiled import position_tuple, rules_tables  # noqa: E402
from kiwara_designer.games.kiwara.layout import Layout  # noqa: E402

Rules = engine.Rules
# What the core may raise: wrong types, wrong values (MoveLimitError is a ValueError), a move
# index out of range, and "a position that is not over has no legal move" for a position no
# game reaches.
ALLOWED = (TypeError, ValueError, IndexError, RuntimeError)
ROUNDS = int(os.environ.get("KIWARA_FUZZ_ROUNDS", "1000"))


class Weird:
    """An object the core has never heard of."""

    def __index__(self) -> int:
        raise ValueError("no index here")


JUNK = [None, "x", "", b"\0", 1.5, math.nan, math.inf, -math.inf, -1, 0, 2 ** 63,
        -2 ** 63 - 1, 2 ** 70, [], (), {}, [1, 2], (0,) * 3, True, object(), Weird(),
        frozenset({1}), range(3), complex(1, 1)]
# (no large number the core accepts: 2 ** 31 iterations or positions of budget would run for
# hours, legitimately)


def junk(rng: random.Random):
    return rng.choice(JUNK)


SETUPS = [("classic", KiwaraVariant()),
          ("rows-3x4", KiwaraVariant(name="chain-anywhere", crocodile_swap_needs_river=False,
                                     gazelle_tokens=9, crocodile_tokens=4)),
          ("rows-2x2", KiwaraVariant(name="few", zebra_tokens=0, gazelle_tokens=3,
                                     elephant_tokens=0, lion_tokens=2, crocodile_tokens=1))]


def layout_of(name: str) -> Layout:
    if name == "rows-3x4":
        return Layout.from_rows(["AAB", "ABB", "CCB", "CCD"])
    if name == "rows-2x2":
        return Layout.from_rows(["AB", "BA"])
    return load_layout(name)


def positions(start, rng: random.Random, games: int = 3) -> list:
    """Real positions (the opening, mid-game, the end) of a few random games."""
    found = [start]
    for _ in range(games):
        state = start
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_moves()))
            found.append(state)
    return [position_tuple(s) for s in found]


def plausible(pos: tuple, rng: random.Random, positions: int) -> tuple:
    """The position with what a game would keep consistent left so, and the rest changed within
    range: the reserves, who moves, the Okapi, the ply, the totem."""
    board, reserve, lines, empty, totem, to_move, okapi, ply = pos
    reserve = tuple(rng.choice([0, 0, 1, 2, 5, 30]) if rng.random() < 0.4 else n for n in reserve)
    if totem >= 0 and rng.random() < 0.3:
        totem = rng.randrange(positions)
    if to_move >= 0 or rng.random() < 0.3:
        to_move = rng.choice([0, 1, to_move])
    okapi = rng.choice([-1, 0, 1, okapi, okapi])
    ply = rng.choice([ply, 0, 10 ** 9 - 5, rng.randrange(200)])
    return (board, reserve, lines, empty, totem, to_move, okapi, ply)


def mutate(pos: tuple, rng: random.Random, size: int) -> tuple:
    """The position with one field, or one item of a field, changed: to junk, to a value out
    of range, to a value in range that breaks what the engines keep true, or cut short."""
    if not isinstance(pos, tuple) or len(pos) != 8:
        return pos
    pos = list(pos)
    field = rng.randrange(9)
    if field == 8:
        return tuple(pos[:rng.randrange(8)]) if rng.random() < 0.5 else tuple(pos) + (0,)
    if field < 3 and isinstance(pos[field], (tuple, list)):
        items = list(pos[field])
        how = rng.randrange(4)
        if how == 0 and items:
            items[rng.randrange(len(items))] = junk(rng)
        elif how == 1 and items:
            items[rng.randrange(len(items))] = rng.choice([-1, 32, 6, 7, 15, 1000, 10 ** 7,
                                                          size + 1, 3, 20, 24, 17])
        elif how == 2:
            items = items[:-1] if rng.random() < 0.5 else items + [0]
        else:
            pos[field] = junk(rng)
            return tuple(pos)
        pos[field] = tuple(items) if rng.random() < 0.8 else items
    else:
        pos[field] = rng.choice([junk(rng), -2, -1, 0, 1, 2, size, size + 1, 10 ** 9, 10 ** 9 + 1])
    return tuple(pos)


def small_words(rng: random.Random):
    """A random state: a real one, a seed's key, or a broken one."""
    words = random.Random(rng.random()).getstate()[1]
    return rng.choice([words, list(words), b"seed", b"", words[:-1], words + (0,),
                       words[:-1] + (625,), (-1,) + words[1:], (2 ** 32,) + words[1:],
                       ("x",) + words[1:], junk(rng)])


def agent_spec(rng: random.Random):
    if rng.random() < 0.7:
        return rng.choice([("random",), ("greedy",), ("mcts", 3, "random", 1.0),
                           ("mcts", 3, "egreedy", 0.5), ("expert", 3, 1.0, 4, 300)])
    return rng.choice([
                       ("mcts", rng.choice([0, -1, 2 ** 70, 1.5, "3"]), "random", 1.0),
                       ("mcts", 3, rng.choice(["", "nope", None, b"random"]), 1.0),
                       ("mcts", 3, "greedy", rng.choice([math.nan, -math.inf, math.inf, -1, "1"])),
                       ("expert", 3, rng.choice([math.nan, math.inf, -0.5]), 4, 300),
                       ("expert", 3, 1.0, rng.choice([-1, 2 ** 70, None]), 300),
                       ("mcts", 3), ("expert",), (), ("nobody",), ("random", 1), [("random",)],
                       junk(rng)])


def calls(rules, pos, rng: random.Random, size: int) -> list:
    """Every entry point, with arguments mostly right and now and then wrong."""
    def number(good):
        return good if rng.random() < 0.85 else junk(rng)

    def words():
        return random.Random(rng.random()).getstate()[1] if rng.random() < 0.7 else \
            small_words(rng)

    policy = rng.choice(["random", "greedy", "egreedy"]) if rng.random() < 0.8 else \
        rng.choice([None, "bad", b"random", 1])
    deadline = None if rng.random() < 0.7 else rng.choice(
        [0.0, math.nan, math.inf, -math.inf, "soon", time.perf_counter() + 0.002])
    return [
        lambda: rules.legal_moves(pos),
        lambda: rules.apply(pos, number(rng.randrange(-2, 40))),
        lambda: rules.perft(pos, number(rng.randrange(-1, 3))),
        lambda: rules.divide(pos, number(rng.randrange(0, 3))),
        lambda: rules.evaluate(pos, number(rng.randrange(-1, 3))),
        lambda: rules.score(pos),
        lambda: rules.holders(pos),
        lambda: rules.first_return(pos),
        lambda: rules.playout(pos, policy, words()),
        lambda: rules.greedy(pos, words()),
        lambda: rules.mcts(pos, number(rng.randrange(-1, 30)), deadline, policy,
                           number(rng.choice([0.0, 0.7, 1.4, 1e300, -1.0, math.nan])), words()),
        lambda: rules.solve(pos, number(rng.randrange(-5, 3000))),
        lambda: rules.play_game(pos, (agent_spec(rng), agent_spec(rng)) if rng.random() < 0.8
                                else rng.choice([[("random",), ("random",)], (("random",),)]),
                                (b"a", b"b") if rng.random() < 0.7 else rng.choice(
                                    [(small_words(rng), small_words(rng)), (b"a",), [b"a", b"b"],
                                     junk(rng)]),
                                rng.choice([True, False, junk(rng)])),
        lambda: rules.play_game(pos),
        lambda: rules.apply(pos),
        lambda: rules.mcts(pos, 5, None, "random", 1.0),
    ]


def expect_only_python_errors(call) -> None:
    try:
        call()
    except ALLOWED:
        pass


@pytest.mark.parametrize("setup", range(len(SETUPS)))
def test_every_entry_point_with_bad_and_odd_arguments(setup):
    name, variant = SETUPS[setup]
    start = new_game(layout_of(name), variant)
    rules = Rules(rules_tables(start._t))
    size = start.grid.size
    rng = random.Random(f"fuzz/{name}")
    real = positions(start, rng)
    for _ in range(ROUNDS):
        pos = rng.choice(real)
        draw = rng.random()
        if draw < 0.4:
            pos = plausible(pos, rng, start.grid.positions)
        elif draw < 0.8:
            for _ in range(rng.randrange(1, 3)):
                pos = mutate(pos, rng, size)
        elif draw < 0.85:
            pos = junk(rng)
        for call in calls(rules, pos, rng, size):
            expect_only_python_errors(call)


def test_uninitialised_rules_refuse_every_method():
    rules = Rules.__new__(Rules)
    start = new_game(load_layout("classic"))
    rng = random.Random(5)
    empty = ((), (0,) * 10, (), 0, -1, 0, -1, 0)
    for pos in (position_tuple(start), empty):
        for call in calls(rules, pos, rng, 0):
            with pytest.raises(ALLOWED):
                call()


def test_rng_draws_with_every_kind_of_bad_op():
    rng = random.Random(11)
    ops = [("below", 5), ("bits", 7), ("random",), ("sample", 30, 4), ("sample", 1000, 50)]
    for _ in range(ROUNDS * 2):
        chosen = [rng.choice(ops) for _ in range(rng.randrange(4))]
        if rng.random() < 0.8:
            i = rng.randrange(len(chosen) + 1)
            bad = rng.choice([junk(rng), ("below",), ("below", 0), ("below", 2 ** 32),
                              ("bits", 33), ("bits", -1), ("sample", 5, 6), ("sample", 10 ** 6, 1),
                              ("sample", -1, 0), ("random", 1), ["below", 5], ("nope",),
                              (b"below", 3), (junk(rng), junk(rng)), ("below", junk(rng)),
                              ("sample", junk(rng), junk(rng))])
            chosen.insert(i, bad)
        for ops_value in (chosen, tuple(chosen), junk(rng)):
            expect_only_python_errors(lambda: Rules.rng_draws(small_words(rng), ops_value))


def tables_with(tables: dict, rng: random.Random, positions: int, size: int) -> dict:
    """The tables with one entry changed: junk, a list too long or short, a value out of
    range, or a key missing."""
    bad = dict(tables)
    key = rng.choice(sorted(tables))
    how = rng.randrange(5)
    value = tables[key]
    if how == 0:
        bad[key] = junk(rng)
    elif how == 1:
        del bad[key]
    elif how == 2 and isinstance(value, tuple):
        bad[key] = value * rng.choice([2, 50]) if value else (junk(rng),)
    elif how == 3 and isinstance(value, tuple) and value:
        rows = list(value)
        i = rng.randrange(len(rows))
        if isinstance(rows[i], tuple):
            item = rng.choice([-1, positions, size, 2 ** 40, junk(rng), (0, -1), (positions, 0),
                               (0, 10 ** 6), (1, 0)])
            rows[i] = rows[i] * rng.choice([1, 3, 300]) + (item,)
        else:
            rows[i] = junk(rng)
        bad[key] = tuple(rows)
    else:
        bad[key] = rng.choice([-1, 0, 1, 2, positions + 1, size + 1, 10 ** 9, 2 ** 70])
    return bad


def test_hand_built_tables_are_checked_or_played_safely():
    rng = random.Random(3)
    for name, variant in SETUPS:
        start = new_game(layout_of(name), variant)
        tables = rules_tables(start._t)
        real = positions(start, rng, games=1)
        for _ in range(ROUNDS // 2):
            bad = tables_with(tables, rng, tables["positions"], tables["size"])
            try:
                rules = Rules(bad)
            except ALLOWED:
                continue
            # accepted: then every method must still be safe on its positions
            for pos in rng.sample(real, min(3, len(real))):
                for call in calls(rules, pos, rng, tables["size"]):
                    expect_only_python_errors(call)
        with pytest.raises(TypeError):
            Rules(tables).__init__(tables)
