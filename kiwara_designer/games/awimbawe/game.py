"""Awimbawé as a :class:`~kiwara_designer.core.game.Game`: the registry's ``awimbawe``."""
from __future__ import annotations

from typing import Any, Sequence

from ...core.game import GameBase, Metric, Outcome
from ...core.errors import KiwaraError
from .cards import NAMES
from .evaluation import stage_returns
from .metrics import METRICS, RoundTracker
from .moves import NOTATION_SHORT, IllegalMoveError, parse_move
from .state import AwimbaweState, Deal, new_match, new_round
from .variant import AwimbaweVariant, as_variant

# Where the match stands counts more than the current round: a round won is worth this much
# of the evaluation's range, the current round's prospects the rest.
ROUND_WEIGHT = 0.6


class AwimbaweGame(GameBase):
    """The whole match (rounds until one player has ``rounds_to_win``) is one game.

    ``new_state(setup)``: None deals round 1 at chance nodes; a :class:`Deal` (or a deck as text
    or a list of card names) deals it from that deck. Scores in :meth:`outcome` are rounds won."""

    name = "awimbawe"
    headline_metric = "round1_leader_balance"   # the lead rule's fairness: docs/awimbawe/lab.md
    perfect_information = False
    chance = True

    def new_state(self, setup: Any = None, variant: Any = None) -> AwimbaweState:
        variant = as_variant(variant)
        if setup is None:
            return new_match(variant)
        if isinstance(setup, Deal):
            return new_round(setup.deck, setup.leader, variant)
        return new_round(setup, None, variant)

    def default_variant(self) -> AwimbaweVariant:
        return AwimbaweVariant()

    def parse_move(self, state: AwimbaweState, text: str):
        """The legal move a player typed, or :class:`IllegalMoveError` in words that player may
        read: the typed text is never echoed (it could name a card they do not see), and a
        chosen blind-snake pick is refused alike whatever card it names (see
        :meth:`AwimbaweState.why_illegal`)."""
        try:
            move = parse_move(text)
        except IllegalMoveError:
            raise IllegalMoveError(f"not a move: {NOTATION_SHORT}") from None
        if move not in state.legal_moves():
            raise IllegalMoveError(state.why_illegal(move))
        return move

    def evaluate(self, state: AwimbaweState, player: int) -> float:
        """From ``player``'s view only (everything used is public: rounds won, the cards each has
        won, which all were played face up): ±1 at the match's end; otherwise rounds won count
        :data:`ROUND_WEIGHT` of the range and the current round the rest, as the crown lead
        (out of the crowns still possible to gain) minus a penalty near the hyena limit."""
        if state.is_terminal():
            return state.returns()[player]
        variant = state.variant
        won = state.rounds_won
        rounds = (won[player] - won[1 - player]) / variant.rounds_to_win
        crowns = state.crowns(player) - state.crowns(1 - player)
        round_value = max(-1.0, min(1.0, crowns / 23))
        limit = variant.hyenas_to_lose
        for seat, sign in ((player, -1), (1 - player, 1)):
            if state.hyenas(seat) == limit - 1:
                round_value += sign * 0.5
        round_value = max(-1.0, min(1.0, round_value))
        return ROUND_WEIGHT * rounds + (1 - ROUND_WEIGHT) * round_value

    def stage(self, state: AwimbaweState) -> int:
        """The round being played: a search's playout stops when it changes (see ISMCTS)."""
        return state.round_index

    def stage_returns(self, state: AwimbaweState) -> tuple[float, float]:
        """The match's worth at a round's end, later rounds taken as coin flips
        (:mod:`.evaluation`)."""
        return stage_returns(state)

    def outcome(self, state: AwimbaweState) -> Outcome:
        rounds = [r.to_dict() for r in state.rounds]
        stats = {"rounds": rounds, "rounds_played": len(rounds),
                 "rounds_by_hyenas": sum(r.by_hyenas for r in state.rounds),
                 "tricks": sum(r.tricks for r in state.rounds),
                 "crowns": [sum(r.crowns[s] for r in state.rounds) for s in (0, 1)]}
        return Outcome(tuple(float(w) for w in state.rounds_won), state.match_winner, stats)

    def evaluation_key(self, move) -> Any:
        return move

    def tracker(self, state: AwimbaweState) -> RoundTracker:
        return RoundTracker(state)     # each round's facts for the lab's metrics

    def metrics(self) -> Sequence[Metric]:
        return METRICS

    def record(self, setup: Any, variant: Any, moves: Sequence[str], **meta: Any):
        """The match record of ``moves`` (protocol moves, chance ones included) played from
        ``setup``."""
        from .record import MatchRecord
        state = self.new_state(setup, variant)
        for move in moves:
            state = state.apply(move)
        return MatchRecord.from_state(state, **meta)

    # The setup "deals": every round dealt at chance nodes from the match's seed (the lab's
    # matches); otherwise round 1's deck in deal order, and who leads it if the setup says.
    DEALT_AT_CHANCE = "deals"

    def setup_key(self, setup: Any) -> str:
        if setup is None:
            return self.DEALT_AT_CHANCE
        deal = setup if isinstance(setup, Deal) else Deal.parse(setup)
        deck = " ".join(NAMES[c] for c in deal.deck)
        return f"deck {deck}" + ("" if deal.leader is None else f" leader {deal.leader}")

    def setup_from_key(self, key: str) -> Deal | None:
        if key == self.DEALT_AT_CHANCE:
            return None
        words = key.split()
        if words[:1] != ["deck"]:
            raise KiwaraError(f"not an Awimbawé setup: {key!r} (\"deals\" or \"deck …\")")
        leader = None
        if words[-2:-1] == ["leader"]:
            leader, words = int(words[-1]), words[:-2]
        return Deal.parse(words[1:], leader)


AWIMBAWE = AwimbaweGame()

from . import greedy  # noqa: E402,F401  (registers the game's own greedy agent)

