"""Match records: ``{"game": "awimbawe", "variant": "classic" | {…}, "rounds": [{"deck": "G1 D4 …",
"leader": 0, "moves": ["P3", "P5", …]}, …]}``; other keys are kept in ``extra``.

Replaying a record re-checks every move and gives each round's result and the match winner.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterator

from ..core.io import InputError, read_text, source_label
from ..engine.variant import VariantError
from ..errors import KiwaraError
from .cards import NAMES, CardError, parse_deck
from .moves import IllegalMoveError, parse_move
from .state import (CHOOSING_LEADER, DEALING, OVER, TIED_LEAD, AwimbaweState, RoundResult)
from .variant import AwimbaweVariant, builtin_variant_names

MAX_RECORD_BYTES = 10_000_000


class RecordError(KiwaraError):
    """A record that cannot be read or is not an Awimbawé match record."""


class ReplayError(IllegalMoveError):
    """A recorded move that is not legal where it was played (round and index 0-based)."""

    def __init__(self, round_index: int, index: int, move: str, reason: str) -> None:
        self.round_index, self.index, self.move, self.reason = round_index, index, move, reason
        super().__init__(f"round {round_index + 1}, move {index + 1} ({move!r}) is illegal: "
                         f"{reason}")


@dataclass(frozen=True)
class RoundEntry:
    deck: tuple[int, ...]
    leader: int | None
    moves: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"deck": " ".join(NAMES[c] for c in self.deck)}
        if self.leader is not None:
            entry["leader"] = self.leader
        entry["moves"] = list(self.moves)
        return entry


@dataclass(frozen=True)
class MatchRecord:
    variant: AwimbaweVariant
    rounds: tuple[RoundEntry, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_state(cls, state: AwimbaweState, **extra: Any) -> "MatchRecord":
        """The record of a match so far (a round still being dealt is left out)."""
        entries = [RoundEntry(r.deck, r.leader, tuple(r.moves)) for r in state.rounds]
        if state.phase not in (DEALING, OVER):
            current = state.round_record()
            leader = None if state.phase in (TIED_LEAD, CHOOSING_LEADER) else state.first_leader
            entries.append(RoundEntry(state.deck, leader, tuple(current["moves"])))
        return cls(state.variant, tuple(entries), dict(extra))

    # -- replay ------------------------------------------------------------------------------
    def replay(self) -> AwimbaweState:
        """Check every move; the state after the last one. :class:`ReplayError` names the first
        illegal move, :class:`RecordError` a round that cannot be where it is."""
        state = AwimbaweState(self.variant)
        for k, entry in enumerate(self.rounds):
            if state.phase == OVER:
                raise RecordError(f"round {k + 1}: the match was already won in round {k}")
            if state.phase != DEALING:
                raise RecordError(f"round {k + 1}: round {k} is not finished (its moves stop "
                                  f"before its end)")
            state = _deal_round(state, entry, k)
            for index, text in enumerate(entry.moves):
                if state.phase in (DEALING, OVER):
                    raise ReplayError(k, index, text, f"round {k + 1} is already over")
                try:
                    state = state.apply_recorded(text)
                except IllegalMoveError as exc:
                    reason = str(exc)
                    for prefix in (f"{text}: ", f"{text!r}: ", f"{parse_move_text(text)}: "):
                        if reason.startswith(prefix):
                            reason = reason[len(prefix):]
                    raise ReplayError(k, index, text, reason) from None
                if k and index == 0 and entry.leader not in (None, state.first_leader):
                    raise RecordError(f"round {k + 1}: \"leader\" is {entry.leader}, but "
                                      f"{text} made player {state.first_leader} lead")
        return state

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"game": "awimbawe", "variant": variant_entry(self.variant),
                "rounds": [r.to_dict() for r in self.rounds], **self.extra}

    def to_json(self, indent: int | None = None) -> str:
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)

    @classmethod
    def from_dict(cls, obj: Any, source: str = "<record>") -> "MatchRecord":
        if not isinstance(obj, dict):
            raise RecordError(f"{source}: a match record is a JSON object with game, variant "
                              f"and rounds")
        if obj.get("game") != "awimbawe":
            raise RecordError(f"{source}: \"game\" must be \"awimbawe\", got {obj.get('game')!r}")
        if "rounds" not in obj:
            raise RecordError(f"{source}: missing key 'rounds'")
        variant = _record_variant(obj.get("variant", "classic"), source)
        rounds = obj["rounds"]
        if not isinstance(rounds, list):
            raise RecordError(f"{source}: \"rounds\" must be a list of rounds "
                              f"({{\"deck\": …, \"leader\": 0, \"moves\": […]}})")
        entries = tuple(_round_entry(r, f"{source}: round {k + 1}") for k, r in enumerate(rounds))
        extra = {k: v for k, v in obj.items() if k not in ("game", "variant", "rounds")}
        return cls(variant, entries, extra)

    @classmethod
    def from_json(cls, text: str, source: str = "<record>") -> "MatchRecord":
        return cls.from_dict(_json(text, source), source)


def parse_move_text(text: str) -> str:
    try:
        return parse_move(text).text
    except IllegalMoveError:
        return text


def _deal_round(state: AwimbaweState, entry: RoundEntry, k: int) -> AwimbaweState:
    """``state`` with round ``k``'s deck dealt and, in round 1, its leader settled."""
    state = state._copy()
    state.deck = entry.deck
    state.forced_leader = None
    state._lay_out()
    if k == 0:
        if state.phase == TIED_LEAD:
            if entry.leader is None:
                raise RecordError("round 1: the face-up pile cards' crowns tie, so \"leader\" "
                                  "must say who led (0 or 1)")
            state = state.apply(f"leader:{entry.leader}")
        elif entry.leader is not None and entry.leader != state.first_leader:
            raise RecordError(f"round 1: \"leader\" is {entry.leader}, but player "
                              f"{state.first_leader} has fewer crowns on their face-up pile "
                              f"cards and leads")
    elif not entry.moves or parse_move_text(entry.moves[0]) not in ("start:me", "start:you"):
        raise RecordError(f"round {k + 1}: the first move must be the previous round's loser's "
                          f"start:me or start:you")
    return state


def _round_entry(obj: Any, source: str) -> RoundEntry:
    if not isinstance(obj, dict):
        raise RecordError(f"{source}: a round is an object with deck, leader and moves")
    unknown = [key for key in obj if key not in ("deck", "leader", "moves")]
    if unknown:
        raise RecordError(f"{source}: unknown key {unknown[0]!r} (keys: deck, leader, moves)")
    if "deck" not in obj:
        raise RecordError(f"{source}: missing key 'deck'")
    try:
        deck = parse_deck(obj["deck"])
    except CardError as exc:
        raise RecordError(f"{source}: \"deck\": {exc}") from None
    leader = obj.get("leader")
    if leader is not None and (leader not in (0, 1) or isinstance(leader, bool)):
        raise RecordError(f"{source}: \"leader\" must be 0 or 1, got {leader!r}")
    moves = obj.get("moves", [])
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"{source}: \"moves\" must be a list of moves in notation (strings "
                          f"such as \"G3:me\", \"D2:3>1\")")
    return RoundEntry(deck, leader, tuple(moves))


def variant_entry(variant: AwimbaweVariant) -> Any:
    """How a record writes a variant: ``"classic"``, else the table of the parameters that
    differ from the defaults, as the rules reference says; no ``name`` key nor this project's
    other built-in names, which another implementation of the page cannot know."""
    if variant == AwimbaweVariant():
        return "classic"
    return variant.to_dict(only_changes=True)


def _record_variant(value: Any, source: str) -> AwimbaweVariant:
    try:
        if isinstance(value, str):
            if value not in builtin_variant_names():
                raise RecordError(f"{source}: \"variant\": no built-in variant {value!r} "
                                  f"(built-in: {', '.join(builtin_variant_names())}); give a "
                                  f"table instead")
            return AwimbaweVariant.load(value)
        if isinstance(value, dict):
            return AwimbaweVariant.from_dict(value, f"{source}: \"variant\"")
    except VariantError as exc:
        raise RecordError(str(exc)) from None
    raise RecordError(f"{source}: \"variant\" must be a built-in name or a table of parameters")


def _json(text: str, source: str, one_line: bool = False) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"{source}: column {exc.colno}" if one_line else \
            f"{source}:{exc.lineno}:{exc.colno}"
        raise RecordError(f"{where}: invalid JSON: {exc.msg}") from None
    except RecursionError:
        raise RecordError(f"{source}: invalid JSON: nested too deeply") from None


def read_records(path: str) -> Iterator[tuple[str, Any]]:
    """``(source, MatchRecord or RecordError)`` for each record of a file or stdin (``-``): one
    JSON object (possibly over several lines) or JSON lines, one record a line. An unreadable
    input raises :class:`RecordError`; a bad record is yielded as its error, so the others
    are still replayed."""
    label = source_label(path)
    try:
        text = read_text(path, "match record", MAX_RECORD_BYTES)
    except InputError as exc:
        raise RecordError(str(exc)) from None
    if not text.strip():
        raise RecordError(f"{label}: empty input, no record")
    try:
        whole = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        whole = None
    if isinstance(whole, dict):
        yield label, _record_or_error(lambda: MatchRecord.from_dict(whole, label))
        return
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip():
            source = f"{label}:{number}"
            yield source, _record_or_error(lambda: MatchRecord.from_dict(_json(line, source,
                                                                              one_line=True),
                                                                        source))


def _record_or_error(make):
    try:
        return make()
    except KiwaraError as exc:
        return exc


def replay_summary(state: AwimbaweState) -> dict[str, Any]:
    """The replay's JSON result: each finished round's winner, crowns, whether four hyenas
    ended it, its tricks, and the match winner (null while unfinished)."""
    return {"rounds": [{"winner": r.winner, "crowns": list(r.crowns), "hyenas": r.by_hyenas,
                        "tricks": r.tricks} for r in state.rounds],
            "winner": state.match_winner}


__all__ = ["MatchRecord", "RoundEntry", "RecordError", "ReplayError", "read_records",
           "replay_summary", "variant_entry", "RoundResult"]
