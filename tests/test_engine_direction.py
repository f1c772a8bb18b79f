"""The totem's direction: a layout mirrored left-right under one direction is the original game
under the other, and a half-turn is the same game under the same direction (rules reference,
"Symmetry: which layouts are the same game")."""
from __future__ import annotations

import random

import pytest

from engine_layouts import random_free_play_layout
from kiwara_designer.games.kiwara import (Move, KiwaraVariant, VariantError, new_game, perft,
                                          perft_divide)
from kiwara_designer.games.kiwara.formats import load_layout

CLOCKWISE = KiwaraVariant()
ANTICLOCKWISE = KiwaraVariant(totem_direction="anticlockwise")


def _symmetry(layout, name):
    return next(s for s in layout.grid.symmetries if s.name == name)


def _stone_map(grid, name):
    """Where each totem stone goes under the board symmetry ``name``, from the geometry of the
    rules: stones 0..W-1 above columns a.., clockwise."""
    P, W = grid.positions, grid.width
    if name == "left-right mirror":
        return [(W - 1 - p) % P for p in range(P)]
    if name == "half-turn":
        return [(p + P // 2) % P for p in range(P)]
    raise ValueError(name)


def _map_move(move, perm, stones):
    return Move(move.kind, None if move.cell is None else perm[move.cell],
                tuple(perm[c] for c in move.swaps),
                None if move.totem is None else stones[move.totem], move.width)


def _check_images(layout, variant, image_variant, name, seed, games=8):
    """Along seeded random games, the image position has exactly the images of the legal moves."""
    symmetry = _symmetry(layout, name)
    perm, stones = symmetry.perm, _stone_map(layout.grid, name)
    image_layout = layout.transformed(symmetry)
    rng = random.Random(seed)
    for _ in range(games):
        state, image = new_game(layout, variant), new_game(image_layout, image_variant)
        while not state.is_terminal():
            moves = state.legal_moves()
            assert sorted(map(str, (_map_move(m, perm, stones) for m in moves))) == \
                sorted(map(str, image.legal_moves()))
            move = rng.choice(moves)
            state, image = state.apply(move), image.apply(_map_move(move, perm, stones))
            assert state.scoring().totals == image.scoring().totals
        assert image.is_terminal() and state.returns() == image.returns()


@pytest.mark.parametrize("direction", ["clockwise", "anticlockwise"])
def test_mirror_under_the_other_direction_has_the_same_perft_3(direction):
    classic = load_layout("classic")
    variant = KiwaraVariant(totem_direction=direction)
    other = ANTICLOCKWISE if direction == "clockwise" else CLOCKWISE
    symmetry = _symmetry(classic, "left-right mirror")
    stones = _stone_map(classic.grid, "left-right mirror")
    mirrored = new_game(classic.transformed(symmetry), other)
    original = {str(_map_move(m, symmetry.perm, stones)): n
                for m, n in perft_divide(new_game(classic, variant), 3)}
    assert original == {str(m): n for m, n in perft_divide(mirrored, 3)}
    assert sum(original.values()) == 146058 and perft(new_game(classic, variant), 2) == 1800


def test_mirror_plays_move_for_move_under_the_other_direction():
    for seed, layout in enumerate([load_layout("president"),
                                   random_free_play_layout(random.Random(3))]):
        _check_images(layout, CLOCKWISE, ANTICLOCKWISE, "left-right mirror", seed)
        _check_images(layout, ANTICLOCKWISE, CLOCKWISE, "left-right mirror", seed + 10)


def test_half_turn_plays_move_for_move_under_the_same_direction():
    layout = load_layout("classic")
    _check_images(layout, CLOCKWISE, CLOCKWISE, "half-turn", 1)
    _check_images(layout, ANTICLOCKWISE, ANTICLOCKWISE, "half-turn", 2)


def test_mirror_under_the_same_direction_is_another_game():
    # From T0 (above column a) the totem steps to 1, 2, 3, whose mirror images are 4, 3, 2; in
    # the mirror image under the same direction the totem steps from 5 to 6, 7, 8.
    classic = load_layout("classic")
    symmetry = _symmetry(classic, "left-right mirror")
    stones = _stone_map(classic.grid, "left-right mirror")
    state = new_game(classic).play("T0")
    image = new_game(classic.transformed(symmetry)).apply(Move(totem=stones[0]))
    assert {stones[m.totem] for m in state.legal_moves()} == {4, 3, 2}
    assert {m.totem for m in image.legal_moves()} == {6, 7, 8}


def test_anticlockwise_forced_jump_searches_anticlockwise():
    from kiwara_designer.games.kiwara import setup_position
    # Columns b, c, d full: from stone 4 (column e) the steps 3, 2, 1 face full columns, so the
    # totem jumps on anticlockwise to 0 (column a); clockwise it would step to 5, 6, 7.
    first = iter(["Z"] * 5 + ["G"] * 3)
    second = iter(["z"] * 5 + ["g"] * 2)
    tokens = {}
    for i, cell in enumerate(f"{c}{r}" for c in "bcd" for r in range(1, 6)):
        tokens[cell] = next(first) if i % 2 == 0 else next(second)
    state = setup_position(load_layout("classic"), ANTICLOCKWISE, tokens=tokens, totem=4,
                           to_move=0, okapi=0)
    # (A lion on e makes the gazelles next to it on d flee, which opens column d again.)
    assert {m.totem for m in state.legal_moves() if m.kind != "L"} == {0}
    clockwise = setup_position(load_layout("classic"), CLOCKWISE, tokens=tokens, totem=4,
                               to_move=0, okapi=0)
    assert {m.totem for m in clockwise.legal_moves() if m.kind != "L"} == {5, 6, 7}


def test_totem_direction_is_validated():
    with pytest.raises(VariantError, match="totem_direction"):
        KiwaraVariant(totem_direction="widdershins")
    assert KiwaraVariant.from_toml('totem_direction = "anticlockwise"').totem_direction == \
        "anticlockwise"
