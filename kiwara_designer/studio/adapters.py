"""Each game's part of the studio, asked by name: the studio imports no game. A game's part is
the ``ADAPTER`` of the module (or package) ``kiwara_designer.games.<name>.studio``, found for the
registered games; a game without one is not offered. It sits below the studio, so its errors are
the library's :class:`~kiwara_designer.core.errors.KiwaraError` in words (it checks fields with
:mod:`kiwara_designer.core.checks`), which the studio answers as a bad request.

To be played (:mod:`.sessions`), an adapter has:

- ``game`` (the registry's Game) and ``title`` (its name in words);
- ``variants``: its rules variant type (a :class:`~kiwara_designer.core.variants.Variant`),
  whose built-ins (``builtin_names()``, ``load(name)``) the page offers;
- ``setup(**fields)``: a new game's setup from the game's own request fields (Kiwara:
  ``rows``), which its parameters name; ``load(text)``: a game from a record's text (an object
  with ``state``, ``setup``, ``variant``, ``moves``, ``seed``, ``note``) or a refusal;
- ``forced_move(state)``: the person's move when there is nothing to decide, or None;
- ``tell(before, after, move, seat, names)``: the move in words for the log as ``seat`` may
  know it, and the page's marks of it (or None);
- ``move_json(state, move)``: one of the person's legal moves as the page offers it;
- ``view(state, seat, names, last)``: the table as ``seat`` may see it;
- ``record(session, seed)``: the record to download (``seed`` None while it is secret).

A game may also bring views of its own (Kiwara's Draw and Print: its board tools); each of these
members is optional:

- ``calls``: ``{address: function}``, served at ``POST /api/<address>``: the JSON body's fields
  are the function's parameters, its answer a JSON-ready dict;
- ``downloads``: ``{address: (function, query types)}``, served at ``GET /api/<address>``: the
  query string's fields typed by ``{field: list | bool | float | int}``
  (:func:`.requests.query_fields`), the answer a file (``name``, ``mimetype``, ``data``);
- ``catalogue()``: more of what the page offers (built-in boards, palette…), merged into the
  studio's catalogue;
- ``warm_up()``: slow preparation to do as the server starts rather than on a first click.

These functions are also :mod:`.api`'s, by their names, for a notebook.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from ..core.game import DEFAULT_GAME, game_names, game_part
from .requests import StudioError


@functools.cache
def adapters() -> dict[str, Any]:
    """Each registered game's studio adapter by name, the default game first (the page's order)."""
    parts = {name: game_part(name, "studio")
             for name in sorted(game_names(), key=lambda n: n != DEFAULT_GAME)}
    return {name: part.ADAPTER for name, part in parts.items()
            if part is not None}         # a game without studio views is not offered


def adapter(name: str) -> Any:
    found = adapters()
    if name not in found:
        raise StudioError(f"no such game; the studio plays {', '.join(found)}")   # no echo
    return found[name]


def calls() -> dict[str, Callable]:
    """Every game's own JSON views by address (under /api/)."""
    return {address: function for found in adapters().values()
            for address, function in getattr(found, "calls", {}).items()}


def downloads() -> dict[str, tuple[Callable, dict]]:
    """Every game's own files by address (under /api/), with their query's types."""
    return {address: made for found in adapters().values()
            for address, made in getattr(found, "downloads", {}).items()}


def tool(name: str) -> Callable:
    """A game's own view's function by its name (Kiwara's ``check_board``)."""
    functions = [*calls().values(), *(function for function, _ in downloads().values())]
    for function in functions:
        if function.__name__ == name:
            return function
    raise AttributeError(name)


def catalogue_entries() -> dict:
    """What the games' own views offer the page, merged."""
    entries: dict = {}
    for found in adapters().values():
        if hasattr(found, "catalogue"):
            entries.update(found.catalogue())
    return entries


def warm_up() -> None:
    for found in adapters().values():
        if hasattr(found, "warm_up"):
            found.warm_up()
