"""What Kiwara's commands share beside the command toolkit (:mod:`kiwara_designer.commands`):
territory sizes, the free-play note on a draft layout, variants, and the bound on layout draws."""
from __future__ import annotations

import click

from ....core.io import source_label
from ....core.numbers import parse_whole_list

# A draw is held in memory whole (~7 kB and ~3 ms a layout).
MAX_SAMPLE = 100_000


def parse_int_list(text: str, what: str) -> tuple[int, ...]:
    """``"3,5,7"`` → (3, 5, 7): sizes of territories, so each from 1 to the cells of the largest
    board; an empty item (``3,,5``) is an error, not skipped."""
    from ..geometry import MAX_HEIGHT, MAX_WIDTH
    return parse_whole_list(text, 1, MAX_WIDTH * MAX_HEIGHT, what)


def note_invalid(layout, name: str) -> bool:
    """Say on stderr (one line) when ``layout`` is not a valid free-play layout, as designers
    play-test and print drafts too; True if it is valid."""
    from ..validation import FREE_PLAY, validate
    problems = validate(layout, FREE_PLAY).problems
    if problems:
        click.echo(f"kiwara: note: {source_label(name)} is not a valid free-play layout: "
                   f"{'; '.join(p.message for p in problems)}", err=True)
    return not problems


def load_variant(name: str | None):
    """A rules variant by file or built-in name (the engine is imported only when needed)."""
    from ... import kiwara as engine
    return engine.load_variant(name)
