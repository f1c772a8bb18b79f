"""Whole random games: invariants checked at every move (hypothesis), and many games ending well."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_layouts import random_free_play_layout
from kiwara_designer.games.kiwara import KINDS, PASS, IllegalMoveError, Move, KiwaraVariant, new_game
from kiwara_designer.games.kiwara.formats import load_layout


def independent_totals(state):
    """Scores recomputed from the visible tokens, the way the rules text says."""
    v = state.variant
    points = dict(zip(KINDS, v.points))
    totals = [0, 0]
    for territory in state.layout.territories:
        tokens = [state.token(c) for c in territory.cells]
        mine = [sum(1 for t in tokens if t and t.owner == p) for p in (0, 1)]
        value = sum(points[t.kind] for t in tokens if t and t.face_up)
        if mine[0] != mine[1]:
            totals[0 if mine[0] > mine[1] else 1] += value
        elif v.territory_tie == "both" and mine[0] > 0:
            totals[0] += value
            totals[1] += value
    if state.okapi is not None:
        totals[state.okapi] += v.okapi_points
    return tuple(totals)


def check_invariants(state):
    v = state.variant
    for player in (0, 1):
        on_board = {k: 0 for k in KINDS}
        for c in state.grid.cells:
            token = state.token(c)
            if token and token.owner == player:
                on_board[token.kind] += 1
        reserve = state.reserve(player)
        assert all(n >= 0 for n in reserve.values())
        assert {k: on_board[k] + reserve[k] for k in KINDS} == dict(zip(KINDS, v.tokens))
    for c in state.grid.cells:     # only zebras and gazelles are ever face down
        token = state.token(c)
        assert token is None or token.face_up or token.kind in "ZG"
    assert state.scoring().totals == independent_totals(state)
    full = any(all(state.token(c) for c in t.cells) for t in state.layout.territories)
    if full:
        assert state.okapi is not None
    board_full = not state.empty_cells()
    reserves_empty = not any(state.reserve(0).values()) and not any(state.reserve(1).values())
    if state.totem is not None:
        assert state.is_terminal() == (board_full or reserves_empty)
    moves = state.legal_moves()
    assert len(set(moves)) == len(moves)
    assert state.is_terminal() == (not moves) == (state.current_player() == -1)


token_counts = st.tuples(st.integers(0, 6), st.integers(0, 7), st.integers(0, 2),
                         st.integers(0, 2), st.integers(0, 3)).filter(lambda t: sum(t) > 0)
variants = st.builds(
    lambda tokens, **rest: KiwaraVariant(**dict(zip(
        ("zebra_tokens", "gazelle_tokens", "elephant_tokens", "lion_tokens", "crocodile_tokens"),
        tokens)), **rest),
    token_counts,
    gazelle_points=st.integers(0, 4), crocodile_points=st.integers(-1, 2),
    totem_min_step=st.integers(1, 2), totem_max_step=st.integers(2, 5),
    crocodile_swaps=st.sampled_from([0, 1, "chain"]),
    crocodile_swap_needs_river=st.booleans(), lion_gazelles_flee=st.booleans(),
    lion_flips_zebras=st.booleans(), lion_blocked_by_rivers=st.booleans(),
    face_down_next_to_lion=st.booleans(), territory_tie=st.sampled_from(["nobody", "both"]),
    first_placer=st.sampled_from(["first", "second"]),
)


@settings(max_examples=40, deadline=None)
@given(variants, st.integers(0, 2 ** 32), st.integers(0, 2 ** 32))
def test_invariants_hold_along_random_games_of_any_variant(variant, layout_seed, seed):
    layout = random_free_play_layout(random.Random(layout_seed))
    rng = random.Random(seed)
    state = new_game(layout, variant)
    ply = 0
    while True:
        check_invariants(state)
        assert state.ply == ply
        if state.is_terminal():
            break
        moves = state.legal_moves()
        before = state.legal_moves()
        state = state.apply(rng.choice(moves))
        assert before == moves            # applying does not change the old state
        ply += 1
        assert ply < 400


def test_same_seed_same_game():
    def game(seed):
        rng = random.Random(seed)
        state = new_game(load_layout("classic"))
        texts = []
        while not state.is_terminal():
            move = rng.choice(state.legal_moves())
            texts.append(str(move))
            state = state.apply(move)
        return texts
    assert game(9) == game(9) and game(9) != game(10)


def test_300_random_games_on_random_free_play_layouts_end_full_and_odd():
    rng = random.Random(2024)
    for _ in range(300):
        layout = random_free_play_layout(rng)
        state = new_game(layout)
        while not state.is_terminal():
            state = state.apply(rng.choice(state.legal_moves()))
        assert not state.empty_cells()
        assert not any(state.reserve(0).values()) and not any(state.reserve(1).values())
        scoring = state.scoring()
        assert scoring.totals == independent_totals(state)
        assert sum(scoring.totals) % 2 == 1 and scoring.winner is not None
        assert scoring.okapi is not None
        assert state.returns() == ((1.0, -1.0) if scoring.winner == 0 else (-1.0, 1.0))


def candidate_moves(state, rng):
    """Legal moves, and plausible near misses: other cells, kinds, totem positions, swap paths."""
    grid = state.grid
    legal = state.legal_moves()
    candidates = list(legal) + [PASS, Move.opening(rng.randrange(grid.positions))]
    for _ in range(25):
        cell = rng.randrange(grid.size)
        totem = rng.choice([None, rng.randrange(grid.positions)])
        swaps = ()
        if rng.random() < 0.3:
            path, at = [], cell
            for _ in range(rng.randrange(1, 4)):
                at = rng.choice(grid.neighbours[at])
                path.append(at)
            swaps = tuple(path)
        kind = "C" if swaps else rng.choice(KINDS)
        candidates.append(Move(kind, cell, swaps, totem, grid.width))
    for move in legal:
        if move.swaps:
            candidates.append(Move("C", move.cell, move.swaps[:-1] + move.swaps[-1:] * 2,
                                   move.totem, grid.width))
            candidates.append(Move("C", move.cell, move.swaps + (move.cell,), move.totem,
                                   grid.width))
    return candidates


@pytest.mark.parametrize("mode", [0, 1, "chain"])
def test_apply_accepts_exactly_the_legal_moves(mode):
    rng = random.Random(17)
    variant = KiwaraVariant(crocodile_swaps=mode)
    for game in range(6):
        layout = random_free_play_layout(rng) if game % 2 else load_layout("classic")
        state = new_game(layout, variant)
        while not state.is_terminal():
            legal = set(state.legal_moves())
            for move in candidate_moves(state, rng):
                try:
                    state.apply(move)
                    accepted = True
                except IllegalMoveError:
                    accepted = False
                assert accepted == (move in legal), str(move)
            state = state.apply(rng.choice(state.legal_moves()))


def test_states_pickle_small_and_equal():
    import pickle
    state = new_game(load_layout("president"), KiwaraVariant(name="v", crocodile_swaps=1))
    rng = random.Random(3)
    for _ in range(12):
        state = state.apply(rng.choice(state.legal_moves()))
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state and copy.legal_moves() == state.legal_moves()
    assert copy.variant.name == "v" and copy.ply == state.ply
    assert len(pickle.dumps(state)) < 3000
