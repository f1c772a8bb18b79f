"""A deliberately simple second implementation of the Kiwara rules, for checking the engine.

Written from the rules reference alone (docs/rules/kiwara.md), sharing no code with
``kiwara_designer.games.kiwara``: cells are (column, row) pairs, the board is a dict, every candidate move is
simulated on a copy and then written in notation. It is slow and obvious on purpose; perft from both
must agree exactly.

``Reference(rows, **rules)``; the rules (defaults in DEFAULT_RULES) are:

- ``tokens``, ``points`` per animal letter (Z G E L C); ``steps`` the totem steps (1, 2, 3);
  ``crocodile_swaps`` 0, 1 or "chain"; ``gazelles_flee``, ``zebras_flip``, ``face_down_next_to_lion``,
  ``second_player_places_first``; ``okapi`` (points of the Okapi when there is no deck);
- ``totem_direction``: "clockwise" (p to p + k) or "anticlockwise" (p to p - k, the forced jump
  searching the same way; stone numbers unchanged);
- ``reinforcement``: "okapi" (default) or "deck";
- ``deck``: the deck in its fixed order, **top first** (the reference never shuffles): a list whose
  items are a card name of the built-in ``sample`` deck (``"drums"``), a dict ``{"name", "effect",
  "value"}`` or a tuple ``(name, effect, value)``; or ``"sample"``, the ten sample cards in the order
  the rules page lists them (SAMPLE_DECK);
- ``handicap``: ``(cards for player 0, cards for player 1)``, dealt from the top, player 0's first.

Moves are written as the engine writes them: ``T7``, ``Zc3>12``, ``Cb2xc2xd3>4``, ``Gf5``, ``pass``,
and card uses ``+stampede`` (again), ``+drums:14`` (totem), ``+sunrise:c3`` (rise), ``+hunter:c3``
(scare), ``+jackal:c3`` (chase), ``+ford:c3-d3`` (swap, own cell first). A card use is a move of its
own at the start of a placement turn; the same player then plays the placement move. perft counts
both. A state holds ``deck`` (remaining card tuples, top first), ``held`` (per player), ``card_used``
(a card was used in this turn) and ``extra`` (an ``again`` turn follows this one).
"""
from __future__ import annotations

LETTERS = "abcdefghijklmnopqrstuvwxyz"
ANIMALS = "ZGELC"   # zebra, gazelle, elephant, lion, crocodile

DEFAULT_RULES = {
    "tokens": {"Z": 5, "G": 6, "E": 1, "L": 1, "C": 2},
    "points": {"Z": 6, "G": 2, "E": 5, "L": 1, "C": 0},
    "steps": (1, 2, 3),
    "crocodile_swaps": "chain",      # 0, 1 or "chain"
    "gazelles_flee": True,
    "zebras_flip": True,
    "face_down_next_to_lion": True,
    "second_player_places_first": True,
    "okapi": 5,
    "totem_direction": "clockwise",
    "reinforcement": "okapi",
    "deck": "sample",
    "handicap": (0, 0),
}

# (name, effect, value): the rules page's built-in deck, in the order it lists the cards
SAMPLE_DECK = [("okapi", "points", 5), ("waterhole", "points", 3), ("drums", "totem", None),
               ("storm", "totem", None), ("stampede", "again", None), ("migration", "again", None),
               ("sunrise", "rise", None), ("hunter", "scare", None), ("jackal", "chase", None),
               ("ford", "swap", None)]
EFFECTS = ("points", "totem", "again", "rise", "scare", "chase", "swap")


def as_card(item):
    """A deck item as a (name, effect, value) tuple."""
    if isinstance(item, str):
        return next(card for card in SAMPLE_DECK if card[0] == item)
    if isinstance(item, dict):
        item = (item["name"], item["effect"], item.get("value"))
    name, effect, value = item
    if effect not in EFFECTS:
        raise ValueError(f"unknown card effect {effect!r}")
    if effect == "points" and not isinstance(value, int):
        raise ValueError(f"card {name!r}: a points card needs a value")
    return (name, effect, value)


class Reference:
    def __init__(self, rows, **rules):
        self.rows = [r.replace(" ", "") for r in rows]
        self.height = len(self.rows)
        self.width = len(self.rows[0])
        self.territory = {(x, y): self.rows[y][x]
                          for y in range(self.height) for x in range(self.width)}
        self.rules = dict(DEFAULT_RULES)
        self.rules.update(rules)
        self.territory_cells = {}
        for cell, t in self.territory.items():
            self.territory_cells.setdefault(t, []).append(cell)
        self.lines = [self.line(p) for p in range(self.number_of_positions())]
        self.direction = {"clockwise": 1, "anticlockwise": -1}[self.rules["totem_direction"]]
        self.with_deck = self.rules["reinforcement"] == "deck"
        if not self.with_deck and any(self.rules["handicap"]):
            raise ValueError("a handicap needs reinforcement = deck")
        deck = self.rules["deck"]
        if not self.with_deck:
            deck = []
        self.deck = [as_card(c) for c in (SAMPLE_DECK if deck == "sample" else deck)]
        if sum(self.rules["handicap"]) > len(self.deck):
            raise ValueError("the handicap deals more cards than the deck holds")

    # -- board geometry, straight from the rules text ---------------------------------------
    def name(self, cell):
        return LETTERS[cell[0]] + str(cell[1] + 1)

    def neighbours(self, cell):
        x, y = cell
        around = [(x, y - 1), (x - 1, y), (x + 1, y), (x, y + 1)]
        return [c for c in around if c in self.territory]

    def number_of_positions(self):
        return 2 * self.width + 2 * self.height

    def line(self, position):
        """Above columns a.., right of rows 1.., below columns from the right, left of rows from
        the bottom: clockwise from the top-left."""
        w, h = self.width, self.height
        if position < w:
            return [(position, y) for y in range(h)]
        position -= w
        if position < h:
            return [(x, position) for x in range(w)]
        position -= h
        if position < w:
            return [(w - 1 - position, y) for y in range(h)]
        position -= w
        return [(x, h - 1 - position) for x in range(w)]

    # -- game --------------------------------------------------------------------------------
    def start(self):
        first, second = self.rules["handicap"]
        deck = tuple(self.deck)
        held = (deck[:first], deck[first:first + second])
        return {"board": {}, "reserves": (dict(self.rules["tokens"]), dict(self.rules["tokens"])),
                "totem": None, "player": 0, "okapi": None, "serial": 0,
                "deck": deck[first + second:], "held": held, "card_used": False, "extra": False}

    def is_over(self, state):
        if state["totem"] is None:
            return sum(state["reserves"][0].values()) == 0
        full = len(state["board"]) == len(self.territory)
        both_empty = all(sum(r.values()) == 0 for r in state["reserves"])
        return full or both_empty

    def next_to_a_lion(self, board, cell):
        return any(board.get(n, {}).get("animal") == "L" for n in self.neighbours(cell))

    def moves(self, state):
        """Every legal move as (notation, state after it)."""
        if self.is_over(state):
            return []
        player = state["player"]
        if state["totem"] is None:
            first = 1 if self.rules["second_player_places_first"] else 0
            return [(f"T{p}", dict(state, totem=p, player=first))
                    for p in range(self.number_of_positions())]
        reserve = state["reserves"][player]
        if sum(reserve.values()) == 0:
            return [("pass", dict(state, player=1 - player))]
        result = {}
        if not state["card_used"]:
            for card in state["held"][player]:
                for text, after in self.card_uses(state, card):
                    result.setdefault(text, after)
        for cell in self.lines[state["totem"]]:
            if cell in state["board"]:
                continue
            for animal in ANIMALS:
                if reserve[animal] == 0:
                    continue
                for text, board, reserves in self.placements(state, cell, animal):
                    for move_text, after in self.finish_turn(state, text, board, reserves):
                        assert move_text not in result, move_text
                        result[move_text] = after
        return list(result.items())

    def placements(self, state, cell, animal):
        """Put the animal on the cell and resolve its effects; the crocodile may swap."""
        player = state["player"]
        board = dict(state["board"])
        reserves = (dict(state["reserves"][0]), dict(state["reserves"][1]))
        reserves[player][animal] -= 1
        face_up = True
        if animal in "ZG" and self.rules["face_down_next_to_lion"] and self.next_to_a_lion(board, cell):
            face_up = False
        board[cell] = {"owner": player, "animal": animal, "up": face_up, "id": state["serial"]}
        text = animal + self.name(cell)
        if animal == "L":
            for n in self.neighbours(cell):
                token = board.get(n)
                if token is None:
                    continue
                if token["animal"] == "G" and self.rules["gazelles_flee"]:
                    del board[n]
                    reserves[token["owner"]]["G"] += 1
                elif token["animal"] == "Z" and self.rules["zebras_flip"]:
                    board[n] = dict(token, up=False)
        results = [(text, board, reserves)]
        if animal == "C":
            self.crocodile_swaps(cell, board, reserves, text, [], results)
        return results

    def crocodile_swaps(self, cell, board, reserves, text, swapped_ids, results):
        limit = {0: 0, 1: 1, "chain": 10 ** 9}[self.rules["crocodile_swaps"]]
        if len(swapped_ids) >= limit:
            return
        for n in self.neighbours(cell):
            token = board.get(n)
            if token is None or token["animal"] != "G" or token["id"] in swapped_ids:
                continue
            if self.territory[n] == self.territory[cell]:
                continue   # the gazelle must be across a river
            new_board = dict(board)
            gazelle = dict(token)
            new_board[n] = board[cell]
            if self.next_to_a_lion(new_board, cell):
                gazelle["up"] = False
            new_board[cell] = gazelle
            new_text = text + "x" + self.name(n)
            results.append((new_text, new_board, reserves))
            self.crocodile_swaps(n, new_board, reserves, new_text, swapped_ids + [token["id"]],
                                 results)

    def okapi_moment(self, state, board):
        """After a placement or a card, with its effects: the first full territory gives the player
        the Okapi, or in a deck game the deck's top card (none left: nothing). Returns the changes."""
        if state["okapi"] is not None:
            return {}
        if not any(all(c in board for c in cells) for cells in self.territory_cells.values()):
            return {}
        player = state["player"]
        changes = {"okapi": player}
        if state["deck"]:
            held = list(state["held"])
            held[player] = held[player] + (state["deck"][0],)
            changes.update(deck=state["deck"][1:], held=tuple(held))
        return changes

    def finish_turn(self, state, text, board, reserves):
        player = state["player"]
        after = dict(state, board=board, reserves=reserves, serial=state["serial"] + 1,
                     player=player if state["extra"] else 1 - player,
                     card_used=False, extra=False)
        after.update(self.okapi_moment(state, board))
        if self.is_over(after):
            return [(text, after)]
        n = self.number_of_positions()

        def has_room(position):
            return any(c not in board for c in self.lines[position])

        def stone(step):
            return (state["totem"] + self.direction * step) % n

        targets = []
        for step in self.rules["steps"]:
            if has_room(stone(step)) and stone(step) not in targets:
                targets.append(stone(step))
        if not targets:
            step = max(self.rules["steps"]) + 1
            while not has_room(stone(step)):
                step += 1
            targets.append(stone(step))
        return [(f"{text}>{p}", dict(after, totem=p)) for p in targets]

    # -- reinforcement cards ---------------------------------------------------------------------
    def card_uses(self, state, card):
        """Every use of a held card at the start of a placement turn, as (notation, state after)."""
        name, effect, _ = card
        player = state["player"]
        board = state["board"]
        held = list(state["held"])
        i = held[player].index(card)
        held[player] = held[player][:i] + held[player][i + 1:]
        base = dict(state, held=tuple(held), card_used=True)
        uses = []   # (text, changes)
        if effect == "totem":
            for p in range(self.number_of_positions()):
                if p != state["totem"] and any(c not in board for c in self.lines[p]):
                    uses.append((f"+{name}:{p}", {"totem": p}))
        elif effect == "again":
            uses.append((f"+{name}", {"extra": True}))
        elif effect in ("rise", "scare", "chase"):
            for cell, token in sorted(board.items()):
                if effect == "rise":
                    wanted = token["owner"] == player and not token["up"]
                elif effect == "scare":
                    wanted = token["owner"] != player and token["animal"] == "Z" and token["up"]
                else:
                    wanted = token["owner"] != player and token["animal"] == "G"
                if not wanted:
                    continue
                new_board = dict(board)
                reserves = state["reserves"]
                if effect == "chase":
                    del new_board[cell]
                    reserves = (dict(reserves[0]), dict(reserves[1]))
                    reserves[token["owner"]]["G"] += 1
                else:
                    new_board[cell] = dict(token, up=effect == "rise")
                uses.append((f"+{name}:{self.name(cell)}", {"board": new_board, "reserves": reserves}))
        elif effect == "swap":
            for own, token in sorted(board.items()):
                if token["owner"] != player:
                    continue
                for theirs in self.neighbours(own):
                    other = board.get(theirs)
                    if other is None or other["owner"] == player:
                        continue
                    if self.territory[own] == self.territory[theirs]:
                        continue
                    new_board = dict(board)
                    new_board[own], new_board[theirs] = dict(other), dict(token)
                    for cell in (own, theirs):   # only the moved zebra or gazelle can turn down
                        if new_board[cell]["animal"] in "ZG" and self.next_to_a_lion(new_board, cell):
                            new_board[cell]["up"] = False
                    uses.append((f"+{name}:{self.name(own)}-{self.name(theirs)}", {"board": new_board}))
        result = []
        for text, changes in uses:
            after = dict(base, **changes)
            after.update(self.okapi_moment(after, after["board"]))
            result.append((text, after))
        return result

    # -- checks --------------------------------------------------------------------------------
    def play(self, state, text):
        return dict(self.moves(state))[text]

    def perft(self, state, depth):
        if depth == 0:
            return 1
        return sum(self.perft(after, depth - 1) for _, after in self.moves(state))

    def score(self, state):
        totals = [0, 0]
        for t in set(self.territory.values()):
            cells = [c for c, tt in self.territory.items() if tt == t]
            count = [0, 0]
            points = 0
            for c in cells:
                token = state["board"].get(c)
                if token:
                    count[token["owner"]] += 1
                    if token["up"]:
                        points += self.rules["points"][token["animal"]]
            if count[0] > count[1]:
                totals[0] += points
            elif count[1] > count[0]:
                totals[1] += points
        if self.with_deck:
            for player in (0, 1):
                totals[player] += sum(value for _, effect, value in state["held"][player]
                                      if effect == "points")
        elif state["okapi"] is not None:
            totals[state["okapi"]] += self.rules["okapi"]
        return tuple(totals)
