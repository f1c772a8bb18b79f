"""Plain-text drawings of what one player sees (for the terminal game, the studio and
notebooks): :func:`describe` draws an :class:`~.information.Observation` only, and
:func:`narrate` tells a move from the player's events as seen, so neither can show a hidden
card. :class:`AwimbaweTableView` is how a match reads at the table
(:mod:`kiwara_designer.table`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .cards import NAMES
from .information import Observation, finished_tricks, observation, round_events_seen
from .moves import (CHEETAH_CHOICE, EAGLE_FIGHT, EAGLE_FLEE, RHINO_SLIDE, SNAKE_HAND, SNAKE_PILE,
                    START, parse_move)
from .state import BLIND_PICK, CHOOSING_LEADER, TIED_LEAD, AwimbaweState
from ...table import Play

NOTATION_HELP = """\
Moves are typed in notation (or picked by number):
  a card: G1 … P6 (grassland, desert, mountain, plain; 1 mouse, 2 rhinoceros, 3 cheetah,
          4 hyena, 5 snake, 6 elephant), E7 … E10 (eagles); a bare card uses no power
  G3:me / G3:you    cheetah: who leads the next trick
  D2:3>1            rhinoceros: the opponent's pile 3 top slides under their pile position 1
  M5:p2 / M5:h      snake: block the opponent's pile 2 top / a card of their hand, blind
  E9:flee / E9:fight  an eagle played on a land card
  start:me / start:you  after losing a round: who leads the next one
Piles are shown bottom to top, ? is a face-down card, * a blocked card."""


def _pile(cards: tuple[str, ...], blocked: set[str]) -> str:
    if not cards:
        return "—"
    return " ".join(c + ("*" if c in blocked else "") for c in cards)


def describe(view: Observation, names: tuple[str, str] = ("you", "opponent")) -> str:
    """The table as ``view.seat`` sees it: the opponent's side, the trick, their own side."""
    me, other = view.seat, 1 - view.seat
    blocked = set(view.blocked)
    lines = [f"Round {view.round} · rounds won: {names[0]} {view.rounds_won[me]}, "
             f"{names[1]} {view.rounds_won[other]} · tricks played {view.tricks}"]
    piles = "  ".join(f"[{k + 1}] {_pile(p, blocked)}" for k, p in enumerate(view.piles[other]))
    blind = f" ({view.blind_blocks} blocked)" if view.blind_blocks else ""
    lines.append(f"{names[1]}: hand {view.opponent_hand_size} cards{blind} · piles {piles}")
    lines.append(f"   hyenas {view.hyenas[other]} · crowns {view.crowns[other]}")
    if view.trick:
        who = names[0] if view.leader == me else names[1]
        lines.append(f"trick: {who} led {' '.join(view.trick)}")
    piles = "  ".join(f"[{k + 1}] {_pile(p, blocked)}" for k, p in enumerate(view.piles[me]))
    lines.append(f"{names[0]}: piles {piles}")
    lines.append(f"   hand {_pile(view.hand, blocked)} · hyenas {view.hyenas[me]} · "
                 f"crowns {view.crowns[me]}")
    return "\n".join(lines)


# -- what happened, in words ----------------------------------------------------------------------
def narrate(before: AwimbaweState, after: AwimbaweState, seat: int | None,
            names: Sequence[str]) -> list[str]:
    """What one applied move (``before`` → ``after``) showed ``seat`` (None: a spectator, who
    sees what both players see), in words: the play and its power, the pile card turned face up,
    the trick's winner and with what, the round's end. ``names[s]`` names seat ``s`` ("you"
    takes the verb's plain form). Reads the states only through what ``seat`` may see (their
    events as seen, the public piles, public phases and round results), so it names no card
    hidden from them: a test checks that two states they cannot tell apart read alike."""
    k = before.round_index
    variant = before.variant
    old = round_events_seen(before, seat, k)
    new = round_events_seen(after, seat, k)
    start = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), len(old))
    pick = -1
    if before.phase == BLIND_PICK:          # the snake's play waiting for its blind pick
        pick = max(i for i, e in enumerate(old) if e[0] == "m")
        start = min(start, pick)
    piles_before = observation(before, seat or 0).piles     # piles are public
    piles_after = observation(after, seat or 0).piles
    lines = []
    for i in range(start, len(new)):
        event = new[i]
        if event[0] == "l":
            if not any(e[0] == "m" and e[2].startswith("start") for e in new):
                why = ("drawn: the face-up crowns tie" if before.phase == TIED_LEAD else
                       "fewer crowns on the face-up pile cards")
                lines.append(f"{_says(names[event[1]], 'lead')} the first trick ({why})")
        elif event[0] == "r":
            lines.append(_revealed(NAMES[event[1]], piles_after, names))
        elif i == pick:
            victim = 1 - event[1]
            if victim == seat and ":h=" in event[2]:
                lines.append(f"the snake blocks your {event[2].partition('=')[2]} for your "
                             f"next play")
            lines += _trick_end(variant, new[:i + 1], names)
        else:
            lines.append(_play(event[1], event[2], piles_before, names, k))
            if not (after.phase == BLIND_PICK and i == len(new) - 1):
                lines += _trick_end(variant, new[:i + 1], names)
    if len(after.rounds) > k:
        r = after.rounds[k]
        how = "four hyenas" if r.by_hyenas else "crowns"
        lines.append(f"round {k + 1} over: {_says(names[r.winner], 'win')} by {how} (crowns "
                     f"{names[0]} {r.crowns[0]}, {names[1]} {r.crowns[1]}; hyenas "
                     f"{names[0]} {r.hyenas[0]}, {names[1]} {r.hyenas[1]})")
    return lines


def _says(name: str, verb: str) -> str:
    return f"{name} {verb}" if name == "you" else f"{name} {verb}s"


def _whose(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def _face(card: str) -> str:
    return "a face-down card" if card == "?" else card


def _play(p: int, text: str, piles: tuple, names: Sequence[str], round_index: int) -> str:
    """One move's words; ``piles`` the public piles before it."""
    move = parse_move(text)
    q = 1 - p
    if move.kind == START:
        leader = p if move.a == 0 else q
        return f"{_says(names[p], 'choose')}: {_says(names[leader], 'lead')} round " \
               f"{round_index + 1}"
    words = f"{_says(names[p], 'play')} {NAMES[move.card]}"
    kind = move.kind
    if kind == CHEETAH_CHOICE:
        leader = p if move.a == 0 else q
        return words + f" (cheetah: {_says(names[leader], 'lead')} the next trick)"
    if kind == RHINO_SLIDE:
        moved = _face(piles[q][move.a][-1])
        if move.a == move.b:
            return words + (f" (rhinoceros: {moved} from the top of {_whose(names[q])} pile "
                            f"{move.a + 1} goes under that pile)")
        return words + (f" (rhinoceros: {moved} from {_whose(names[q])} pile {move.a + 1} goes "
                        f"under {_whose(names[q])} pile {move.b + 1})")
    if kind == SNAKE_PILE:
        top = piles[q][move.a][-1]
        top = "the face-down card" if top == "?" else top
        return words + f" (snake: blocks {top} on {_whose(names[q])} pile {move.a + 1})"
    if kind == SNAKE_HAND:
        if move.a >= 0:                     # seen by its victim only
            return words + f" (snake: blocks {_whose(names[q])} {NAMES[move.a]})"
        return words + f" (snake: blocks a card of {_whose(names[q])} hand, drawn blind)"
    if kind in (EAGLE_FLEE, EAGLE_FIGHT):
        return f"{words}: the eagle {'flees' if kind == EAGLE_FLEE else 'fights'}"
    return words


def _revealed(card: str, piles: tuple, names: Sequence[str]) -> str:
    for seat in (0, 1):
        for k, pile in enumerate(piles[seat]):
            if card in pile:
                return f"{card} turns face up on {_whose(names[seat])} pile {k + 1}"
    return f"{card} turns face up"


def _trick_end(variant, events: tuple, names: Sequence[str]) -> list[str]:
    """The trick's winner and why, when the last play of ``events`` finished a trick."""
    plays = [e for e in events if e[0] == "m" and not e[2].startswith("start")]
    if not plays or len(plays) % 2:
        return []
    tricks = finished_tricks(variant, events)
    trick = tricks[-1]
    leader, follower = trick.leader, 1 - trick.leader
    led, followed = trick.cards
    if trick.fled:
        return [f"{_says(names[leader], 'take')} the trick with {led}; {_whose(names[follower])} "
                f"{followed} fled to {'your' if names[follower] == 'you' else 'their'} own pile"]
    winner = trick.winner
    card, beaten = (led, followed) if winner == leader else (followed, led)
    if led[0] != followed[0] and followed[0] != "E":
        why = f"{followed} is a discard"
    elif led[0] != followed[0]:
        why = f"the eagle {followed} fights"
    elif {led[1:], followed[1:]} == {"1", "6"}:
        why = "the mouse beats the elephant"
    else:
        why = f"{card} beats {beaten}"
    line = f"{_says(names[winner], 'win')} the trick with {card} ({why})"
    hyenas = sum(c[1:] == "4" for t in tricks if t.winner == winner and not t.fled
                 for c in t.cards)
    if any(c[1:] == "4" for c in trick.cards):
        line += f"; {_says(names[winner], 'hold')} {hyenas} hyena{'s' if hyenas > 1 else ''}"
    return [line]


# -- the table ---------------------------------------------------------------------------------
MOVES_PER_WIDTH = 96     # the legal-move list is wrapped at this many characters


@dataclass(frozen=True)
class AwimbaweTableView:
    """A match at the table, told to one seat (the person's; a spectator's between two
    agents): the person sees their side of the table when they are to choose, the legal moves
    numbered, and every move as :func:`narrate` tells it to the reader."""

    notation_help: str = NOTATION_HELP
    numbered: bool = True

    def seat_names(self, reader: int | None) -> list[str]:
        if reader is None:
            return ["player 0", "player 1"]
        names = ["you", "you"]
        names[1 - reader] = "the opponent"
        return names

    def table(self, state: AwimbaweState, reader: int | None) -> str:
        return "\n" + describe(state.observation(reader), ("you", "the opponent"))

    def move_list(self, state: AwimbaweState) -> str:
        lines = []
        if state.phase == CHOOSING_LEADER:
            lines.append(f"you lost round {state.round_index}, so you choose who leads round "
                         f"{state.round_index + 1}: start:me (you lead) or start:you (the "
                         f"opponent leads)")
        line = "legal moves: "
        for k, move in enumerate(state.legal_moves()):
            entry = f"{k + 1}) {move}"
            if len(line) + len(entry) > MOVES_PER_WIDTH:
                lines.append(line.rstrip())
                line = "  "
            line += entry + "  "
        return "\n".join(lines + [line.rstrip()])

    def narrate(self, play: Play, reader: int | None, names: Sequence[str]) -> list[str]:
        return narrate(play.before, play.after, reader, names)

    def outcome(self, state: AwimbaweState, names: Sequence[str]) -> str:
        winner = names[state.match_winner]
        return (f"match over: {_says(winner, 'win')} "
                f"{max(state.rounds_won)}–{min(state.rounds_won)}")
