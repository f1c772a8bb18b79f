"""The agents on the real engine: legal, reproducible, greedy's evaluation hand-checked, and
MCTS stronger than chance."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from kiwara_designer.agents import make_agent, play_match
from kiwara_designer.games.kiwara.evaluation import FUTURE_POINTS_PER_CELL, evaluate
from kiwara_designer.games.kiwara import (builtin_variant_names, load_variant, new_game,
                                          setup_position)
from kiwara_designer.games.kiwara.formats import load_layout

CLASSIC = load_layout("classic")
SPECS = ["random", "greedy", "mcts:15", "mcts:8:greedy"]


def positions_along_a_game(layout_name: str, variant: str | None, seed: int, every: int = 6):
    state = new_game(load_layout(layout_name), load_variant(variant))
    rng = random.Random(seed)
    found = []
    while not state.is_terminal():
        if state.ply % every == 0 or len(state.legal_moves()) == 1:
            found.append(state)
        state = state.apply(rng.choice(state.legal_moves()))
    return found


@pytest.mark.parametrize("layout_name, variant", [("classic", None), ("president", None),
                                                  ("classic", "no_crocodile_swaps")])
def test_every_agent_returns_a_legal_move(layout_name, variant):
    agents = [make_agent(spec) for spec in SPECS]
    for state in positions_along_a_game(layout_name, variant, seed=11):
        legal = state.legal_moves()
        for agent in agents:
            assert agent.choose(state, random.Random(1)) in legal


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_move(spec):
    agent = make_agent(spec)
    state = positions_along_a_game("classic", None, seed=4)[2]
    moves = {str(agent.choose(state, random.Random(99))) for _ in range(3)}
    assert len(moves) == 1


def test_same_seed_same_game():
    agents = (make_agent("greedy"), make_agent("mcts:10"))
    start = new_game(CLASSIC)
    games = [play_match(start, agents, random.Random(5))[1] for _ in range(2)]
    assert [str(m) for m in games[0]] == [str(m) for m in games[1]]
    other = play_match(start, agents, random.Random(6))[1]
    assert [str(m) for m in other] != [str(m) for m in games[0]]


def okapi_position():
    # Territory F (e2 f2 f3) holds a zebra of each player; the totem faces row 3, so the
    # first player can complete F with a majority (and take the Okapi) by playing on f3.
    return setup_position(CLASSIC, tokens={"e2": "z", "f2": "Z"}, totem=8, to_move=0)


def test_greedy_takes_the_majority_and_the_okapi():
    state = okapi_position()
    for seed in range(5):
        move = make_agent("greedy").choose(state, random.Random(seed))
        assert str(move).startswith("Zf3>"), move      # the zebra is worth most on f3


def test_evaluate_by_hand():
    after = okapi_position().play("Zf3>9")
    # F full, 2:1 for first, face-up points 6+6+6 = 18; Okapi 5; every other territory empty
    # and level (lead 0).
    assert evaluate(after, 0) == pytest.approx(18 + 5)
    assert evaluate(after, 1) == pytest.approx(-23)
    elsewhere = okapi_position().play("Za3>9")
    # A: 1:0 with 4 empty: stake 6 + 4c, lead 1/5; F: 1:1 with 1 empty, lead 0.
    assert evaluate(elsewhere, 0) == pytest.approx((6 + 4 * FUTURE_POINTS_PER_CELL) / 5)


def test_evaluate_counts_face_down_tokens_for_majority_only():
    state = setup_position(CLASSIC, tokens={"a4": "[Z]", "a5": "g", "b5": "L"}, totem=0,
                           to_move=1, okapi=0)
    # D (a4 a5 b5) full: first 2 (one face down) vs second 1: first controls 0 + 2 + 1 = 3
    # points; the Okapi (5) is first's.
    assert evaluate(state, 0) == pytest.approx(3 + 5)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10 ** 6))
def test_evaluate_is_zero_sum_and_exact_at_the_end(seed):
    start = new_game(CLASSIC)
    final, moves = play_match(start, (make_agent("random"),) * 2, random.Random(seed))
    middle = start
    for move in moves[: len(moves) // 2]:
        middle = middle.apply(move)
    assert evaluate(middle, 0) == pytest.approx(-evaluate(middle, 1))
    first, second = final.scoring().totals
    assert evaluate(final, 0) == pytest.approx(first - second)


@pytest.mark.slow
def test_mcts_beats_random():
    mcts, rand = make_agent("mcts:60"), make_agent("random")
    start = new_game(CLASSIC)
    wins = 0
    for game in range(6):
        seat = game % 2
        final, _ = play_match(start, (mcts, rand) if seat == 0 else (rand, mcts),
                              random.Random(game))
        wins += final.scoring().winner == seat
    assert wins >= 5


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10 ** 6), layout_name=st.sampled_from(["classic", "president"]),
       variant=st.sampled_from(builtin_variant_names()), spec=st.sampled_from(SPECS),
       plies=st.integers(0, 40))
def test_any_agent_any_variant_legal_and_reproducible(seed, layout_name, variant, spec, plies):
    state = new_game(load_layout(layout_name), load_variant(variant))
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_moves()))
    if state.is_terminal():
        return
    agent = make_agent(spec)
    move = agent.choose(state, random.Random(seed))
    assert move in state.legal_moves()
    assert move == agent.choose(state, random.Random(seed))


def test_time_budget_on_the_engine():
    state = new_game(CLASSIC)
    result = make_agent("mcts:0.1s").search(state, random.Random(0))
    assert result.move in state.legal_moves() and result.iterations >= 1
    assert result.seconds < 2.0


def lion_position():
    # Column b is faced; only b4 is empty. The first player holds a lion and a gazelle. A lion
    # on b4 scares away the second player's gazelles on b3 (territory A) and a4 (territory D).
    return setup_position(CLASSIC, tokens={"b1": "z", "b2": "z", "b3": "g", "a4": "g", "b5": "E"},
                          totem=1, to_move=0, reserves=({"L": 1, "G": 1}, {"Z": 3}))


def test_greedy_takes_the_lion_capture():
    state = lion_position()
    c = FUTURE_POINTS_PER_CELL
    # By hand. B (b1 b2 + 5 empty): 0:2, stake 12 + 5c, lead −2/6, in both lines.
    b_value = -(12 + 5 * c) * 2 / 6
    # Lion: A 1:0 (lion 1 point, 4 empty) lead 1/5; D 1:0 (elephant 5, 2 empty) lead 1/3.
    lion = (1 + 4 * c) / 5 + (5 + 2 * c) / 3 + b_value
    # Gazelle: A 1:1 and D 1:1, both level.
    gazelle = b_value
    assert evaluate(state.play("Lb4>2"), 0) == pytest.approx(lion)
    assert evaluate(state.play("Gb4>2"), 0) == pytest.approx(gazelle)
    assert lion > gazelle
    for seed in range(5):
        assert str(make_agent("greedy").choose(state, random.Random(seed))).startswith("Lb4>")
