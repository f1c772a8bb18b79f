"""The one play loop (kiwara_designer.table): a game of the core protocol at the table, driven
by a view of a few lines, with the same words for every game."""
from __future__ import annotations

import io
import random
from dataclasses import dataclass

from toy_games import KUHN, TAKE_AWAY, TakeAway

from kiwara_designer.core.game import CHANCE
from kiwara_designer.table import COMMANDS_HELP, Seat, play_at_table


@dataclass(frozen=True)
class ToyView:
    """All a game needs at the table: its words for seats, table, moves, plays and the end."""

    numbered: bool = False
    notation_help: str = "Type how many stones to take."

    def seat_names(self, reader):
        return ["north", "south"]

    def table(self, state, reader):
        return f"[table for {reader}: {state.observation(0 if reader is None else reader)}]"

    def move_list(self, state):
        return "moves: " + " ".join(f"{k + 1}) {m}" if self.numbered else str(m)
                                    for k, m in enumerate(state.legal_moves()))

    def narrate(self, play, reader, names):
        who = "chance" if play.player == CHANCE else names[play.player]
        return [f"{who} plays {play.move}" + (" (forced)" if play.forced else "")]

    def outcome(self, state, names):
        return f"over: {state.returns()}"


def play(state, seats, typed, view=ToyView(), echo=True):
    output = io.StringIO()
    result = play_at_table(state, [Seat.parse(s) for s in seats], view, io.StringIO(typed),
                           output, random.Random(1), echo=echo)
    return result, output.getvalue()


def test_a_person_uses_every_word_and_quits():
    result, out = play(TAKE_AWAY.new_state(5), ["human", "random"],
                       "help\n\n?\n7\nquit\n")
    assert not result.finished and result.moves == []
    assert out.splitlines() == [
        "[table for None: (5, 0, -1)]",
        "moves: 1 2 3",
        "north to play (? for moves, help, quit)> help",
        "Type how many stones to take.", COMMANDS_HELP,
        "north to play (? for moves, help, quit)> ",
        "north to play (? for moves, help, quit)> ?",
        "moves: 1 2 3",
        "north to play (? for moves, help, quit)> ",              # refused: not echoed
        "illegal: cannot take 7 from a pile of 5",
        "north to play (? for moves, help, quit)> quit",
        "game stopped after 0 moves."]


def test_numbers_pick_from_the_list_and_a_forced_move_is_played_for_the_person():
    # pile 5: north takes the 3rd move (3 stones), the agent takes 1, north's last stone is forced
    result, out = play(TakeAway(5), ["human", "random"], "9\n3\n", ToyView(numbered=True))
    assert "north to play (1–3, ? for moves, help, quit)> 9\nchoose 1–3\n" in out
    assert result.finished and result.moves[0] == "3"
    assert out.endswith("north plays 1 (forced)\n[table for None: (0, 1, -1)]\nover: (1.0, -1.0)\n")


def test_hidden_information_shows_a_person_their_own_table_only_when_they_choose():
    # Kuhn poker: no table for everyone; south (the person) sees theirs before choosing, and
    # nothing is echoed when the input is a terminal
    result, out = play(KUHN.new_state(), ["random", "human"], "b\n", echo=False)
    lines = out.splitlines()
    assert lines[:3] == ["chance plays J", "chance plays K", "north plays p"]   # seed 1
    tables = [line for line in lines if line.startswith("[table")]
    assert tables == ["[table for 1: (1, 'K', 2, 'p')]"]
    assert lines[4:6] == ["moves: p b", "south to play (? for moves, help, quit)> south plays b"]
    assert result.finished and lines[-1].startswith("over: ")


def test_end_of_input_stops_and_agents_alone_finish():
    _, out = play(TAKE_AWAY.new_state(5), ["human", "human"], "")
    assert out.endswith("> \ngame stopped after 0 moves.\n")
    result, out = play(TAKE_AWAY.new_state(6), ["random", "greedy"], "")
    assert result.finished and out.endswith(f"over: {result.state.returns()}\n")
    again, _ = play(TAKE_AWAY.new_state(6), ["random", "greedy"], "")
    assert again.moves == result.moves                       # the rng decides the agents
