"""Agents in deck games: they weigh card uses, and they decide from what their player may see
(held cards, not the deck's order)."""
from __future__ import annotations

import random

import pytest

from kiwara_designer.agents import make_agent, play_match
from kiwara_designer.games.kiwara import KiwaraVariant, new_game, setup_position
from kiwara_designer.games.kiwara.formats import load_layout

CLASSIC = load_layout("classic")
DECK = KiwaraVariant(reinforcement="deck")
SAMPLE = ["okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", "hunter",
          "jackal", "ford"]


@pytest.mark.parametrize("spec", ["greedy", "mcts:60"])
def test_agents_choose_alike_whatever_the_hidden_deck_order(spec):
    # Row 5 is the totem's; a5 completes D (a4 a5 b5) and draws the top card. With the okapi
    # (5 points) on top, a peeking greedy agent places on a5; with the ford, on c5.
    tokens = {"a1": "l", "d1": "g", "e1": "C", "a2": "[G]", "b2": "E", "c2": "G", "d2": "G",
              "e2": "c", "b3": "Z", "f3": "z", "a4": "L", "c4": "g", "e4": "z", "b5": "C",
              "d5": "c", "e5": "e", "f5": "g"}
    choices = []
    for top in ("okapi", "ford"):
        deck = [top] + [c for c in SAMPLE if c != top]
        state = setup_position(CLASSIC, DECK, tokens=tokens, totem=10, to_move=0, deck=deck)
        assert state.deck_order()[0] == top
        agent = make_agent(spec)
        choices.append([str(agent.choose(state, random.Random(seed))) for seed in range(3)])
    assert choices[0] == choices[1]


def test_greedy_uses_a_card_worth_more_than_keeping_it():
    # The second player holds territory C with three face-up zebras: scaring one takes 6
    # points from them, and the placement after it is the same as without the card.
    tokens = {"c1": "z", "d1": "z", "e1": "z", "f1": "g", "d2": "Z"}
    state = setup_position(CLASSIC, DECK, tokens=tokens, totem=17, to_move=0,
                           hands=(["hunter"], []))
    move = make_agent("greedy").choose(state, random.Random(1))
    assert move.is_card and move.card == "hunter"


def test_agents_play_whole_deck_games_and_use_cards():
    variant = KiwaraVariant(reinforcement="deck", handicap=(2, 2))
    used = set()
    for seed in range(2):
        final, moves = play_match(new_game(CLASSIC, variant),
                                  (make_agent("greedy"), make_agent("mcts:30")),
                                  random.Random(seed))
        assert final.is_terminal()
        used.update(m.card for m in moves if m.is_card)
    assert used


def test_greedy_plays_a_totem_card_only_when_it_helps(monkeypatch):
    # The first player holds the drums (a totem card) from the start. Before a card held had a
    # worth of its own, greedy spent it on its first turn even when the best placement it
    # allowed was no better than the best one without it (the card's moves tied and, being
    # many, won the draw). Now a use must gain more on the board than the card is worth.
    from kiwara_designer.agents.greedy import _value
    from kiwara_designer.games.kiwara import evaluation
    variant = KiwaraVariant(reinforcement="deck", handicap=(1, 0))
    greedy = make_agent("greedy")
    uses = []
    for seed in range(12):
        rest = [c for c in SAMPLE if c != "drums"]
        random.Random(seed).shuffle(rest)
        state, rng = new_game(CLASSIC, variant, ["drums"] + rest), random.Random(seed)
        while not state.is_terminal() and "drums" in state.hand(0):
            move = greedy.choose(state, rng)
            if move.is_card:
                with monkeypatch.context() as board_only:      # the board's own evaluation
                    board_only.setattr(evaluation, "ACTION_CARD_POINTS", 0.0, raising=False)
                    plain = max(evaluation.evaluate(state.apply(m), 0)
                                for m in state.legal_moves() if not m.is_card)
                    with_card = _value(state.game, state.apply(move), 0)
                assert with_card > plain + 1e-9, (seed, state.ply, str(move))
                uses.append(state.ply)
            state = state.apply(move)
    assert len(uses) >= 6               # it is still used, when it helps


def test_greedy_weighs_the_extra_turn_an_again_card_gives():
    # +stampede, then a placement, then the extra turn's placement: valued where the turn
    # passes, two placements beat one by more than the card is worth, so greedy plays it at
    # its first turn (valued one placement deep it gained nothing and lost the card's worth)
    variant = KiwaraVariant(reinforcement="deck", handicap=(1, 0))
    greedy = make_agent("greedy")
    for seed in range(4):
        rest = [c for c in SAMPLE if c != "stampede"]
        random.Random(seed).shuffle(rest)
        state, rng = new_game(CLASSIC, variant, ["stampede"] + rest), random.Random(seed)
        while state.current_player() != 0 or state.ply == 0:      # to its first placement
            state = state.apply(greedy.choose(state, rng))
        assert str(greedy.choose(state, rng)) == "+stampede"


def test_greedy_weighs_a_bounded_number_of_positions_whatever_the_hand(monkeypatch):
    # Issue 22 point 6: with stampede and migration (another turn) and drums (move the totem)
    # in hand, greedy looked ahead through every order of the cards: minutes for one move.
    from kiwara_designer.agents.greedy import LOOKAHEAD_POSITIONS
    from kiwara_designer.games.kiwara import KiwaraState
    from kiwara_designer.games.kiwara.cards import Card
    deck = (Card("stampede", "again"), Card("migration", "again"), Card("drums", "totem"))
    variant = KiwaraVariant(reinforcement="deck", deck=deck, handicap=(3, 0))
    state = new_game(CLASSIC, variant)
    rng = random.Random(1)
    while state.current_player() != 0 or len(state.hand(0)) < 3 or state.totem is None:
        state = state.apply(rng.choice(state.legal_moves()))
    applied = []
    plain = KiwaraState.apply

    def counting(self, move):
        applied.append(move)
        if len(applied) > 10 * LOOKAHEAD_POSITIONS:      # before the bound: millions
            raise AssertionError("greedy's lookahead is not bounded")
        return plain(self, move)

    monkeypatch.setattr(KiwaraState, "apply", counting)
    make_agent("greedy").choose(state, random.Random(0))
    # the budget, each move of the decision, and one move to finish each open lookahead
    assert len(applied) <= LOOKAHEAD_POSITIONS + 2 * len(state.legal_moves())
