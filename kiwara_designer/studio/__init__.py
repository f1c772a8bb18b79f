"""``kiwara studio``: one local web page to play every game that brings a studio part against an
agent, play-test a setup, and use a game's own views (Kiwara's: draw and check a board, print
it).

:mod:`.api` is the library API the page calls (plain functions and a :class:`~.api.Studio`
over the library, usable from a notebook), built from :mod:`.requests` (a request's fields),
:mod:`.adapters` (each game's part, ``kiwara_designer.games.<name>.studio``, asked by name: the
studio imports no game) and :mod:`.sessions` (games against an agent); :mod:`.server` the thin
web layer (Flask); ``static/`` the page itself (HTML, CSS and one JavaScript file, no build
step)."""
from .adapters import tool
from .api import Studio, StudioError, catalogue

__all__ = ["Studio", "StudioError", "catalogue"]


def __getattr__(name: str):
    """A game's own view's function by its name (Kiwara's ``check_board``), as in :mod:`.api`."""
    return tool(name)
