"""Game state, legal moves and their effects.

A :class:`GameState` is immutable: :meth:`GameState.apply` returns a new state. For speed the
board is a tuple of small integers (0 empty, else kind + 1, owner bit 8, face-down bit 16) and
everything that depends only on the board size (lines, totem targets, the Move objects themselves)
is computed once in :class:`_BoardTables`, and what depends on the layout and the variant
(neighbours across rivers, territories, effects switched on) once in :class:`_Tables`.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..errors import KiwaraError
from ..geometry import Grid
from ..layout import Layout
from .moves import PASS, IllegalMoveError, Move
from .scoring import Scoring, score_board
from .variant import KIND_NAMES, KINDS, RuleVariant

ZEBRA, GAZELLE, ELEPHANT, LION, CROCODILE = range(5)
KIND_INDEX = {letter: i for i, letter in enumerate(KINDS)}
KIND_MASK, OWNER_BIT, DOWN_BIT = 7, 8, 16
GAZELLE_CODE, ZEBRA_CODE, LION_CODE = GAZELLE + 1, ZEBRA + 1, LION + 1


class PositionError(KiwaraError):
    """A hand-built position that cannot arise or cannot be played from."""


class Token(NamedTuple):
    """A token on the board: owner (0 first player, 1 second), kind letter, face up or down."""

    owner: int
    kind: str
    face_up: bool


class _BoardTables:
    """What depends only on the board size and the totem steps, shared by every layout: lines,
    totem targets, and the Move objects themselves (built once, never per position)."""

    def __init__(self, width: int, height: int, min_step: int, max_step: int,
                 direction: int = 1) -> None:
        grid = Grid(width, height)
        w, P = width, grid.positions
        self.grid = grid
        self.lines = grid.lines
        self.line_sets = tuple(frozenset(line) for line in grid.lines)
        # Line ids: columns 0..w-1, rows w..w+h-1; the two totem positions facing a line share it.
        self.pos_line = tuple(
            (idx if kind == "column" else w + idx)
            for kind, idx in (grid.position_side(p) for p in range(P)))
        self.cell_lines = tuple((c % w, w + c // w) for c in grid.cells)
        # For each position, the line crossing the faced one at each cell (a dict by cell).
        self.crossing = tuple(
            {c: next(x for x in self.cell_lines[c] if x != self.pos_line[p]) for c in grid.lines[p]}
            for p in range(P))
        # Totem destinations after a placement from each position: the normal steps in order,
        # then (for the forced jump) every further position the same way round, each once.
        # ``direction`` is +1 clockwise, -1 anticlockwise.
        steps = range(min_step, max_step + 1)
        self.step_targets, self.jump_targets = [], []
        for p in range(P):
            normal = list(dict.fromkeys((p + direction * s) % P for s in steps))
            further = [(p + direction * s) % P for s in range(max_step + 1, max_step + 1 + P)]
            further = [q for q in dict.fromkeys(further) if q not in normal]
            self.step_targets.append(tuple((q, self.pos_line[q]) for q in normal))
            self.jump_targets.append(tuple((q, self.pos_line[q]) for q in further))
        # place[kind][cell][position]: every Move without swaps (position == P: no totem move).
        self.place = tuple(
            tuple(tuple(Move(KINDS[k], c, (), None if q == P else q, width) for q in range(P + 1))
                  for c in grid.cells)
            for k in range(5))
        self.openings = tuple(Move(totem=q) for q in range(P))
        # Moves of one cell for given destinations and kinds in reserve, shared between states.
        self.chunks: dict[tuple, list[Move]] = {}


@lru_cache(maxsize=32)
def _board_tables(width: int, height: int, min_step: int, max_step: int,
                  direction: int) -> _BoardTables:
    return _BoardTables(width, height, min_step, max_step, direction)


class _Tables:
    """What a game needs to know about its layout and variant, precomputed."""

    def __init__(self, layout: Layout, variant: RuleVariant) -> None:
        grid = layout.grid
        self.layout, self.variant, self.grid = layout, variant, grid
        self.width, self.size, self.P = grid.width, grid.size, grid.positions
        board = _board_tables(grid.width, grid.height, variant.totem_min_step,
                              variant.totem_max_step,
                              1 if variant.totem_direction == "clockwise" else -1)
        for name in ("lines", "line_sets", "pos_line", "cell_lines", "crossing", "step_targets",
                     "jump_targets", "place", "openings", "chunks"):
            setattr(self, name, getattr(board, name))
        territory = layout.assignment
        neighbours = grid.neighbours
        self.lion_reach = tuple(
            tuple(n for n in neighbours[c]
                  if not (variant.lion_blocked_by_rivers and territory[c] != territory[n]))
            for c in grid.cells)
        self.swap_reach = tuple(
            tuple(n for n in neighbours[c]
                  if not (variant.crocodile_swap_needs_river and territory[c] == territory[n]))
            for c in grid.cells)
        self.territory_cells = tuple(t.cells for t in layout.territories)
        self.cell_territory_cells = tuple(self.territory_cells[territory[c]] for c in grid.cells)
        self.names = layout.names
        self.tokens = variant.tokens
        self.points = variant.points
        self.max_swaps = variant.max_swaps
        self.lion_flee = variant.lion_gazelles_flee
        self.lion_flip = variant.lion_flips_zebras
        self.down_near_lion = variant.face_down_next_to_lion
        self.swap_down_near_lion = variant.swapped_gazelle_face_down_next_to_lion
        self.first_placer = 0 if variant.first_placer == "first" else 1

    def destinations(self, totem: int, line_empty) -> tuple[int, ...]:
        """Totem positions reachable after a placement, given the empty cells of each line."""
        result = tuple([q for q, line in self.step_targets[totem] if line_empty[line] > 0])
        if not result:
            for q, line in self.jump_targets[totem]:
                if line_empty[line] > 0:
                    return (q,)
        return result

    def swap_paths(self, board, start: int) -> list[tuple[int, ...]]:
        """Every crocodile swap path from ``start`` (prefixes included), depth first."""
        limit = self.max_swaps
        if limit == 0:
            return []
        reach = self.swap_reach
        paths: list[tuple[int, ...]] = []

        def extend(cell: int, path: tuple[int, ...]) -> None:
            for n in reach[cell]:
                # A swapped gazelle sits on an earlier cell of the path: never swap with it again.
                if board[n] & KIND_MASK == GAZELLE_CODE and n != start and n not in path:
                    longer = path + (n,)
                    paths.append(longer)
                    if limit is None or len(longer) < limit:
                        extend(n, longer)

        extend(start, ())
        return paths


_CLASSIC = RuleVariant()


@lru_cache(maxsize=256)
def _cached_tables(layout: Layout, names: tuple[str, ...], variant: RuleVariant,
                   variant_name: str) -> _Tables:
    return _Tables(layout, variant)


def _tables(layout: Layout, variant: RuleVariant) -> _Tables:
    # Layouts compare equal whatever their territories are called, variants whatever they are
    # called; a state shows those names, so they are part of the key.
    return _cached_tables(layout, layout.names, variant, variant.name)


def _new_state(t, board, reserve, line_empty, empty, totem, to_move, okapi, ply) -> "GameState":
    s = object.__new__(GameState)
    s._t, s._board, s._reserve, s._line_empty, s._empty = t, board, reserve, line_empty, empty
    s._totem, s._to_move, s._okapi, s.ply, s._legal = totem, to_move, okapi, ply, None
    return s


def _restore(layout, variant, *position) -> "GameState":
    return _new_state(_tables(layout, variant), *position)


def new_game(layout: Layout, variant: RuleVariant | None = None) -> "GameState":
    """The opening position: empty board, full reserves, the first player to place the totem."""
    t = _tables(layout, variant if variant is not None else _CLASSIC)
    grid = layout.grid
    line_empty = tuple([grid.height] * grid.width + [grid.width] * grid.height)
    state = _new_state(t, (0,) * grid.size, t.tokens * 2, line_empty, grid.size, -1, 0, -1, 0)
    if sum(t.tokens) == 0:
        state._to_move = -1
    return state


def setup_position(layout: Layout, variant: RuleVariant | None = None, *,
                   tokens: dict[str, str] | None = None, totem: int | None = None,
                   to_move: int = 0, okapi: int | None = None,
                   reserves: tuple[dict[str, int], dict[str, int]] | None = None,
                   ply: int | None = None) -> "GameState":
    """A position built by hand, for puzzles and tests.

    ``tokens`` maps cell names to ``"Z"`` (first player, face up), ``"z"`` (second player),
    ``"[Z]"`` / ``"[z]"`` (face down). Reserves default to the variant's tokens minus those on the
    board. The game is over if the board is full or both reserves are empty.
    """
    t = _tables(layout, variant if variant is not None else _CLASSIC)
    grid = layout.grid
    board = [0] * grid.size
    on_board = [[0] * 5, [0] * 5]
    for name, text in (tokens or {}).items():
        cell = grid.parse_cell(name)
        down = text.startswith("[") and text.endswith("]")
        letter = text[1:-1] if down else text
        if len(letter) != 1 or letter.upper() not in KIND_INDEX:
            raise PositionError(f"{name}: token {text!r} is not one of Z G E L C (lower case for the "
                             f"second player, [Z] for face down)")
        owner = 0 if letter.isupper() else 1
        k = KIND_INDEX[letter.upper()]
        board[cell] = (k + 1) | (owner << 3) | (DOWN_BIT if down else 0)
        on_board[owner][k] += 1
    if reserves is None:
        reserve = []
        for owner in (0, 1):
            for k in range(5):
                left = t.tokens[k] - on_board[owner][k]
                if left < 0:
                    raise PositionError(f"player {owner} has {on_board[owner][k]} {KIND_NAMES[k]}s on "
                                     f"the board, more than the {t.tokens[k]} of the variant")
                reserve.append(left)
    else:
        reserve = [reserves[owner].get(kind, 0) for owner in (0, 1) for kind in KINDS]
    if totem is not None and not 0 <= totem < t.P:
        raise PositionError(f"no totem position {totem}")
    full = [all(board[c] for c in cells) for cells in t.territory_cells]
    if okapi is None and any(full):
        raise PositionError("a territory is full, so the Okapi has been awarded: give okapi=0 or 1")
    line_empty = [0] * (grid.width + grid.height)
    for c in grid.cells:
        if not board[c]:
            col, row = t.cell_lines[c]
            line_empty[col] += 1
            line_empty[row] += 1
    empty = board.count(0)
    if totem is None:
        if any(board):
            raise PositionError("tokens on the board but no totem position")
    elif empty and not line_empty[t.pos_line[totem]]:
        raise PositionError(f"the totem faces {grid.line_name(totem)}, which is full")
    over = totem is not None and (empty == 0 or not any(reserve))
    return _new_state(t, tuple(board), tuple(reserve), tuple(line_empty), empty,
                      -1 if totem is None else totem, -1 if over else to_move,
                      -1 if okapi is None else okapi,
                      ply if ply is not None else grid.size - empty + 1)


class GameState:
    """A position of a game. Immutable: every attribute is read-only by convention."""

    __slots__ = ("_t", "_board", "_reserve", "_line_empty", "_empty", "_totem", "_to_move",
                 "_okapi", "ply", "_legal")

    # -- what a player sees ------------------------------------------------------------------
    @property
    def layout(self) -> Layout:
        return self._t.layout

    @property
    def variant(self) -> RuleVariant:
        return self._t.variant

    @property
    def grid(self) -> Grid:
        return self._t.grid

    def current_player(self) -> int:
        """0 for the first player (who opened with the totem), 1 for the second, -1 at the end."""
        return self._to_move

    @property
    def totem(self) -> int | None:
        """Totem position, None before the opening."""
        return None if self._totem < 0 else self._totem

    @property
    def okapi(self) -> int | None:
        """Who holds the Okapi (0 or 1), None while no territory has been completed."""
        return None if self._okapi < 0 else self._okapi

    def token(self, cell: int) -> Token | None:
        code = self._board[cell]
        if not code:
            return None
        return Token((code >> 3) & 1, KINDS[(code & KIND_MASK) - 1], not code & DOWN_BIT)

    def tokens(self) -> tuple[Token | None, ...]:
        return tuple(self.token(c) for c in range(len(self._board)))

    def reserve(self, player: int) -> dict[str, int]:
        """Tokens of each kind (letter) that ``player`` still holds."""
        return dict(zip(KINDS, self._reserve[5 * player:5 * player + 5]))

    def empty_cells(self) -> tuple[int, ...]:
        return tuple(c for c, code in enumerate(self._board) if not code)

    def is_terminal(self) -> bool:
        return self._to_move < 0

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._key() == other._key() and self._t.layout == other._t.layout and (
            self._t.variant == other._t.variant)

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self._board, self._reserve, self._totem, self._to_move, self._okapi)

    def __reduce__(self):
        # Pickle the position and rebuild the shared tables on the other side (small, fast).
        return (_restore, (self._t.layout, self._t.variant, self._board, self._reserve,
                           self._line_empty, self._empty, self._totem, self._to_move, self._okapi,
                           self.ply))

    def __repr__(self) -> str:
        return f"<GameState ply {self.ply}, {self._t.variant.name}, to move {self._to_move}>"

    # -- moves -------------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move, in a fixed order: cells in line order, kinds Z G E L C, swap paths
        depth first (no swap first), totem steps in increasing order."""
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[Move]:
        player = self._to_move
        if player < 0:
            return []
        t = self._t
        totem = self._totem
        if totem < 0:
            return list(t.openings)
        reserve = self._reserve
        base = 5 * player
        kinds = [k for k in range(5) if reserve[base + k]]
        if not kinds:
            return [PASS]
        board = self._board
        line_empty = self._line_empty
        P = t.P
        ends_game = self._empty == 1 or sum(reserve) == 1
        kinds_key = tuple(kinds)
        lion_may_flee = LION in kinds and t.lion_flee
        may_swap = CROCODILE in kinds and t.max_swaps != 0
        chunks = t.chunks
        moves: list[Move] = []
        # Room left on each step target's line once the totem's own line loses a cell; each
        # cell then also takes one from its crossing line.
        facing = t.pos_line[totem]
        targets = [(q, line, line_empty[line] - (line == facing))
                   for q, line in t.step_targets[totem]]
        crossing = t.crossing[totem]
        for c in t.lines[totem]:
            if board[c]:
                continue
            if ends_game:
                plain = (P,)
            else:
                cross = crossing[c]
                plain = tuple([q for q, line, room in targets if room - (line == cross) > 0])
                if not plain:
                    after = list(line_empty)
                    col, row = t.cell_lines[c]
                    after[col] -= 1
                    after[row] -= 1
                    plain = t.destinations(totem, after)
            fled = None
            if lion_may_flee:
                fled = [n for n in t.lion_reach[c] if board[n] & KIND_MASK == GAZELLE_CODE]
            if fled:
                # The lion's own totem destinations: the cells its gazelles free count.
                after = list(line_empty)
                col, row = t.cell_lines[c]
                after[col] -= 1
                after[row] -= 1
                for n in fled:
                    col, row = t.cell_lines[n]
                    after[col] += 1
                    after[row] += 1
                lion_dests = t.destinations(totem, after)
                for k in kinds:
                    row_moves = t.place[k][c]
                    moves.extend([row_moves[d] for d in (lion_dests if k == LION else plain)])
            else:
                # Same cell, same destinations, same kinds: the same moves, built once.
                key = (c, plain, kinds_key)
                chunk = chunks.get(key)
                if chunk is None:
                    chunk = chunks[key] = [t.place[k][c][d] for k in kinds for d in plain]
                moves.extend(chunk)
            if may_swap and any(board[n] & KIND_MASK == GAZELLE_CODE for n in t.swap_reach[c]):
                for path in t.swap_paths(board, c):
                    moves.extend([Move("C", c, path, None if d == P else d, t.width)
                                  for d in plain])
        return moves

    def apply(self, move: Move) -> "GameState":
        """The state after ``move``; :class:`IllegalMoveError` says why a move is not legal."""
        player = self._to_move
        if player < 0:
            raise IllegalMoveError(f"{move}: the game is over")
        t = self._t
        if not isinstance(move, Move):
            raise IllegalMoveError(f"{move!r} is not a Move (use Move.parse or state.play)")
        totem = self._totem
        if totem < 0:
            if move.kind is not None or move.totem is None:
                raise IllegalMoveError(f"{move}: the first move puts the totem on a position "
                                       f"(T0 … T{t.P - 1})")
            if not 0 <= move.totem < t.P:
                raise IllegalMoveError(f"{move}: no totem position {move.totem}")
            return _new_state(t, self._board, self._reserve, self._line_empty, self._empty,
                              move.totem, t.first_placer, -1, self.ply + 1)
        reserve = self._reserve
        base = 5 * player
        kind = move.kind
        k = KIND_INDEX.get(kind)
        if k is None or not reserve[base + k]:
            if not any(reserve[base:base + 5]):
                if kind is None and move.totem is None and move.cell is None:
                    return _new_state(t, self._board, reserve, self._line_empty, self._empty,
                                      totem, 1 - player, self._okapi, self.ply + 1)
                raise IllegalMoveError(f"{move}: your reserve is empty, you must pass")
            if kind is None:
                raise IllegalMoveError(f"{move}: you must place a token (the totem is already out "
                                       f"and your reserve is not empty)")
            if k is None:
                raise IllegalMoveError(f"{move}: unknown animal {kind!r}")
            raise IllegalMoveError(f"{move}: no {KIND_NAMES[k]} left in your reserve")
        if move.width != t.width:
            raise IllegalMoveError(f"{move}: written for a board {move.width} columns wide, "
                                   f"this one has {t.width}")
        c = move.cell
        if c not in t.line_sets[totem]:
            grid = t.grid
            where = grid.cell_name(c) if isinstance(c, int) and 0 <= c < t.size else "that cell"
            raise IllegalMoveError(f"{move}: {where} is not on {grid.line_name(totem)}, "
                                   f"the line the totem faces")
        board = list(self._board)
        if board[c]:
            raise IllegalMoveError(f"{move}: {t.grid.cell_name(c)} is occupied")
        new_reserve = list(reserve)
        new_reserve[base + k] -= 1
        line_empty = list(self._line_empty)
        col, row = t.cell_lines[c]
        line_empty[col] -= 1
        line_empty[row] -= 1
        empty = self._empty - 1
        code = (k + 1) | (player << 3)
        if k <= GAZELLE and t.down_near_lion:
            for n in t.lion_reach[c]:
                if board[n] & KIND_MASK == LION_CODE:
                    code |= DOWN_BIT
                    break
        board[c] = code
        if move.swaps and k != CROCODILE:
            raise IllegalMoveError(f"{move}: only a crocodile swaps with gazelles")
        if k == LION:
            for n in t.lion_reach[c]:
                other = board[n]
                if other & KIND_MASK == GAZELLE_CODE and t.lion_flee:
                    board[n] = 0
                    new_reserve[5 * ((other >> 3) & 1) + GAZELLE] += 1
                    col, row = t.cell_lines[n]
                    line_empty[col] += 1
                    line_empty[row] += 1
                    empty += 1
                elif other & KIND_MASK == ZEBRA_CODE and t.lion_flip:
                    board[n] = other | DOWN_BIT
        elif move.swaps:
            self._swap(board, c, move)
        okapi = self._okapi
        if okapi < 0:
            for n in t.cell_territory_cells[c]:
                if not board[n]:
                    break
            else:
                okapi = player
        if empty == 0 or not any(new_reserve):
            if move.totem is not None:
                raise IllegalMoveError(f"{move}: this placement ends the game, the totem does not "
                                       f"move (write {Move(kind, c, move.swaps, None, t.width)})")
            return _new_state(t, tuple(board), tuple(new_reserve), tuple(line_empty), empty,
                              totem, -1, okapi, self.ply + 1)
        dests = t.destinations(totem, line_empty)
        if move.totem not in dests:
            allowed = ", ".join(map(str, dests))
            what = ("the totem must move here" if move.totem is None
                    else f"totem position {move.totem} is not allowed here")
            raise IllegalMoveError(f"{move}: {what}; the totem can go to {allowed}")
        return _new_state(t, tuple(board), tuple(new_reserve), tuple(line_empty), empty,
                          move.totem, 1 - player, okapi, self.ply + 1)

    def _swap(self, board: list[int], start: int, move: Move) -> None:
        """Carry out the crocodile's swap path on ``board`` (already holding the crocodile)."""
        t = self._t
        grid = t.grid
        if t.max_swaps is not None and len(move.swaps) > t.max_swaps:
            raise IllegalMoveError(f"{move}: at most {t.max_swaps} crocodile swap(s) in this variant")
        cell = start
        seen = {start}
        for target in move.swaps:
            name = grid.cell_name(target) if isinstance(target, int) and 0 <= target < t.size else "?"
            if target not in t.swap_reach[cell]:
                where = "next to" if not t.variant.crocodile_swap_needs_river else \
                    "across a river from"
                raise IllegalMoveError(f"{move}: {name} is not {where} {grid.cell_name(cell)}")
            if target in seen:
                raise IllegalMoveError(f"{move}: the crocodile already swapped with the gazelle "
                                       f"on {name}")
            gazelle = board[target]
            if gazelle & KIND_MASK != GAZELLE_CODE:
                raise IllegalMoveError(f"{move}: no gazelle on {name}")
            if t.swap_down_near_lion and any(
                    board[n] & KIND_MASK == LION_CODE for n in t.lion_reach[cell]):
                gazelle |= DOWN_BIT
            board[cell], board[target] = gazelle, board[cell]
            seen.add(target)
            cell = target

    def play(self, text: str) -> "GameState":
        """Parse ``text`` as a move in notation and apply it."""
        return self.apply(Move.parse(text, self._t.grid))

    # -- outcome -----------------------------------------------------------------------------
    def scoring(self) -> Scoring:
        """The scoring breakdown; provisional (``final`` False) before the end of the game."""
        t = self._t
        tokens = [None if not code else ((code >> 3) & 1, (code & KIND_MASK) - 1,
                                         not code & DOWN_BIT) for code in self._board]
        return score_board(t.names, t.territory_cells, tokens, t.points, self._okapi,
                           t.variant.okapi_points, t.variant.territory_tie, self._to_move < 0)

    def returns(self) -> tuple[float, float]:
        """(1, -1) if the first player won, (-1, 1) if the second did, (0, 0) for a draw or
        while the game is not over."""
        if self._to_move >= 0:
            return (0.0, 0.0)
        winner = self.scoring().winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    # -- the game protocol (kiwara_designer.core.game): no chance, perfect information --------
    @property
    def game(self):
        """The :class:`~kiwara_designer.engine.game.KiwaraGame` this state belongs to."""
        from .game import KIWARA
        return KIWARA

    def chance_outcomes(self) -> list:
        return []

    def information_state(self, player: int) -> "GameState":
        """Everything is visible, so the position itself (two states equal exactly when their
        positions, layouts and variants are)."""
        return self

    def observation(self, player: int) -> "GameState":
        return self

    def determinize(self, player: int, rng) -> "GameState":
        return self
