"""The whole match as one immutable state: deals, tricks, powers, rounds and the match's end.

Rules: docs/rules/awimbawe.md (the rules reference). The state implements the core game
protocol (:mod:`kiwara_designer.core.game`): the deal is dealt card by card at chance nodes (at most
28 outcomes each), a tied first lead and the snake's blind pick in a hand are chance nodes too.
Besides the protocol's moves, :meth:`AwimbaweState.record_moves` gives the *record view* of a
round, where the blind pick is part of the move (``M5:h=G4``, one move per possible card): perft
and records use it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterable

from ...core.game import CHANCE, TERMINAL, perft, perft_divide
from ...core.errors import KiwaraError
from .cards import (BIT, CHEETAH, DECK_SIZE, EAGLE, EAGLES, ELEPHANT, HYENAS, KIND, MOUSE, NAMES,
                    RHINOCEROS, SKY, SNAKE, SUIT, SUIT_MASK, VALUE, cards_of, parse_deck)
from .moves import (BARE_MOVE, BLIND, BLIND_MOVE, CHEETAH_CHOICE, CHEETAH_MOVE, DEAL, DEAL_MOVE,
                    EAGLE_FLEE, FIGHT_MOVE, FLEE_MOVE, LEADER, LEADER_MOVE, RHINO_MOVE, RHINO_SLIDE,
                    SNAKE_BLIND_MOVE, SNAKE_HAND, SNAKE_HAND_MOVE, SNAKE_PILE, SNAKE_PILE_MOVE,
                    START, START_MOVE, IllegalMoveError, Move, parse_move)
from .variant import AwimbaweVariant, as_variant

# Phases of the match.
DEALING, TIED_LEAD, CHOOSING_LEADER, PLAYING, BLIND_PICK, OVER = range(6)


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its deal and history (for records and information states) and result.

    ``events`` are the round's history: ``("m", seat, text)`` a move in record notation,
    ``("l", seat)`` the first leader, ``("r", card)`` a pile card turned face up."""

    deck: tuple[int, ...]
    leader: int
    events: tuple
    winner: int
    crowns: tuple[int, int]
    hyenas: tuple[int, int]
    by_hyenas: bool
    tricks: int

    @property
    def moves(self) -> list[str]:
        return [e[2] for e in self.events if e[0] == "m"]

    def to_dict(self) -> dict[str, Any]:
        return {"winner": self.winner, "crowns": list(self.crowns), "hyenas": self.by_hyenas,
                "tricks": self.tricks, "hyenas_held": list(self.hyenas)}


@dataclass(frozen=True)
class Deal:
    """A round-1 setup: the deck in deal order, and who leads (None: the rules decide)."""

    deck: tuple[int, ...]
    leader: int | None = None

    @classmethod
    def parse(cls, deck: str | Iterable[str], leader: int | None = None) -> "Deal":
        if leader not in (None, 0, 1):
            raise KiwaraError(f"leader must be 0 or 1, got {leader!r}")
        return cls(parse_deck(deck if isinstance(deck, str) else list(deck)), leader)


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    deck = list(range(DECK_SIZE))
    rng.shuffle(deck)
    return tuple(deck)


class AwimbaweState:
    """A position of a match. Immutable: :meth:`apply` returns a new state.

    Cards are ints and sets of cards bit masks (see :mod:`.cards`). Per seat: ``hand``,
    ``piles`` (a tuple of piles, each a tuple of cards from bottom to top), ``blocked`` (cards
    blocked by a snake for that seat's next play) and ``won`` (the scoring pile); ``down`` is the
    mask of face-down pile cards. In a trick, ``lead`` is the leader's card (-1 before it) and
    ``next_lead`` the seat a cheetah chose (-1 none)."""

    __slots__ = ("variant", "rounds", "deck", "phase", "to_move", "hand", "piles", "down",
                 "blocked", "won", "leader", "first_leader", "lead", "next_lead", "tricks",
                 "pending", "events", "forced_leader", "_legal", "_record")

    def __init__(self, variant: AwimbaweVariant | None = None) -> None:
        self.variant = variant or AwimbaweVariant()
        self.rounds: tuple[RoundResult, ...] = ()
        self.deck: tuple[int, ...] = ()
        self.phase = DEALING
        self.to_move = CHANCE
        self.hand = (0, 0)
        self.piles: tuple = ((), ())
        self.down = 0
        self.blocked = (0, 0)
        self.won = (0, 0)
        self.leader = -1
        self.first_leader = -1
        self.lead = -1
        self.next_lead = -1
        self.tricks = 0
        self.pending: tuple | None = None
        self.events: tuple = ()
        self.forced_leader: int | None = None
        self._legal = None
        self._record = None

    def _copy(self) -> "AwimbaweState":
        new = AwimbaweState.__new__(AwimbaweState)
        new.variant, new.rounds, new.deck, new.phase = self.variant, self.rounds, self.deck, self.phase
        new.to_move, new.hand, new.piles, new.down = self.to_move, self.hand, self.piles, self.down
        new.blocked, new.won, new.leader = self.blocked, self.won, self.leader
        new.first_leader, new.lead, new.next_lead = self.first_leader, self.lead, self.next_lead
        new.tricks, new.pending, new.events = self.tricks, self.pending, self.events
        new.forced_leader = self.forced_leader
        new._legal = new._record = None
        return new

    # -- protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        return self.to_move

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> tuple[float, float]:
        if self.phase != OVER:
            return (0.0, 0.0)
        winner = self.match_winner
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    def legal_moves(self) -> list[Move]:
        """Every legal move: the player's (a blind snake is the one move ``M5:h``), or at a
        chance node the chance outcomes' moves."""
        if self._legal is None:
            self._legal = self._generate(expand_blind=False)
        return self._legal

    def record_moves(self) -> list[Move]:
        """The legal moves as a record writes them: like :meth:`legal_moves`, but a blind snake
        is one move per card it may block (``M5:h=G4``); [] at a chance node or at a round's end."""
        if self.phase != PLAYING:
            return [] if self.phase != CHOOSING_LEADER else self.legal_moves()
        if self._record is None:
            self._record = self._generate(expand_blind=True)
        return self._record

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        if self.to_move != CHANCE:
            return []
        moves = self.legal_moves()
        p = 1.0 / len(moves)
        return [(m, p) for m in moves]

    def apply(self, move: Move | str) -> "AwimbaweState":
        """The state after the player's (or chance's) ``move``, one of :meth:`legal_moves`: a
        blind snake is ``M5:h``, its pick drawn at the next chance node. The error for an
        illegal move says only what the player to move may know (:meth:`why_illegal`)."""
        move = parse_move(move)
        if move not in self.legal_moves():
            raise IllegalMoveError(self.why_illegal(move))
        return self._apply(move)

    def apply_recorded(self, move: Move | str) -> "AwimbaweState":
        """Apply ``move`` as a record or ``--moves`` writes it (:meth:`record_moves`): a blind
        snake names the card it blocked (``M5:h=G4``); the bare ``M5:h`` would leave the draw
        to a chance node, which a record never holds. A record's reader holds the whole deal, so
        its errors may name the blind snake's possible outcomes."""
        move = parse_move(move)
        if move in self.record_moves() or (self.to_move == CHANCE and move in self.legal_moves()):
            return self._apply(move)
        uses = [m.text for m in self.record_moves() if m.card == move.card and move.card >= 0]
        if move.kind == SNAKE_HAND and move.a < 0 and move in self.legal_moves():
            raise IllegalMoveError(f"{move.text}: a record writes which hand card the blind "
                                   f"snake blocked: {', '.join(u for u in uses if ':h=' in u)}")
        if uses:
            raise IllegalMoveError(f"{move.text}: not a legal use of {NAMES[move.card]} here "
                                   f"(legal: {', '.join(uses)})")
        raise IllegalMoveError(self.why_illegal(move, echo=True))

    @property
    def game(self):
        """The :class:`~kiwara_designer.games.awimbawe.game.AwimbaweGame` this state belongs to."""
        from .game import AWIMBAWE
        return AWIMBAWE

    # what each player may see: kiwara_designer.games.awimbawe.information (imported late: it builds
    # on this module)
    def information_state(self, player: int) -> tuple:
        from .information import information_state
        return information_state(self, player)

    def observation(self, player: int):
        from .information import observation
        return observation(self, player)

    def determinize(self, player: int, rng: random.Random) -> "AwimbaweState":
        from .information import determinize
        return determinize(self, player, rng)

    # -- derived -----------------------------------------------------------------------------
    @property
    def round_index(self) -> int:
        return len(self.rounds)

    @property
    def rounds_won(self) -> tuple[int, int]:
        wins = [0, 0]
        for r in self.rounds:
            wins[r.winner] += 1
        return (wins[0], wins[1])

    @property
    def match_winner(self) -> int | None:
        if self.phase != OVER:
            return None
        return self.rounds[-1].winner

    def cards_held(self, seat: int) -> int:
        """Cards ``seat`` still holds: hand and every pile card."""
        return self.hand[seat].bit_count() + sum(len(p) for p in self.piles[seat])

    def tops(self, seat: int) -> int:
        """Mask of the top card of each of ``seat``'s piles, whatever its face."""
        mask = 0
        for pile in self.piles[seat]:
            if pile:
                mask |= BIT[pile[-1]]
        return mask

    def available(self, seat: int) -> int:
        """Mask of ``seat``'s available cards: hand and face-up pile tops (blocked or not)."""
        return self.hand[seat] | (self.tops(seat) & ~self.down)

    def hyenas(self, seat: int) -> int:
        return (self.won[seat] & HYENAS).bit_count()

    def crowns(self, seat: int) -> int:
        crowns = self.variant.card_crowns
        return sum(crowns[c] for c in cards_of(self.won[seat]))

    @property
    def trick_cards(self) -> tuple[int, ...]:
        """The cards played so far in the current trick."""
        return () if self.lead < 0 else (self.lead,)

    def round_record(self) -> dict[str, Any]:
        """The current round as a record entry (deck, leader, moves)."""
        return {"deck": " ".join(NAMES[c] for c in self.deck), "leader": self.first_leader,
                "moves": [e[2] for e in self.events if e[0] == "m"]}

    # -- move generation ---------------------------------------------------------------------
    def _generate(self, expand_blind: bool) -> list[Move]:
        phase = self.phase
        if phase == PLAYING:
            return self._plays(expand_blind)
        if phase == DEALING:
            dealt = 0
            for c in self.deck:
                dealt |= BIT[c]
            return [DEAL_MOVE[c] for c in range(DECK_SIZE) if not dealt & BIT[c]]
        if phase == BLIND_PICK:
            return [BLIND_MOVE[x] for x in self.pending[2]]
        if phase == TIED_LEAD:
            return list(LEADER_MOVE)
        if phase == CHOOSING_LEADER:
            return list(START_MOVE)
        return []

    def _plays(self, expand_blind: bool) -> list[Move]:
        variant = self.variant
        p = self.to_move
        q = 1 - p
        tops_up = self.tops(p) & ~self.down
        held = self.hand[p] | tops_up
        free = held & ~self.blocked[p]
        lead = self.lead
        if lead >= 0:
            counted = held if variant.blocked_cards_follow else free
            suit_mask = SUIT_MASK[SUIT[lead]]
            if counted & suit_mask:
                playable = free & suit_mask or free
            elif counted & EAGLES:
                playable = free & EAGLES or free
            else:
                playable = free
        else:
            playable = free
        moves: list[Move] = []
        append = moves.append
        while playable:
            low = playable & -playable
            playable ^= low
            card = low.bit_length() - 1
            kind = KIND[card]
            if kind == EAGLE:
                if lead >= 0 and SUIT[lead] != SKY:
                    if variant.eagle_may_flee:
                        append(FLEE_MOVE[card])
                    append(FIGHT_MOVE[card])
                else:
                    append(BARE_MOVE[card])
            elif kind == CHEETAH:
                if variant.cheetah_power and self.cards_held(p) >= 2:
                    if variant.cheetah_may_pass:
                        append(BARE_MOVE[card])
                    moves.extend(CHEETAH_MOVE[card])
                else:
                    append(BARE_MOVE[card])
            elif kind == RHINOCEROS:
                append(BARE_MOVE[card])
                if variant.rhinoceros_power:
                    self._rhino_moves(q, card, append)
            elif kind == SNAKE:
                append(BARE_MOVE[card])
                if variant.snake_power:
                    self._snake_moves(q, card, expand_blind, append)
            else:
                append(BARE_MOVE[card])
        return moves

    def _after_removal(self, p: int, low: int) -> tuple:
        """``(hand, piles)`` of ``p`` without the card ``low`` (a bit)."""
        hand = self.hand[p]
        if hand & low:
            return hand ^ low, self.piles[p]
        card = low.bit_length() - 1
        return hand, tuple(pile[:-1] if pile and pile[-1] == card else pile for pile in self.piles[p])

    def _can_play_next(self, q: int, hand: int, piles: tuple, down: int, blocked: int,
                       in_this_trick: bool) -> bool:
        """Whether ``q`` will have an unblocked card to play at their next play: in this trick
        only face-up tops count; at the next trick every top will have been turned face up."""
        tops = 0
        for pile in piles:
            if pile:
                tops |= BIT[pile[-1]]
        if in_this_trick:
            tops &= ~down
        return bool((hand | tops) & ~blocked)

    def _rhino_moves(self, q: int, card: int, append) -> None:
        piles = self.piles[q]
        if sum(len(pile) for pile in piles) < 2:
            return
        in_this_trick = self.lead < 0            # p leads: q plays next in this trick
        blocked = self.blocked[q]
        # an unblocked card in q's hand stays playable whatever the slide (the usual case)
        always = bool(self.hand[q] & ~blocked)
        table = RHINO_MOVE[card]
        for i, source in enumerate(piles):
            if not source:
                continue
            for j in range(len(piles)):
                if j == i and len(source) < 2:
                    continue
                if not always:
                    new_piles, down = _slide(piles, i, j), self.down
                    reveal = _lone_hidden_top(new_piles, down)
                    if reveal >= 0:
                        down &= ~BIT[reveal]
                    if not self._can_play_next(q, self.hand[q], new_piles, down, blocked,
                                               in_this_trick):
                        continue
                append(table[i][j])

    def _snake_moves(self, q: int, card: int, expand_blind: bool, append) -> None:
        hand, piles = self.hand[q], self.piles[q]
        # offered only when q holds two cards or more, not all in one pile
        if not hand:
            if sum(1 for pile in piles if pile) < 2:
                return
        elif hand.bit_count() + sum(len(pile) for pile in piles) < 2:
            return
        # what q could play next (in this trick only face-up tops; at the next trick every top
        # is face up), unblocked; blocking a card is legal when another one remains
        tops = self.tops(q)
        if self.lead < 0:
            tops &= ~self.down
        free = (hand | tops) & ~self.blocked[q]
        hidden_ok = self.variant.snake_hidden_tops
        down = self.down
        for i, pile in enumerate(piles):
            if pile and (hidden_ok or not down & BIT[pile[-1]]) and free & ~BIT[pile[-1]]:
                append(SNAKE_PILE_MOVE[card][i])
        picks = [x for x in cards_of(hand) if free & ~BIT[x]]
        if picks:
            if expand_blind:
                table = SNAKE_HAND_MOVE[card]
                for x in picks:
                    append(table[x])
            else:
                append(SNAKE_BLIND_MOVE[card])

    def _blind_picks(self, q: int) -> tuple[int, ...]:
        tops = self.tops(q)
        if self.lead < 0:
            tops &= ~self.down
        free = (self.hand[q] | tops) & ~self.blocked[q]
        return tuple(x for x in cards_of(self.hand[q]) if free & ~BIT[x])

    def why_illegal(self, move: Move, echo: bool = False) -> str:
        """Why ``move`` (not legal here) is refused, in words the player to move may read: it
        names only cards that player sees (their own available cards, the card led) and the
        legal moves as they are offered to them, never echoes a card they named that they do
        not hold, and refuses a chosen blind-snake pick (``M5:h=G4``) with the same words
        whatever card it names (any difference would tell the opponent's hand). ``echo``
        starts the words with the move as written (for a record's reader, who holds the
        deal)."""
        reason = self._why_illegal(move)
        return f"{move.text}: {reason}" if echo and not reason.startswith(move.text) else reason

    def _why_illegal(self, move: Move) -> str:
        if self.phase == OVER:
            return "the match is over"
        if self.to_move == CHANCE and not move.is_chance:
            return "a chance node: the next move is dealt or drawn, not chosen"
        if move.is_chance and self.to_move != CHANCE:
            return "a chance outcome is drawn, never chosen by a player"
        if move.is_chance:
            return "not one of this chance node's outcomes"
        if self.phase == CHOOSING_LEADER:
            return f"player {self.to_move} chooses who leads (start:me or start:you)"
        if move.kind == START:
            return "start:me/start:you only begin rounds 2 and later, before the first trick"
        p = self.to_move
        card = move.card
        mine = self.available(p)
        if not mine & BIT[card]:
            return (f"player {p} holds no such available card (available: "
                    f"{' '.join(NAMES[c] for c in cards_of(mine))})")
        text = SNAKE_BLIND_MOVE[card].text if move.kind == SNAKE_HAND else move.text
        if self.blocked[p] & BIT[card]:
            return f"{text}: {NAMES[card]} is blocked by a snake for this play"
        uses = [m.text for m in self.legal_moves() if m.card == card]
        if not uses:
            led = "the sky (an eagle)" if SUIT[self.lead] == SKY else f"suit {NAMES[self.lead][0]}"
            return (f"{text}: {NAMES[self.lead]} was led: player {p} must follow {led} if they "
                    f"can, else play an eagle if they can (blocked cards do not count)")
        if move.kind == SNAKE_HAND and SNAKE_BLIND_MOVE[card].text in uses:
            return (f"{text}=…: a snake blocks a card of the opponent's hand unseen, drawn by "
                    f"chance, never chosen: play {text}")
        return f"{text}: not a legal use of {NAMES[card]} here (legal: {', '.join(uses)})"

    # -- applying moves ----------------------------------------------------------------------
    def _apply(self, move: Move) -> "AwimbaweState":
        kind = move.kind
        if kind == DEAL:
            return self._deal(move.card)
        s = self._copy()
        if kind == LEADER:
            s._start_tricks(move.a, ("l", move.a))
            return s
        if kind == START:
            chooser = s.to_move
            leader = chooser if move.a == 0 else 1 - chooser
            s.events = s.events + (("m", chooser, move.text),)
            s._start_tricks(leader, ("l", leader))
            return s
        if kind == BLIND:
            p, card, _picks = s.pending
            q = 1 - p
            s.pending = None
            s.phase = PLAYING
            s.blocked = _set(s.blocked, q, s.blocked[q] | BIT[move.card])
            s.events = s.events[:-1] + (("m", p, SNAKE_HAND_MOVE[card][move.card].text),)
            s._after_play(p, card, False)
            return s
        # a card play
        p = s.to_move
        q = 1 - p
        card = move.card
        low = BIT[card]
        hand, piles = s._after_removal(p, low)
        s.hand = _set(s.hand, p, hand)
        if piles is not s.piles[p]:
            s.piles = _set(s.piles, p, piles)
        s.blocked = _set(s.blocked, p, 0)         # p's blocks lift as p plays
        if kind == CHEETAH_CHOICE:
            s.next_lead = p if move.a == 0 else q
        elif KIND[card] == CHEETAH and not s.variant.bare_second_cheetah_keeps_choice:
            s.next_lead = -1                       # "the second decides": here, to decide nothing
        elif kind == RHINO_SLIDE:
            new_piles = _slide(s.piles[q], move.a, move.b)
            s.piles = _set(s.piles, q, new_piles)
            reveal = _lone_hidden_top(new_piles, s.down)
            s.events = s.events + (("m", p, move.text),)
            if reveal >= 0:
                s.down &= ~BIT[reveal]
                s.events = s.events + (("r", reveal),)
            s._after_play(p, card, False)
            return s
        elif kind == SNAKE_PILE:
            s.blocked = _set(s.blocked, q, s.blocked[q] | BIT[s.piles[q][move.a][-1]])
        elif kind == SNAKE_HAND:
            if move.a < 0:                         # blind: the pick is drawn at a chance node
                s.phase = BLIND_PICK
                s.to_move = CHANCE
                s.pending = (p, card, s._blind_picks(q))
                s.events = s.events + (("m", p, move.text),)
                return s
            s.blocked = _set(s.blocked, q, s.blocked[q] | BIT[move.a])
        s.events = s.events + (("m", p, move.text),)
        s._after_play(p, card, kind == EAGLE_FLEE)
        return s

    def _after_play(self, p: int, card: int, flee: bool) -> None:
        """Continue after ``p`` played ``card`` and used its power: the follower's turn, or the
        end of the trick."""
        if self.lead < 0:
            self.lead = card
            self.to_move = 1 - p
            return
        leader = self.leader
        lead = self.lead
        winner = leader if leader_wins_trick(self.variant, lead, card, flee) else p
        won = list(self.won)
        if flee:
            won[leader] |= BIT[lead]
            won[p] |= BIT[card]
        else:
            won[winner] |= BIT[lead] | BIT[card]
        self.won = (won[0], won[1])
        self.tricks += 1
        self.lead = -1
        if (won[winner] & HYENAS).bit_count() >= self.variant.hyenas_to_lose:
            self._end_round(1 - winner, by_hyenas=True)
            return
        self._reveal_tops()
        next_leader = self.next_lead if self.next_lead >= 0 else winner
        self.next_lead = -1
        if not self.hand[0] and not self.hand[1] and not any(self.piles[0]) and \
                not any(self.piles[1]):
            self._end_round(self._crowns_winner(last_trick=winner), by_hyenas=False)
            return
        self.leader = self.to_move = next_leader

    def _crowns_winner(self, last_trick: int) -> int:
        """Who wins a round played to its last card: more crowns; on a tie (impossible with the
        rulebook's 45 crowns) the variant's ``crown_tie`` decides."""
        c0, c1 = self.crowns(0), self.crowns(1)
        if c0 != c1:
            return 0 if c0 > c1 else 1
        h0, h1 = self.hyenas(0), self.hyenas(1)
        if self.variant.crown_tie == "fewer_hyenas" and h0 != h1:
            return 0 if h0 < h1 else 1
        return last_trick

    def _reveal_tops(self) -> None:
        down = self.down
        if not down:
            return
        revealed = []
        for seat in (0, 1):
            for pile in self.piles[seat]:
                if pile and down & BIT[pile[-1]]:
                    down &= ~BIT[pile[-1]]
                    revealed.append(("r", pile[-1]))
        if revealed:
            self.down = down
            self.events = self.events + tuple(revealed)

    def _end_round(self, winner: int, by_hyenas: bool) -> None:
        result = RoundResult(self.deck, self.first_leader, self.events, winner,
                             (self.crowns(0), self.crowns(1)), (self.hyenas(0), self.hyenas(1)),
                             by_hyenas, self.tricks)
        self.rounds = self.rounds + (result,)
        if self.rounds_won[winner] >= self.variant.rounds_to_win:
            self.phase = OVER
            self.to_move = TERMINAL
        else:
            self.phase = DEALING
            self.to_move = CHANCE
        self.deck = ()
        self.hand, self.piles, self.down = (0, 0), ((), ()), 0
        self.blocked, self.won = (0, 0), (0, 0)
        self.leader = self.first_leader = self.lead = self.next_lead = -1
        self.tricks = 0
        self.events = ()
        self.forced_leader = None

    def _deal(self, card: int) -> "AwimbaweState":
        s = self._copy()
        s.deck = s.deck + (card,)
        if len(s.deck) == DECK_SIZE:
            s._lay_out()
        return s

    def _lay_out(self) -> None:
        """Lay the dealt deck out: face-down bottoms, face-up tops, hands; then who leads."""
        n = self.variant.piles
        hand_size = self.variant.hand_size
        deck = self.deck
        bottoms = (deck[0:n], deck[n:2 * n])
        tops = (deck[2 * n:3 * n], deck[3 * n:4 * n])
        start = 4 * n
        hands = (deck[start:start + hand_size], deck[start + hand_size:start + 2 * hand_size])
        self.piles = tuple(tuple((b, t) for b, t in zip(bottoms[seat], tops[seat]))
                           for seat in (0, 1))
        self.down = 0
        for c in bottoms[0] + bottoms[1]:
            self.down |= BIT[c]
        self.hand = tuple(sum(BIT[c] for c in hands[seat]) for seat in (0, 1))
        if self.rounds:
            self.phase = CHOOSING_LEADER
            self.to_move = self.rounds[-1].winner ^ 1      # the loser decides
            return
        leader = self.forced_leader
        if leader is None and self.variant.round1_leader == "fewer_crowns":
            crowns = self.variant.card_crowns
            c0, c1 = (sum(crowns[c] for c in tops[seat]) for seat in (0, 1))
            leader = 0 if c0 < c1 else 1 if c1 < c0 else None
        if leader is None:
            self.phase = TIED_LEAD
            self.to_move = CHANCE
        else:
            self._start_tricks(leader, ("l", leader))

    def _start_tricks(self, leader: int, event: tuple) -> None:
        self.phase = PLAYING
        self.leader = self.to_move = self.first_leader = leader
        self.events = self.events + (event,)

    def _key(self) -> tuple:
        return (self.variant, self.rounds, self.deck, self.phase, self.to_move, self.hand,
                self.piles, self.down, self.blocked, self.won, self.leader, self.first_leader,
                self.lead, self.next_lead, self.tricks, self.pending, self.events,
                self.forced_leader)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AwimbaweState) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"<AwimbaweState round {self.round_index + 1} phase {self.phase} " \
               f"to move {self.to_move}>"


def leader_wins_trick(variant: AwimbaweVariant, lead: int, follow: int, flee: bool) -> bool:
    """Whether the card led beats the card that followed it: the same suit's higher value (a
    mouse beating its suit's elephant, if the variant says so), an eagle on a land card fights
    and wins or flees and loses, and any other card is a discard that loses."""
    if SUIT[follow] == SKY and SUIT[lead] != SKY:
        return flee
    if SUIT[follow] != SUIT[lead]:
        return True
    if variant.mouse_beats_elephant and SUIT[lead] != SKY and \
            {KIND[lead], KIND[follow]} == {MOUSE, ELEPHANT}:
        return KIND[lead] == MOUSE
    return VALUE[lead] > VALUE[follow]


def _set(pair: tuple, seat: int, value) -> tuple:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def _slide(piles: tuple, i: int, j: int) -> tuple:
    """The piles after a rhinoceros slides the top card of pile ``i`` under pile ``j`` (the
    card keeps its face)."""
    source = piles[i]
    card = source[-1]
    new = list(piles)
    if i == j:
        new[i] = (card,) + source[:-1]
    else:
        new[i] = source[:-1]
        new[j] = (card,) + piles[j]
    return tuple(new)


def _lone_hidden_top(piles: tuple, down: int) -> int:
    """The face-down top to reveal at once when every pile card is in a single pile, else -1."""
    full = [pile for pile in piles if pile]
    if len(full) == 1 and down & BIT[full[0][-1]]:
        return full[0][-1]
    return -1


# -- constructors --------------------------------------------------------------------------------
def new_match(variant: Any = None) -> AwimbaweState:
    """A match before its first deal (the deal is dealt at chance nodes)."""
    return AwimbaweState(as_variant(variant))


def new_round(deck, leader: int | None = None, variant: Any = None) -> AwimbaweState:
    """A match whose first round is dealt from ``deck`` (28 cards in deal order: ints or names,
    or a text), ``leader`` settling who leads first (None: the rules decide, a tie at a chance
    node)."""
    if not isinstance(deck, str):         # ints are cards too: checked as their names
        deck = [NAMES[c] if isinstance(c, int) and 0 <= c < DECK_SIZE else c for c in deck]
    deal = Deal.parse(deck, leader)
    state = AwimbaweState(as_variant(variant))
    state.forced_leader = deal.leader
    state.deck = deal.deck
    state._lay_out()
    return state


# The rules reference counts a round's moves in record notation (each blind snake outcome
# M5:h=G4 one move), and the generated moves need no legality check: the unchecked apply.
ROUND_MOVES = {"moves": AwimbaweState.record_moves, "apply": AwimbaweState._apply}


def round_perft(state: AwimbaweState, depth: int) -> int:
    """perft as the rules reference defines it: move sequences of length ``depth`` within the
    round, in record notation (each blind snake outcome ``M5:h=G4`` one move)."""
    return perft(state, depth, **ROUND_MOVES)


def round_perft_divide(state: AwimbaweState, depth: int) -> list[tuple[Move, int]]:
    """:func:`round_perft` of depth - 1 under each move in record notation."""
    return perft_divide(state, depth, **ROUND_MOVES)
