"""A deliberately simple second implementation of the Kiwara rules, for checking the engine.

Written from the rules reference alone, sharing no code with ``kiwara_designer.engine``: cells are
(column, row) pairs, the board is a dict, every candidate move is simulated on a copy and then
written in notation. It is slow and obvious on purpose; perft from both must agree exactly.
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
}


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
        return {"board": {}, "reserves": (dict(self.rules["tokens"]), dict(self.rules["tokens"])),
                "totem": None, "player": 0, "okapi": None, "serial": 0}

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

    def finish_turn(self, state, text, board, reserves):
        player = state["player"]
        okapi = state["okapi"]
        if okapi is None:
            for cells in self.territory_cells.values():
                if all(c in board for c in cells):
                    okapi = player
        after = {"board": board, "reserves": reserves, "totem": state["totem"],
                 "player": 1 - player, "okapi": okapi, "serial": state["serial"] + 1}
        if self.is_over(after):
            return [(text, after)]
        n = self.number_of_positions()

        def has_room(position):
            return any(c not in board for c in self.lines[position])

        targets = []
        for step in self.rules["steps"]:
            p = (state["totem"] + step) % n
            if has_room(p) and p not in targets:
                targets.append(p)
        if not targets:
            step = max(self.rules["steps"]) + 1
            while not has_room((state["totem"] + step) % n):
                step += 1
            targets.append((state["totem"] + step) % n)
        return [(f"{text}>{p}", dict(after, totem=p)) for p in targets]

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
        if state["okapi"] is not None:
            totals[state["okapi"]] += self.rules["okapi"]
        return tuple(totals)
