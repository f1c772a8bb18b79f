"""Rules variants of any game: a frozen dataclass whose fields are declared parameters.

A game's variant is a dataclass whose fields are made with :func:`param` (default, help, allowed
values or range, and for structured values how to read and write them) and which inherits
:class:`Variant`. That one declaration gives the game: validation on construction, reading a flat
TOML table from text, a file, ``-`` or a built-in name, one-line errors naming the source, the key
and the reason, writing back to TOML, and the list of parameters for docs and help.

A variant file holds only the parameters that differ from the defaults; ``name`` defaults to the
file's stem. Two variants are equal when their rules are equal, whatever they are called.
"""
from __future__ import annotations

import difflib
import re
import sys
import tomllib
from dataclasses import dataclass, field, fields
from importlib import resources
from pathlib import Path
from typing import Any, Callable, ClassVar

from .errors import KiwaraError
from .numbers import describe_value
from .io import STDIN, InputError, builtin_name, read_text, source_label

MAX_VARIANT_BYTES = 1_000_000
_BARE_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*")
_ESCAPED = re.compile(r'["\\\x00-\x1f\x7f]')
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t"}


# tomllib recurses once per bracket: deep nesting would end in a RecursionError (or, where a
# module raised the recursion limit, deeper in the C stack). No variant nests more than a few.
MAX_TOML_DEPTH = 32


def toml_depth(text: str) -> int:
    """The deepest nesting of brackets and braces in ``text``, those in quoted strings and
    comments aside."""
    depth = deepest = 0
    quote = ""
    escaped = comment = False
    for char in text:
        if comment:
            comment = char != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


class VariantError(KiwaraError):
    """A variant file or table that cannot be used: names the source, the key and the reason."""

    def __init__(self, message: str, key: str | None = None, reason: str | None = None) -> None:
        self.key, self.reason = key, reason
        super().__init__(message)


class ParameterProblem(ValueError):
    """Why a value is refused for one parameter (the caller adds which parameter and where)."""


@dataclass(frozen=True)
class Parameter:
    """One rules parameter: its default, what it means, and which values it accepts.

    Without ``check`` a value must have the default's type (true/false, a whole number within
    ``low``..``high``) or be one of ``choices``. ``check`` replaces that test for structured
    values (the reason a raw value is refused, or None); ``convert`` turns an accepted raw value
    (as TOML or JSON gives it) into the field's value and may raise :class:`ParameterProblem`;
    ``plain`` turns the field's value back into TOML/JSON data."""

    name: str
    default: Any
    help: str
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    check: Callable[[Any], str | None] | None = None
    convert: Callable[[Any], Any] | None = None
    plain: Callable[[Any], Any] | None = None

    def read(self, value: Any) -> Any:
        """``value`` as the field holds it; :class:`ParameterProblem` if it is refused."""
        problem = self.check(value) if self.check else self._type_problem(value)
        if problem:
            raise ParameterProblem(problem)
        return self.convert(value) if self.convert else value

    def _type_problem(self, value: Any) -> str | None:
        if self.choices:
            if any(value == c and type(value) is type(c) for c in self.choices):
                return None
            return f"must be {_either(self.choices)}, got {describe_value(value)}"
        if isinstance(self.default, bool):
            return (None if isinstance(value, bool)
                    else f"must be true or false, got {describe_value(value)}")
        if isinstance(self.default, int):
            if not isinstance(value, int) or isinstance(value, bool):
                return f"must be a whole number, got {describe_value(value)}"
            if (self.low is not None and value < self.low) or \
                    (self.high is not None and value > self.high):
                return f"must be between {self.low} and {self.high}, got {value}"
        return None

    def to_plain(self, value: Any) -> Any:
        return self.plain(value) if self.plain else value

    def allowed(self) -> str:
        """The accepted values in words, for docs and help."""
        if self.choices:
            return _either(self.choices)
        if isinstance(self.default, bool):
            return "true or false"
        if isinstance(self.default, int) and self.low is not None:
            return f"{self.low} to {self.high}"
        return ""


def param(default: Any, help: str, *, compare: bool = True, **rules: Any) -> Any:
    """A dataclass field that is a rules parameter (``rules``: see :class:`Parameter`)."""
    return field(default=default, compare=compare, metadata={"parameter": (help, rules)})


def _either(choices) -> str:
    words = [toml_value(c) for c in choices]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def non_empty_name(value: Any) -> str | None:
    return (None if isinstance(value, str) and value
            else f"must be a non-empty string, got {describe_value(value)}")


class Variant:
    """What every game's variant dataclass inherits: validation, TOML in and out, parameters.

    A subclass sets ``BUILTIN_PACKAGE`` (the package holding its ``*.toml`` built-ins) and
    ``BUILTIN_WHAT`` (how a missing file's error names them) and may override :meth:`check` for
    rules that join several parameters."""

    BUILTIN_PACKAGE: ClassVar[str]
    BUILTIN_WHAT: ClassVar[str] = "built-in variant"
    _parameters: ClassVar[dict[type, tuple[Parameter, ...]]] = {}

    def __post_init__(self) -> None:
        for p in self.parameters():
            try:
                value = p.read(getattr(self, p.name))
            except ParameterProblem as exc:
                raise VariantError(f"{p.name}: {exc}", p.name, str(exc)) from None
            object.__setattr__(self, p.name, value)
        self.check()

    def check(self) -> None:
        """Rules joining several parameters; raise :func:`problem` for a broken one."""

    @staticmethod
    def problem(key: str, reason: str) -> VariantError:
        """The error for a combination of parameters, named by ``key``."""
        return VariantError(f"{key}: {reason}", key, reason)

    # -- the parameter table ---------------------------------------------------------------
    @classmethod
    def parameters(cls) -> tuple[Parameter, ...]:
        """Every parameter in declaration order (``name`` first)."""
        table = Variant._parameters.get(cls)
        if table is None:
            table = tuple(Parameter(f.name, f.default, f.metadata["parameter"][0],
                                    **f.metadata["parameter"][1])
                          for f in fields(cls) if "parameter" in f.metadata)
            Variant._parameters[cls] = table
        return table

    @classmethod
    def parameter_lines(cls) -> list[str]:
        """One line a parameter, ``key = default  # help (allowed values)``: for docs and help."""
        lines = []
        for p in cls.parameters():
            allowed = p.allowed()
            lines.append(f"{p.name} = {toml_value(p.to_plain(p.default))}  # {p.help}"
                         + (f" ({allowed})" if allowed else ""))
        return lines

    # -- writing ---------------------------------------------------------------------------
    def to_dict(self, *, only_changes: bool = False) -> dict[str, Any]:
        """Every parameter as TOML/JSON data (``name`` first), or only those that differ from
        the defaults (without ``name``)."""
        result = {}
        for p in self.parameters():
            value = getattr(self, p.name)
            if not only_changes or (p.name != "name" and value != p.default):
                result[p.name] = p.to_plain(value)
        return result

    def to_toml(self) -> str:
        return "".join(f"{key} = {toml_value(value)}\n" for key, value in self.to_dict().items())

    # -- reading ---------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, table: Any, source: str = "<variant>", default_name: str | None = None):
        """A variant from a flat table of parameters; unknown keys and bad values are named."""
        if not isinstance(table, dict):
            raise VariantError(f"{source}: a variant is a table of parameters, got "
                               f"{type(table).__name__}")
        known = {p.name: p for p in cls.parameters()}
        for key, value in table.items():
            if key not in known:
                matches = difflib.get_close_matches(key, list(known), n=1)
                raise VariantError(f"{source}: unknown key {key!r}" + (
                    f" (did you mean {matches[0]!r}?)" if matches else ""), key, "unknown key")
        values = dict(table)
        if "name" not in values and default_name:
            values["name"] = default_name
        try:
            return cls(**values)
        except VariantError as exc:
            raise VariantError(f"{source}: key {exc.key!r}: {exc.reason}", exc.key,
                               exc.reason) from None

    @classmethod
    def from_toml(cls, text: str, source: str = "<toml>", default_name: str | None = None):
        if toml_depth(text) > MAX_TOML_DEPTH:
            raise VariantError(f"{source}: invalid TOML: nested too deeply")
        try:
            table = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise VariantError(f"{source}: invalid TOML: {exc}") from None
        except ValueError:       # tomllib hands int() a number of over 4,300 digits
            raise VariantError(f"{source}: invalid TOML: a number of more than "
                               f"{sys.get_int_max_str_digits():,} digits") from None
        except RecursionError:   # the parser recurses once per bracket: [[[[… overflows it
            raise VariantError(f"{source}: invalid TOML: nested too deeply") from None
        return cls.from_dict(table, source, default_name)

    @classmethod
    def builtin_names(cls) -> list[str]:
        return sorted(p.name[:-5] for p in resources.files(cls.BUILTIN_PACKAGE).iterdir()
                      if p.name.endswith(".toml"))

    @classmethod
    def load(cls, name_or_path: str):
        """A variant from a TOML file, stdin (``-``) or a built-in name (a file of that name
        is read instead, if there is one, with a note; ``builtin:NAME`` is the built-in)."""
        try:
            builtin = builtin_name(name_or_path, cls.builtin_names(), "variant")
        except InputError as exc:
            raise VariantError(str(exc)) from None
        if builtin is not None:
            text = resources.files(cls.BUILTIN_PACKAGE).joinpath(
                f"{builtin}.toml").read_text("utf-8")
            return cls.from_toml(text, builtin, builtin)
        missing = f"no such file or {cls.BUILTIN_WHAT} (built-in: {', '.join(cls.builtin_names())})"
        try:
            text = read_text(name_or_path, "variant file", MAX_VARIANT_BYTES, missing)
        except InputError as exc:
            raise VariantError(str(exc)) from None
        return cls.from_toml(text, source_label(name_or_path),
                             None if name_or_path == STDIN else Path(name_or_path).stem)

    @classmethod
    def coerce(cls, variant: Any):
        """A variant from a variant, None (the defaults), a built-in name or file, or a table
        of parameters."""
        if variant is None:
            return cls()
        if isinstance(variant, cls):
            return variant
        if isinstance(variant, str):
            return cls.load(variant)
        return cls.from_dict(variant)


def toml_value(value: Any) -> str:
    """``value`` (plain data: bool, number, text, list, table) written as TOML."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def _key(key: Any) -> str:
    key = str(key)
    return key if _BARE_KEY.fullmatch(key) else _toml_string(key)


def _toml_string(text: str) -> str:
    """A TOML basic string: quotes and backslashes escaped, control characters (which TOML
    refuses raw) as \\uXXXX."""
    return '"' + _ESCAPED.sub(lambda m: _ESCAPES.get(m[0]) or f"\\u{ord(m[0]):04X}", text) + '"'

