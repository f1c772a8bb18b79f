"""``kiwara studio``: one local web page to draw and check a board, play it against the agents,
play-test and print it, and play Awimbawé against an agent.

:mod:`.api` is the library API the page calls (plain functions and a :class:`~.api.Studio`
over the library, usable from a notebook), built from :mod:`.requests` (request checks),
:mod:`.boards` (the Draw view), :mod:`.prints` (print files) and :mod:`.sessions` (games
against an agent, through each game's adapter ``kiwara_designer.games.<name>.studio``);
:mod:`.server` the thin web layer (Flask); ``static/`` the page itself (HTML, CSS and one
JavaScript file, no build step)."""
from .api import Studio, StudioError, catalogue, check_board, print_file, random_board

__all__ = ["Studio", "StudioError", "catalogue", "check_board", "print_file", "random_board"]
