"""Which layouts are the same game: only a layout and its half-turn (the rules reference,
"Symmetry: which layouts are the same game"). Game forms, sampling games, sweeps and the store."""
from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings, strategies as st

from engine_layouts import random_free_play_layout
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.generator import iter_layouts, sample_layouts
from kiwara_designer.games.kiwara.geometry import Grid
from kiwara_designer.games.kiwara.layout import Layout
from kiwara_designer.games.kiwara.lab import _games
from kiwara_designer.lab import Pairing, PlaySettings, Store, run_sweep


def symmetry(layout, name):
    return next(s for s in layout.grid.symmetries if s.name == name)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_game_form_is_shared_by_the_half_turn_only(seed):
    layout = random_free_play_layout(random.Random(seed))
    game = layout.canonical_game()
    half_turn = layout.transformed(symmetry(layout, "half-turn"))
    mirror = layout.transformed(symmetry(layout, "left-right mirror"))
    assert half_turn.canonical_game() == game and game in (layout, half_turn)
    # the mirror image is another game unless the layout is its own mirror or half-turned mirror
    same = mirror in (layout, half_turn)
    assert (mirror.canonical_game() == game) == same
    # the four-symmetry form is its own game form (so older stores keep their keys)
    canonical = layout.canonical()
    assert canonical.canonical_game().rows == canonical.rows


def test_classic_and_its_mirror_are_two_games():
    classic = load_layout("classic")
    mirror = classic.transformed(symmetry(classic, "left-right mirror"))
    assert mirror.canonical() == classic.canonical()
    assert mirror.canonical_game() != classic.canonical_game()


def test_the_games_of_a_listing_are_every_game_form_once():
    # the first 300 four-symmetry classes of the 6 × 5 board, expanded into games, are exactly
    # the distinct game forms of all their images
    classes = []
    for i, layout in enumerate(iter_layouts(canonical=True)):
        if i == 300:
            break
        classes.append(layout)
    games = [g.rows for g in _games(classes)]
    expected = {image.canonical_game().rows for layout in classes for image in layout.images()}
    assert len(games) == len(set(games)) and set(games) == expected
    assert len(games) > len(classes)


def test_sampling_games_is_uniform_over_games():
    grid, k, sizes = Grid(3, 3), 3, (3,)
    everything = list(iter_layouts(grid, k, sizes))
    games = {layout.canonical_game().rows for layout in everything}
    fixed = sum(l.transformed(symmetry(l, "half-turn")) == l for l in everything)
    assert len(games) == (len(everything) + fixed) // 2          # Burnside over {1, half-turn}
    n = 200 * len(games)
    drawn = Counter(l.rows for l in sample_layouts(n, 5, grid=grid, territories=k, sizes=sizes,
                                                  canonical=True, symmetry="game"))
    assert set(drawn) == games
    expected = n / len(games)
    chi2 = sum((drawn[g] - expected) ** 2 / expected for g in games)
    assert chi2 < len(games) + 6 * (2 * len(games)) ** 0.5      # far beyond the 1e-6 tail
    assert sample_layouts(5, 5, grid=grid, territories=k, sizes=sizes, canonical=True,
                          symmetry="game") == sample_layouts(5, 5, grid=grid, territories=k,
                                                             sizes=sizes, canonical=True,
                                                             symmetry="game")


def test_a_sweep_stores_a_mirror_image_apart_and_a_half_turn_together(tmp_path):
    classic = load_layout("classic")
    mirror = classic.transformed(symmetry(classic, "left-right mirror"))
    half_turn = classic.transformed(symmetry(classic, "half-turn"))
    with Store(tmp_path / "r.sqlite") as store:
        run_sweep(store, [classic, mirror, half_turn],
                  PlaySettings("random", games=2, seed=1, workers=1))
        ranked = store.ranked()
    assert len(ranked) == 2
    assert {tuple(r.setup.split("\n")) for r in ranked} == {classic.canonical_game().rows,
                                                            mirror.canonical_game().rows}
