"""Match records: ``{"game": "awimbawe", "variant": "classic" | {…}, "rounds": [{"deck": "G1 D4 …",
"leader": 0, "moves": ["P3", "P5", …]}, …]}``; other keys are kept in ``extra``.

Replaying a record re-checks every move and gives each round's result and the match winner.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator

from ..core.records import Record, RecordError, RecordFormat
from ..numbers import shorten
from .cards import NAMES, CardError, parse_deck
from .moves import IllegalMoveError, parse_move
from .state import (CHOOSING_LEADER, DEALING, OVER, TIED_LEAD, AwimbaweState, RoundResult)
from .variant import AwimbaweVariant


class ReplayError(IllegalMoveError):
    """A recorded move that is not legal where it was played (round and index 0-based)."""

    def __init__(self, round_index: int, index: int, move: str, reason: str) -> None:
        self.round_index, self.index, self.move, self.reason = round_index, index, move, reason
        super().__init__(f"round {round_index + 1}, move {index + 1} ({shorten(move, 40)!r}) is illegal: "
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
class MatchRecord(Record):
    FORMAT: ClassVar[RecordFormat] = RecordFormat(
        "awimbawe", AwimbaweVariant, "match record", keys=("game", "variant", "rounds"),
        required=("rounds",), variant_name=False)

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
        return self.FORMAT.envelope({"rounds": [r.to_dict() for r in self.rounds]}, self.variant,
                                    self.extra)

    @classmethod
    def from_dict(cls, obj: Any, source: str = "<record>") -> "MatchRecord":
        variant, extra = cls.FORMAT.open(obj, source)
        rounds = obj["rounds"]
        if not isinstance(rounds, list):
            raise RecordError(f"{source}: \"rounds\" must be a list of rounds "
                              f"({{\"deck\": …, \"leader\": 0, \"moves\": […]}})")
        entries = tuple(_round_entry(r, f"{source}: round {k + 1}") for k, r in enumerate(rounds))
        return cls(variant, entries, extra)


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
    elif entry.moves and parse_move_text(entry.moves[0]) not in ("start:me", "start:you"):
        # (no moves: the round was just dealt, as a record of a match so far may end)
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


def read_records(path: str) -> Iterator[tuple[str, Any]]:
    """``(source, MatchRecord or RecordError)`` for each record of a file or stdin (``-``): one
    JSON object (possibly over several lines) or JSON lines, one record a line."""
    return MatchRecord.read_many(path)


def replay_summary(state: AwimbaweState) -> dict[str, Any]:
    """The replay's JSON result: each finished round's winner, crowns, whether four hyenas
    ended it, its tricks, and the match winner (null while unfinished)."""
    return {"rounds": [{"winner": r.winner, "crowns": list(r.crowns), "hyenas": r.by_hyenas,
                        "tricks": r.tricks} for r in state.rounds],
            "winner": state.match_winner}


__all__ = ["MatchRecord", "RoundEntry", "RecordError", "ReplayError", "read_records",
           "replay_summary", "RoundResult"]
