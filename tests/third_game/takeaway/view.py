"""Take-away at the table."""
from __future__ import annotations


class TakeAwayView:
    notation_help = "A move is how many stones you take: 1, 2 or 3."
    numbered = False

    def seat_names(self, reader):
        return ["first", "second"]

    def table(self, state, reader) -> str:
        return f"{state.stones} stones"

    def move_list(self, state) -> str:
        return "take " + ", ".join(map(str, state.legal_moves()))

    def narrate(self, play, reader, names) -> list[str]:
        return [f"{names[play.player]} takes {play.move}"]

    def outcome(self, state, names) -> str:
        return f"{names[1 - state.player]} took the last stone and wins"
