"""Awimbawé at the table: refusals and narration say only what their reader may see
(issue 20), and the terminal game tells every trick."""
from __future__ import annotations

import random
import re

import pytest
from click.testing import CliRunner

from kiwara_designer.games.awimbawe.cards import BIT, CARDS, KIND, NAMES, SNAKE
from kiwara_designer.games.awimbawe.game import AWIMBAWE
from kiwara_designer.games.awimbawe.information import round_events_seen, seen_cards
from kiwara_designer.games.awimbawe.moves import MOVES, SNAKE_HAND, IllegalMoveError, parse_move
from kiwara_designer.games.awimbawe.view import narrate
from kiwara_designer.cli import main
from kiwara_designer.core.game import CHANCE, sample_chance

CARD_NAME = re.compile(r"(?<![A-Za-z0-9])(?:[GDMP][1-6]|E(?:7|8|9|10))(?![0-9])")
SNAKES = [NAMES[c] for c in CARDS if KIND[c] == SNAKE]

# What a person may type: every move of the notation (chance outcomes included), every chosen
# blind pick, and text that is no move at all.
TYPED = sorted(MOVES) + [f"{s}:h={NAMES[c]}" for s in SNAKES for c in CARDS] + [
    "", "M5:h=", "M5:h=Z9", "G4:h=G5", "E11", "G4 G5", "m5:H=g4", "start", "deal:", "h=",
    "P2:9>1", "E9:flee=G4", "G4;D6", "x" * 200 + "G4"]


def names_in(text: str) -> set[str]:
    return set(CARD_NAME.findall(text))


def positions(seeds=range(12), variant=None, every=3):
    """Player decision points along seeded random matches (every ``every``-th one)."""
    for seed in seeds:
        rng = random.Random(seed)
        state = AWIMBAWE.new_state(None, variant)
        count = 0
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if count % every == 0:
                yield state
            count += 1
            state = state.apply(rng.choice(state.legal_moves()))


def unseen_names(state, player) -> set[str]:
    seen = seen_cards(state, player)
    return {NAMES[c] for c in CARDS if not seen & BIT[c]}


@pytest.mark.parametrize("variant", ["classic", "gamepark"])
def test_no_refusal_names_a_card_its_reader_cannot_see(variant):
    checked = 0
    for state in positions(variant=variant):
        player = state.current_player()
        hidden = unseen_names(state, player)
        picks: dict[str, set[str]] = {}
        for text in TYPED:
            try:
                AWIMBAWE.parse_move(state, text)
            except IllegalMoveError as exc:
                message = str(exc)
                leaked = names_in(message) & hidden
                assert not leaked, (text, message, state.information_state(player))
                checked += 1
                head, _, pick = text.partition(":h=")
                if head in SNAKES and pick in NAMES:
                    picks.setdefault(head, set()).add(message)
        # a chosen blind pick is refused in the same words whatever card it names
        assert all(len(words) == 1 for words in picks.values()), picks
    assert checked > 10_000


def test_a_chosen_blind_pick_was_an_oracle_and_is_not_any_more():
    # seed 3, the person's first move: the opponent holds G5 G6 D4 D6 P5 E9 (hand-checked from
    # the deal), which the old refusal listed as "legal: M5:h=G5, M5:h=G6, …"
    state = next(positions(seeds=[3]))
    assert {NAMES[c] for c in CARDS if state.hand[1] & BIT[c]} == \
        {"G5", "G6", "D4", "D6", "P5", "E9"}
    words = set()
    for card in ("G5", "G4", "E9", "E10", "M1"):
        with pytest.raises(IllegalMoveError) as refused:
            AWIMBAWE.parse_move(state, f"M5:h={card}")
        words.add(str(refused.value))
    assert words == {"M5:h=…: a snake blocks a card of the opponent's hand unseen, drawn by "
                     "chance, never chosen: play M5:h"}
    with pytest.raises(IllegalMoveError, match="^player 0 holds no such available card "
                                               r"\(available: G3 D2 D3 M1 M2 M5 P3 P4 E8 E10\)$"):
        AWIMBAWE.parse_move(state, "G5")       # the opponent's card: not named back
    with pytest.raises(IllegalMoveError, match="^not a move: a card is its suit G, D, M or P"):
        AWIMBAWE.parse_move(state, "G4:h=G5")


def test_a_record_still_writes_the_blind_pick():
    state = next(positions(seeds=[3]))
    assert "M5:h=G5" in [m.text for m in state.record_moves()]
    assert state.apply_recorded("M5:h=G5").blocked[1] == BIT[NAMES.index("G5")]
    with pytest.raises(IllegalMoveError):
        state.apply("M5:h=G5")                 # a player's move never chooses it


def narration_of_matches(seeds, seat_of):
    for seed in seeds:
        rng = random.Random(seed)
        state = AWIMBAWE.new_state(None, None)
        seat = seat_of(seed)
        names = ["player 0", "player 1"] if seat is None else \
            (["you", "the opponent"] if seat == 0 else ["the opponent", "you"])
        while not state.is_terminal():
            move = sample_chance(state, rng) if state.current_player() == CHANCE else \
                rng.choice(state.legal_moves())
            before, state = state, state.apply(move)
            yield seat, before, state, move, narrate(before, state, seat, names)


def known_to(seat, before, after) -> int:
    """Cards ``seat`` (None: a spectator, who knows what both players know) has seen by
    ``after``, in the round ``before`` was in."""
    if seat is None:
        return known_to(0, before, after) & known_to(1, before, after)
    k = before.round_index
    seen = seen_cards(before, seat) | (seen_cards(after, seat) if after.round_index == k else 0)
    for event in round_events_seen(after, seat, k):
        if event[0] == "r":
            seen |= BIT[event[1]]
        elif event[0] == "m" and not event[2].startswith("start"):
            move = parse_move(event[2])
            seen |= BIT[move.card] | (BIT[move.a] if move.kind == SNAKE_HAND and move.a >= 0
                                      else 0)
    return seen


def test_narration_names_only_cards_its_reader_saw():
    told = 0
    for seat, before, after, move, lines in narration_of_matches(
            range(40), lambda seed: [0, 1, None][seed % 3]):
        known = known_to(seat, before, after)
        hidden = {NAMES[c] for c in CARDS if not known & BIT[c]}
        for line in lines:
            assert not names_in(line) & hidden, (seat, move, line)
        told += len(lines)
    assert told > 2_000


def test_narration_reads_only_the_readers_information():
    """A player's own move, from any state they cannot tell apart, to any state they cannot
    tell apart, is told alike (the hidden cards differ between the two pairs)."""
    compared = 0
    for seat, before, after, move, lines in narration_of_matches(range(12), lambda s: s % 2):
        if before.current_player() != seat or compared > 400:
            continue
        other = before.determinize(seat, random.Random(compared))
        assert other.information_state(seat) == before.information_state(seat)
        other_after = other.apply(move)
        if other_after.information_state(seat) != after.information_state(seat):
            continue              # the move revealed a card, which differs between the two
        names = ["you", "the opponent"] if seat == 0 else ["the opponent", "you"]
        assert narrate(other, other_after, seat, names) == lines
        compared += 1
    assert compared > 100


def test_narration_of_a_trick_hand_checked():
    # seed 3: the person (seat 0) leads a blind snake, the opponent follows M6 and wins; a pile
    # card turns face up; the opponent's next play blocks a visible pile top
    script = [line for _, _, _, _, lines in narration_of_matches([3], lambda s: 0)
              for line in lines][:6]
    assert script[0] == "you lead the first trick (fewer crowns on the face-up pile cards)"
    assert all(names_in(line) <= {"M5", "M6", "G1", "M3", "M2", "G4", "P1", "G2", "E7", "P3",
                                  "P6"} for line in script)


def run(*args, input=None):
    return CliRunner().invoke(main, ["awimbawe", *map(str, args)], input=input)


def test_the_terminal_refuses_a_chosen_pick_alike_and_tells_the_trick():
    typed = "".join(f"M5:h={c}\n" for c in ("G5", "G4", "E9")) + "99\nM5:h\nquit\n"
    result = run("play", "--second", "greedy", "--seed", 3, input=typed)
    assert result.exit_code == 0
    out = result.output
    refusal = ("illegal: M5:h=…: a snake blocks a card of the opponent's hand unseen, drawn "
               "by chance, never chosen: play M5:h")
    assert out.count(refusal) == 3
    assert "choose 1–53" in out
    # the opponent's hand (G5 G6 D4 D6 P5 E9) is named only once played: not before M5:h
    before_play = out[:out.index("you play M5")]
    assert not names_in(before_play) & {"G5", "G6", "D4", "D6", "E9"} - {"P5"}
    assert "you play M5 (snake: blocks a card of the opponent's hand, drawn blind)" in out
    assert "the opponent wins the trick with M6 (M6 beats M5)" in out
    assert "G1 turns face up on the opponent's pile 3" in out


def test_the_terminal_explains_the_choice_of_the_next_leader():
    # seed 1: the person plays the first legal move every time and loses round 1, 8–37
    result = run("play", "--second", "greedy", "--seed", 1, input="1\n" * 40 + "quit\n")
    out = result.output
    assert "round 1 over: the opponent wins" in out
    assert "you lost round 1, so you choose who leads round 2: start:me (you lead) or " \
           "start:you (the opponent leads)" in out
    assert "you choose: you lead round 2" in out
