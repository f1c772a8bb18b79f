"""Awimbawé's own ``greedy`` agent: a one-trick heuristic from what its player sees.

Every legal move gets a score in crowns and the best one is played (ties drawn with the rng).
It reads only public facts and its own cards: its hand and face-up pile tops, the opponent's
face-up tops, the card led, both scoring piles (every card in them was played face up), the
hyena counts, and which cards it has not seen yet (``information.seen_cards``): so two states its
player cannot tell apart get the same move (the protocol conformance test checks it).

Scores (the heuristic's rules, in the issue's words):

* **Win cheap tricks with crowns.** Following, a card that wins the trick scores the crowns at
  stake (the led card's and its own) less a third of its value (the cheapest winner is played);
  a card that loses scores minus the crowns it hands over. Leading, a card scores
  ``p·stake − (1 − p)·stake``, with ``stake`` its crowns plus the mean crowns of the cards the
  opponent may hold and ``p`` the chance that it wins: that the opponent holds no higher card of
  its suit (nor, void in it, an eagle), each unseen card being equally likely in their hand
  (hypergeometric, from the public size of their hand and the cards I have not seen).
* **Avoid the fourth hyena.** A trick that brings my hyenas to the limit scores −100, one that
  gives the opponent theirs +100 (the round is decided at once); below the limit each hyena
  taken costs ``HYENA_WEIGHT · (held + 1) / limit`` crowns to its taker.
* **Keep eagles for fights.** Playing an eagle costs :data:`EAGLE_COST` crowns; a follower's eagle
  flees only when that scores better (the led card's crowns and hyenas go to the leader, the
  eagle's own crowns, often negative, to me).
* **Use powers when they help.** The snake blocks the opponent's best visible card (an eagle
  first), else a card of their hand blind; the rhinoceros buries the opponent's best face-up top;
  the cheetah keeps the lead when I hold a card likely (> 80 %) to win a lead, and gives it away
  otherwise; after a lost round, the same rule chooses who starts. A power's bonus is small
  (:data:`POWER_BONUS` per value blocked or buried), so it decides between plays of one card.

Measured (benchmarks/awimbawe_strength.py): see docs/developers/benchmarks.md, "Awimbawé".
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from ...agents.base import legal_moves_to_choose, no_parameters, register_agent
from .cards import (BIT, CARDS, EAGLE, EAGLES, ELEPHANT, HYENAS, KIND, MOUSE, SKY, SUIT, SUIT_MASK,
                    VALUE, cards_of)
from .moves import (CHEETAH_CHOICE, EAGLE_FIGHT, EAGLE_FLEE, RHINO_SLIDE, SNAKE_HAND, SNAKE_PILE,
                    START)

EAGLE_COST = 3.0       # crowns an eagle is worth kept in hand, for the fights to come
POWER_BONUS = 0.1      # per value of the card a power buries or blocks
FATAL = 100.0          # a trick that decides the round by hyenas
HYENA_WEIGHT = 2.0     # crowns a hyena taken costs, times (hyenas held + 1) / limit


@dataclass(frozen=True)
class AwimbaweGreedy:
    """The one-trick heuristic above; ``rng`` only breaks ties."""

    name: str = "greedy"

    def choose(self, state: Any, rng: random.Random) -> Any:
        moves = legal_moves_to_choose(state)
        if len(moves) == 1:
            return moves[0]
        view = _View(state)
        scores = [view.score(move) for move in moves]
        best = max(scores)
        choices = [m for m, s in zip(moves, scores) if s >= best - 1e-9]
        return choices[0] if len(choices) == 1 else rng.choice(choices)


class _View:
    """The facts the heuristic uses, all visible to the player to move."""

    def __init__(self, state: Any) -> None:
        from .information import seen_cards
        self.state = state
        self.me = me = state.current_player()
        self.you = 1 - me
        self.crowns = state.variant.card_crowns
        self.limit = state.variant.hyenas_to_lose
        self.lead = state.lead                       # -1: I lead
        self.unseen = ~seen_cards(state, me) & ((1 << len(CARDS)) - 1)
        self.my_cards = state.available(me)
        self.their_tops = state.tops(self.you) & ~state.down
        # cards the opponent may hold: unseen ones and their face-up tops
        self.their_possible = self.unseen | self.their_tops
        self.their_hand = state.hand[self.you].bit_count()     # how many: public
        possible = cards_of(self.their_possible)
        self.mean_reply = (sum(self.crowns[c] for c in possible) / len(possible)) if possible else 0

    def score(self, move: Any) -> float:
        kind = move.kind
        if kind == START:                      # start:me / start:you, after a lost round
            return 1.0 if (move.a == 0) == self._holds_sure_lead() else 0.0
        card = move.card
        base = self._follow(card, kind) if self.lead >= 0 else self._open(card)
        if KIND[card] == EAGLE:
            base -= EAGLE_COST
        return base + self._power(move)

    # -- the trick ---------------------------------------------------------------------------
    def _hyena_outcome(self, taker: int, cards: tuple) -> float:
        """+FATAL if the cards give the opponent their last hyena, −FATAL if they give me mine."""
        gained = sum(1 for c in cards if BIT[c] & HYENAS)
        if not gained or self.state.hyenas(taker) + gained < self.limit:
            return 0.0
        return -FATAL if taker == self.me else FATAL

    def _follow(self, card: int, kind: int) -> float:
        lead = self.lead
        flee = kind == EAGLE_FLEE
        if flee:          # the leader takes the led card, the eagle goes to my own pile
            return (self._hyena_outcome(self.you, (lead,)) - self.crowns[lead]
                    + self.crowns[card])
        if _beats(card, lead, kind == EAGLE_FIGHT, self.state.variant.mouse_beats_elephant):
            stake = self.crowns[lead] + self.crowns[card]
            return (self._hyena_outcome(self.me, (lead, card)) + stake - VALUE[card] / 3
                    - self._hyena_cost(lead, card))
        return (self._hyena_outcome(self.you, (lead, card)) - self.crowns[lead] - self.crowns[card]
                + self._hyena_cost(lead, card, seat=self.you))

    def _chance_holds(self, wanted: int) -> float:
        """Probability that the opponent holds one of the cards ``wanted`` among their available
        ones: 1 if one is face up, else drawn from the unseen cards for their hand."""
        if wanted & self.their_tops:
            return 1.0
        b = (wanted & self.unseen).bit_count()
        u, h = self.unseen.bit_count(), self.their_hand
        if not b or not h:
            return 0.0
        return 1.0 - math.comb(u - b, h) / math.comb(u, h) if u >= h else 1.0

    def _lead_win_chance(self, card: int) -> float:
        """Chance that ``card``, led, wins: the opponent holds nothing beating it in its suit,
        and, if void in the suit, no eagle to fight with."""
        suit = SUIT_MASK[SUIT[card]] & ~BIT[card]
        mouse_rule = self.state.variant.mouse_beats_elephant
        beaters = sum(BIT[c] for c in cards_of(self.their_possible & suit)
                      if _beats(c, card, False, mouse_rule))
        p_beat = self._chance_holds(beaters)
        if SUIT[card] == SKY:
            return 1.0 - p_beat
        p_void = 1.0 - self._chance_holds(self.their_possible & suit)
        return (1.0 - p_beat) * (1.0 - p_void * self._chance_holds(self.their_possible & EAGLES))

    def _holds_sure_lead(self) -> bool:
        return any(self._lead_win_chance(c) > 0.8 for c in cards_of(self.my_cards))

    def _open(self, card: int) -> float:
        p = self._lead_win_chance(card)
        stake = self.crowns[card] + self.mean_reply
        return (p * (stake + self._hyena_outcome(self.me, (card,)) - self._hyena_cost(card))
                - (1 - p) * (stake - self._hyena_outcome(self.you, (card,))))

    def _hyena_cost(self, *cards: int, seat: int | None = None) -> float:
        """Hyenas taken by ``seat`` (default: me) short of the limit: each weighs more the
        closer its taker gets to the limit."""
        seat = self.me if seat is None else seat
        gained = sum(1 for c in cards if BIT[c] & HYENAS)
        return gained * HYENA_WEIGHT * (self.state.hyenas(seat) + 1) / self.limit

    # -- powers ------------------------------------------------------------------------------
    def _power(self, move: Any) -> float:
        kind = move.kind
        state, you = self.state, self.you
        if kind in (SNAKE_PILE, RHINO_SLIDE):      # the top blocked or buried, if I can see it
            top = state.piles[you][move.a][-1]
            return POWER_BONUS * VALUE[top] if not state.down & BIT[top] else 0.0
        if kind == SNAKE_HAND:
            return POWER_BONUS * 3        # a middling card of their hand, blocked blind
        if kind == CHEETAH_CHOICE:
            keep = self._holds_sure_lead()
            return POWER_BONUS * 5 if (move.a == 0) == keep else -POWER_BONUS
        return 0.0


def _beats(card: int, lead: int, fight: bool, mouse_beats_elephant: bool) -> bool:
    """Whether ``card`` played on ``lead`` wins the trick (an eagle on land only if it fights)."""
    if SUIT[card] == SKY and SUIT[lead] != SKY:
        return fight
    if SUIT[card] != SUIT[lead]:
        return False
    if mouse_beats_elephant and SUIT[lead] != SKY and {KIND[card], KIND[lead]} == {MOUSE, ELEPHANT}:
        return KIND[card] == MOUSE
    return VALUE[card] > VALUE[lead]


register_agent("greedy", no_parameters("greedy", AwimbaweGreedy), game="awimbawe")
