"""Game records: ``{"layout": "classic" | ["ABCCCC", …], "variant": "classic" | {…}, "moves": […]}``.

A deck game adds ``"deck"``: the whole deck order at setup, top first, so that a replay is exact
(without it, the moves must include the chance draws, ``draw:NAME``). Players, seed and result
may be added; they are kept in ``extra`` and written back unchanged.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Iterable, Iterator

from ...core.records import Record, RecordError, RecordFormat
from .formats import builtin_names, load_layout, parse_text
from .layout import Layout
from ...core.numbers import describe_value, plural, shorten
from .moves import IllegalMoveError, Move
from .state import KiwaraState, PositionError, new_game
from .variant import KiwaraVariant

DRAW = "draw:"        # notation of a chance draw of a card
__all__ = ["KiwaraRecord", "RecordError", "ReplayError", "DRAW"]


class ReplayError(IllegalMoveError):
    """A recorded move that is not legal where it was played: ``index`` (0-based), ``move``, ``reason``."""

    def __init__(self, index: int, move: str, reason: str) -> None:
        self.index, self.move, self.reason = index, move, reason
        super().__init__(f"move {index + 1} ({shorten(move, 40)!r}) is illegal: {reason}")


def result_problem(value: Any) -> str | None:
    """What is wrong with a record's ``result`` (None if it is ``{"scores": [first, second],
    "winner": 0, 1 or null}``, what ``kiwara play --record`` writes)."""
    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)
    if (isinstance(value, dict) and isinstance(value.get("scores"), list)
            and len(value["scores"]) == 2 and all(map(whole, value["scores"]))
            and "winner" in value and value["winner"] in (0, 1, None)
            and not isinstance(value["winner"], bool)):
        return None
    return ('must be {"scores": [first, second], "winner": 0, 1 or null}, got '
            f'{describe_value(value)}')


@dataclass(frozen=True)
class KiwaraRecord(Record):
    FORMAT: ClassVar[RecordFormat] = RecordFormat(
        "kiwara", KiwaraVariant, "game record", keys=("layout", "variant", "deck", "moves"),
        required=("layout", "moves"), indent=1, result_problem=result_problem)

    layout: Layout
    variant: KiwaraVariant
    moves: tuple[str, ...]
    extra: dict[str, Any] = field(default_factory=dict, compare=False)
    deck: tuple[str, ...] | None = None

    @classmethod
    def from_moves(cls, layout: Layout, variant: KiwaraVariant | None,
                   moves: Iterable[Move | str], *, deck: Iterable[str] | None = None,
                   **extra: Any) -> "KiwaraRecord":
        """A record of ``moves`` played from the start. In a deck game played with chance
        draws (``draw:NAME`` moves) and no ``deck``, the deck order is the drawn cards in turn,
        then the rest in the deck's own order: replayed from it, the same cards are drawn."""
        variant = variant or KiwaraVariant()
        texts = [str(m) for m in moves]
        if variant.deck_game and deck is None:
            drawn = [text[len(DRAW):] for text in texts if text.startswith(DRAW)]
            rest = [card.name for card in variant.cards]
            for name in drawn:
                if name in rest:
                    rest.remove(name)
            deck = drawn + rest
            texts = [text for text in texts if not text.startswith(DRAW)]
        return cls(layout, variant, tuple(texts), dict(extra),
                   None if deck is None else tuple(deck))

    # -- replay ------------------------------------------------------------------------------
    def states(self) -> Iterator[KiwaraState]:
        """The opening position, then the position after each move; :class:`ReplayError` on
        the first move that cannot be played."""
        state = new_game(self.layout, self.variant, self.deck)
        yield state
        for index, text in enumerate(self.moves):
            try:
                state = state.apply(Move.parse(text, self.layout.grid))
            except IllegalMoveError as exc:
                reason = str(exc)
                # The engine's messages start with the move itself (quoted or not); say it once.
                for prefix in (f"{text}: ", f"{text!r}: "):
                    if reason.startswith(prefix):
                        reason = reason[len(prefix):]
                raise ReplayError(index, text, reason) from None
            yield state

    def replay(self) -> KiwaraState:
        """Check every move and return the final position."""
        state = None
        for state in self.states():
            pass
        return state

    def result_difference(self, final: KiwaraState) -> str | None:
        """How the stored ``result`` (if any) differs from ``final``, the position the moves
        reach, or None when they agree."""
        stored = self.extra.get("result")
        if stored is None:
            return None
        if not final.is_terminal():
            return (f"the record gives a result, but the game is not over after its "
                    f"{plural(len(self.moves), 'move')}")
        scoring = final.scoring()
        claimed = (tuple(stored["scores"]), stored["winner"])
        if claimed == (scoring.totals, scoring.winner):
            return None
        def told(scores, winner) -> str:
            who = "a draw" if winner is None else ("first", "second")[winner] + " player wins"
            return f"{scores[0]}-{scores[1]}, {who}"
        return (f"the record's result ({told(*claimed)}) differs from what its moves give "
                f"({told(scoring.totals, scoring.winner)})")

    # -- JSON --------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        layout: Any = list(self.layout.rows)
        for name in builtin_names():
            builtin = load_layout(name)
            if builtin == self.layout and builtin.rows == self.layout.rows:
                layout = name
                break
        return self.FORMAT.envelope(
            {"layout": layout, "deck": None if self.deck is None else list(self.deck),
             "moves": list(self.moves)}, self.variant, self.extra)

    @classmethod
    def from_dict(cls, obj: Any, source: str = "<record>") -> "KiwaraRecord":
        variant, extra = cls.FORMAT.open(obj, source)
        layout = _record_layout(obj["layout"], source)
        moves = obj["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(f"{source}: \"moves\" must be a list of moves in notation "
                              f"(strings such as \"T7\", \"Zc3>12\")")
        deck = obj.get("deck")
        if deck is not None:
            if not isinstance(deck, list) or not all(isinstance(n, str) for n in deck):
                raise RecordError(f"{source}: \"deck\" must be a list of card names, top first")
            try:
                new_game(layout, variant, deck)
            except PositionError as exc:
                raise RecordError(f"{source}: \"deck\": {exc}") from None
            deck = tuple(deck)
        return cls(layout, variant, tuple(moves), extra, deck)


def _record_layout(value: Any, source: str) -> Layout:
    if isinstance(value, str):
        if value not in builtin_names():
            raise RecordError(f"{source}: \"layout\": no built-in layout {value!r} (built-in: "
                              f"{', '.join(builtin_names())}); give the rows instead")
        return load_layout(value)
    if isinstance(value, dict) and isinstance(value.get("rows"), list):
        value = value["rows"]
    if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
        raise RecordError(f"{source}: \"layout\" must be a built-in name or a list of rows "
                          f"such as [\"ABCCCC\", …]")
    entries = parse_text("\n".join(value), f"{source}: layout")
    if len(entries) != 1 or entries[0].error:
        # the error's bare message: the source is named once, below
        reason = entries[0].error.message if entries and entries[0].error else "not one layout"
        raise RecordError(f"{source}: \"layout\": {reason}")
    return entries[0].layout
