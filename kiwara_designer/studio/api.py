"""The studio's library API: plain functions and one :class:`Studio` object over the library,
returning JSON-ready dicts. The web server (:mod:`.server`) is a thin shell over this module; a
notebook or a test can call it directly.

Everything a request may carry is checked here, with a :class:`StudioError` (a
:class:`~kiwara_designer.core.errors.KiwaraError`) that says in words what is wrong: wrong types,
unknown names, sizes beyond the limits below. Nothing here reads or writes a file: layouts,
variants and records come as text or built-in names, never as paths.
"""
from __future__ import annotations

import itertools
import random
import re
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from ..core.errors import KiwaraError
from ..games.kiwara.geometry import GeometryError
from ..games.kiwara.layout import TERRITORY_CHARS, Layout, LayoutError
from ..games.kiwara.printing.screen import name_tint, screen_board
from ..games.kiwara.validation import RULESETS, validate
from .jobs import Job, Jobs

MAX_SIDE = 12                  # board side the studio accepts (the page draws 6 × 5)
MAX_TEXT = 20_000              # pasted layouts and loaded records, in characters
MAX_GAMES = 200                # open games of each kind; the oldest is dropped beyond
PLAYTEST_MAX_GAMES = 2000
PLAYTEST_MAX_WORK = 100_000    # games × MCTS iterations a quick play-test may ask for
MCTS_MAX_ITERATIONS = 5000
AGENT_KINDS = ("random", "greedy", "mcts")
TERRITORY_KEYS = "ABCDEFGH"    # the page's palette: keys 1-8 / a-h paint these
PLAYER_NAMES = ("first", "second")


class StudioError(KiwaraError):
    """A request the studio cannot honour, said in words."""


# -- checking what a request carries -------------------------------------------------------------
def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"


def need_text(value: Any, what: str, max_length: int = 200, pattern: str | None = None,
              echo: bool = True) -> str:
    """``value`` if it is text of at most ``max_length`` characters (matching ``pattern``).
    ``echo=False`` leaves the value out of the refusal: a typed move could name a card the
    person does not see, and an answer must never repeat it."""
    shown = f", got {_describe(value)}" if echo else ""
    if not isinstance(value, str):
        raise StudioError(f"{what} must be text{shown}")
    if len(value) > max_length:
        raise StudioError(f"{what} is {len(value):,} characters long; at most {max_length:,}")
    if pattern is not None and not re.fullmatch(pattern, value):
        raise StudioError(f"{what}: {_describe(value) if echo else 'the text'} is not of the "
                          f"form {pattern}")
    return value


def need_int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StudioError(f"{what} must be a whole number, got {_describe(value)}")
    if not low <= value <= high:
        raise StudioError(f"{what} must be from {low:,} to {high:,}, got {value:,}")
    return value


def need_number(value: Any, what: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise StudioError(f"{what} must be a number, got {_describe(value)}")
    if not low <= value <= high:
        raise StudioError(f"{what} must be from {low:g} to {high:g}, got {value:g}")
    return float(value)


def need_bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise StudioError(f"{what} must be true or false, got {_describe(value)}")
    return value


def need_choice(value: Any, what: str, choices) -> str:
    choices = list(choices)
    if not isinstance(value, str) or value not in choices:
        raise StudioError(f"{what}: unknown {_describe(value)}; one of {', '.join(choices)}")
    return value


def secret_seed() -> int:
    """A seed nobody can guess: 63 bits from :mod:`secrets` (within the records' 2**63 bound).
    An Awimbawé match's seed rebuilds every deal, the agent's hand included."""
    return secrets.randbits(63)


def seed_or_new(seed: Any) -> int:
    """The request's seed, or a new one (printed back, so the result can be had again)."""
    if seed is None:
        return random.SystemRandom().randrange(1_000_000)
    return need_int(seed, "seed", 0, 2 ** 63 - 1)


# -- boards --------------------------------------------------------------------------------------
def board_from_rows(rows: Any) -> Layout:
    """The layout of ``rows`` (``["ABCCCC", …]``: one letter per cell naming its territory)."""
    if (not isinstance(rows, list) or not 1 <= len(rows) <= MAX_SIDE
            or not all(isinstance(r, str) for r in rows)):
        raise StudioError(f"rows must be a list of 1 to {MAX_SIDE} rows of territory letters, "
                          f"such as [\"ABCCCC\", \"ABBCFF\", …]")
    for number, row in enumerate(rows, 1):
        if not 1 <= len(row) <= MAX_SIDE:
            raise StudioError(f"row {number} has {len(row)} cells; 1 to {MAX_SIDE} allowed")
        bad = [ch for ch in row if ch not in TERRITORY_CHARS]
        if bad:
            raise StudioError(f"row {number}: {bad[0]!r} is not a territory name (letters A-Z, "
                              f"a-z, digits)")
    try:
        return Layout.from_rows(rows)
    except (LayoutError, GeometryError) as exc:
        raise StudioError(str(exc)) from None


def builtin_layout(name: Any) -> Layout:
    from ..games.kiwara.formats import builtin_names, load_layout
    return load_layout(need_choice(name, "layout", builtin_names()))


def read_layout_text(text: Any) -> Layout:
    """One layout pasted as text rows or JSON (what a layout file holds)."""
    from ..games.kiwara.formats import parse_layouts
    text = need_text(text, "pasted layout", MAX_TEXT)
    entries = parse_layouts(text, "pasted text")
    if not entries:
        raise StudioError("the pasted text holds no layout (one row of letters per line)")
    if entries[0].error is not None:
        raise StudioError(str(entries[0].error))
    return entries[0].layout


def _problem_cells(layout: Layout, problem) -> list[str]:
    """The cells a problem concerns: its own, or those of the territories it names."""
    if problem.cells:
        return list(problem.cells)
    grid = layout.grid
    return [grid.cell_name(c) for name in problem.territories if name in layout.names
            for c in layout.territory(name).cells]


def check_board(rows: Any, rules: Any = "free-play") -> dict:
    """Validate a layout as the library does, with what the Draw view shows: each problem in
    words with its cells, the cells to highlight, sizes, mix, river sticks, whether it is a known
    board, and the board as drawn for print."""
    layout = board_from_rows(rows)
    report = validate(layout, RULESETS[need_choice(rules, "rules", RULESETS)])
    facts = report.facts
    problems = [{"kind": p.kind, "message": p.message, "cells": _problem_cells(layout, p)}
                for p in report.problems]
    return {
        "rows": list(layout.rows),
        "rules": report.ruleset.name,
        "rules_text": report.ruleset.describe(),
        "valid": report.valid,
        "problems": problems,
        "bad_cells": sorted({c for p in problems for c in p["cells"]}),
        "territories": facts["territories"],
        "size_mix": facts["size_mix"],
        "river_segments": facts["river_segments"],
        "sticks_in_box": facts["sticks_in_box"],
        "known_board": facts["known_board"],
        "svg": screen_board(layout),
    }


def size_mixes() -> list[list[int]]:
    """The free-play size mixes: six sizes from {3, 5, 7, 9} that cover the 30 cells."""
    return [list(m) for m in itertools.combinations_with_replacement((3, 5, 7, 9), 6)
            if sum(m) == 30]


def parse_mix(mix: Any) -> tuple[int, ...] | None:
    """``None``/``""`` (any mix), ``"3,3,5,5,7,7"`` or ``[3, 3, 5, 5, 7, 7]``."""
    if mix is None or mix == "":
        return None
    if isinstance(mix, str):
        need_text(mix, "mix", 60, r"\s*\d+(\s*,\s*\d+)*\s*")
        mix = [int(part) for part in mix.split(",")]
    if not isinstance(mix, list) or not all(isinstance(s, int) and not isinstance(s, bool)
                                            for s in mix):
        raise StudioError(f"mix must be sizes such as \"3,3,5,5,7,7\", got {_describe(mix)}")
    wanted = tuple(sorted(mix))
    if list(wanted) not in size_mixes():
        raise StudioError(f"mix {','.join(map(str, wanted))} is not a free-play mix; one of "
                          + "; ".join(",".join(map(str, m)) for m in size_mixes()))
    return wanted


def random_board(seed: Any = None, mix: Any = None) -> dict:
    """A uniformly random valid free-play board (the generator's draw, as ``kiwara generate``
    makes it: the same seed and mix give the same board), checked like :func:`check_board`."""
    from ..games.kiwara.generator import sample_layouts
    seed = seed_or_new(seed)
    if seed >= 2 ** 32:
        raise StudioError("seed must be below 4,294,967,296 for a random board")
    wanted = parse_mix(mix)
    layout = sample_layouts(1, seed, mix=wanted)[0]
    command = f"kiwara generate --seed {seed}" + (
        f" --mix {','.join(map(str, wanted))}" if wanted else "")
    return {**check_board(list(layout.rows)), "seed": seed,
            "mix": list(wanted) if wanted else None, "command": command}


# -- catalogue -----------------------------------------------------------------------------------
def catalogue() -> dict:
    """What the page offers: built-in layouts and variants, rulesets, mixes, agents, palette,
    papers and the limits."""
    from ..games.awimbawe import builtin_variant_names as awimbawe_variants
    from ..games.kiwara import builtin_variant_names
    from ..games.kiwara.formats import builtin_names
    from ..games.kiwara.printing.board import TINTS
    from ..games.kiwara.printing.kit import PLAYERS
    return {
        "layouts": {name: list(builtin_layout(name).rows) for name in builtin_names()},
        "rules": list(RULESETS),
        "mixes": size_mixes(),
        "variants": builtin_variant_names(),
        "awimbawe_variants": awimbawe_variants(),
        "agents": list(AGENT_KINDS),
        "palette": {name: name_tint(name) for name in TERRITORY_KEYS},
        "player_colours": [colours.fill for colours in PLAYERS],
        "tints": list(TINTS),
        "papers": ["a4", "letter"],
        "limits": {"playtest_games": PLAYTEST_MAX_GAMES, "playtest_work": PLAYTEST_MAX_WORK,
                   "mcts_iterations": MCTS_MAX_ITERATIONS},
    }


def agent_spec(kind: Any, iterations: Any = None) -> str:
    """``random``, ``greedy`` or ``mcts:N`` from the page's choice of agent and strength."""
    kind = need_choice(kind, "agent", AGENT_KINDS)
    if kind != "mcts":
        return kind
    n = 500 if iterations is None else need_int(iterations, "mcts iterations", 10,
                                                  MCTS_MAX_ITERATIONS)
    return f"mcts:{n}"


def kiwara_variant(name: Any):
    """A built-in rules variant (the page never names a file)."""
    from ..games.kiwara import KiwaraVariant, builtin_variant_names
    return KiwaraVariant.load(need_choice(name or "classic", "variant", builtin_variant_names()))


# -- print files ---------------------------------------------------------------------------------
PRINT_FORMATS = {"svg": "image/svg+xml", "pdf": "application/pdf", "png": "image/png"}


@dataclass(frozen=True)
class PrintFile:
    name: str
    mimetype: str
    data: bytes


def print_file(rows: Any, format: Any = "pdf", paper: Any = "a4", cell_mm: Any = None,
               crop_marks: Any = False, bleed_mm: Any = 0.0, backs: Any = "fold",
               dpi: Any = None, kit: Any = False, variant: Any = "classic",
               title: Any = None) -> PrintFile:
    """The board (and with ``kit`` the print-and-play kit) as ``kiwara export`` writes it, with
    the same options, as bytes: SVG (one page), PDF (every page) or PNG (one page)."""
    from ..printing import BACKS, PNG_DPI, Paper, PrintOptions, render_pdf, render_png
    from ..games.kiwara.printing import print_set
    layout = board_from_rows(rows)
    fmt = need_choice(format, "format", PRINT_FORMATS)
    options = PrintOptions(
        Paper.parse(need_text(paper, "paper", 40)),
        None if cell_mm in (None, "") else need_number(cell_mm, "cell size (mm)", 10, 200),
        need_bool(crop_marks, "crop marks"), need_number(bleed_mm, "bleed (mm)", 0, 10),
        backs=need_choice(backs, "backs", BACKS))
    dpi = PNG_DPI if dpi in (None, "") else need_int(dpi, "dpi", 30, 600)
    title = "Kiwara board" if title in (None, "") else need_text(
        title, "title", 60, r"[\w .,'()#+-]*")
    pages = print_set(layout, options, title=title, kit=need_bool(kit, "kit"),
                      variant=kiwara_variant(variant))
    stem = re.sub(r"[^\w-]+", "-", title).strip("-").lower() or "kiwara-board"
    stem += "-kit" if kit else ""
    if fmt == "pdf":
        return PrintFile(f"{stem}.pdf", PRINT_FORMATS[fmt], render_pdf(pages))
    if len(pages) > 1:
        raise StudioError(f"this print is {len(pages)} pages; {fmt.upper()} holds one page, "
                          f"download the PDF")
    if fmt == "png":
        return PrintFile(f"{stem}.png", PRINT_FORMATS[fmt], render_png(pages[0], dpi))
    return PrintFile(f"{stem}.svg", PRINT_FORMATS[fmt], pages[0].svg.encode("utf-8"))


# -- games ---------------------------------------------------------------------------------------
@dataclass
class Session:
    """A game between the page's person and an agent. ``lock`` guards the state: the agent's
    job and the person's moves never interleave."""

    id: str
    game: Any
    state: Any
    human: int                       # the person's seat
    agent: Any
    agent_label: str
    seed: int
    rng: random.Random
    chance_rng: random.Random
    setup: Any = None
    variant: Any = None
    moves: list = field(default_factory=list)
    log: list = field(default_factory=list)
    last: dict | None = None
    job: Job | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def busy(self) -> bool:
        return self.job is not None and self.job.running

    @property
    def names(self) -> list[str]:
        """Each seat's name at the table: "you", and the agent's label (one name everywhere)."""
        return ["you" if s == self.human else self.agent_label for s in (0, 1)]


class Studio:
    """Open games and background jobs of one studio (the server holds one; tests make their
    own). ``workers`` is the play-test's process count (None: one per core)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers
        self.jobs = Jobs()
        self.sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()
        self._numbers = itertools.count(1)

    # -- sessions ------------------------------------------------------------------------------
    def _add(self, make: Callable[[str], Session]) -> Session:
        with self._lock:
            session = make(f"g{next(self._numbers)}")
            self.sessions[session.id] = session
            while len(self.sessions) > MAX_GAMES:
                self.sessions.popitem(last=False)
        return session

    def _open(self, game, state, human: int, spec: str, seed: int, setup, variant,
              moves: list | None = None) -> Session:
        """A new game's session: the agent from its spec, one random stream for the agent's
        choices and one for chance (so the agent's appetite never shifts the deals); chance
        nodes at the start are drawn at once."""
        from ..agents import make_agent
        agent = make_agent(spec, game)
        session = self._add(lambda gid: Session(
            gid, game, state, human, agent, spec, seed, random.Random(f"{seed}:agent"),
            random.Random(f"{seed}:chance"), setup, variant, moves=list(moves or ())))
        with session.lock:
            self._settle(session)
        return session

    def session(self, game_id: Any, game_name: str) -> Session:
        session = self.sessions.get(game_id) if isinstance(game_id, str) else None
        if session is None or session.game.name != game_name:
            raise StudioError(f"no {game_name} game of that id (start a new one)")   # no echo
        return session

    # -- Kiwara --------------------------------------------------------------------------------
    def new_kiwara(self, rows: Any, agent: Any = "greedy", iterations: Any = None,
                   seat: Any = 0, variant: Any = "classic", seed: Any = None) -> dict:
        """A game of Kiwara on ``rows`` against an agent; the person plays seat ``seat`` (0
        opens with the totem)."""
        from ..games.kiwara import KIWARA
        layout = board_from_rows(rows)
        rules = kiwara_variant(variant)
        if layout.grid.size > 64:
            raise StudioError("the studio plays boards of at most 64 cells")
        spec = agent_spec(agent, iterations)
        human = need_int(seat, "seat", 0, 1)
        seed = seed_or_new(seed)
        session = self._open(KIWARA, KIWARA.new_state(layout, rules), human, spec, seed, layout,
                             rules)
        return self.kiwara_view(session)

    def load_kiwara(self, record: Any, agent: Any = "greedy", iterations: Any = None,
                    seat: Any = None) -> dict:
        """A game from a record's text (as downloaded), replayed move by move; the person takes
        ``seat`` (default: the player to move) and the game goes on from there."""
        from ..games.kiwara import KIWARA, KiwaraRecord
        from ..games.kiwara.record import DRAW
        text = need_text(record, "record", MAX_TEXT)
        game_record = KiwaraRecord.from_json(text, "record")
        states = list(game_record.states())       # ReplayError names the illegal move
        state = states[-1]
        seed = game_record.extra.get("seed")
        seed = seed if isinstance(seed, int) and 0 <= seed < 2 ** 63 else seed_or_new(None)
        if seat is None:
            human = state.current_player() if state.current_player() in (0, 1) else 0
        else:
            human = need_int(seat, "seat", 0, 1)
        spec = agent_spec(agent, iterations)
        if game_record.deck is not None:
            state = state.determinize(human, None)     # a fixed deck order: forgotten
        session = self._open(KIWARA, state, human, spec, seed, game_record.layout,
                             game_record.variant,
                             [m for m in game_record.moves if not m.startswith(DRAW)])
        session.log.append(f"loaded a record of {len(game_record.moves)} moves")
        return self.kiwara_view(session)

    def play(self, game_id: Any, move: Any, game_name: str = "kiwara") -> dict:
        """The person's move (in notation). Only the game's ``parse_move`` reads it, and it says
        why an illegal one is refused in words the person may know (Awimbawé's never repeat the
        text, nor tell a blind snake's chosen pick from another); nothing here echoes it."""
        session = self.session(game_id, game_name)
        text = need_text(move, "move", 80, echo=False)
        with session.lock:
            if session.busy:
                raise StudioError("the agent is still thinking; wait for its move")
            state = session.state
            if state.is_terminal():
                raise StudioError("the game is over: start a new one")
            if state.current_player() != session.human:
                raise StudioError("it is the agent's turn, not yours")
            parsed = session.game.parse_move(state, text)
            self._apply(session, parsed)
            self._settle(session)
        return self.view(session)

    def agent_turn(self, game_id: Any, game_name: str = "kiwara") -> Job | None:
        """Start the agent's moves in the background (None when it is not the agent's turn):
        it plays until the person is to move or the game is over."""
        session = self.session(game_id, game_name)
        with session.lock:
            if session.busy:
                return session.job
            if session.state.is_terminal() or session.state.current_player() == session.human:
                return None

            def work(job: Job) -> dict:
                with session.lock:
                    while not session.state.is_terminal() and \
                            session.state.current_player() not in (session.human,):
                        job.check()
                        try:
                            self._apply(session, session.agent.choose(session.state,
                                                                      session.rng))
                        except KiwaraError:
                            # the engine's words would be about the agent's own cards, which
                            # the person must not read (a bug in the agent: never expected)
                            raise StudioError("the agent could not make a legal move (a bug in "
                                              "the agent); start a new game") from None
                        self._settle(session)
                return {"game": session.id}

            def finish(job: Job) -> None:
                if job.state == "failed":
                    session.log.append(f"the agent failed: {job.error}")

            session.job = self.jobs.start("agent", work, finish)
            return session.job

    def _apply(self, session: Session, move: Any) -> None:
        before = session.state
        session.state = before.apply(move)
        if session.game.name == "kiwara":
            from ..core.game import CHANCE
            if before.current_player() != CHANCE:
                session.moves.append(str(move))
            session.last = kiwara_effects(before, session.state, move, session)
            session.log.append(session.last["words"])
        else:
            from ..games.awimbawe.view import narrate
            # told from the person's seat: it names no card they have not seen
            session.log += narrate(before, session.state, session.human, session.names)

    def _settle(self, session: Session) -> None:
        """Draw chance nodes, and play the person's forced moves (a pass with an empty reserve,
        the only move): nothing to decide there."""
        from ..core.game import CHANCE, sample_chance
        while not session.state.is_terminal():
            player = session.state.current_player()
            if player == CHANCE:
                self._apply(session, sample_chance(session.state, session.chance_rng))
            elif player == session.human and session.game.name == "kiwara" and \
                    [m.is_pass for m in session.state.legal_moves()] == [True]:
                self._apply(session, session.state.legal_moves()[0])
            else:
                return

    def view(self, session: Session) -> dict:
        if session.game.name == "kiwara":
            return self.kiwara_view(session)
        return self.awimbawe_view(session)

    def game_view(self, game_id: Any, game_name: str) -> dict:
        session = self.session(game_id, game_name)
        return self.view(session)

    def kiwara_view(self, session: Session) -> dict:
        from ..games.kiwara.variant import KIND_NAMES, KINDS
        state = session.state
        grid = state.grid
        scoring = state.scoring()
        over = state.is_terminal()
        to_move = state.current_player()
        yours = not over and to_move == session.human and not session.busy
        line = [] if state.totem is None else [grid.cell_name(c) for c in grid.lines[state.totem]
                                              if state.token(c) is None]
        seats = ["you" if s == session.human else session.agent_label for s in (0, 1)]
        return {
            "game": "kiwara", "id": session.id, "seed": session.seed,
            "rows": list(state.layout.rows), "variant": state.variant.name,
            "seats": seats, "you": session.human, "to_move": to_move, "your_turn": yours,
            "over": over, "ply": state.ply, "totem": state.totem,
            "totem_line": None if state.totem is None else grid.line_name(state.totem),
            "line_cells": line,
            "legal": [kiwara_move_json(m, grid) for m in state.legal_moves()] if yours else [],
            "reserves": [[{"kind": k, "name": KIND_NAMES[i], "count": state.reserve(p)[k],
                           "points": state.variant.points[i]} for i, k in enumerate(KINDS)]
                         for p in (0, 1)],
            "hands": [list(state.hand(p)) for p in (0, 1)],
            "scores": list(scoring.totals),
            "okapi": scoring.okapi, "okapi_points": scoring.okapi_points,
            "territories": [t.to_dict() for t in scoring.territories],
            "verdict": kiwara_verdict(scoring, seats),
            "last": session.last,
            "log": session.log[-40:],
            "busy": session.job.id if session.busy else None,
            "svg": screen_board(state.layout, [None if t is None else tuple(t)
                                               for t in state.tokens()],
                                state.totem, state.variant.totem_direction),
        }

    def kiwara_record(self, game_id: Any) -> dict:
        """The game's record (what ``kiwara replay`` reads), finished or not."""
        from ..games.kiwara import KiwaraRecord
        session = self.session(game_id, "kiwara")
        with session.lock:
            extra: dict = {"players": ["you" if s == session.human else session.agent_label
                                       for s in (0, 1)], "seed": session.seed}
            if session.state.is_terminal():
                scoring = session.state.scoring()
                extra["result"] = {"scores": list(scoring.totals), "winner": scoring.winner}
            record = KiwaraRecord.from_moves(session.setup, session.variant, session.moves, **extra)
        return record.to_dict()

    # -- Awimbawé ------------------------------------------------------------------------------
    def new_awimbawe(self, agent: Any = "greedy", iterations: Any = None, seat: Any = 0,
                     variant: Any = "classic", seed: Any = None) -> dict:
        """A match of Awimbawé against an agent (``mcts`` means ``ismcts`` here: the agent sees
        only what its seat may see). The seed is drawn from :mod:`secrets` and a request may
        not choose it: whoever knows the seed knows every deal. The view gives it once the
        match is over, with the record, so the match can be replayed."""
        from ..games.awimbawe import builtin_variant_names, load_variant
        from ..games.awimbawe.game import AWIMBAWE
        if seed is not None:
            raise StudioError("seed: an Awimbawé match's seed is drawn by the studio, never "
                              "chosen (it would tell you every deal); it is shown once the "
                              "match is over")
        rules = load_variant(need_choice(variant or "classic", "variant", builtin_variant_names()))
        spec = agent_spec(agent, iterations).replace("mcts", "ismcts")
        human = need_int(seat, "seat", 0, 1)
        session = self._open(AWIMBAWE, AWIMBAWE.new_state(None, rules), human, spec,
                             secret_seed(), None, rules)
        return self.awimbawe_view(session)

    def awimbawe_view(self, session: Session) -> dict:
        """The page's view of a match: every Awimbawé answer (new, move, view, the agent's
        turn) is this dict."""
        # THE RULE: an Awimbawé answer is built from what the person's seat may know and nothing
        # else: their observation (never the state), the moves offered to them, the finished
        # rounds' results, and the log told from their seat (narrate). No seed while the match
        # runs (it rebuilds every deal, the agent's hand included); it comes once the match is
        # over, as the record does. A new field must come from one of these, or wait for the end.
        state = session.state
        me = session.human
        seen = state.observation(me)
        over = state.is_terminal()
        yours = not over and state.current_player() == me and not session.busy
        crowns = state.variant.card_crowns
        view = {
            "game": "awimbawe", "id": session.id, "variant": state.variant.name,
            "seats": session.names, "you": me, "your_turn": yours, "over": over,
            # after the end the observation counts on to a round that is never dealt
            "round": len(state.rounds) if over else seen.round,
            "rounds_won": list(seen.rounds_won),
            "hand": [card_json(name, crowns) for name in seen.hand],
            "opponent_hand_size": seen.opponent_hand_size,
            "piles": [[[card_json(name, crowns) for name in pile] for pile in seen.piles[s]]
                      for s in (0, 1)],
            "trick": [card_json(name, crowns) for name in seen.trick],
            "leader": seen.leader, "blocked": list(seen.blocked),
            "blind_blocks": seen.blind_blocks, "hyenas": list(seen.hyenas),
            "crowns": list(seen.crowns), "tricks": seen.tricks,
            "last_trick": trick_json(seen.last_trick, crowns,
                                     seen.round if seen.tricks else seen.round - 1),
            "rounds": [{"winner": r.winner, "crowns": list(r.crowns), "by_hyenas": r.by_hyenas,
                        "tricks": r.tricks} for r in state.rounds],
            "winner": state.match_winner if over else None,
            "legal": [awimbawe_move_json(m) for m in state.legal_moves()] if yours else [],
            "log": session.log[-40:],
            "busy": session.job.id if session.busy else None,
        }
        if over:
            view["seed"] = session.seed
        return view

    def awimbawe_record(self, game_id: Any) -> dict:
        """The match record, once the match is over (it holds every deal: before the end it
        would show the person the hidden cards)."""
        from ..games.awimbawe.record import MatchRecord
        session = self.session(game_id, "awimbawe")
        with session.lock:
            if not session.state.is_terminal():
                raise StudioError("the record holds every card dealt, so it is given once the "
                                  "match is over")
            players = ["you" if s == session.human else session.agent_label for s in (0, 1)]
            return json_of(MatchRecord.from_state(session.state, players=players,
                                                  seed=session.seed).to_json())

    # -- play-test -------------------------------------------------------------------------------
    def start_playtest(self, rows: Any, agent: Any = "greedy", iterations: Any = None,
                       opponent: Any = None, games: Any = 200, seed: Any = None,
                       variant: Any = "classic") -> Job:
        """A quick play-test of the board in the background: ``games`` seeded games of
        ``agent`` against ``opponent`` (default: itself), seats alternating, on the server's
        cores; the job's result is :func:`playtest_summary`. Refused beyond the limits."""
        from ..lab import Pairing, compute_metrics, play_match
        layout = board_from_rows(rows)
        rules = kiwara_variant(variant)
        first = agent_spec(agent, iterations)
        second = first if opponent in (None, "") else agent_spec(opponent, iterations)
        n = need_int(games, "games", 2, PLAYTEST_MAX_GAMES)
        work_per_move = max(int(s.split(":")[1]) if ":" in s else 1 for s in (first, second))
        if work_per_move > 1 and n * work_per_move > PLAYTEST_MAX_WORK:
            raise StudioError(f"{n} games with {first} against {second} is too much for a quick "
                              f"play-test (games × iterations at most {PLAYTEST_MAX_WORK:,}); "
                              f"use `kiwara playtest` for long runs")
        seed = seed_or_new(seed)
        pairing = Pairing(first, second)

        def work(job: Job) -> dict:
            job.progress(0, n)
            results = play_match(layout, rules, pairing, n, seed, self.workers,
                                 progress=job.progress)
            return playtest_summary(compute_metrics(results, layout), pairing, seed)

        return self.jobs.start("playtest", work)

    def job(self, job_id: Any) -> Job:
        return self.jobs.get(job_id)

    def close(self) -> None:
        self.jobs.cancel_all()


# -- what the page shows of a game ---------------------------------------------------------------
def kiwara_move_json(move, grid) -> dict:
    """A legal move as the page builds it from clicks: animal, cell, crocodile swaps, totem."""
    return {"text": str(move), "kind": move.kind,
            "cell": None if move.cell is None else grid.cell_name(move.cell),
            "swaps": [grid.cell_name(c) for c in move.swaps], "totem": move.totem,
            "card": move.card, "pass": move.is_pass}


def kiwara_verdict(scoring, seats: list[str]) -> str:
    first, second = scoring.totals
    if scoring.winner is None:
        word = "a draw" if scoring.final else "level"
    else:
        who = seats[scoring.winner]
        who = "you" if who == "you" else f"{PLAYER_NAMES[scoring.winner]} player ({who})"
        verb = ("win" if who == "you" else "wins") if scoring.final else \
            ("lead" if who == "you" else "leads")
        word = f"{who} {verb}"
    return f"{'final' if scoring.final else 'so far'}: {first}–{second}, {word}"


def kiwara_effects(before, after, move, session: Session) -> dict:
    """The move in words with its effects (fled gazelles, tokens turned face down, swaps, the
    Okapi), and the cells each concerns, for the page to mark."""
    from ..games.kiwara.variant import KIND_NAMES, KINDS
    grid = before.grid
    player = before.current_player()
    who = "you" if player == session.human else f"{session.agent_label} ({PLAYER_NAMES[player]})"
    name = grid.cell_name
    placed = fled = flipped = []
    if move.is_pass:
        words = f"{who}: no token left in hand, pass"
    elif move.card is not None:
        words = f"{who}: {'draws' if move.draw else 'uses'} card {move.card} ({move})"
    elif move.kind is None:
        words = f"{who}: totem to stone {move.totem}, facing {grid.line_name(move.totem)}"
    else:
        animal = KIND_NAMES[KINDS.index(move.kind)]
        placed = [name(move.cell)] + [name(c) for c in move.swaps]
        words = f"{who}: {animal} on {name(move.cell)}"
        if move.swaps:
            words += ", swaps with the gazelle" + ("s" if len(move.swaps) > 1 else "") + " on " + \
                ", ".join(name(c) for c in move.swaps)
        fled = [name(c) for c in grid.cells if (t := before.token(c)) is not None
                and after.token(c) is None]
        flipped = [name(c) for c in grid.cells if (t := after.token(c)) is not None
                   and not t.face_up and (b := before.token(c)) is not None and b.face_up
                   and c not in move.swaps]
        if not after.token(move.swaps[-1] if move.swaps else move.cell).face_up:
            words += " (face down: next to a lion)"
        if fled:
            words += "; the gazelle" + ("s" if len(fled) > 1 else "") + " on " + \
                ", ".join(fled) + " flee" + ("" if len(fled) > 1 else "s") + " back to hand"
        if flipped:
            words += "; face down: " + ", ".join(flipped)
        if move.totem is not None:
            words += f"; totem to {move.totem}"
    if before.okapi is None and after.okapi is not None:
        okapi = "you take" if after.okapi == session.human else f"{PLAYER_NAMES[after.okapi]} " \
                                                                 f"player takes"
        words += f"; {okapi} the Okapi"
    return {"move": str(move), "player": player, "words": words, "placed": placed,
            "fled": fled, "flipped": flipped}


AWIMBAWE_SUITS = {"G": "grassland", "D": "desert", "M": "mountain", "P": "plain", "E": "sky"}
AWIMBAWE_ANIMALS = {1: "mouse", 2: "rhinoceros", 3: "cheetah", 4: "hyena", 5: "snake",
                    6: "elephant"}


def card_json(name: str, crowns) -> dict:
    """A card as the page draws it; ``"?"`` is a face-down card (nothing else is said of it)."""
    if name == "?":
        return {"name": "?"}
    from ..games.awimbawe.cards import BY_NAME
    value = int(name[1:])
    return {"name": name, "suit": AWIMBAWE_SUITS[name[0]], "value": value,
            "animal": AWIMBAWE_ANIMALS.get(value, "eagle"), "crowns": crowns[BY_NAME[name]]}


def awimbawe_move_json(move) -> dict:
    from ..games.awimbawe.cards import CHEETAH, KIND, NAMES, RHINOCEROS, SNAKE
    from ..games.awimbawe.moves import (BARE, CHEETAH_CHOICE, EAGLE_FIGHT, EAGLE_FLEE, RHINO_SLIDE,
                                        SNAKE_HAND, SNAKE_PILE, START)
    card = NAMES[move.card] if move.card >= 0 else None
    powers = (CHEETAH, RHINOCEROS, SNAKE)   # a bare eagle has no choice to skip
    words = {
        BARE: "play it" + (" without its power" if KIND[move.card] in powers else ""),
        CHEETAH_CHOICE: "cheetah: " + ("I lead the next trick" if move.a == 0 else
                                       "you lead the next trick"),
        RHINO_SLIDE: f"rhinoceros: the top of their pile {move.a + 1} goes under their pile "
                     f"{move.b + 1}",
        SNAKE_PILE: f"snake: block the top of their pile {move.a + 1}",
        SNAKE_HAND: "snake: block a card of their hand, unseen",
        EAGLE_FLEE: "eagle: flee",
        EAGLE_FIGHT: "eagle: fight",
        START: "I lead the next round" if move.a == 0 else "you lead the next round",
    }.get(move.kind, move.text)
    return {"text": move.text, "card": card, "words": words}


def trick_json(trick, crowns, round_number: int) -> dict | None:
    """The last finished trick (the rules let both players look at it again): who led, the two
    moves as both saw them, the cards, who won, whether the eagle fled, and its round."""
    if trick is None:
        return None
    return {"leader": trick.leader, "moves": list(trick.moves),
            "cards": [card_json(name, crowns) for name in trick.cards],
            "winner": trick.winner, "fled": trick.fled, "round": round_number}


def playtest_summary(metrics, pairing, seed: int) -> dict:
    """What the Test view shows: first-player win rate with its interval, margin,
    decisiveness, length and the lab's layout score."""
    def proportion(p) -> dict:
        return {"value": p.value, "low": p.low, "high": p.high}

    def summary(s) -> dict:
        return {"mean": s.mean, "low": s.low, "high": s.high}

    return {"games": metrics.games, "agents": [pairing.a, pairing.b], "seed": seed,
            "first_player_win": proportion(metrics.first_player_win),
            "draws": proportion(metrics.draw_rate),
            "margin": summary(metrics.margin), "abs_margin": summary(metrics.abs_margin),
            "decisiveness": summary(metrics.decisiveness), "length": summary(metrics.length),
            "lead_changes": summary(metrics.lead_changes), "score": metrics.score}


def json_of(text: str) -> Any:
    import json
    return json.loads(text)
