"""What each player may see: information states, observations, and determinization.

A player sees their own hand, every face-up pile card, the cards played and revealed, the hyenas
each holds, which of their own cards are blocked, and which of the opponent's *visible* cards they
blocked (a blind pick in the opponent's hand is known to its victim only). They never see the
opponent's hand, a face-down pile card or the cards set aside.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ...core.errors import KiwaraError
from .cards import BIT, CARDS, DECK_SIZE, EAGLES, NAMES, SKY, SUIT, SUIT_MASK, cards_of
from .moves import EAGLE_FLEE, SNAKE_BLIND_MOVE, SNAKE_HAND, START, parse_move
from .state import BLIND_PICK, AwimbaweState, leader_wins_trick
from .variant import AwimbaweVariant

DETERMINIZE_TRIES = 2000


def deal_visible(variant: AwimbaweVariant, position: int, player: int) -> bool:
    """Whether ``player`` sees the card dealt at ``position`` (0-based) when it is dealt."""
    n, hand = variant.piles, variant.hand_size
    if 2 * n <= position < 4 * n:                       # face-up pile tops
        return True
    start = 4 * n + player * hand
    return start <= position < start + hand


def _event_seen(event: tuple, player: int | None) -> tuple:
    """An event as ``player`` sees it: a blind pick's card is hidden from the snake's player
    (and from a spectator, ``player`` None, who sees only what both players see)."""
    if event[0] == "m" and ":h=" in event[2] and player != 1 - event[1]:   # not its victim
        return ("m", event[1], event[2].partition("=")[0])
    return event


def round_events_seen(state: AwimbaweState, player: int | None, round_index: int) -> tuple:
    """The events of round ``round_index`` (0-based; finished or the current one) as ``player``
    sees them (None: a spectator)."""
    events = state.rounds[round_index].events if round_index < len(state.rounds) else \
        state.events
    return tuple(_event_seen(e, player) for e in events)


@dataclass(frozen=True)
class Trick:
    """A finished trick as both players saw it: who led, the two moves as written (a blind
    snake's pick left out), the two cards, who won it, and whether the follower's eagle fled."""

    leader: int
    moves: tuple[str, str]
    cards: tuple[str, str]
    winner: int
    fled: bool


def finished_tricks(variant: AwimbaweVariant, events: tuple) -> list[Trick]:
    """The finished tricks of a round's events, in order (the public part of each play)."""
    tricks = []
    lead = None
    for event in events:
        if event[0] != "m":
            continue
        move = parse_move(event[2].partition("=")[0] if ":h=" in event[2] else event[2])
        if move.kind == START:
            continue
        if lead is None:
            lead = (event[1], move)
            continue
        leader, led = lead
        fled = move.kind == EAGLE_FLEE
        winner = leader if leader_wins_trick(variant, led.card, move.card, fled) else event[1]
        tricks.append(Trick(leader, (led.text, move.text), (NAMES[led.card], NAMES[move.card]),
                            winner, fled))
        lead = None
    return tricks


def _round_view(variant, deck, events, player: int) -> tuple:
    seen_deck = tuple(c if deal_visible(variant, i, player) else -1 for i, c in enumerate(deck))
    return (seen_deck, tuple(_event_seen(e, player) for e in events))


def information_state(state: AwimbaweState, player: int) -> tuple:
    """A key equal for two states exactly when ``player`` cannot tell them apart: what they saw
    of every deal, and every event of the match as they saw it."""
    variant = state.variant
    rounds = tuple(_round_view(variant, r.deck, r.events, player) for r in state.rounds)
    return (player, rounds, _round_view(variant, state.deck, state.events, player))


def seen_cards(state: AwimbaweState, player: int) -> int:
    """Mask of the cards ``player`` has seen in the current round (dealt to them or face up,
    played, revealed, picked blind in their own hand)."""
    mask = 0
    for i, c in enumerate(state.deck):
        if deal_visible(state.variant, i, player):
            mask |= BIT[c]
    for event in state.events:
        if event[0] == "r":
            mask |= BIT[event[1]]
        elif event[0] == "m" and not event[2].startswith("start"):
            move = parse_move(event[2])
            mask |= BIT[move.card]
            if move.kind == SNAKE_HAND and move.a >= 0 and event[1] != player:
                mask |= BIT[move.a]
    return mask


@dataclass(frozen=True)
class Observation:
    """What ``seat`` sees now. Cards are names; a face-down pile card is ``"?"``.

    ``piles[s]`` lists seat ``s``'s piles bottom to top; ``blocked`` the blocked cards seen (the
    player's own, the opponent's visible ones), ``blind_blocks`` how many of the opponent's hand
    cards the player blocked without seeing them."""

    seat: int
    round: int
    rounds_won: tuple[int, int]
    to_move: int
    leader: int
    hand: tuple[str, ...]
    opponent_hand_size: int
    piles: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    trick: tuple[str, ...]
    blocked: tuple[str, ...]
    blind_blocks: int
    hyenas: tuple[int, int]
    crowns: tuple[int, int]
    tricks: int
    last_trick: Trick | None = None


def last_trick(state: AwimbaweState) -> Trick | None:
    """The last finished trick, which the rules let both players look at again: of the current
    round, or of the round just ended while no trick of the next one is finished."""
    for events in (state.events, state.rounds[-1].events if state.rounds else ()):
        tricks = finished_tricks(state.variant, events)
        if tricks:
            return tricks[-1]
    return None


def observation(state: AwimbaweState, player: int) -> Observation:
    opponent = 1 - player
    seen = seen_cards(state, player)
    piles = tuple(tuple(tuple("?" if state.down & BIT[c] else NAMES[c] for c in pile)
                        for pile in state.piles[seat]) for seat in (0, 1))
    own_blocked = state.blocked[player]
    opponent_blocked = state.blocked[opponent]
    visible_blocked = own_blocked | (opponent_blocked & seen & ~state.hand[opponent])
    hidden_blocked = opponent_blocked & state.hand[opponent]
    return Observation(
        seat=player, round=state.round_index + 1, rounds_won=state.rounds_won,
        to_move=state.to_move, leader=state.leader,
        hand=tuple(NAMES[c] for c in cards_of(state.hand[player])),
        opponent_hand_size=state.hand[opponent].bit_count(), piles=piles,
        trick=tuple(NAMES[c] for c in state.trick_cards),
        blocked=tuple(NAMES[c] for c in cards_of(visible_blocked)),
        blind_blocks=hidden_blocked.bit_count(),
        hyenas=(state.hyenas(0), state.hyenas(1)), crowns=(state.crowns(0), state.crowns(1)),
        tricks=state.tricks, last_trick=last_trick(state))


# -- determinization ------------------------------------------------------------------------------
def _forbidden_suits(state: AwimbaweState, player: int) -> int:
    """Mask of cards the opponent cannot hold in hand now, from the plays where they showed a
    void (did not follow suit, or did not play an eagle) while ``player`` had no blind block on
    their hand: a hand never gains cards. A proposal only: every candidate is checked exactly."""
    opponent = 1 - player
    forbidden = 0
    lead = -1
    blind_pending = False
    for event in state.events:
        if event[0] != "m" or event[2].startswith("start"):
            continue
        move = parse_move(event[2])
        if event[1] == player and move.kind == SNAKE_HAND:
            blind_pending = True
        if lead < 0:
            lead = move.card
            if event[1] == opponent:
                blind_pending = False
            continue
        if event[1] == opponent:
            if not blind_pending:
                led_suit = SUIT[lead]
                if SUIT[move.card] != led_suit:
                    forbidden |= SUIT_MASK[led_suit]
                    if SUIT[move.card] != SKY:
                        forbidden |= EAGLES
            blind_pending = False
        lead = -1
    return forbidden


def determinize(state: AwimbaweState, player: int, rng: random.Random) -> AwimbaweState:
    """A state ``player`` cannot tell from ``state``, the cards they have not seen redealt at
    random consistently with everything they saw (voids shown, blocks, reveals), and their own
    blind snake picks drawn again. Earlier rounds are kept as they were (they do not change
    what can happen next). Built from ``player``'s information only, then checked: each
    candidate is replayed from the round's deal and kept when its information state for
    ``player`` equals the original's."""
    if state.is_terminal() or not state.deck:
        return state
    target = information_state(state, player)
    seen = seen_cards(state, player)
    unseen = [c for c in CARDS if not seen & BIT[c]]
    opponent_hand = cards_of(state.hand[1 - player])   # their number is known; not who they are
    forbidden = _forbidden_suits(state, player)
    hidden_positions = [i for i, c in enumerate(state.deck) if not seen & BIT[c]]
    for _ in range(DETERMINIZE_TRIES):
        pool = unseen[:]
        rng.shuffle(pool)
        candidate = _propose(state, player, pool, hidden_positions, len(opponent_hand), forbidden)
        if candidate is None:
            continue
        rebuilt = _rebuild(state, player, candidate, rng)
        if rebuilt is not None and information_state(rebuilt, player) == target:
            return rebuilt
    raise KiwaraError(f"determinize: no deal consistent with player {player}'s information found "
                      f"in {DETERMINIZE_TRIES} tries")


def _propose(state, player, pool, hidden_positions, opponent_hand_size, forbidden):
    """A candidate deck: the hidden positions refilled from ``pool`` (shuffled), the opponent's
    hand positions still in hand taking allowed cards first."""
    deck = list(state.deck)
    opponent = 1 - player
    in_hand = [i for i in hidden_positions if state.hand[opponent] & BIT[state.deck[i]]]
    others = [i for i in hidden_positions if not state.hand[opponent] & BIT[state.deck[i]]]
    allowed = [c for c in pool if not forbidden & BIT[c]]
    if len(allowed) < len(in_hand):
        allowed = pool[:]
    chosen = allowed[:len(in_hand)]
    chosen_mask = sum(BIT[c] for c in chosen)
    rest = [c for c in pool if not chosen_mask & BIT[c]]
    for i, c in zip(in_hand, chosen):
        deck[i] = c
    for i, c in zip(others, rest):
        deck[i] = c
    return tuple(deck)


def _rebuild(state: AwimbaweState, player: int, deck: tuple, rng: random.Random):
    """The current round replayed from ``deck`` with ``state``'s moves, ``player``'s blind picks
    drawn again; None if a move is not legal there."""
    rebuilt = AwimbaweState(state.variant)
    rebuilt.rounds = state.rounds
    rebuilt.deck = deck
    if len(deck) < DECK_SIZE:
        return rebuilt
    leader = next((e[1] for e in state.events if e[0] == "l"), None)
    rebuilt.forced_leader = None if state.rounds else leader
    rebuilt._lay_out()
    try:
        for event in state.events:
            if event[0] != "m":
                continue
            text = event[2]
            move = parse_move(text)
            if move.kind == SNAKE_HAND and event[1] == player and move.a >= 0:
                rebuilt = rebuilt.apply(SNAKE_BLIND_MOVE[move.card])
                outcomes = rebuilt.legal_moves()
                rebuilt = rebuilt.apply(outcomes[rng.randrange(len(outcomes))])
            elif move.kind == SNAKE_HAND and move.a < 0:
                rebuilt = rebuilt.apply(move)      # a blind pick still to be drawn
            else:
                rebuilt = rebuilt.apply_recorded(move)
    except KiwaraError:
        return None
    if state.phase == BLIND_PICK and rebuilt.phase != BLIND_PICK:
        return None
    return rebuilt
