"""Games: ``kiwara perft``, ``replay`` and ``play``."""
from __future__ import annotations

import json
import sys

import click

from ....core.errors import KiwaraError
from ..formats import load_layout
from ....core.io import source_label
from ....commands import (EXIT_BAD_INPUT, EXIT_NEGATIVE, EXIT_OK, Whole, keep_stdin_for_people,
                          play_given_moves, print_perft, save_record, seats_from_options,
                          stdin_once, table_stream)
from .common import load_variant, note_invalid


def _engine_setup(layout_name: str, variant_name: str | None):
    """The layout (a note if it is not a valid free-play layout, as every command that plays
    one says) and the variant."""
    board = load_layout(layout_name)
    note_invalid(board, source_label(layout_name))
    return board, load_variant(variant_name)


MAX_PERFT_DEPTH = 5     # each depth ~70 times the leaves of the one before; classic, CPU time:
                        # compiled core ~2 s at 5; pure Python ~2 s at 4, ~2 min at 5


# ignore_unknown_options: `kiwara perft -1` reaches DEPTH (and its range) as a number, not
# "No such option '-1'"
@click.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("depth", type=Whole(0, MAX_PERFT_DEPTH))
@click.option("--layout", "layout_name", default="classic", show_default=True,
              help="Layout file, built-in name or - for stdin.")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
              "(classic, no_crocodile_swaps, totem_1_2, …). Default: classic.")
@click.option("--moves", "moves_text", default="", help="Moves to play first, in notation, "
              "separated by spaces (perft then counts from that position).")
@click.option("--divide", is_flag=True, help="Also print the count under each first move.")
@click.option("--deck", "deck_text", help='Deck games (reinforcement = "deck"): the deck\'s order '
              "at setup, card names top first separated by commas. Default: the deck's own "
              "order. Card uses count as moves; draws take the top card.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def perft_cmd(depth, layout_name, variant_name, moves_text, divide, deck_text, as_json) -> None:
    """Count the move sequences of length 1..DEPTH: the move generator's check.

    Prints one line per depth, `perft 1 22`; a move is a whole turn (see the rules reference).
    DEPTH is 0 to 5 (each depth ~70 times the one before). From the classic start, with the
    compiled core (Okapi games), depth 4 takes a fraction of a second and 5 about 2 s; the
    pure-Python engine (deck games, KIWARA_ENGINE=python) takes about 2 s at 4 and two
    minutes at 5.

    \b
    Examples:
      kiwara perft 2
      kiwara perft 3 --layout president --variant no_crocodile_swaps --divide
      kiwara perft 2 --moves "T7 Zb2>9" --json
      kiwara perft 3 --variant three_cards.toml --deck drums,okapi,ford
    """
    from .. import IllegalMoveError, new_game, perft, perft_divide
    stdin_once(**{"--layout": layout_name, "--variant": variant_name})
    board, variant = _engine_setup(layout_name, variant_name)
    deck = None
    if variant.deck_game:
        deck = ([name.strip() for name in deck_text.split(",")] if deck_text
                else [card.name for card in variant.cards])
    elif deck_text is not None:
        raise KiwaraError('--deck: the variant has no deck (reinforcement = "okapi")')
    state = play_given_moves(new_game(board, variant, deck), moves_text,
                             lambda state, text: state.play(text), IllegalMoveError)
    print_perft(depth, lambda d: perft(state, d), lambda: perft_divide(state, depth),
                divide=divide, as_json=as_json,
                head={"layout": list(board.rows), "variant": variant.to_dict(),
                      **({} if deck is None else {"deck": deck}), "moves": moves_text.split()})


@click.command("replay")
@click.argument("record")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"scores": [first, second], "winner": 0, 1 or null, "okapi": its '
                   'holder or null, "final": whether the score is final, "territories": '
                   '[{"name", "size", "tokens", "controller", "points"}, …], "moves": how many, '
                   '"finished": whether the game is over, "stored_result_differs": how the '
                   'record\'s result differs from its moves, or null}; for JSON lines, one such '
                   'line per record, or {"error": why, …} for a record that cannot be replayed.')
@click.option("--colour/--no-colour", default=None, help="Tint territories (default: on a terminal).")
def replay_cmd(record, as_json, colour) -> None:
    """Re-check every move of the game RECORD(s) (a JSON file, JSON lines, or - for stdin).

    One record: prints the final board and the scoring table. JSON lines (one record a line):
    prints one line per record, `FILE:LINE: final score: first 58, second 29: first player
    wins (60 moves)`, and says on stderr which records fail (FILE:LINE and why). Exit 1 at an
    illegal move (with its number, the move and the reason) or when a record's stored result
    differs from what its moves give, 2 if a file or line is not a game record (the other
    lines are still replayed).

    \b
    Examples:
      kiwara replay game.json
      kiwara replay - --json < game.json
      kiwara replay games.jsonl --json
    """
    from ....core.records import is_json_lines
    from .. import KiwaraRecord, ReplayError
    from ..view import draw_state, scoring_table
    label = source_label(record)
    text = KiwaraRecord.FORMAT.read(record)
    if is_json_lines(text):
        sys.exit(_replay_lines(KiwaraRecord.records_in(text, label), as_json))
    game = KiwaraRecord.from_json(text, label)
    note_invalid(game.layout, f"{label}: the layout")
    try:
        state = game.replay()
    except ReplayError as exc:
        if as_json:
            click.echo(json.dumps({"error": str(exc), **_illegal_json(exc)}))
        click.echo(f"kiwara: {label}: {exc}", err=True)
        sys.exit(EXIT_NEGATIVE)
    difference = game.result_difference(state)
    if as_json:
        click.echo(json.dumps(_replay_json(game, state, difference), indent=1))
    else:
        click.echo(draw_state(state, colour=True), color=colour)
        click.echo()
        click.echo(scoring_table(state.scoring(), state))
    if difference:     # a record that says something false: its moves win, and we say so
        click.echo(f"kiwara: {label}: {difference}", err=True)
        sys.exit(EXIT_NEGATIVE)


def _replay_lines(records, as_json: bool) -> int:
    """Replay JSON lines as ``kiwara awimbawe replay`` does: one line per record on stdout
    (its result, or with --json its error object), each failure on stderr naming FILE:LINE;
    the exit code of the worst record."""
    from .. import ReplayError
    from ..view import score_line
    from ....core.numbers import plural
    status = EXIT_OK

    def fail(code: int, source: str, problem: Exception, details: dict) -> None:
        nonlocal status
        status = max(status, code)
        message = str(problem) if str(problem).startswith(source) else f"{source}: {problem}"
        if as_json:
            click.echo(json.dumps({"error": message, **details}))
        click.echo(f"kiwara: {message}", err=True)

    for source, game in records:
        if isinstance(game, KiwaraError):
            fail(EXIT_BAD_INPUT, source, game, {})
            continue
        note_invalid(game.layout, f"{source}: the layout")
        try:
            state = game.replay()
        except ReplayError as exc:
            fail(EXIT_NEGATIVE, source, exc, _illegal_json(exc))
            continue
        difference = game.result_difference(state)
        if as_json:
            click.echo(json.dumps(_replay_json(game, state, difference)))
        else:
            click.echo(f"{source}: {score_line(state.scoring())} "
                       f"({plural(len(game.moves), 'move')})")
        if difference:
            status = max(status, EXIT_NEGATIVE)
            click.echo(f"kiwara: {source}: {difference}", err=True)
    return status


def _illegal_json(exc) -> dict:
    """What --json says of an illegal move besides its "error" (index 0-based, as always)."""
    return {"index": exc.index, "move": exc.move, "reason": exc.reason}


def _replay_json(game, state, difference: str | None) -> dict:
    return {**state.scoring().to_dict(), "moves": len(game.moves),
            "finished": state.is_terminal(), "stored_result_differs": difference}


# -- agents and play --------------------------------------------------------------------------
@click.command()
@click.option("--layout", "layout_name", default="classic", show_default=True,
              help="Layout file, built-in name or - (only when no person plays).")
@click.option("--first", default="human", show_default=True,
              help="Who opens with the totem: human or an agent spec (random, greedy, mcts:500, "
                   "mcts:2s, mcts:500:greedy).")
@click.option("--second", default="mcts:500", show_default=True, help="Who plays second.")
@click.option("--variant", "variant_name", help="Rules variant: TOML file or built-in name "
              "(classic, no_crocodile_swaps, totem_1_2, …). Default: classic.")
@click.option("--seed", type=Whole(), help="Seed of the agents' random choices and a deck's draws "
                                       "(default: drawn and printed, so the game can be replayed; "
                                       "secret until the game ends when a person plays a deck "
                                       "variant).")
@click.option("--record", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the game record (JSON, for kiwara replay) here; - for stdout.")
@click.option("--colour/--no-colour", default=None, help="Colours (default: on a terminal).")
def play(layout_name, first, second, variant_name, seed, record, colour) -> None:
    """Play a game in the terminal: a person against an agent, or watch two agents.

    Moves are typed in notation (T7, Zc3>12, Cb2xc2>4, Gf5, pass); ? lists the legal moves,
    quit (or end of input) stops. Exit 0 when the game ends or is stopped.

    \b
    Examples:
      kiwara play
      kiwara play --first mcts:2s --second human --seed 7
      kiwara play --first greedy --second mcts:500 --record game.json
      kiwara play --layout president --variant no_crocodile_swaps
      kiwara play --first greedy --second mcts:200 --record - | kiwara replay -
    """
    from .. import KIWARA
    from ..play import start_session

    stdin_once(**{"--layout": layout_name, "--variant": variant_name})
    seats = seats_from_options(first, second, KIWARA)
    keep_stdin_for_people(seats, **{"--layout": layout_name, "--variant": variant_name})
    session = start_session(layout_name, seats, variant_name, seed)
    note_invalid(session.layout, source_label(layout_name))
    output = table_stream(record)
    result = session.play(sys.stdin, output, output.isatty() if colour is None else colour)
    if record:
        save_record(session.record(result), record)
