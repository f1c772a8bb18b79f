"""Kiwara's side of the play-test lab: which layouts a sweep or a race plays (a uniform sample of
games, every game, or a file's layouts), and the ranked layouts exported as layout files and
printable boards (``kiwara rank --export``). The lab itself knows no game."""
from __future__ import annotations

from pathlib import Path
from typing import Iterable, Iterator, Sequence

from ...core.game import Game
from ...core.io import make_folder, write_text
from ...core.numbers import plural
from ...lab.matches import PlaytestError
from ...lab.store import RankedExperiment
from .formats import format_text
from .game import KIWARA
from .layout import Layout


def choose_layouts(sample: int | None = None, all_canonical: bool = False,
                   source: str | None = None, seed: int = 0) -> tuple[Iterable[Layout], int]:
    """The layouts a sweep plays, from exactly one of: ``sample`` games drawn uniformly with
    ``seed``, every free-play game (a lazy iterator), or the layouts of the file ``source``
    (``-`` for stdin; its first bad entry raises); and their number.

    A game is a layout up to the half-turn only (:meth:`Layout.canonical_game`): a mirror image
    makes the totem walk the other way round, so it is another game, played and stored apart."""
    chosen = [x for x in (sample is not None, all_canonical, source is not None) if x]
    if len(chosen) != 1:
        raise PlaytestError("choose exactly one source of layouts: a sample, all canonical "
                            "layouts or a file")
    if source is not None:
        from .formats import load_layouts
        boards = []
        for entry in load_layouts(source):
            if entry.error:
                raise entry.error
            boards.append(entry.layout)
        return boards, len(boards)
    from .generator import (count_layouts, fixed_point_counts, iter_layouts,
                             sample_layouts)
    if sample is not None:
        boards = sample_layouts(sample, seed, canonical=True, symmetry="game")
        return boards, len(boards)
    # Burnside over the identity and the half-turn
    games = (count_layouts() + fixed_point_counts()["half-turn"]) // 2
    return _games(iter_layouts(canonical=True)), games


def _games(classes: Iterable[Layout]) -> Iterator[Layout]:
    """The games of each four-symmetry class, as game forms: the class's canonical form, and
    its left-right mirror image unless a half-turn of the form gives it."""
    for layout in classes:
        yield layout
        mirror = next((s for s in layout.grid.symmetries if s.name == "left-right mirror"), None)
        if mirror is None:
            continue
        other = layout.transformed(mirror).canonical_game()
        if other.assignment != layout.assignment:
            yield other


def export_layouts(rows: Sequence[RankedExperiment], directory: str | Path, options=None,
                   game: Game = KIWARA) -> list[Path]:
    """Write each ranked layout as a layout file and a true-scale printable SVG board (see
    :mod:`kiwara_designer.printing`): ``rank01-layout17.txt``, ``rank01-layout17.svg``…
    ``options``: a ``PrintOptions``; ``game``: the game played on the layouts (Kiwara, or a
    test's toy), whose experiments alone are exported."""
    from ...printing import PrintOptions, write_pages
    from .printing import print_set
    rows = [r for r in rows if r.game == game.name]
    options = options or PrintOptions()
    folder = make_folder(directory, "layouts")
    written = []
    for i, r in enumerate(rows, start=1):
        layout = KIWARA.setup_from_key(r.setup)
        stem = f"rank{i:02d}-layout{r.setup_id}"
        text = folder / f"{stem}.txt"
        write_text(text, f"# rank {i}, score {r.score:.3f}, {plural(r.games, 'game')} "
                         f"({r.agents}, variant {r.variant})\n" + format_text(layout), "a layout")
        written.append(text)
        pages = print_set(layout, options, title=f"rank {i}: layout #{r.setup_id}")
        written += [Path(f) for f in write_pages(pages, str(folder / f"{stem}.svg"))]
    return written
