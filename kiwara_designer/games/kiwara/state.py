"""Game state, legal moves and their effects.

A :class:`KiwaraState` is immutable: :meth:`KiwaraState.apply` returns a new state. For speed the
board is a tuple of small integers (0 empty, else kind + 1, owner bit 8, face-down bit 16) and
everything that depends only on the board size (lines, totem targets, the Move objects themselves)
is computed once in :class:`_BoardTables`, and what depends on the layout and the variant
(neighbours across rivers, territories, effects switched on) once in :class:`_Tables`.
"""
from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from typing import NamedTuple, Sequence

from ...core.game import CHANCE, TERMINAL
from ...core.errors import KiwaraError
from .geometry import Grid
from .layout import Layout
from .moves import PASS, IllegalMoveError, Move
from .scoring import Scoring, score_board
from .variant import KIND_NAMES, KINDS, KiwaraVariant, VariantError

ZEBRA, GAZELLE, ELEPHANT, LION, CROCODILE = range(5)
KIND_INDEX = {letter: i for i, letter in enumerate(KINDS)}
KIND_MASK, OWNER_BIT, DOWN_BIT = 7, 8, 16
GAZELLE_CODE, ZEBRA_CODE, LION_CODE = GAZELLE + 1, ZEBRA + 1, LION + 1


class PositionError(KiwaraError):
    """A hand-built position that cannot arise or cannot be played from."""


# The most crocodile swap moves a position may have; the compiled core has the same bound
# (_core/core.h). Chain swaps (crocodile_swaps = "chain") are the one part of move generation
# without a bound of their own: a 6 x 5 checkerboard with 27 gazelles has a position with
# 916,483 legal moves, and bigger custom boards could take any time and memory. Every built-in
# layout and variant stays far below: with the classic tokens (12 gazelles at most on the board)
# the worst position found on the 6 x 5 board, by a search over gazelle placements that ignores
# the rivers (an upper bound for every layout), has 3,378 swap moves (12 x 10: 2,373); no
# position of the engine, agent and compiled-core tests has more than 90. Reaching the bound
# takes about 0.15 s here, 3 ms in the core.
MAX_SWAP_MOVES = 100_000


class MoveLimitError(VariantError):
    """A position with more than :data:`MAX_SWAP_MOVES` crocodile swap moves: the variant's
    chain swaps on this board are more than the engines enumerate."""


def move_limit_error(t: "_Tables") -> MoveLimitError:
    """The error both engines raise past :data:`MAX_SWAP_MOVES` (one line: the variant, the
    board and what to change)."""
    grid = t.grid
    return MoveLimitError(
        f"variant {t.variant.name!r} on this {grid.width} × {grid.height} board: a position has "
        f"more than {MAX_SWAP_MOVES:,} crocodile swap moves (chains of swaps through many "
        f"gazelles), more than the engines enumerate; set crocodile_swaps = 1 (or 0) or give "
        f"fewer gazelle_tokens", key="crocodile_swaps")


class Token(NamedTuple):
    """A token on the board: owner (0 first player, 1 second), kind letter, face up or down."""

    owner: int
    kind: str
    face_up: bool


class _Cards(NamedTuple):
    """The reinforcement cards of a deck game (``None`` in an Okapi game).

    Cards are numbered by their first index in the variant's deck (identical cards share a
    number). ``deck`` holds the cards still in the deck: top first when ``ordered`` (a fixed
    order, as in a record or perft: draws take the top card), else sorted (the order unknown:
    every draw is a chance node). ``used``: the player to move has used a card this turn (they
    must place now); ``again``: that card gives them the next turn too. At a chance node
    ``drawer`` receives the card and ``after`` moves next (TERMINAL if the game is over).
    """

    deck: tuple[int, ...]
    ordered: bool
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    used: bool = False
    again: bool = False
    drawer: int = -1
    after: int = -1

    def give(self, player: int, card: int) -> "_Cards":
        hands = list(self.hands)
        hands[player] = tuple(sorted(hands[player] + (card,)))
        return self._replace(hands=tuple(hands))

    def take(self, player: int, card: int) -> "_Cards":
        hands = list(self.hands)
        hand = list(hands[player])
        hand.remove(card)
        hands[player] = tuple(hand)
        return self._replace(hands=tuple(hands))

    def draw(self, drawer: int, after: int) -> "tuple[_Cards, bool]":
        """The Okapi moment's draw for ``drawer``: the top card of an ordered deck, or a chance
        node (True) when the order is unknown; nothing from an empty deck."""
        if not self.deck:
            return self, False
        if self.ordered:
            return self._replace(deck=self.deck[1:]).give(drawer, self.deck[0]), False
        return self._replace(drawer=drawer, after=after), True


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

    def __init__(self, layout: Layout, variant: KiwaraVariant) -> None:
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
        self.deck_game = variant.deck_game
        self.cards = variant.cards
        self.card_id = {}               # name -> the first index of a card of that name
        for i, card in enumerate(self.cards):
            self.card_id.setdefault(card.name, i)
        self.deck_ids = tuple(self.card_id[card.name] for card in self.cards)
        self.territory = territory
        self.neighbours = neighbours

    def destinations(self, totem: int, line_empty) -> tuple[int, ...]:
        """Totem positions reachable after a placement, given the empty cells of each line."""
        result = tuple([q for q, line in self.step_targets[totem] if line_empty[line] > 0])
        if not result:
            for q, line in self.jump_targets[totem]:
                if line_empty[line] > 0:
                    return (q,)
        return result

    def swap_paths(self, board, start: int, most: int | None = None) -> list[tuple[int, ...]]:
        """Every crocodile swap path from ``start`` (prefixes included), depth first; past
        ``most`` paths the walk stops (the list then holds ``most + 1``)."""
        limit = self.max_swaps
        if limit == 0:
            return []
        reach = self.swap_reach
        paths: list[tuple[int, ...]] = []

        def extend(cell: int, path: tuple[int, ...]) -> bool:
            for n in reach[cell]:
                # A swapped gazelle sits on an earlier cell of the path: never swap with it again.
                if board[n] & KIND_MASK == GAZELLE_CODE and n != start and n not in path:
                    longer = path + (n,)
                    paths.append(longer)
                    if most is not None and len(paths) > most:
                        return False
                    if (limit is None or len(longer) < limit) and not extend(n, longer):
                        return False
            return True

        extend(start, ())
        return paths


_CLASSIC = KiwaraVariant()


@lru_cache(maxsize=256)
def _cached_tables(layout: Layout, names: tuple[str, ...], variant: KiwaraVariant,
                   variant_name: str) -> _Tables:
    return _Tables(layout, variant)


def _tables(layout: Layout, variant: KiwaraVariant) -> _Tables:
    # Layouts compare equal whatever their territories are called, variants whatever they are
    # called; a state shows those names, so they are part of the key.
    return _cached_tables(layout, layout.names, variant, variant.name)


def _new_state(t, board, reserve, line_empty, empty, totem, to_move, okapi, ply,
               cards=None) -> "KiwaraState":
    s = object.__new__(KiwaraState)
    s._t, s._board, s._reserve, s._line_empty, s._empty = t, board, reserve, line_empty, empty
    s._totem, s._to_move, s._okapi, s.ply, s._legal = totem, to_move, okapi, ply, None
    s._cards, s._scoring = cards, None
    return s


def _restore(layout, variant, *position) -> "KiwaraState":
    return _new_state(_tables(layout, variant), *position)


def new_game(layout: Layout, variant: KiwaraVariant | None = None,
             deck: Sequence[str] | None = None) -> "KiwaraState":
    """The opening position: empty board, full reserves, the first player to place the totem.

    In a deck game (``reinforcement = "deck"``) ``deck`` fixes the deck's order at setup (card
    names, top first, the whole deck): the handicap is dealt from it at once and the Okapi
    moment takes its top card. Without it the order is unknown: the handicap deal and the
    Okapi moment's draw are chance nodes (``current_player() == CHANCE``).
    """
    t = _tables(layout, variant if variant is not None else _CLASSIC)
    grid = layout.grid
    line_empty = tuple([grid.height] * grid.width + [grid.width] * grid.height)
    to_move, cards = 0, None
    if t.deck_game:
        first, second = t.variant.handicap
        if deck is None:
            cards = _Cards(tuple(sorted(t.deck_ids)), False, ((), ()))
            if first or second:
                to_move = CHANCE
                cards = cards._replace(drawer=0 if first else 1, after=0)
        else:
            order = _deck_order(t, deck)
            cards = _Cards(order[first + second:], True,
                           (tuple(sorted(order[:first])), tuple(sorted(order[first:first + second]))))
    elif deck is not None:
        raise PositionError('a deck order is given but the variant has no deck (reinforcement = '
                            '"okapi")')
    state = _new_state(t, (0,) * grid.size, t.tokens * 2, line_empty, grid.size, -1, to_move, -1,
                       0, cards)
    if sum(t.tokens) == 0:
        state._to_move = TERMINAL
    return state


def _deck_order(t: "_Tables", names: Sequence[str]) -> tuple[int, ...]:
    """Card numbers of a whole deck order given by names; :class:`PositionError` unless it is
    an order of exactly the variant's cards."""
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        raise PositionError("a deck order is a list of card names, top first")
    unknown = [n for n in names if n not in t.card_id]
    if unknown:
        raise PositionError(f"deck order: no card {unknown[0]!r} in the deck (cards: "
                            f"{', '.join(dict.fromkeys(c.name for c in t.cards))})")
    order = tuple(t.card_id[n] for n in names)
    if sorted(order) != sorted(t.deck_ids):
        want, got = Counter(c.name for c in t.cards), Counter(names)
        problems = [f"{'one more' if n == 1 else f'{n} more'} {name!r}"
                    for name, n in sorted((got - want).items())]
        problems += [f"no {name!r}" for name in sorted((want - got).elements())]
        raise PositionError(f"deck order: not an order of the variant's {len(t.cards)} cards: it "
                            f"has {', '.join(problems)}")
    return order


def setup_position(layout: Layout, variant: KiwaraVariant | None = None, *,
                   tokens: dict[str, str] | None = None, totem: int | None = None,
                   to_move: int = 0, okapi: int | None = None,
                   reserves: tuple[dict[str, int], dict[str, int]] | None = None,
                   ply: int | None = None,
                   hands: tuple[Sequence[str], Sequence[str]] = ((), ()),
                   deck: Sequence[str] | None = None) -> "KiwaraState":
    """A position built by hand, for puzzles and tests.

    ``tokens`` maps cell names to ``"Z"`` (first player, face up), ``"z"`` (second player),
    ``"[Z]"`` / ``"[z]"`` (face down). Reserves default to the variant's tokens minus those on the
    board. The game is over if the board is full or both reserves are empty.
    In a deck game ``hands`` are the cards each player holds, and ``deck`` the cards left in
    the deck, top first (an ordered deck); by default the rest of the variant's deck in its
    order minus the held cards. ``okapi`` then says who had the Okapi moment.
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
    cards = None
    if t.deck_game:
        held = [[_card_number(t, n) for n in hand] for hand in hands]
        if deck is None:
            rest = list(t.deck_ids)
            for number in held[0] + held[1]:
                if number not in rest:
                    raise PositionError(f"the hands hold more {t.cards[number].name!r} cards than "
                                        f"the deck has")
                rest.remove(number)
        else:
            rest = [_card_number(t, n) for n in deck]
        if sorted(rest + held[0] + held[1]) != sorted(t.deck_ids):
            raise PositionError("the hands and the deck together are not the variant's cards")
        cards = _Cards(tuple(rest), True, (tuple(sorted(held[0])), tuple(sorted(held[1]))))
    elif any(hands) or deck is not None:
        raise PositionError('cards are given but the variant has no deck (reinforcement = "okapi")')
    return _new_state(t, tuple(board), tuple(reserve), tuple(line_empty), empty,
                      -1 if totem is None else totem, TERMINAL if over else to_move,
                      -1 if okapi is None else okapi,
                      ply if ply is not None else grid.size - empty + 1, cards)


def _card_number(t: "_Tables", name: str) -> int:
    if name not in t.card_id:
        raise PositionError(f"no card {name!r} in the deck")
    return t.card_id[name]


class KiwaraState:
    """A position of a game. Immutable: every attribute is read-only by convention."""

    __slots__ = ("_t", "_board", "_reserve", "_line_empty", "_empty", "_totem", "_to_move",
                 "_okapi", "ply", "_legal", "_cards", "_scoring")

    # -- what a player sees ------------------------------------------------------------------
    @property
    def layout(self) -> Layout:
        return self._t.layout

    @property
    def variant(self) -> KiwaraVariant:
        return self._t.variant

    @property
    def grid(self) -> Grid:
        return self._t.grid

    def current_player(self) -> int:
        """0 for the first player (who opened with the totem), 1 for the second, -1 (TERMINAL)
        at the end, -2 (CHANCE) when a card is drawn from a deck of unknown order."""
        return self._to_move

    @property
    def totem(self) -> int | None:
        """Totem position, None before the opening."""
        return None if self._totem < 0 else self._totem

    @property
    def okapi(self) -> int | None:
        """Who holds the Okapi (0 or 1), None while no territory has been completed. In a deck
        game: who had the Okapi moment (and drew the top card, if any was left)."""
        return None if self._okapi < 0 else self._okapi

    # -- reinforcement cards (deck games) ----------------------------------------------------
    def hand(self, player: int) -> tuple[str, ...]:
        """Names of the cards ``player`` holds (open information), in deck order."""
        if self._cards is None:
            return ()
        return tuple(self._t.cards[c].name for c in self._cards.hands[player])

    def deck_size(self) -> int:
        return 0 if self._cards is None else len(self._cards.deck)

    def deck_order(self) -> tuple[str, ...] | None:
        """The deck's remaining cards top first when the order is fixed; None otherwise (no
        deck, or draws at chance nodes). Hidden from both players."""
        if self._cards is None or not self._cards.ordered:
            return None
        return tuple(self._t.cards[c].name for c in self._cards.deck)

    def deck_contents(self) -> tuple[str, ...]:
        """The cards left in the deck in the deck's own order (what a player may know)."""
        if self._cards is None:
            return ()
        return tuple(self._t.cards[c].name for c in sorted(self._cards.deck))

    @property
    def extra_turn(self) -> bool:
        """A card has given the player to move one more turn after this one."""
        return self._cards is not None and self._cards.again

    @property
    def card_used(self) -> bool:
        """The player to move has used a card this turn and must now place."""
        return self._cards is not None and self._cards.used

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

    @property
    def placements_left(self) -> int:
        """How many more tokens can be placed before the board is full or both reserves are
        empty (a fleeing gazelle may add to it): how near the end the game is."""
        return min(self._empty, sum(self._reserve))

    def is_terminal(self) -> bool:
        return self._to_move == TERMINAL

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, KiwaraState):
            return NotImplemented
        return self._key() == other._key() and self._t.layout == other._t.layout and (
            self._t.variant == other._t.variant)

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple:
        return (self._board, self._reserve, self._totem, self._to_move, self._okapi, self._cards)

    def __reduce__(self):
        # Pickle the position and rebuild the shared tables on the other side (small, fast).
        return (_restore, (self._t.layout, self._t.variant, self._board, self._reserve,
                           self._line_empty, self._empty, self._totem, self._to_move, self._okapi,
                           self.ply, self._cards))

    def __repr__(self) -> str:
        return f"<KiwaraState ply {self.ply}, {self._t.variant.name}, to move {self._to_move}>"

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
            return [move for move, _ in self.chance_outcomes()]
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
        swap_moves = 0          # bounded by MAX_SWAP_MOVES, as in the compiled core
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
            if may_swap and plain and any(board[n] & KIND_MASK == GAZELLE_CODE
                                          for n in t.swap_reach[c]):
                paths = t.swap_paths(board, c, (MAX_SWAP_MOVES - swap_moves) // len(plain))
                swap_moves += len(paths) * len(plain)
                if swap_moves > MAX_SWAP_MOVES:
                    raise move_limit_error(t)
                for path in paths:
                    moves.extend([Move("C", c, path, None if d == P else d, t.width)
                                  for d in plain])
        cards = self._cards
        if cards is not None and not cards.used and cards.hands[player]:
            return self._card_moves() + moves
        return moves

    def apply(self, move: Move) -> "KiwaraState":
        """The state after ``move``; :class:`IllegalMoveError` says why a move is not legal."""
        player = self._to_move
        if player < 0:
            if player == CHANCE and isinstance(move, Move):
                return self._apply_draw(move)
            raise IllegalMoveError(f"{move}: the game is over")
        t = self._t
        if not isinstance(move, Move):
            raise IllegalMoveError(f"{move!r} is not a Move (use Move.parse or state.play)")
        totem = self._totem
        if totem < 0:
            if move.card is not None:
                return self._apply_card(move)
            if move.kind is not None or move.totem is None:
                raise IllegalMoveError(f"{move}: the first move puts the totem on a position "
                                       f"(T0 … T{t.P - 1})")
            if not 0 <= move.totem < t.P:
                raise IllegalMoveError(f"{move}: no totem position {move.totem}")
            return _new_state(t, self._board, self._reserve, self._line_empty, self._empty,
                              move.totem, t.first_placer, -1, self.ply + 1, self._cards)
        reserve = self._reserve
        base = 5 * player
        kind = move.kind
        k = KIND_INDEX.get(kind)
        if k is None or not reserve[base + k]:
            if move.card is not None:
                return self._apply_card(move)
            if not any(reserve[base:base + 5]):
                if kind is None and move.totem is None and move.cell is None:
                    return _new_state(t, self._board, reserve, self._line_empty, self._empty,
                                      totem, 1 - player, self._okapi, self.ply + 1, self._cards)
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
            destination, following = totem, -1      # TERMINAL
        else:
            dests = t.destinations(totem, line_empty)
            if move.totem not in dests:
                allowed = ", ".join(map(str, dests))
                what = ("the totem must move here" if move.totem is None
                        else f"totem position {move.totem} is not allowed here")
                raise IllegalMoveError(f"{move}: {what}; the totem can go to {allowed}")
            destination, following = move.totem, 1 - player
        cards = self._cards
        if cards is not None:
            # A card's extra turn, then the Okapi moment's draw (which may be a chance node).
            if following != TERMINAL and cards.again:
                following = player
            cards = cards._replace(used=False, again=False)
            if okapi != self._okapi:
                cards, chance = cards.draw(player, following)
                if chance:
                    following = CHANCE
        return _new_state(t, tuple(board), tuple(new_reserve), tuple(line_empty), empty,
                          destination, following, okapi, self.ply + 1, cards)

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

    # -- reinforcement cards -------------------------------------------------------------------
    def _card_targets(self, effect: str, player: int) -> list[tuple[int, ...]]:
        """Targets of a card effect for ``player``, in a fixed order: stones, cells in reading
        order, or (own cell, their cell) pairs."""
        t, board = self._t, self._board
        if effect == "totem":
            totem, line_empty = self._totem, self._line_empty
            return [(q,) for q in range(t.P) if q != totem and line_empty[t.pos_line[q]]]
        if effect == "again":
            return [()]
        mine, theirs = player << 3, (1 - player) << 3
        if effect == "rise":
            return [(c,) for c, code in enumerate(board)
                    if code and code & OWNER_BIT == mine and code & DOWN_BIT]
        if effect == "scare":
            return [(c,) for c, code in enumerate(board) if code & (KIND_MASK | OWNER_BIT |
                                                                     DOWN_BIT) == ZEBRA_CODE | theirs]
        if effect == "chase":
            return [(c,) for c, code in enumerate(board)
                    if code & (KIND_MASK | OWNER_BIT) == GAZELLE_CODE | theirs]
        if effect == "swap":
            territory = t.territory
            return [(c, n) for c, code in enumerate(board)
                    if code and code & OWNER_BIT == mine
                    for n in sorted(t.neighbours[c])
                    if board[n] and board[n] & OWNER_BIT == theirs and territory[c] != territory[n]]
        return []      # points: passive, never used

    def _card_moves(self) -> list[Move]:
        """Uses of the held cards, each card name once, in deck order."""
        t, player = self._t, self._to_move
        moves = []
        for number in dict.fromkeys(self._cards.hands[player]):
            card = t.cards[number]
            for target in self._card_targets(card.effect, player):
                if card.effect == "totem":
                    moves.append(Move.card_use(card.name, t.width, stone=target[0]))
                else:
                    moves.append(Move.card_use(card.name, t.width, cells=target))
        return moves

    def _apply_card(self, move: Move) -> "KiwaraState":
        t, player, cards = self._t, self._to_move, self._cards
        if move.draw:
            raise IllegalMoveError(f"{move}: a card is drawn only at a chance node")
        if cards is None:
            raise IllegalMoveError(f'{move}: this game has no reinforcement cards (reinforcement '
                                   f'= "okapi")')
        if self._totem < 0:
            raise IllegalMoveError(f"{move}: cards are used at the start of a placement turn, "
                                   f"not in the opening")
        if not any(self._reserve[5 * player:5 * player + 5]):
            raise IllegalMoveError(f"{move}: your reserve is empty, you must pass (no card on a "
                                   f"pass turn)")
        if cards.used:
            raise IllegalMoveError(f"{move}: one card per turn; now place a token")
        number = t.card_id.get(move.card)
        if number is None or number not in cards.hands[player]:
            held = ", ".join(self.hand(player)) or "none"
            raise IllegalMoveError(f"{move}: you hold no card {move.card!r} (yours: {held})")
        card = t.cards[number]
        if card.passive:
            raise IllegalMoveError(f"{move}: {card.name} is a points card; it scores for its "
                                   f"holder and is never used")
        # The target as the effect takes it: (stone,), (), (cell,) or (own, theirs); None
        # when the move is written in another form.
        if card.effect == "totem":
            target = None if move.totem is None or move.cell is not None else (move.totem,)
        elif move.totem is not None:
            target = None
        else:
            target = () if move.cell is None else (move.cell,) + move.swaps
        if target is None or target not in self._card_targets(card.effect, player):
            raise IllegalMoveError(f"{move}: {self._card_problem(card, target)}")
        board = list(self._board)
        reserve = list(self._reserve)
        line_empty = list(self._line_empty)
        empty, totem = self._empty, self._totem
        if card.effect == "totem":
            totem = target[0]
        elif card.effect == "rise":
            board[target[0]] &= ~DOWN_BIT
        elif card.effect == "scare":
            board[target[0]] |= DOWN_BIT
        elif card.effect == "chase":
            cell = target[0]
            board[cell] = 0
            reserve[5 * (1 - player) + GAZELLE] += 1
            for line in t.cell_lines[cell]:
                line_empty[line] += 1
            empty += 1
        elif card.effect == "swap":
            own, their = target
            board[own], board[their] = board[their], board[own]
            if t.down_near_lion:
                # Not a placement: a lion moved scares nobody, but a zebra or gazelle that lands
                # next to a lion turns face down.
                for cell in target:
                    if board[cell] & KIND_MASK <= GAZELLE_CODE and any(
                            board[n] & KIND_MASK == LION_CODE for n in t.lion_reach[cell]):
                        board[cell] |= DOWN_BIT
        cards = cards.take(player, number)._replace(
            used=True, again=cards.again or card.effect == "again")
        okapi, following = self._okapi, player
        # The Okapi moment is checked again after a card's effect.
        if okapi < 0 and any(all(board[c] for c in cells) for cells in t.territory_cells):
            okapi = player
            cards, chance = cards.draw(player, player)
            if chance:
                following = CHANCE
        return _new_state(t, tuple(board), tuple(reserve), tuple(line_empty), empty, totem,
                          following, okapi, self.ply + 1, cards)

    def _card_problem(self, card, target: tuple[int, ...] | None) -> str:
        """Why ``target`` is not a legal target of ``card`` here (for the error message)."""
        grid = self._t.grid
        form = {"totem": f"+{card.name}:STONE", "again": f"+{card.name}",
                "swap": f"+{card.name}:OWN-THEIRS"}.get(card.effect, f"+{card.name}:CELL")
        needs = {"totem": 1, "again": 0, "swap": 2}.get(card.effect, 1)
        if target is None or len(target) != needs:
            return f"{card.name} ({card.effect}) is written {form}"
        what = {
            "totem": "another stone whose line has an empty cell",
            "rise": "one of your face-down tokens",
            "scare": "one of your opponent's face-up zebras",
            "chase": "one of your opponent's gazelles",
            "swap": "your token and an adjacent one of your opponent's in another territory",
        }[card.effect]
        where = str(target[0]) if card.effect == "totem" else \
            "-".join(grid.cell_name(c) for c in target)
        return f"{card.name} ({card.effect}) needs {what}; {where} is not"

    def _apply_draw(self, move: Move) -> "KiwaraState":
        t, cards = self._t, self._cards
        number = t.card_id.get(move.card) if move.draw else None
        if number is None or number not in cards.deck:
            left = ", ".join(self.deck_contents())
            raise IllegalMoveError(f"{move}: a chance node draws one of the deck's cards "
                                   f"(draw:NAME; left: {left})")
        deck = list(cards.deck)
        deck.remove(number)
        cards = cards._replace(deck=tuple(deck)).give(cards.drawer, number)
        following = cards.after
        if self._totem < 0:
            # The handicap deal at setup: the first player's cards first, then the second's.
            first, second = t.variant.handicap
            drawer = 0 if len(cards.hands[0]) < first else 1 if len(cards.hands[1]) < second else -1
            if drawer >= 0:
                return _new_state(t, self._board, self._reserve, self._line_empty, self._empty,
                                  self._totem, CHANCE, self._okapi, self.ply,
                                  cards._replace(drawer=drawer))
        return _new_state(t, self._board, self._reserve, self._line_empty, self._empty,
                          self._totem, following, self._okapi, self.ply,
                          cards._replace(drawer=-1, after=-1))

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node, each card that may be drawn with its probability; else ``[]``."""
        if self._to_move != CHANCE:
            return []
        deck, cards = self._cards.deck, self._t.cards
        counts = Counter(deck)
        return [(Move.card_draw(cards[number].name), count / len(deck))
                for number, count in sorted(counts.items())]

    def information_state(self, player: int) -> "KiwaraState":
        """Everything is visible but the order of a deck (held cards are open): the position
        itself, with a fixed deck order forgotten (two states are equal exactly when their
        positions, layouts and variants are)."""
        return self.determinize(player, None)

    def determinize(self, player: int, rng: random.Random | None) -> "KiwaraState":
        """The position with the deck's unknown order forgotten: its draws become chance nodes
        (so a search samples them), which is what a player can know. Otherwise (an Okapi game,
        or an order already unknown) the state itself."""
        cards = self._cards
        if cards is None or not cards.ordered:
            return self
        return _new_state(self._t, self._board, self._reserve, self._line_empty, self._empty,
                          self._totem, self._to_move, self._okapi, self.ply,
                          cards._replace(deck=tuple(sorted(cards.deck)), ordered=False))

    def play(self, text: str) -> "KiwaraState":
        """Parse ``text`` as a move in notation and apply it."""
        return self.apply(Move.parse(text, self._t.grid))

    # -- outcome -----------------------------------------------------------------------------
    def scoring(self) -> Scoring:
        """The scoring breakdown; provisional (``final`` False) before the end of the game."""
        if self._scoring is None:
            self._scoring = self._score()
        return self._scoring

    def _score(self) -> Scoring:
        t = self._t
        tokens = [None if not code else ((code >> 3) & 1, (code & KIND_MASK) - 1,
                                         not code & DOWN_BIT) for code in self._board]
        if self._cards is None:
            return score_board(t.names, t.territory_cells, tokens, t.points, self._okapi,
                               t.variant.okapi_points, t.variant.territory_tie,
                               self._to_move == TERMINAL)
        # A deck game: no Okapi bonus (the Okapi is a card); held points cards score.
        card_points = tuple(sum(t.cards[c].value for c in hand if t.cards[c].effect == "points")
                            for hand in self._cards.hands)
        return score_board(t.names, t.territory_cells, tokens, t.points, -1,
                           t.variant.okapi_points, t.variant.territory_tie,
                           self._to_move == TERMINAL, card_points)

    def returns(self) -> tuple[float, float]:
        """(1, -1) if the first player won, (-1, 1) if the second did, (0, 0) for a draw or
        while the game is not over."""
        if self._to_move != TERMINAL:
            return (0.0, 0.0)
        winner = self.scoring().winner
        if winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)

    # -- the game protocol (kiwara_designer.core.game): no chance, perfect information --------
    @property
    def game(self):
        """The :class:`~kiwara_designer.games.kiwara.game.KiwaraGame` this state belongs to."""
        from .game import KIWARA
        return KIWARA

    def observation(self, player: int) -> "KiwaraState":
        return self.information_state(player)
