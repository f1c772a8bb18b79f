"""Game records of any game: one JSON envelope, read and written the same way for every game.

A record is a JSON object: the game's own keys (Kiwara: ``layout``, ``deck``, ``moves``;
Awimbawé: ``game``, ``rounds``), ``variant`` (a built-in name or a table of the parameters that
differ from the defaults), and optional keys any record may carry — ``players``, ``seed``,
``master_seed``, ``game_index``, ``result`` (its shape is the game's: see
:attr:`RecordFormat.result_problem`), ``version`` — which are checked when read and written back
unchanged, like any other key a record holds. A game describes its record with a
:class:`RecordFormat` and its record class inherits :class:`Record`; reading (a file, ``-``,
JSON lines) with a size bound and errors of one line naming the source, line and column, and
writing in the key order the rules reference fixes, are done here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Iterator

from .errors import KiwaraError
from .numbers import describe_value
from .io import InputError, describe_json_error, read_text, source_label, write_text
from .variants import Variant, VariantError

MAX_RECORD_BYTES = 10_000_000
RECORD_VERSION = 1      # records carry no "version" yet; one that says another is refused


class RecordError(KiwaraError):
    """A record that cannot be read or is not a record of its game."""


def parse_json(text: str, source: str, one_line: bool = False) -> Any:
    """The JSON value of ``text``; :class:`RecordError` naming ``source``, line and column (only
    the column when ``one_line``: ``source`` already names the line)."""
    try:
        return json.loads(text)
    except ValueError as exc:       # not JSON, or a number of over 4,300 digits
        line, column, message = describe_json_error(exc, text)
        if one_line:
            where = f"{source}: column {column}" if column else source
        else:
            where = f"{source}:{line}:{column}" if column else f"{source}:{line}"
        raise RecordError(f"{where}: {message}") from None
    except RecursionError:      # the decoder recurses once per bracket: [[[[… overflows it
        raise RecordError(f"{source}: invalid JSON: nested too deeply") from None


def meta_problem(key: str, value: Any) -> str | None:
    """Why ``value`` is not acceptable for an optional key every record may carry (None if it
    is, or the key is not one of them: other keys are kept as they are). ``result`` is checked
    by the game (:attr:`RecordFormat.result_problem`)."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)
    if key == "players":
        if not (isinstance(value, list) and len(value) == 2
                and all(isinstance(p, str) and p for p in value)):
            return "must be a list of the two players' names"
    elif key in ("seed", "master_seed", "game_index"):
        if not whole(value) or (key == "game_index" and value < 0):
            return "must be a whole number" + (" from 0" if key == "game_index" else "")
    elif key == "version":
        if not whole(value) or value != RECORD_VERSION:
            return (f"must be {RECORD_VERSION} (a record of another version of "
                    f"kiwara-designer?)")
    return None


@dataclass(frozen=True)
class RecordFormat:
    """How one game's records look.

    ``keys`` are the game's own keys in the order they are written, ``"variant"`` among them;
    ``required`` those a record must have. ``"game"`` in ``keys`` means records say their game
    (a record naming another game is refused either way). A variant is written ``"classic"``
    or as the table of the parameters that differ from the defaults, with its ``name`` when
    ``variant_name`` (Kiwara's records have always carried it; Awimbawé's rules reference
    gives the bare table, which another implementation can read).

    ``result_problem(value)`` says what is wrong with a record's ``result`` (the rest of the
    message after ``"result"``), or None when it has the game's shape: each game's result is
    what its replay prints, so the game checks it."""

    game: str
    variant_class: type[Variant]
    what: str                    # "game record", "match record"
    keys: tuple[str, ...]
    required: tuple[str, ...]
    indent: int | None = None
    variant_name: bool = True
    result_problem: Callable[[Any], str | None] | None = None

    # -- writing ---------------------------------------------------------------------------
    def envelope(self, fields: dict[str, Any], variant: Variant, extra: dict[str, Any]
                 ) -> dict[str, Any]:
        """The record's JSON object: ``fields`` (the game's own keys; None leaves one out) and
        the variant in ``keys`` order, then the other keys as they were read."""
        values = {**fields, "game": self.game, "variant": self.variant_entry(variant)}
        return {**{k: values[k] for k in self.keys if values.get(k) is not None}, **extra}

    def variant_entry(self, variant: Variant) -> Any:
        """How a record writes a variant: ``"classic"``, else the parameters that differ."""
        if variant == type(variant)():
            return "classic"
        name = {"name": variant.name} if self.variant_name else {}
        return {**name, **variant.to_dict(only_changes=True)}

    # -- reading ---------------------------------------------------------------------------
    def open(self, obj: Any, source: str) -> tuple[Variant, dict[str, Any]]:
        """The variant and the other keys (checked) of the record ``obj``, after checking that
        it is an object of this game with its required keys."""
        if not isinstance(obj, dict):
            listed = [k for k in self.keys if k in self.required or k in ("game", "variant")]
            raise RecordError(f"{source}: a {self.what} is a JSON object with "
                              f"{', '.join(listed[:-1])} and {listed[-1]}")
        if ("game" in self.keys or "game" in obj) and obj.get("game") != self.game:
            raise RecordError(f"{source}: \"game\" must be \"{self.game}\", got "
                              f"{describe_value(obj.get('game'))}")
        missing = [k for k in self.required if k not in obj]
        if missing:
            raise RecordError(f"{source}: missing key {missing[0]!r}")
        variant = self.read_variant(obj.get("variant", "classic"), source)
        extra = {k: v for k, v in obj.items() if k not in self.keys}
        for key, value in extra.items():
            if key == "result" and self.result_problem is not None:
                problem = self.result_problem(value)
                if problem:
                    raise RecordError(f"{source}: \"result\" {problem}")
                continue
            problem = meta_problem(key, value)
            if problem:
                raise RecordError(f"{source}: \"{key}\" {problem}, got {describe_value(value)}")
        return variant, extra

    def read_variant(self, value: Any, source: str) -> Variant:
        cls = self.variant_class
        try:
            if isinstance(value, str):
                if value not in cls.builtin_names():
                    raise RecordError(f"{source}: \"variant\": no built-in variant {value!r} "
                                      f"(built-in: {', '.join(cls.builtin_names())}); give a "
                                      f"table instead")
                return cls.load(value)
            if isinstance(value, dict):
                return cls.from_dict(value, f"{source}: \"variant\"")
        except VariantError as exc:
            raise RecordError(str(exc)) from None
        raise RecordError(f"{source}: \"variant\" must be a built-in name or a table of "
                          f"parameters")

    def read(self, path: str) -> str:
        """The text of a record file or of stdin (``-``), at most :data:`MAX_RECORD_BYTES`."""
        try:
            return read_text(path, self.what, MAX_RECORD_BYTES)
        except InputError as exc:
            raise RecordError(str(exc)) from None


class Record:
    """What a game's record class inherits: JSON text in and out, files, JSON lines. The class
    sets ``FORMAT`` and defines ``to_dict()`` and ``from_dict(obj, source)``."""

    FORMAT: ClassVar[RecordFormat]

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, obj: Any, source: str = "<record>"):
        raise NotImplementedError

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=self.FORMAT.indent, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str, source: str = "<record>"):
        return cls.from_dict(parse_json(text, source), source)

    @classmethod
    def load(cls, path: str):
        """The one record of a JSON file or of stdin (``-``)."""
        return cls.from_json(cls.FORMAT.read(path), source_label(path))

    def save(self, path: str) -> None:
        """Write the record as JSON to a file or to stdout (``-``)."""
        write_text(path, self.to_json() + "\n", f"the {self.FORMAT.what}")

    @classmethod
    def read_many(cls, path: str) -> Iterator[tuple[str, Any]]:
        """``(source, record or RecordError)`` for each record of a file or stdin (``-``): one
        JSON object (possibly over several lines) or JSON lines, one record a line. An
        unreadable input raises :class:`RecordError`; a bad record is yielded as its error, so
        the others are still read."""
        label = source_label(path)
        return cls.records_in(cls.FORMAT.read(path), label)

    @classmethod
    def records_in(cls, text: str, label: str) -> Iterator[tuple[str, Any]]:
        """:meth:`read_many` of a text already read: one ``(label, …)`` for one JSON document,
        else (:func:`is_json_lines`) one ``(label:line, …)`` per non-blank line."""
        if not text.strip():
            raise RecordError(f"{label}: empty input, no record")
        if not is_json_lines(text):
            yield label, _record_or_error(lambda: cls.from_json(text, label))
            return
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                source = f"{label}:{number}"
                yield source, _record_or_error(
                    lambda: cls.from_dict(parse_json(line, source, one_line=True), source))


def is_json_lines(text: str) -> bool:
    """Whether ``text`` is JSON lines (records one a line) rather than one JSON document: it is
    not one JSON value, and at least one of its lines is a JSON object by itself. So a record
    written over several lines (as ``kiwara play --record`` writes them) and broken somewhere
    is one document, reported once where it breaks, not once per line."""
    try:
        json.loads(text)
        return False
    except (ValueError, RecursionError):
        pass
    for line in text.splitlines():
        if line.lstrip().startswith("{"):
            try:
                if isinstance(json.loads(line), dict):
                    return True
            except (ValueError, RecursionError):
                pass
    return False


def _record_or_error(make: Callable[[], Any]) -> Any:
    try:
        return make()
    except KiwaraError as exc:
        return exc
