"""The one base class of every error a user can cause (like python-chess, a ``ValueError``).

The command line turns these, and only these, into a one-line message and exit code 2;
anything else is a bug and keeps its traceback.
"""
from __future__ import annotations

import string
from typing import Any, Mapping


class KiwaraError(ValueError):
    """Bad input: a file, a value, a move or a request that cannot be honoured.

    The library says it in plain words. An error about settings the caller gave is made by
    :meth:`about`, which names each setting by its parameter's name (``min_rivers``), so that a
    front end calls it by its own name (:meth:`naming`: the command line by its option,
    ``--min-rivers``)."""

    settings: tuple[str, ...] = ()        # the settings the message names (none by default)
    template: str = ""
    values: Mapping[str, Any] = {}

    @classmethod
    def about(cls, template: str, **values: Any) -> "KiwaraError":
        """The error ``template`` says: each ``{name}`` given in ``values`` is that value, each
        other ``{setting}`` a setting the caller gave, written by its parameter's name."""
        settings = tuple(dict.fromkeys(field for _, field, _, _ in string.Formatter().parse(template)
                                       if field and field not in values))
        error = cls(template.format(**values, **{s: s for s in settings}))
        error.template, error.values, error.settings = template, values, settings
        return error

    def naming(self, names: Mapping[str, str]) -> str:
        """The message with each setting it names called ``names[setting]`` (when given)."""
        if not self.settings:
            return str(self)
        return self.template.format(**self.values,
                                    **{s: names.get(s, s) for s in self.settings})
