"""What a request carries, as a function's fields: a JSON body's fields checked against the
function's parameters (an unknown field is an error), and a download link's query string typed
as its game declares. The values themselves are checked where they are used, with
:mod:`kiwara_designer.core.checks` (which each game's studio part uses too: it sits below the
studio); their :class:`~kiwara_designer.core.checks.RequestError` is the studio's
:data:`StudioError`."""
from __future__ import annotations

import inspect
import re
from typing import Any, Callable, Iterable, Mapping

from ..core.checks import RequestError

StudioError = RequestError     # a request the studio cannot honour, said in words

QUERY_FLAGS = ("0", "1", "false", "true")


def call_with_fields(function: Callable, fields: dict, listed: Iterable[str] = ()) -> Any:
    """``function(**fields)`` once every field is one of its parameters (a typo in a field name
    is an error, not silently ignored); ``listed``: more field names the refusal lists (those
    a caller took before). A field's name is repeated only if it looks like one (lowercase
    letters): no answer echoes other text a request carries, such as a card name. A function
    taking ``**fields`` checks the rest itself."""
    parameters = inspect.signature(function).parameters
    named = {name: p for name, p in parameters.items()
             if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
    takes_more = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    unknown = [name for name in fields if name not in named]
    if unknown and not takes_more:
        shown = f" {unknown[0]!r}" if re.fullmatch(r"[a-z_]{1,40}", unknown[0]) else ""
        raise StudioError(f"unknown field{shown}; fields: {', '.join([*listed, *named])}")
    missing = [name for name, p in named.items()
               if p.default is inspect.Parameter.empty and name not in fields]
    if missing:
        raise StudioError(f"missing field {missing[0]!r}")
    return function(**fields)


def query_fields(args: Mapping[str, str], types: Mapping[str, type]) -> dict:
    """A download link's query string as the fields of the function it calls (a plain link
    cannot carry JSON), typed as the game declares: ``list`` comma-separated, ``bool`` as
    ``1``/``0``, ``float`` and ``int`` as numbers (empty: the default); the rest stays text. The
    token is the server's, not a field."""
    fields: dict[str, Any] = {k: v for k, v in args.items() if k != "token"}
    for name, kind in types.items():
        text = fields.get(name)
        if text is None or (text == "" and kind in (float, int)):
            continue
        if kind is list:
            fields[name] = text.split(",")
        elif kind is bool:
            if text not in QUERY_FLAGS:
                raise StudioError(f"{name} must be 1 or 0, got {text[:20]!r}")
            fields[name] = text in ("1", "true")
        else:
            try:
                number = float(text[:20])
            except ValueError:
                raise StudioError(f"{name} must be a number, got {text[:20]!r}") from None
            fields[name] = int(number) if kind is int and number.is_integer() else number
    return fields
