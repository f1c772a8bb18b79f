"""``kiwara awimbawe``: deal, perft, replay and play Awimbawé (a thin shell over
:mod:`kiwara_designer.games.awimbawe`)."""
from __future__ import annotations

import json
import random
import sys

import click

from ....core.errors import KiwaraError
from ....core.io import read_text
from ....commands import (EXIT_BAD_INPUT, EXIT_NEGATIVE, Whole, agents_help, keep_stdin_for_people,
                          play_given_moves, print_perft, save_record, seats_from_options,
                          stdin_once, table_stream)

VARIANT_HELP = ("Rules variant: TOML file, - for stdin, or built-in name (classic, gamepark, "
                "no_flee, no_snake, three_hyenas). Default: classic.")


@click.group("awimbawe")
def awimbawe() -> None:
    """Awimbawé, the two-player trick-taking card game: deal, perft, replay, play, cards,
    fair, playtest, compare, sweep, ladder.

    Notation: cards G1…P6 and E7…E10; powers G3:me, D2:3>1, M5:p2, M5:h=G4, E9:flee;
    start:me / start:you (see docs/rules/awimbawe.md).

    \b
    Examples:
      kiwara awimbawe deal --seed 7
      kiwara awimbawe perft 3 --deck "$(kiwara awimbawe deal --seed 7 --deck-only)"
      kiwara awimbawe play --second greedy --seed 1
    """


def _variant(name):
    from .. import load_variant
    return load_variant(name)


def _seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(10**9) if seed is None else seed


@awimbawe.command("deal")
@click.option("--seed", type=Whole(), help="Seed of the shuffle (default: drawn and printed).")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--json", "as_json", is_flag=True,
              help='Print {"seed", "deck", "leader", "crowns": face-up pile crowns of each '
                   'player, "tie"}.')
@click.option("--deck-only", is_flag=True, help="Print the deck alone (for --deck of perft).")
def deal_cmd(seed, variant_name, as_json, deck_only) -> None:
    """Shuffle a deck and say who leads round 1.

    The deck is the 28 cards in deal order: four face-down pile cards for each player, then the
    four face-up ones on them, then six cards in each hand. The player with fewer crowns on
    their face-up pile cards leads; a tie is drawn from the seed.

    \b
    Examples:
      kiwara awimbawe deal --seed 7
      kiwara awimbawe deal --seed 7 --json
    """
    from ..cards import format_cards
    from ..state import TIED_LEAD, new_round, shuffled_deck
    seed = _seed(seed)
    variant = _variant(variant_name)
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    state = new_round(deck, None, variant)
    tie = state.phase == TIED_LEAD
    leader = rng.randrange(2) if tie else state.first_leader
    n = variant.piles
    crowns = [sum(variant.card_crowns[c] for c in deck[(2 + s) * n:(3 + s) * n]) for s in (0, 1)]
    text = format_cards(deck)
    if deck_only:
        click.echo(text)
    elif as_json:
        click.echo(json.dumps({"seed": seed, "deck": text, "leader": leader, "crowns": crowns,
                               "tie": tie}))
    else:
        why = "a tie, drawn from the seed" if tie else "fewer crowns on face-up pile cards"
        click.echo(f"seed {seed}\ndeck {text}\nleader {leader} ({why}: {crowns[0]} against "
                   f"{crowns[1]})")


# perft 6 of a deal takes ~40 s, and each ply multiplies it by ~30: deeper never ends
MAX_PERFT_DEPTH = 6
MAX_DECK_BYTES = 10_000      # 28 card names and their spaces, with room for blank lines


# ignore_unknown_options: `perft -1` reaches DEPTH (and its range) as a number, not "No such
# option '-1'", as Kiwara's perft does
@awimbawe.command("perft", context_settings={"ignore_unknown_options": True})
@click.argument("depth", type=Whole(0, MAX_PERFT_DEPTH))
@click.option("--deck", "deck_text", required=True,
              help="The 28 cards in deal order, space-separated, or - for stdin.")
@click.option("--leader", type=Whole(0, 1),
              help="Who leads round 1 (settles a tie, or overrides the rule).")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--moves", "moves_text", default="",
              help="Moves to play first, in record notation, separated by spaces.")
@click.option("--divide", is_flag=True, help="Also print the count under each first move.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def perft_cmd(depth, deck_text, leader, variant_name, moves_text, divide, as_json) -> None:
    """Count the move sequences of length 1..DEPTH within round 1 of a deal.

    A move is one decision in record notation: each card a blind snake may block is its own
    move (M5:h=G4). Prints `perft N COUNT` lines; --divide first prints `MOVE COUNT` for each
    legal move. Exit 1 if a --moves move is illegal.

    \b
    Examples:
      kiwara awimbawe perft 3 --deck "G1 G2 … E10" --leader 0
      kiwara awimbawe deal --seed 7 --deck-only | kiwara awimbawe perft 2 --deck - --divide
    """
    from .. import IllegalMoveError, new_round, round_perft, round_perft_divide
    from ..cards import CardError
    from ..state import TIED_LEAD
    stdin_once(**{"--deck": deck_text, "--variant": variant_name})
    if deck_text == "-":
        deck_text = read_text("-", "deck", MAX_DECK_BYTES)
    variant = _variant(variant_name)
    try:
        state = new_round(deck_text, leader, variant)
    except CardError as exc:
        raise KiwaraError(f"--deck: {exc}") from None
    if state.phase == TIED_LEAD:
        raise KiwaraError("--deck: the face-up pile cards' crowns tie (or the variant draws the "
                          "first leader): give --leader 0 or 1")
    state = play_given_moves(state, moves_text, lambda state, text: state.apply_recorded(text),
                             IllegalMoveError,
                             over=lambda state: None if state.record_moves() else "round 1 is over")
    print_perft(depth, lambda d: round_perft(state, d), lambda: round_perft_divide(state, depth),
                divide=divide, as_json=as_json,
                head={"deck": deck_text.split(), "leader": state.first_leader,
                      "variant": variant.to_dict(only_changes=True), "moves": moves_text.split()})


@awimbawe.command("replay")
@click.argument("record")
@click.option("--json", "as_json", is_flag=True,
              help='One line per record: {"rounds": [{"winner": 0|1, "crowns": [c0, c1], '
                   '"hyenas": true|false, "tricks": n}, …], "winner": 0|1 or null while '
                   'unfinished}; a record that cannot be replayed gets {"error": why, …}, one '
                   'whose result differs {"error", "round", "field", "recorded", "replayed"}.')
def replay_cmd(record, as_json) -> None:
    """Re-check every move of the match RECORD(s) (a JSON file, JSON lines, or - for stdin).

    Prints each round's winner, crowns, whether four hyenas ended it, its tricks, and the match
    winner. A record's "result" (what --json prints; play --record writes it once the match is
    over) is checked against its moves. Exit 1 if a record holds an illegal move (round, move
    number, move and reason are given) or a result its moves contradict (the first field that
    differs is named), 2 if a record (or its result) cannot be read; errors name FILE:LINE in
    JSON lines.

    \b
    Examples:
      kiwara awimbawe replay match.json
      kiwara awimbawe replay matches.jsonl --json
      kiwara awimbawe play --first random --second greedy --record - | kiwara awimbawe replay -
    """
    from ..record import RecordError, ReplayError, read_records, replay_summary
    status = 0
    for source, match in read_records(record):
        problem = None
        if isinstance(match, KiwaraError):
            problem, code, details = match, EXIT_BAD_INPUT, {}
        else:
            try:
                state = match.replay()
            except ReplayError as exc:
                problem, code = exc, EXIT_NEGATIVE
                details = {"round": exc.round_index + 1, "index": exc.index + 1,
                           "move": exc.move, "reason": exc.reason}
            except RecordError as exc:
                problem, code, details = exc, EXIT_NEGATIVE, {}
            else:
                difference = match.result_difference(state)
                if difference is not None:    # the record says something its moves do not
                    problem, code, details = difference, EXIT_NEGATIVE, difference.to_dict()
        if problem is not None:
            status = max(status, code)
            message = str(problem) if str(problem).startswith(source) else f"{source}: {problem}"
            if as_json:
                click.echo(json.dumps({"error": message, **details}))
            click.echo(f"kiwara: {message}", err=True)
            continue
        summary = replay_summary(state)
        if as_json:
            click.echo(json.dumps(summary))
            continue
        for k, r in enumerate(summary["rounds"]):
            end = "four hyenas" if r["hyenas"] else "crowns"
            click.echo(f"round {k + 1}: player {r['winner']} wins by {end} · crowns "
                       f"{r['crowns'][0]}–{r['crowns'][1]} · {r['tricks']} tricks")
        winner = summary["winner"]
        click.echo("match: unfinished" if winner is None else f"match: player {winner} wins")
    sys.exit(status)


@awimbawe.command("play")
@click.option("--first", default="human", show_default=True,
              help=f"Seat 0: {agents_help('awimbawe', human=True)}.")
@click.option("--second", default="greedy", show_default=True, help="Seat 1: as --first.")
@click.option("--variant", "variant_name", help=VARIANT_HELP)
@click.option("--seed", type=Whole(), help="Seed of the deals and the agents' choices (default: "
                                       "drawn; with a person seated it is secret, printed once "
                                       "the match is over, and in the record).")
@click.option("--record", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the match record (JSON, for replay) here; - for stdout.")
def play_cmd(first, second, variant_name, seed, record) -> None:
    """Play a match in the terminal against an agent (or watch two agents).

    You see what your seat may see: your hand and piles, the opponent's face-up pile cards and
    card backs, the trick, hyenas and crowns won, blocked cards. Type a move in notation or its
    number; ? lists the legal moves, help explains the notation, quit (or end of input) stops.
    Exit 0.

    \b
    Examples:
      kiwara awimbawe play --second greedy
      kiwara awimbawe play --first random --second greedy --seed 3 --record match.json
    """
    from ..game import AWIMBAWE
    from ..record import MatchRecord
    from ..view import AwimbaweTableView
    from ....table import TableSeed, closing_line, opening_line, play_at_table

    stdin_once(**{"--variant": variant_name})
    seats = seats_from_options(first, second, AWIMBAWE)
    keep_stdin_for_people(seats, **{"--variant": variant_name})
    variant = _variant(variant_name)
    output = table_stream(record)
    seed = TableSeed.choose(AWIMBAWE, variant, seats, seed)
    title = opening_line("kiwara awimbawe play", [f"{variant.name} rules"], seats, seed)
    output.write(title + "\n")
    # the deals and the agents' choices from two generators: an agent's thinking never changes
    # the cards dealt
    played = play_at_table(AWIMBAWE.new_state(None, variant), seats, AwimbaweTableView(),
                           sys.stdin, output, random.Random(seed.value + 1),
                           random.Random(seed.value))
    if closing := closing_line(seed):
        output.write(closing + "\n")
    if record:
        save_record(MatchRecord.from_state(played.state, players=[first, second],
                                           seed=seed.value), record)
