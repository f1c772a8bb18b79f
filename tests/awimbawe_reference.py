"""A deliberately simple second implementation of Awimbawé round play, for checking the engine.

Written from the rules reference (/work/shared/rules/awimbawe.md, mirrored in docs/rules/awimbawe.md)
alone, sharing no code with ``kiwara_designer``: a round is a plain dict, every candidate move is
applied to a deep copy and written in the page's notation. Slow and obvious on purpose; perft from
both must agree exactly.

Interface::

    legal_moves(deck, leader, variant, moves) -> list[str]   # [] once the round is over
    perft(deck, leader, variant, moves, depth) -> int
    round_result(deck, leader, variant, moves) -> dict       # winner, crowns, hyenas, tricks

``deck`` is the 28 cards in deal order (a list, or one space-separated string); ``variant`` a dict of
the page's TOML keys overriding the defaults (``crowns``/``eagle_crowns`` may give only some entries);
``moves`` the moves of round 1 in notation. An illegal move raises ValueError.

Readings chosen where the page leaves room (each one a place to look first if the engine disagrees):

 1. Round 1's leader: with ``round1_leader = "fewer_crowns"`` the player whose face-up pile cards
    carry fewer crowns leads and ``leader`` only settles a tie; a ``leader`` that contradicts the
    crowns is a bad record (ValueError). ``leader=None`` is accepted when the crowns decide. With
    ``"random"`` ``leader`` is taken as given.
 2. Blocks are on cards (identity): a blocked card moved by a rhinoceros stays blocked; blocks are
    lifted when their owner plays, before the power of the card they play.
 3. "No card they may play next" (rhinoceros, snake): the opponent's cards for their next play are,
    if they still have to play in this trick, their hand and face-up pile tops; if they already
    played, their hand and every pile top (all tops are turned up at the end of the trick); minus
    their blocked cards. The set must not be empty.
 4. The blind snake: each outcome ``M5:h=X`` is a move of its own and is checked like any target,
    so the draw is among the hand cards it is legal to block (with 2. and 3. that only excludes a
    card that is the opponent's last unblocked one). ``M5:h`` without outcome is not accepted.
 5. ``snake_hidden_tops = true``: any face-down pile top may be named (at the start of a trick all
    tops are face up, so a face-down top has always been uncovered during this trick).
 6. Cheetah "a next trick will exist": decided by the cards left after this trick (both players
    still hold a card), not by a coming fourth hyena -- as in the Game Park adaptation. With two
    cheetahs in a trick the second's choice wins; a bare second cheetah leaves the first's choice
    (``bare_second_cheetah_keeps_choice = true``; false: it takes the choice back, the trick's
    winner leads).
 7. ``eagle_may_flee = false``: the follower's eagle on a land card is written ``E9:fight`` only.
 8. ``blocked_cards_follow = true``: the obligation (suit, else eagle, else anything) is decided
    counting blocked cards; the player then plays an unblocked card meeting it, or any unblocked
    card (a discard) when the only such cards are blocked. An eagle played on a land lead always
    flees or fights.
 9. A discarded card (neither led suit nor eagle) still uses its power (powers act "win or lose");
    only the mouse's is void off-suit.
10. ``piles``/``hand_size`` other than 4/6: the first 4*piles + 2*hand_size cards are dealt in the
    page's order (bottoms p0, bottoms p1, tops p0, tops p1, hand p0, hand p1), the rest set aside.
    With such variants or other crown tables a crown tie is possible: ``crown_tie`` (the page's
    variant parameter) gives the round to the last trick's winner (``"last_trick"``), or to the
    player holding fewer hyenas and on equal hyenas to the last trick's winner (``"fewer_hyenas"``).
11. The immediate reveal after a rhinoceros (all pile cards in one pile with a face-down top) is
    applied whoever played the rhinoceros.
"""
from __future__ import annotations

import copy

ANIMALS = ("mouse", "rhinoceros", "cheetah", "hyena", "snake", "elephant")   # values 1..6
LAND_SUITS = "GDMP"
ALL_CARDS = [s + str(v) for s in LAND_SUITS for v in range(1, 7)] + ["E7", "E8", "E9", "E10"]

DEFAULTS = {
    "crowns": {"mouse": 3, "rhinoceros": 2, "cheetah": 2, "hyena": 3, "snake": 1, "elephant": 1},
    "eagle_crowns": {7: 0, 8: 0, 9: -1, 10: -2},
    "hyenas_to_lose": 4,
    "rounds_to_win": 2,
    "piles": 4,
    "hand_size": 6,
    "eagle_may_flee": True,
    "mouse_beats_elephant": True,
    "rhinoceros_power": True,
    "cheetah_power": True,
    "snake_power": True,
    "cheetah_may_pass": True,
    "bare_second_cheetah_keeps_choice": True,
    "snake_hidden_tops": False,
    "blocked_cards_follow": False,
    "round1_leader": "fewer_crowns",
    "crown_tie": "last_trick",
}


def suit(card):
    return card[0]


def value(card):
    return int(card[1:])


def is_eagle(card):
    return card[0] == "E"


# -- variant and deal -----------------------------------------------------------------------------
def make_rules(variant):
    rules = copy.deepcopy(DEFAULTS)
    for key, given in (variant or {}).items():
        if key not in DEFAULTS:
            raise ValueError(f"unknown variant parameter {key!r}")
        if key == "crowns":
            for animal, crowns in given.items():
                if animal not in ANIMALS:
                    raise ValueError(f"unknown animal {animal!r} in crowns")
                rules["crowns"][animal] = crowns
        elif key == "eagle_crowns":
            for eagle, crowns in given.items():
                rules["eagle_crowns"][int(str(eagle).lstrip("E"))] = crowns
        else:
            rules[key] = given
    if rules["round1_leader"] not in ("fewer_crowns", "random"):
        raise ValueError(f"round1_leader must be fewer_crowns or random, not {rules['round1_leader']!r}")
    if rules["crown_tie"] not in ("last_trick", "fewer_hyenas"):
        raise ValueError(f"crown_tie must be last_trick or fewer_hyenas, not {rules['crown_tie']!r}")
    return rules


def crowns_of(card, rules):
    if is_eagle(card):
        return rules["eagle_crowns"][value(card)]
    return rules["crowns"][ANIMALS[value(card) - 1]]


def deal(deck, leader, rules):
    if isinstance(deck, str):
        deck = deck.split()
    deck = list(deck)
    for card in deck:
        if card not in ALL_CARDS:
            raise ValueError(f"unknown card {card!r}")
    if len(set(deck)) != len(deck):
        raise ValueError("a card appears twice in the deck")
    n, h = rules["piles"], rules["hand_size"]
    if len(deck) < 4 * n + 2 * h:
        raise ValueError(f"the deck has {len(deck)} cards, the deal needs {4 * n + 2 * h}")
    bottoms = (deck[0:n], deck[n:2 * n])
    tops = (deck[2 * n:3 * n], deck[3 * n:4 * n])
    hands = (deck[4 * n:4 * n + h], deck[4 * n + h:4 * n + 2 * h])
    piles = [[[[bottoms[p][i], False], [tops[p][i], True]] for i in range(n)] for p in (0, 1)]
    if rules["round1_leader"] == "fewer_crowns":
        top_crowns = [sum(crowns_of(c, rules) for c in tops[p]) for p in (0, 1)]
        if top_crowns[0] != top_crowns[1]:
            decided = 0 if top_crowns[0] < top_crowns[1] else 1
            if leader is not None and leader != decided:
                raise ValueError(f"player {decided} has fewer crowns on face-up pile cards "
                                 f"({top_crowns}) and leads, not player {leader}")
            leader = decided
    if leader not in (0, 1):
        raise ValueError("the leader must be 0 or 1 (a tie of face-up crowns, or round1_leader = random)")
    return {
        "piles": piles,                       # piles[p][i] = [[card, face_up], ...] bottom first
        "hands": [sorted(hands[0]), sorted(hands[1])],
        "blocked": [set(), set()],
        "scored": [[], []],
        "trick": [],                          # [(player, card, power text or "")]
        "leader": leader,
        "to_play": leader,
        "cheetah_choice": None,               # who leads next, if a cheetah decided
        "tricks": 0,
        "over": False,
        "ended_by_hyenas": False,
        "loser_by_hyenas": None,
    }


def clone(state):
    """A copy deep enough that changing it leaves `state` alone (the rules are shared)."""
    new = dict(state)
    new["piles"] = [[[list(entry) for entry in pile] for pile in piles] for piles in state["piles"]]
    new["hands"] = [list(h) for h in state["hands"]]
    new["blocked"] = [set(b) for b in state["blocked"]]
    new["scored"] = [list(s) for s in state["scored"]]
    new["trick"] = list(state["trick"])
    return new


# -- what a player holds ----------------------------------------------------------------------------
def pile_count(state, p):
    return sum(len(pile) for pile in state["piles"][p])


def card_count(state, p):
    return len(state["hands"][p]) + pile_count(state, p)


def available(state, p):
    """Hand plus face-up pile tops."""
    cards = list(state["hands"][p])
    cards += [pile[-1][0] for pile in state["piles"][p] if pile and pile[-1][1]]
    return cards


def has_played_this_trick(state, p):
    return any(player == p for player, _, _ in state["trick"])


def next_play_cards(state, q):
    """Cards q could play at their next play (reading 3)."""
    if has_played_this_trick(state, q):
        cards = list(state["hands"][q]) + [pile[-1][0] for pile in state["piles"][q] if pile]
    else:
        cards = available(state, q)
    return [c for c in cards if c not in state["blocked"][q]]


def playable_cards(state, p):
    """The cards p may put on the table now (follow suit, else eagle, else anything)."""
    cards = available(state, p)
    free = [c for c in cards if c not in state["blocked"][p]]
    if not state["trick"]:
        return free
    led = state["trick"][0][1]
    basis = cards if state["rules"]["blocked_cards_follow"] else free
    if any(suit(c) == suit(led) for c in basis):
        must = [c for c in free if suit(c) == suit(led)]
    elif any(is_eagle(c) for c in basis):
        must = [c for c in free if is_eagle(c)]
    else:
        must = free
    return must or free


def take_card(state, p, card):
    if card in state["hands"][p]:
        state["hands"][p].remove(card)
        return
    for pile in state["piles"][p]:
        if pile and pile[-1][0] == card:
            pile.pop()
            return
    raise AssertionError(card)


# -- powers -------------------------------------------------------------------------------------------
def rhinoceros_slide(state, q, source, target):
    """Slide the top of q's pile `source` (1-based) under q's pile position `target`."""
    piles = state["piles"][q]
    entry = piles[source - 1].pop()
    piles[target - 1].insert(0, entry)
    nonempty = [pile for pile in piles if pile]
    if len(nonempty) == 1 and not nonempty[0][-1][1]:
        nonempty[0][-1][1] = True


def card_options(state, p, card):
    """Every move string for p playing `card` (already known to be playable)."""
    rules = state["rules"]
    q = 1 - p
    after = clone(state)
    take_card(after, p, card)
    after["blocked"][p] = set()
    v = value(card)
    leading = not state["trick"]

    if is_eagle(card):
        if not leading and not is_eagle(state["trick"][0][1]):
            return [card + ":fight"] + ([card + ":flee"] if rules["eagle_may_flee"] else [])
        return [card]

    options = []
    if v == 2 and rules["rhinoceros_power"] and pile_count(after, q) >= 2:
        n = rules["piles"]
        for source in range(1, n + 1):
            if not after["piles"][q][source - 1]:
                continue
            for target in range(1, n + 1):
                if target == source and len(after["piles"][q][source - 1]) < 2:
                    continue
                trial = clone(after)
                rhinoceros_slide(trial, q, source, target)
                if next_play_cards(trial, q):
                    options.append(f"{card}:{source}>{target}")
    if v == 3 and rules["cheetah_power"]:
        mine_after = card_count(after, p)
        theirs_after = card_count(after, q) - (0 if has_played_this_trick(after, q) else 1)
        if mine_after >= 1 and theirs_after >= 1:
            options += [card + ":me", card + ":you"]
            if not rules["cheetah_may_pass"]:
                return options
    if v == 5 and rules["snake_power"] and snake_offered(after, q):
        targets = []
        for i, pile in enumerate(after["piles"][q]):
            if pile and (pile[-1][1] or rules["snake_hidden_tops"]):
                targets.append((f"p{i + 1}", pile[-1][0]))
        targets += [(f"h={c}", c) for c in after["hands"][q]]
        for text, target in targets:
            trial = clone(after)
            trial["blocked"][q].add(target)
            if next_play_cards(trial, q):
                options.append(f"{card}:{text}")
    return [card] + options


def snake_offered(state, q):
    """At least two cards (hand and piles), not all in one pile."""
    if card_count(state, q) < 2:
        return False
    if state["hands"][q]:
        return True
    return sum(1 for pile in state["piles"][q] if pile) >= 2


# -- playing ---------------------------------------------------------------------------------------------
def legal_in(state):
    if state["over"]:
        return []
    p = state["to_play"]
    moves = []
    for card in sorted(playable_cards(state, p), key=ALL_CARDS.index):
        moves += card_options(state, p, card)
    return moves


def apply(state, move):
    """Apply a move already checked legal; returns the new state."""
    state = clone(state)
    rules = state["rules"]
    p = state["to_play"]
    q = 1 - p
    card, _, power = move.partition(":")
    take_card(state, p, card)
    state["blocked"][p] = set()
    if not is_eagle(card) and value(card) == 3 and not power \
            and not rules["bare_second_cheetah_keeps_choice"]:
        state["cheetah_choice"] = None     # reading 6: a bare second cheetah decides "no choice"
    if power:
        v = value(card)
        if is_eagle(card):
            pass   # flee or fight, read when the trick is decided
        elif v == 2:
            source, target = power.split(">")
            rhinoceros_slide(state, q, int(source), int(target))
        elif v == 3:
            state["cheetah_choice"] = p if power == "me" else q
        elif v == 5:
            if power.startswith("p"):
                state["blocked"][q].add(state["piles"][q][int(power[1:]) - 1][-1][0])
            else:
                state["blocked"][q].add(power[2:])
    state["trick"].append((p, card, power))
    if len(state["trick"]) == 1:
        state["to_play"] = q
        return state

    (leader, led, _), (follower, answer, answer_power) = state["trick"]
    if suit(answer) == suit(led):
        mouse_elephant = (not is_eagle(led) and rules["mouse_beats_elephant"]
                          and {value(led), value(answer)} == {1, 6})
        if mouse_elephant:
            winner = leader if value(led) == 1 else follower
        else:
            winner = leader if value(led) > value(answer) else follower
        state["scored"][winner] += [led, answer]
    elif is_eagle(answer):
        if answer_power == "flee":
            winner = leader
            state["scored"][leader].append(led)
            state["scored"][follower].append(answer)
        else:
            winner = follower
            state["scored"][follower] += [led, answer]
    else:
        winner = leader
        state["scored"][leader] += [led, answer]

    for player in (0, 1):   # every uncovered pile card turns face up
        for pile in state["piles"][player]:
            if pile:
                pile[-1][1] = True
    state["tricks"] += 1
    state["last_trick_winner"] = winner
    next_leader = winner if state["cheetah_choice"] is None else state["cheetah_choice"]
    state["trick"] = []
    state["cheetah_choice"] = None
    state["leader"] = state["to_play"] = next_leader

    for player in (0, 1):
        hyenas = sum(1 for c in state["scored"][player] if not is_eagle(c) and value(c) == 4)
        if hyenas >= rules["hyenas_to_lose"]:
            state["over"] = True
            state["ended_by_hyenas"] = True
            state["loser_by_hyenas"] = player
    if card_count(state, 0) == 0 and card_count(state, 1) == 0:
        state["over"] = True
    return state


def replay(deck, leader, variant, moves):
    rules = make_rules(variant)
    state = deal(deck, leader, rules)
    state["rules"] = rules
    for index, move in enumerate(moves):
        legal = legal_in(state)
        if move not in legal:
            if state["over"]:
                raise ValueError(f"move {index + 1} {move!r}: the round is over")
            raise ValueError(f"move {index + 1} {move!r} is not legal; legal: {' '.join(legal)}")
        state = apply(state, move)
    return state


# -- the interface ------------------------------------------------------------------------------------
def legal_moves(deck, leader, variant, moves):
    return legal_in(replay(deck, leader, variant, moves))


def perft(deck, leader, variant, moves, depth):
    def count(state, depth):
        if depth == 0:
            return 1
        return sum(count(apply(state, m), depth - 1) for m in legal_in(state))
    return count(replay(deck, leader, variant, moves), depth)


def round_result(deck, leader, variant, moves):
    state = replay(deck, leader, variant, moves)
    if not state["over"]:
        raise ValueError("the round is not over")
    rules = state["rules"]
    crowns = [sum(crowns_of(c, rules) for c in state["scored"][p]) for p in (0, 1)]
    if state["ended_by_hyenas"]:
        winner = 1 - state["loser_by_hyenas"]
    elif crowns[0] == crowns[1]:
        hyenas = [sum(1 for c in state["scored"][p] if not is_eagle(c) and value(c) == 4)
                  for p in (0, 1)]
        if rules["crown_tie"] == "fewer_hyenas" and hyenas[0] != hyenas[1]:
            winner = 0 if hyenas[0] < hyenas[1] else 1
        else:
            winner = state["last_trick_winner"]
    else:
        winner = 0 if crowns[0] > crowns[1] else 1
    return {"winner": winner, "crowns": crowns, "hyenas": state["ended_by_hyenas"],
            "tricks": state["tricks"]}
