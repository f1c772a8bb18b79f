"""Toy games of the core protocol, small enough to check by hand.

* ``TAKE_AWAY``: a pile of stones, each move takes 1, 2 or 3, whoever takes the last stone wins
  (perfect information, no chance). The player to move loses exactly when the pile is a multiple
  of 4. An optional "extra turn" rule (landing on a given pile size lets the mover play again)
  checks that searches credit the right player.
* ``KUHN``: Kuhn poker, chance and hidden information. Chance deals one of the cards J, Q, K to
  each player, card by card; each sees only their own. Then the first player checks (``p``) or
  bets (``b``); after a check the second may check (showdown for 1) or bet; facing a bet a player
  calls (``b``, showdown for 2) or folds (``p``, losing 1). The higher card wins a showdown.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from kiwara_designer.core.game import CHANCE, TERMINAL, GameBase, Outcome
from kiwara_designer.core.errors import KiwaraError


class ToyMoveError(KiwaraError):
    """A move a toy game does not allow here."""


# -- take-away ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TakeAway:
    pile: int
    player: int = 0
    extra_turn_at: int = -1     # landing on this pile size gives the mover another turn (a "pass")

    @property
    def game(self) -> "TakeAwayGame":
        return TAKE_AWAY

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def legal_moves(self) -> list[int]:
        return [] if self.is_terminal() else [k for k in (1, 2, 3) if k <= self.pile]

    def apply(self, take: int) -> "TakeAway":
        if take not in self.legal_moves():
            raise ToyMoveError(f"cannot take {take!r} from a pile of {self.pile}")
        pile = self.pile - take
        winner_moves_again = pile == self.extra_turn_at
        return TakeAway(pile, self.player if winner_moves_again else 1 - self.player,
                        self.extra_turn_at)

    def is_terminal(self) -> bool:
        return self.pile == 0

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        # The player who took the last stone is the one who is *not* to move next.
        last = 1 - self.player
        return (1.0, -1.0) if last == 0 else (-1.0, 1.0)

    def chance_outcomes(self) -> list:
        return []

    def information_state(self, player: int):
        return (self.pile, self.player, self.extra_turn_at)

    observation = information_state

    def determinize(self, player: int, rng: random.Random) -> "TakeAway":
        return self


class TakeAwayGame(GameBase):
    name = "take-away"

    def new_state(self, setup=None, variant=None) -> TakeAway:
        return TakeAway(setup if setup is not None else 10)

    def parse_move(self, state, text: str) -> int:
        return int(text)

    def evaluate(self, state: TakeAway, player: int) -> float:
        # the mover loses with best play exactly on a multiple of 4
        if state.is_terminal():
            return state.returns()[player]
        mover_wins = state.pile % 4 != 0
        return 1.0 if mover_wins == (state.player == player) else -1.0

    def outcome(self, state: TakeAway) -> Outcome:
        first, second = state.returns()
        return Outcome((first, second), None if first == second else (0 if first > 0 else 1))

    def record(self, setup, variant, moves, **meta):
        return {"pile": setup, "moves": list(moves), **meta}

    def setup_key(self, setup) -> str:
        return str(setup if setup is not None else 10)

    def setup_from_key(self, key: str) -> int:
        return int(key)

    def __reduce__(self):
        return "TAKE_AWAY"


TAKE_AWAY = TakeAwayGame()


# -- Kuhn poker -----------------------------------------------------------------------------------
CARDS = "JQK"


@dataclass(frozen=True)
class Kuhn:
    cards: tuple[str, ...] = ()       # dealt so far, player 0's first
    actions: str = ""                 # betting so far, "p" and "b"

    @property
    def game(self) -> "KuhnGame":
        return KUHN

    def current_player(self) -> int:
        if len(self.cards) < 2:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return len(self.actions) % 2

    def is_terminal(self) -> bool:
        return self.actions in ("pp", "bp", "bb", "pbp", "pbb")

    def legal_moves(self) -> list[str]:
        if len(self.cards) < 2:
            return [card for card, _ in self.chance_outcomes()]
        return [] if self.is_terminal() else ["p", "b"]

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if len(self.cards) >= 2:
            return []
        left = [c for c in CARDS if c not in self.cards]
        return [(c, 1 / len(left)) for c in left]

    def apply(self, move: str) -> "Kuhn":
        if move not in self.legal_moves():
            raise ToyMoveError(f"{move!r} is not a legal Kuhn move here")
        if len(self.cards) < 2:
            return Kuhn(self.cards + (move,), self.actions)
        return Kuhn(self.cards, self.actions + move)

    def chips(self) -> int:
        """What the first player wins (negative: loses) at the end."""
        if self.actions == "bp":
            return 1
        if self.actions == "pbp":
            return -1
        stake = 1 if self.actions == "pp" else 2
        return stake if CARDS.index(self.cards[0]) > CARDS.index(self.cards[1]) else -stake

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal():
            return (0.0, 0.0)
        return (1.0, -1.0) if self.chips() > 0 else (-1.0, 1.0)

    def information_state(self, player: int):
        own = self.cards[player] if len(self.cards) > player else None
        return (player, own, len(self.cards), self.actions)

    observation = information_state

    def determinize(self, player: int, rng: random.Random) -> "Kuhn":
        if len(self.cards) < 2:
            return self      # the other card is not dealt yet: nothing hidden to redraw
        other = rng.choice([c for c in CARDS if c != self.cards[player]])
        cards = list(self.cards)
        cards[1 - player] = other
        return Kuhn(tuple(cards), self.actions)


class KuhnGame(GameBase):
    name = "kuhn"
    perfect_information = False
    chance = True

    def new_state(self, setup=None, variant=None) -> Kuhn:
        return Kuhn()

    def parse_move(self, state, text: str) -> str:
        return text

    def evaluate(self, state: Kuhn, player: int) -> float:
        # from the player's own card only: J -1, Q 0, K +1
        own = state.information_state(player)[1]
        return 0.0 if own is None else CARDS.index(own) - 1.0

    def outcome(self, state: Kuhn) -> Outcome:
        chips = state.chips()
        return Outcome((chips, -chips), 0 if chips > 0 else 1, {"showdown": state.actions in
                                                                 ("pp", "bb", "pbb")})

    def record(self, setup, variant, moves, **meta):
        return {"moves": list(moves), **meta}

    def setup_key(self, setup) -> str:
        return "none"        # no setup: every game starts alike

    def setup_from_key(self, key: str) -> None:
        return None

    def __reduce__(self):
        return "KUHN"


KUHN = KuhnGame()


# -- gamble: chance with unequal probabilities, perfect information ----------------------------------
GAMBLE_OUTCOMES = (("win", 0.2), ("win again", 0.2), ("lose", 0.6))


@dataclass(frozen=True)
class Gamble:
    """The first player stands (a draw) or gambles: chance then draws one of
    :data:`GAMBLE_OUTCOMES` (won 2 times in 5, so gambling loses on average; drawn uniformly
    it would look like a winning bet)."""

    history: tuple[str, ...] = ()

    @property
    def game(self) -> "GambleGame":
        return GAMBLE

    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.history == ("gamble",) else 0

    def is_terminal(self) -> bool:
        return self.history[:1] == ("stand",) or len(self.history) == 2

    def chance_outcomes(self) -> list[tuple[str, float]]:
        return list(GAMBLE_OUTCOMES) if self.current_player() == CHANCE else []

    def legal_moves(self) -> list[str]:
        if self.is_terminal():
            return []
        if self.current_player() == CHANCE:
            return [m for m, _ in GAMBLE_OUTCOMES]
        return ["stand", "gamble"]

    def apply(self, move: str) -> "Gamble":
        if move not in self.legal_moves():
            raise ToyMoveError(f"{move!r} is not a legal gamble move here")
        return Gamble(self.history + (move,))

    def returns(self) -> tuple[float, float]:
        if not self.is_terminal() or self.history == ("stand",):
            return (0.0, 0.0)
        return (1.0, -1.0) if self.history[1].startswith("win") else (-1.0, 1.0)

    def information_state(self, player: int):
        return self.history

    observation = information_state

    def determinize(self, player: int, rng: random.Random) -> "Gamble":
        return self


class GambleGame(GameBase):
    name = "gamble"
    chance = True

    def new_state(self, setup=None, variant=None) -> Gamble:
        return Gamble()

    def parse_move(self, state, text: str) -> str:
        return text

    def evaluate(self, state: Gamble, player: int) -> float:
        return state.returns()[player]

    def outcome(self, state: Gamble) -> Outcome:
        first, second = state.returns()
        return Outcome((first, second), None if first == second else (0 if first > 0 else 1))

    def record(self, setup, variant, moves, **meta):
        return {"moves": list(moves), **meta}

    def setup_key(self, setup) -> str:
        return "none"        # no setup: every game starts alike

    def setup_from_key(self, key: str) -> None:
        return None

    def __reduce__(self):
        return "GAMBLE"


GAMBLE = GambleGame()
