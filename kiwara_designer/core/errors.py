"""The one base class of every error a user can cause (like python-chess, a ``ValueError``).

The command line turns these, and only these, into a one-line message and exit code 2;
anything else is a bug and keeps its traceback.
"""
from __future__ import annotations

import re
from typing import Mapping


class KiwaraError(ValueError):
    """Bad input: a file, a value, a move or a request that cannot be honoured.

    The library says it in plain words: a message about settings the caller gave names each by
    its parameter's name (``min_rivers``) and lists them in ``settings``, so that a front end
    calls them by its own names (:meth:`naming`: the command line by its options,
    ``--min-rivers``)."""

    settings: tuple[str, ...] = ()

    def __init__(self, *args, settings: tuple[str, ...] = ()) -> None:
        super().__init__(*args)
        self.settings = settings

    def naming(self, names: Mapping[str, str]) -> str:
        """The message with each of its ``settings`` called ``names[setting]`` (when given)."""
        text = str(self)
        for setting in self.settings:
            if setting in names:
                text = re.sub(rf"(?<![\w-]){re.escape(setting)}(?![\w-])",
                              lambda _: names[setting], text)
        return text
