"""Match records: ``{"game": "awimbawe", "variant": "classic" | {…}, "rounds": [{"deck": "G1 D4 …",
"leader": 0, "moves": ["P3", "P5", …]}, …]}``; other keys are kept in ``extra``.

Replaying a record re-checks every move and gives each round's result and the match winner
(:func:`replay_summary`). A record may carry that result as ``"result"`` (this project's
records of a finished match do); replay then checks it (:meth:`MatchRecord.result_difference`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterator

from ...core.records import Record, RecordError, RecordFormat
from ...core.numbers import describe_value, shorten
from .cards import NAMES, CardError, parse_deck
from .moves import IllegalMoveError, parse_move
from .state import CHOOSING_LEADER, DEALING, OVER, TIED_LEAD, AwimbaweState, RoundResult
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


# A result is what `replay --json` prints: {"rounds": [{these keys}, …], "winner": 0, 1 or null}.
ROUND_RESULT_KEYS = ("winner", "crowns", "hyenas", "tricks")
RESULT_SHAPE = ('{"rounds": [{"winner", "crowns", "hyenas", "tricks"}, …], "winner"}, '
                'as replay --json prints it')


def result_problem(value: Any) -> str | None:
    """What is wrong with a record's ``result`` (the message after ``"result"``), or None when
    it has the shape of :func:`replay_summary`'s. Only the shape: the values are checked
    against the moves on replay."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    def winner(v: Any, null: bool) -> bool:
        return (v is None and null) or (whole(v) and v in (0, 1))

    def keys(obj: dict, expected: tuple[str, ...], where: str) -> str | None:
        unknown = [k for k in obj if k not in expected]
        missing = [k for k in expected if k not in obj]
        if unknown or missing:
            what = f"an unknown key {unknown[0]!r}" if unknown else f"no key {missing[0]!r}"
            return f"{where}has {what} (keys: {', '.join(expected)})"
        return None

    if not isinstance(value, dict):
        return f"must be {RESULT_SHAPE}, got {describe_value(value)}"
    problem = keys(value, ("rounds", "winner"), "")
    if problem:
        return problem
    if not isinstance(value["rounds"], list):
        return f'"rounds" must be a list of rounds, got {describe_value(value["rounds"])}'
    for k, entry in enumerate(value["rounds"]):
        where = f"round {k + 1}"
        if not isinstance(entry, dict):
            return (f'{where} must be {{"winner", "crowns", "hyenas", "tricks"}}, got '
                    f"{describe_value(entry)}")
        problem = keys(entry, ROUND_RESULT_KEYS, f"{where} ")
        if problem:
            return problem
        checks = {"winner": (winner(entry["winner"], False), "0 or 1"),
                  "crowns": (isinstance(entry["crowns"], list) and len(entry["crowns"]) == 2
                             and all(map(whole, entry["crowns"])),
                             "two whole numbers [player 0, player 1]"),
                  "hyenas": (isinstance(entry["hyenas"], bool), "true or false"),
                  "tricks": (whole(entry["tricks"]) and entry["tricks"] >= 0,
                             "a whole number from 0")}
        for key in ROUND_RESULT_KEYS:
            ok, should = checks[key]
            if not ok:
                return f'{where} "{key}" must be {should}, got {describe_value(entry[key])}'
    if not winner(value["winner"], True):
        return f'"winner" must be 0, 1 or null, got {describe_value(value["winner"])}'
    return None


@dataclass(frozen=True)
class ResultDifference:
    """The first field, in reading order, where a record's stored result and its replay
    differ: ``key`` of round ``round_number`` (1-based), or of the match when that is None
    (``"rounds"`` then compares how many rounds were played)."""

    round_number: int | None
    key: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        where = (f'round {self.round_number} "{self.key}"' if self.round_number is not None
                 else "the number of rounds" if self.key == "rounds"
                 else f'the match "{self.key}"')
        return (f"the record's result differs from what its moves give in {where}: the record "
                f"says {json.dumps(self.recorded)}, its moves give {json.dumps(self.replayed)}")

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round_number, "field": self.key, "recorded": self.recorded,
                "replayed": self.replayed}


@dataclass(frozen=True)
class MatchRecord(Record):
    FORMAT: ClassVar[RecordFormat] = RecordFormat(
        "awimbawe", AwimbaweVariant, "match record", keys=("game", "variant", "rounds"),
        required=("rounds",), variant_name=False, result_problem=result_problem)

    variant: AwimbaweVariant
    rounds: tuple[RoundEntry, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def from_state(cls, state: AwimbaweState, **extra: Any) -> "MatchRecord":
        """The record of a match so far (a round still being dealt is left out); a finished
        match's carries its ``result`` (after ``extra``), which replay checks."""
        entries = [RoundEntry(r.deck, r.leader, tuple(r.moves)) for r in state.rounds]
        if state.phase not in (DEALING, OVER):
            current = state.round_record()
            leader = None if state.phase in (TIED_LEAD, CHOOSING_LEADER) else state.first_leader
            entries.append(RoundEntry(state.deck, leader, tuple(current["moves"])))
        extra = dict(extra)
        if state.phase == OVER:
            extra.setdefault("result", replay_summary(state))
        return cls(state.variant, tuple(entries), extra)

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

    def result_difference(self, final: AwimbaweState) -> ResultDifference | None:
        """Where the stored ``result`` (if any) first differs from :func:`replay_summary` of
        ``final``, the state its moves reach; None when they agree. An unfinished match's
        result is checked too: its finished rounds, and "winner" null."""
        stored = self.extra.get("result")
        if stored is None:
            return None
        replayed = replay_summary(final)
        for k, (mine, theirs) in enumerate(zip(stored["rounds"], replayed["rounds"])):
            for key in ROUND_RESULT_KEYS:
                if mine[key] != theirs[key]:
                    return ResultDifference(k + 1, key, mine[key], theirs[key])
        if len(stored["rounds"]) != len(replayed["rounds"]):
            return ResultDifference(None, "rounds", len(stored["rounds"]),
                                    len(replayed["rounds"]))
        if stored["winner"] != replayed["winner"]:
            return ResultDifference(None, "winner", stored["winner"], replayed["winner"])
        return None

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
    ended it, its tricks (:data:`ROUND_RESULT_KEYS`), and the match winner (null while
    unfinished). A record's ``result`` is this."""
    return {"rounds": [{"winner": r.winner, "crowns": list(r.crowns), "hyenas": r.by_hyenas,
                        "tricks": r.tricks} for r in state.rounds],
            "winner": state.match_winner}


__all__ = ["MatchRecord", "RoundEntry", "RecordError", "ReplayError", "ResultDifference",
           "read_records", "replay_summary", "result_problem", "RoundResult"]
