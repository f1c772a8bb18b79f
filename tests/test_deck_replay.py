"""A deck game as ``kiwara replay`` and ``kiwara play`` print it (issue 27): the held cards'
points are a row of their own and the rows add up to the totals, the Okapi line says what
became of the Okapi in a deck game, and negative points never print as "+-3"."""
from __future__ import annotations

import random
import re

from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara import KiwaraRecord, KiwaraVariant, new_game
from kiwara_designer.games.kiwara.cards import Card
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_designer.games.kiwara.view import (card_text, draw_game, points_text, scoring_table,
                                               signed)

CLASSIC = load_layout("classic")
# okapi +5 dealt to the first player, curse -3 to the second; drums goes at the Okapi moment
CURSED = KiwaraVariant(name="cursed", reinforcement="deck", handicap=(1, 1),
                       deck=(Card("okapi", "points", 5), Card("curse", "points", -3),
                             Card("drums", "totem")))
ORDER = ["okapi", "curse", "drums"]
PLUS_MINUS = re.compile(r"\+-\d")     # "+-3" (the board's frame is "+---+")


def _played(seed: int = 4):
    """A whole game of random legal moves from the fixed order, and its record."""
    rng = random.Random(seed)
    state, moves = new_game(CLASSIC, CURSED, ORDER), []
    while not state.is_terminal():
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    record = KiwaraRecord(CLASSIC, CURSED, tuple(map(str, moves)), deck=tuple(ORDER))
    return state, record


def test_signed_points_never_print_plus_minus():
    assert [signed(5), signed(-3), signed(0)] == ["+5", "-3", "0"]
    assert [points_text(-3), points_text(1), points_text(-1)] == ["-3 points", "+1 point",
                                                                  "-1 point"]
    state = new_game(CLASSIC, CURSED, ORDER)
    assert card_text(state, "curse") == "curse (-3 points)"
    assert card_text(state, "okapi") == "okapi (+5 points)"
    assert not PLUS_MINUS.search(draw_game(state, ["a", "b"]))


def test_a_deck_games_scoring_table_adds_up(tmp_path):
    state, record = _played()
    scoring = state.scoring()
    assert scoring.card_points is not None
    path = tmp_path / "deck.json"
    path.write_text(record.to_json())
    result = CliRunner().invoke(main, ["replay", str(path), "--no-colour"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert not PLUS_MINUS.search(out) and "not awarded" not in out
    # the territory rows, summed by hand for each controller (no tie rule "both" here)
    rows = re.findall(r"^(\w+)\s+\d+\s+\d+\s+\d+\s+(first|second|nobody)\s+(\d+)$", out, re.M)
    assert len(rows) == len(scoring.territories)
    board = [sum(int(p) for _, who, p in rows if who == name) for name in ("first", "second")]
    assert f"territories: first {board[0]}, second {board[1]}" in out
    held = [sorted(state.hand(p)) for p in (0, 1)]
    cards = [sum({"okapi": 5, "curse": -3, "drums": 0}[n] for n in hand) for hand in held]
    assert "okapi" in held[0] and "curse" in held[1]          # the handicap deal
    line = next(ln for ln in out.splitlines() if ln.startswith("cards held: "))
    assert line.startswith(f"cards held: first {signed(cards[0])} (")
    assert f"second {signed(cards[1])} (" in line and "curse -3" in line and "okapi +5" in line
    totals = [b + c for b, c in zip(board, cards)]
    assert list(scoring.totals) == totals
    assert f"final score: first {totals[0]}, second {totals[1]}" in out
    # the Okapi: a card held by the first player, not "not awarded"
    assert ("Okapi: a card in a deck game (no bonus); the first player holds it "
            "(okapi +5, in its cards)") in out


def test_an_okapi_games_table_is_unchanged_and_a_deck_without_okapi_says_so():
    state = new_game(CLASSIC, KiwaraVariant())
    assert scoring_table(state.scoring()).splitlines()[-2] == "Okapi: not awarded"
    no_okapi = KiwaraVariant(reinforcement="deck", deck=(Card("drums", "totem"),))
    table = scoring_table(new_game(CLASSIC, no_okapi, ["drums"]).scoring(),
                          new_game(CLASSIC, no_okapi, ["drums"]))
    assert "Okapi: no bonus in a deck game (the Okapi moment deals a card)" in table
    assert "cards held: first 0 (no card), second 0 (no card)" in table


def test_play_says_the_cards_points_are_in_the_total():
    state, _ = _played()
    text = draw_game(state, ["greedy", "greedy"])
    assert "(+5 from cards included)" in text or "okapi" not in state.hand(0)
    assert not PLUS_MINUS.search(text)
