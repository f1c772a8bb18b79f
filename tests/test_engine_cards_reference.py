"""The deck engine against the independent reference (tests/kiwara_reference.py, written from the
rules text alone): perft with a fixed deck order and handicaps, from the start and from positions
along random games where every effect primitive comes into play."""
from __future__ import annotations

import random

import pytest

from engine_layouts import random_free_play_layout
from kiwara_designer.games.kiwara import KiwaraVariant, new_game, perft_divide
from kiwara_designer.games.kiwara.formats import load_layout
from kiwara_reference import Reference

SAMPLE = ["okapi", "waterhole", "drums", "storm", "stampede", "migration", "sunrise", "hunter",
          "jackal", "ford"]


def both(layout, order, handicap, **rules):
    variant = KiwaraVariant(reinforcement="deck", handicap=handicap, **rules)
    ref_rules = {"crocodile_swaps": rules["crocodile_swaps"]} if "crocodile_swaps" in rules else {}
    ref = Reference(layout.rows, reinforcement="deck", deck=list(order), handicap=handicap,
                    **ref_rules)
    return new_game(layout, variant, order), ref


def agree(state, ref, ref_state, depth):
    expected = {text: ref.perft(after, depth - 1) for text, after in ref.moves(ref_state)}
    assert {str(m): n for m, n in perft_divide(state, depth)} == expected


def test_perft_3_from_the_start_with_handicaps():
    # Action cards in both hands from the start: drums and jackal for the first player, storm
    # and ford for the second; the Okapi card stays in the deck.
    order = ["drums", "jackal", "storm", "ford"] + [c for c in SAMPLE
                                                    if c not in ("drums", "jackal", "storm", "ford")]
    state, ref = both(load_layout("classic"), order, (2, 2))
    agree(state, ref, ref.start(), 3)


@pytest.mark.parametrize("seed", range(6))
def test_moves_and_perft_agree_along_random_deck_games(seed):
    rng = random.Random(seed)
    layout = load_layout("classic") if seed % 2 else random_free_play_layout(random.Random(seed))
    order = rng.sample(SAMPLE, len(SAMPLE))
    handicap = [(2, 2), (3, 1), (1, 3)][seed % 3]
    mode = ("chain", 1, 0)[seed % 3]
    state, ref = both(layout, order, handicap, crocodile_swaps=mode)
    ref_state = ref.start()
    ply = 0
    while not state.is_terminal():
        moves = {str(m) for m in state.legal_moves()}
        ref_moves = dict(ref.moves(ref_state))
        assert moves == set(ref_moves), f"ply {ply}"
        if ply in (12, 27, 41):
            agree(state, ref, ref_state, 2)
        # Prefer card uses, so that every primitive is exercised often.
        cards = sorted(m for m in moves if m.startswith("+"))
        text = rng.choice(cards) if cards and rng.random() < 0.6 else rng.choice(sorted(moves))
        state, ref_state = state.play(text), ref_moves[text]
        for player in (0, 1):
            assert sorted(state.hand(player)) == sorted(c[0] for c in ref_state["held"][player])
        ply += 1
    assert ref.is_over(ref_state) and ref.moves(ref_state) == []
    assert state.scoring().totals == ref.score(ref_state)
