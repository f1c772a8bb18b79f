"""The results store: one SQLite file (stdlib ``sqlite3``) holding every game of every sweep.

Safety, which is the point of this module:

* every finished game is inserted in its own transaction, keyed UNIQUE by (setup, variant,
  agents, game index) with ``INSERT OR IGNORE``: a game is either wholly stored or not at all,
  and a game stored twice (two sweeps racing, or a resumed sweep) is kept once;
* WAL journal with ``synchronous=NORMAL``: a committed game survives the process being killed at
  any instant (``kill -9``); only a power cut may lose the last few commits, never corrupt the file;
* a busy timeout, so two sweeps on one database wait for each other's short write transactions
  instead of failing.

The schema (version 3, :data:`SCHEMA`) knows no game. An experiment is (setup, variant, agent
pairing). A setup is what a game starts from beside its rules (a Kiwara layout, an Awimbawé
deal): a row of ``setups`` keyed by its game's name and the game's key for it
(``Game.setup_key``), with the game's descriptors of it as JSON (``Game.setup_descriptors``).
``games`` holds the neutral fields of each game and the game's own statistics as JSON;
``variants`` the rules that differ from a game's defaults, as JSON, each row a game's (keyed by
the game and that JSON: two games' default rules are two variants); ``experiments`` what a
sweep set out to measure; ``metric_summaries`` the metrics of each experiment; ``races`` each
race's settings and outcome.

Files of version 1 (the first kiwara stores: setups in a table ``layouts`` with a board's columns,
ids in ``layout_id`` columns, and Kiwara's statistics in ``games`` columns of their own before
the ``stats`` column) are migrated when opened, in one transaction: each table is copied into
the schema above, the columns an old table has beyond it going into the JSON beside (a setup's
descriptors, a game's statistics), so every old game is read and a sweep resumes. The legacy
columns are read, never written; an older kiwara no longer opens a migrated file. Files of
version 2 (one ``variants`` row for every game's rules of the same JSON) are migrated the same
way: a row that two games played is split (``_key_variants_by_game``).
"""
from __future__ import annotations

import dataclasses
import json
import math
import os
import shlex
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection

from ..core.game import Game
from ..core.errors import KiwaraError
from .matches import GameResult, Pairing, resolve_game
from .metrics import NEUTRAL_VALUES, Metrics, all_metric_names, compute_metrics, metric_names

SCHEMA_VERSION = 3
MIGRATED_VERSIONS = ("1", "2")     # older schemas this kiwara migrates when it opens them
BUSY_TIMEOUT_MS = 60_000
SQLITE_HEADER = b"SQLite format 3\x00"
DAMAGE_ERRORS = ("SQLITE_CORRUPT", "SQLITE_NOTADB")     # a file no rerun repairs
ENVIRONMENT_ERRORS = ("SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_FULL", "SQLITE_IOERR",
                      "SQLITE_READONLY", "SQLITE_CANTOPEN", "SQLITE_CORRUPT", "SQLITE_NOTADB")

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS setups (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,                    -- registered game name
    setup TEXT NOT NULL,                   -- Game.setup_key(setup)
    descriptors TEXT NOT NULL,             -- JSON of Game.setup_descriptors(setup)
    UNIQUE (game, setup)
);
CREATE TABLE IF NOT EXISTS variants (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,                    -- the game whose rules these are
    name TEXT NOT NULL,
    spec TEXT NOT NULL,                    -- JSON of the rule parameters that differ from classic
    UNIQUE (game, spec)
);
CREATE TABLE IF NOT EXISTS agent_configs (
    id INTEGER PRIMARY KEY,
    agent_a TEXT NOT NULL, agent_b TEXT NOT NULL,
    UNIQUE (agent_a, agent_b)
);
CREATE TABLE IF NOT EXISTS games (
    setup_id INTEGER NOT NULL REFERENCES setups(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    game_index INTEGER NOT NULL,
    master_seed INTEGER NOT NULL,
    seed INTEGER NOT NULL,                 -- derived from master_seed and game_index
    a_seat INTEGER NOT NULL,               -- 0: agent A was the first player
    winner INTEGER,                        -- seat 0 / 1, NULL for a draw
    score_first REAL NOT NULL, score_second REAL NOT NULL,
    plies INTEGER NOT NULL, decisions INTEGER NOT NULL, branching REAL NOT NULL,
    lead_changes INTEGER NOT NULL, decisiveness REAL,
    seconds REAL NOT NULL,
    finished_at REAL NOT NULL,
    stats TEXT NOT NULL,                   -- JSON of the game's own statistics (GameResult.stats)
    UNIQUE (setup_id, variant_id, agents_id, game_index)
);
CREATE TABLE IF NOT EXISTS experiments (   -- what a sweep set out to measure
    setup_id INTEGER NOT NULL REFERENCES setups(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id),   -- stronger,weaker pairing, if any
    PRIMARY KEY (setup_id, variant_id, agents_id)
);
CREATE TABLE IF NOT EXISTS metric_summaries (
    setup_id INTEGER NOT NULL REFERENCES setups(id),
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    skill_agents_id INTEGER REFERENCES agent_configs(id),
    games INTEGER NOT NULL, skill_games INTEGER NOT NULL,
    score REAL NOT NULL,
    vals TEXT NOT NULL,                    -- JSON {metric name: number}, for rank --by
    metrics TEXT NOT NULL,                 -- JSON of every metric with its interval
    updated_at REAL NOT NULL,
    PRIMARY KEY (setup_id, variant_id, agents_id)
);
CREATE TABLE IF NOT EXISTS races (         -- races (kiwara race): settings and outcome
    id INTEGER PRIMARY KEY,
    variant_id INTEGER NOT NULL REFERENCES variants(id),
    agents_id INTEGER NOT NULL REFERENCES agent_configs(id),
    master_seed INTEGER NOT NULL,
    settings TEXT NOT NULL,                -- JSON: metric, k, delta, tolerance, schedule, budget
    setups TEXT NOT NULL,                  -- JSON list of the raced setup ids, sorted
    result TEXT NOT NULL,                  -- JSON: named setups, stop reason, every arm's fate
    finished_at REAL NOT NULL,
    UNIQUE (variant_id, agents_id, master_seed, settings, setups)
);
"""

# Version 1's names, read by the migration only: its table of setups and their ids' column; a
# setup of a file from before setup keys is its game's (V1_GAME), keyed by its V1_KEY column.
V1_SETUPS, V1_SETUP_ID, V1_KEY, V1_GAME = "layouts", "layout_id", "canonical", "kiwara"
V1_TABLES = (V1_SETUPS, "games", "experiments", "metric_summaries", "races")
V1_NAMES = {"setups": V1_SETUPS, "setup_id": V1_SETUP_ID, "setup": V1_KEY}   # today's → old


class StoreError(KiwaraError):
    """A results database that cannot be opened or does not hold what was asked."""


class DamagedStoreError(StoreError):
    """A results database holding what this kiwara never writes: a page SQLite finds malformed,
    a table gone, stored JSON that does not decode or is not of the shape written (``games.stats``
    not an object, ``metric_summaries.vals`` a list), a number of the wrong type or not finite.
    Rerunning into it cannot repair it. Every value read from the store's tables is decoded and
    checked here (:meth:`Store._decode` and the row checks), so that every command says it in one
    line naming the file, the table and row, what is wrong and what to do."""


# what to do about a damaged row: summaries are recomputed from the games, nothing else is
REMEDY = "rerunning into it cannot repair it: play the games again into a new --db"
SUMMARY_REMEDY = ("the summaries are recomputed from the games: delete them (sqlite3 {path} "
                  "'DELETE FROM metric_summaries') and rerun")
# the numbers of a stored metric ({"value", "low", "high", "successes", "trials"} of a rate,
# {"mean", "std", "low", "high", "n"} of a mean), which must be numbers or null wherever they are
METRIC_NUMBERS = ("value", "low", "high", "successes", "trials", "mean", "std", "n")
METRIC_FIELDS = (("value", frozenset({"low", "high"})), ("mean", frozenset({"low", "high", "n"})),
                 ("trials", frozenset({"successes", "value"})))   # what a metric's kind needs


def _finite(text: str) -> float:
    """A JSON number as Python reads it, refused if it is not finite (1e999 reads as inf)."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is not finite")
    return value


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a finite number")


def _is_number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value)      # bool is not a number


def _shown(value: Any, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 1] + "…"


def _json_kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(value), "a number")


def _metric_problem(name: str, value: Any) -> str | None:
    """What is wrong with one stored metric of ``metrics``: a number or null, a table (a list),
    or an object whose numbers (:data:`METRIC_NUMBERS`, at any depth) are numbers or null."""
    kind = type(value)
    if kind is not dict:
        return None if value is None or kind is list or _is_number(value) else (
            f"metric {name!r} is {_shown(value)}, not a number" if kind is float else
            f"metric {name!r} is {_json_kind(value)}")
    for key, inner in value.items():
        if type(inner) is dict:
            problem = _metric_problem(f"{name}.{key}", inner)
            if problem:
                return problem
        elif inner is not None and key in METRIC_NUMBERS and not _is_number(inner):
            return f"metric {name!r} has {key} {_shown(inner)}, not a finite number"
    for kind, needs in METRIC_FIELDS:
        if kind in value and not needs <= value.keys():
            return f"metric {name!r} lacks {', '.join(sorted(needs - value.keys()))}"
    return None


def game_named(name: str, given: Game | None = None) -> Game:
    """The game called ``name``: ``given`` if that is its name (a game outside the registry,
    such as the tests' toy), else the registered one."""
    if given is not None and given.name == name:
        return given
    from ..core.game import GameNotFoundError, get_game
    try:
        return get_game(name)
    except GameNotFoundError:
        raise StoreError(f"the store holds games of {name!r}, which this kiwara does not know"
                         ) from None


def variant_identity(variant: Any) -> tuple[str, str]:
    """(name, spec): the spec is the JSON of the rules that differ from the defaults, so two
    variant files with the same rules are one variant in the store. A game without variants
    (None) plays its one rules."""
    name = str(getattr(variant, "name", "") or "classic")
    if variant is None:
        table = {}
    elif hasattr(variant, "to_dict"):
        table = variant.to_dict(only_changes=True)
    elif dataclasses.is_dataclass(variant):
        table = {k: v for k, v in dataclasses.asdict(variant).items() if k != "name"}
    else:
        table = {"repr": repr(variant)}
    return name, json.dumps(table, sort_keys=True)


@dataclass(frozen=True)
class Experiment:
    """Ids of one (setup, variant, pairing) in a store."""

    setup_id: int
    variant_id: int
    agents_id: int


@dataclass(frozen=True)
class RankedExperiment:
    """One summarised experiment: its game, the game's key of its setup (``setup``) and the
    game's descriptors of it; ``variant_rules`` is the JSON of its rules that differ from its
    game's defaults."""

    setup_id: int
    game: str
    setup: str
    descriptors: dict
    variant: str
    agents: str
    games: int
    score: float
    values: dict
    metrics: dict
    variant_rules: str = "{}"


class Store:
    """A results database. Open one per process (``sqlite3`` connections do not cross processes)."""

    def __init__(self, path: str | Path, read_only: bool = False) -> None:
        self.path = str(path)
        # read_only (rank, report, explain): the file is opened with SQLite's mode=ro and never
        # created, migrated or written; summaries brought up to date live in a TEMP table
        self.read_only = read_only
        if read_only:
            self._check_readable_file()
        self.db: sqlite3.Connection | None = None
        try:
            self._connect()
        except BaseException:          # a file refused is not left open (the studio lives on)
            if self.db is not None:
                self.db.close()
            raise

    def _connect(self) -> None:
        """Open the file (retrying while SQLite says it is busy opening), check what it holds."""
        # SQLite answers "database is locked" at once, without waiting on the busy timeout, in a
        # few moments of opening (another process switching the file to WAL, or the last
        # connection cleaning up as it closes): two sweeps started together on one new database
        # hit it. Opening is retried until the busy timeout instead.
        deadline, pause = time.monotonic() + BUSY_TIMEOUT_MS / 1000, 0.01
        while True:
            try:
                mode, version = self._open()
                break
            except sqlite3.OperationalError as exc:
                if self.db is not None:
                    self.db.close()
                busy = str(getattr(exc, "sqlite_errorname", "")).startswith("SQLITE_BUSY")
                if busy and time.monotonic() < deadline:
                    time.sleep(pause)
                    pause = min(2 * pause, 0.5)
                    continue
                raise self._unusable(exc) from None
            except sqlite3.DatabaseError as exc:
                raise self._unusable(exc) from None
        if mode.lower() != "wal" and not self.read_only:
            raise StoreError(f"{self.path}: cannot switch the database to WAL mode (got {mode})")
        if version and str(version[0]) != str(SCHEMA_VERSION):
            raise StoreError(f"{self.path}: schema version {version[0]}, this kiwara reads "
                             f"version {SCHEMA_VERSION}")
        self._check_columns()

    def _unusable(self, exc: sqlite3.Error) -> StoreError:
        """The error of a file SQLite cannot open; a damaged one says what can be done."""
        if str(getattr(exc, "sqlite_errorname", "")).startswith(DAMAGE_ERRORS):
            return DamagedStoreError(f"{self.path}: not a usable results database: {exc} "
                                     f"({self._remedy(exc)})")
        return StoreError(f"{self.path}: not a usable results database: {exc}")

    def _open(self) -> tuple[str, Any]:
        """Connect, migrate an older file or create the tables if new; the journal mode and the
        stored schema version."""
        if self.read_only:
            return self._open_read_only()
        self.db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000,
                                  isolation_level=None)   # we issue BEGIN / COMMIT ourselves
        self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._refuse_foreign_database()   # before anything is written into it
        return self._prepare(self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0])

    def _prepare(self, mode: str) -> tuple[str, Any]:
        """Migrate an older file, create the tables if new (a writing connection)."""
        self.db.execute("PRAGMA synchronous = NORMAL")
        self._migrate()
        if self._version() == str(SCHEMA_VERSION):
            self._require_tables()   # not made anew: games would name setups they are not
        self.db.execute("PRAGMA foreign_keys = ON")
        with self.transaction():
            for statement in filter(str.strip, SCHEMA.split(";")):
                self.db.execute(statement)
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema_version', ?)",
                            (str(SCHEMA_VERSION),))
        version = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        self._check_seeding()
        return mode, version

    def _check_readable_file(self) -> None:
        """A reading command's file: it must exist and be an SQLite database (an empty or
        text file is refused before SQLite would make a database of it)."""
        path = Path(self.path)
        if not path.exists():
            raise StoreError(f"{self.path}: no such results database")
        if path.is_dir():
            raise StoreError(f"{self.path}: a directory, not a results database")
        try:
            with open(path, "rb") as f:
                head = f.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(f"{self.path}: cannot read it: {exc.strerror}") from None
        if not head:
            raise StoreError(f"{self.path}: an empty file, not a results database (kiwara sweep "
                             f"or race creates one)")
        if head != SQLITE_HEADER:
            raise StoreError(f"{self.path}: not a results database (not an SQLite file)")

    def _open_read_only(self) -> tuple[str, Any]:
        """Connect with SQLite's mode=ro (so a read-only mount works too). A file of an older
        schema is not migrated in place: it is copied into memory and the copy migrated. The
        summaries are shadowed by a TEMP table, where the stale ones are recomputed."""
        # SQLite reads a WAL file through an index (-shm) it makes beside it; where it cannot
        # (a read-only mount) and no writer is at work (no -wal), nobody can change the file
        # while it is read: it is opened as immutable
        where = Path(self.path).absolute()
        fixed = not os.access(where.parent, os.W_OK) and not Path(f"{where}-wal").exists()
        uri = where.as_uri() + "?mode=ro" + ("&immutable=1" if fixed else "")
        self.db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                                  isolation_level=None)
        self.db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._refuse_foreign_database()
        version = self._version()
        if version is None:
            raise StoreError(f"{self.path}: not a kiwara results database (it holds no tables)")
        if version != str(SCHEMA_VERSION) and version not in MIGRATED_VERSIONS:
            raise StoreError(f"{self.path}: schema version {version}, this kiwara reads "
                             f"version {SCHEMA_VERSION}")
        mode = self.db.execute("PRAGMA journal_mode").fetchone()[0]
        if version in MIGRATED_VERSIONS:      # read as it is: migrated in a copy, in memory
            memory = sqlite3.connect(":memory:", isolation_level=None)
            self.db.backup(memory)
            self.db.close()
            self.db = memory
            return self._prepare(mode)
        self.db.execute("PRAGMA temp_store = MEMORY")
        columns = ", ".join(_columns(self.db, "metric_summaries"))
        self.db.execute(_table_statement("metric_summaries").replace(
            "CREATE TABLE IF NOT EXISTS", "CREATE TEMP TABLE", 1))
        self.db.execute(f"INSERT INTO temp.metric_summaries ({columns}) SELECT {columns} FROM "
                        f"main.metric_summaries")
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        self.paired_seeding = bool(self.db.execute(
            "SELECT 1 FROM meta WHERE key = 'game_seeding'").fetchone()) or not self.db.execute(
            "SELECT 1 FROM games LIMIT 1").fetchone()
        return mode, row

    def _version(self) -> str | None:
        if "meta" not in self._tables():
            return None
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return row[0] if row else None

    def _migrate(self) -> None:
        """Copy a file of an older version into today's schema (see the module's docstring),
        once: two processes opening it together queue on the write lock, and the second finds
        it done."""
        if self._version() not in MIGRATED_VERSIONS:
            return
        self.db.execute("PRAGMA foreign_keys = OFF")     # the old tables go while referenced
        with self.transaction() as db:
            version = self._version()
            if version not in MIGRATED_VERSIONS:
                return
            if version == "1":
                self._migrate_v1(db)
            self._key_variants_by_game(db)
            db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                       (str(SCHEMA_VERSION),))

    def _migrate_v1(self, db: sqlite3.Connection) -> None:
        """Version 1 → 2: setups of any game, the statistics of a game as JSON."""
        old = self._tables()
        self._check_v1_columns(old)
        for table in V1_TABLES:
            if table in old:
                db.execute(f'ALTER TABLE "{table}" RENAME TO "v1_{table}"')
        for statement in filter(str.strip, SCHEMA.split(";")):
            db.execute(statement)
        self._copy_setups(db)
        self._copy_games(db, old["games"])
        for table in ("experiments", "metric_summaries"):
            columns = [c for c in _columns(db, table) if c != "setup_id"]
            db.execute(f"INSERT INTO {table} (setup_id, {', '.join(columns)}) SELECT "
                       f"{V1_SETUP_ID}, {', '.join(columns)} FROM v1_{table}")
        if "races" in old:
            db.execute("INSERT INTO races SELECT id, variant_id, agents_id, master_seed, "
                       f"settings, {V1_SETUPS}, result, finished_at FROM v1_races")
        for table in V1_TABLES:
            if table in old:
                db.execute(f'DROP TABLE "v1_{table}"')

    @staticmethod
    def _key_variants_by_game(db: sqlite3.Connection) -> None:
        """Version 2 → 3: a variant is a game's. Before, two games' rules of the same spec (both
        defaults: ``{}``) were one row, named by whichever game wrote first; such a row is split,
        the game that played it first keeping its id and name, each other game getting a row of
        its own (named ``classic`` for the defaults, else the same name) and its games,
        experiments, summaries and races moved to it."""
        if "game" in _columns(db, "variants"):
            return
        old = db.execute("SELECT id, name, spec FROM variants ORDER BY id").fetchall()
        games_of = dict(db.execute("SELECT id, game FROM setups"))
        first = {}          # variant id → {game: when first played}
        for vid, sid, at in db.execute(
                "SELECT variant_id, setup_id, MIN(finished_at) FROM games "
                "GROUP BY variant_id, setup_id UNION ALL SELECT variant_id, setup_id, NULL FROM "
                "experiments UNION ALL SELECT variant_id, setup_id, NULL FROM metric_summaries"):
            game, when = games_of.get(sid), at if at is not None else float("inf")
            if game is not None:
                seen = first.setdefault(vid, {})
                seen[game] = min(seen.get(game, when), when)
        races = db.execute("SELECT id, variant_id, setups FROM races").fetchall()
        for rid, vid, setups in races:
            ids = json.loads(setups)
            if ids and games_of.get(ids[0]) is not None:
                first.setdefault(vid, {}).setdefault(games_of[ids[0]], float("inf"))
        only = set(games_of.values())
        lone = only.pop() if len(only) == 1 else V1_GAME
        db.execute("DROP TABLE variants")
        for statement in filter(str.strip, SCHEMA.split(";")):
            db.execute(statement)
        for vid, name, spec in old:
            users = sorted(first.get(vid, {lone: 0}).items(), key=lambda item: (item[1], item[0]))
            db.execute("INSERT INTO variants (id, game, name, spec) VALUES (?, ?, ?, ?)",
                       (vid, users[0][0], name, spec))
            for game, _ in users[1:]:
                new = db.execute("INSERT INTO variants (game, name, spec) VALUES (?, ?, ?)",
                                 (game, "classic" if spec == "{}" else name, spec)).lastrowid
                for table in ("games", "experiments", "metric_summaries"):
                    db.execute(f"UPDATE {table} SET variant_id = ? WHERE variant_id = ? AND "
                               f"setup_id IN (SELECT id FROM setups WHERE game = ?)",
                               (new, vid, game))
                for rid, raced, setups in races:
                    ids = json.loads(setups)
                    if raced == vid and ids and games_of.get(ids[0]) == game:
                        db.execute("UPDATE races SET variant_id = ? WHERE id = ?", (new, rid))

    def _check_v1_columns(self, old: dict[str, set[str]]) -> None:
        """A version-1 file holds today's tables under their old names, but for what the
        migration makes (a setup's game and descriptors, a game's stats); races came later."""
        for name, columns in _schema_columns().items():
            table = V1_NAMES.get(name, name)
            if name == "races" and table not in old:
                continue
            wanted = {V1_NAMES.get(c, c) for c in columns - {"game", "descriptors", "stats"}}
            missing = wanted - old.get(table, set())
            if missing:
                raise StoreError(f"{self.path}: not a kiwara results database: table {table!r} "
                                 f"lacks columns {', '.join(sorted(missing))}")

    @staticmethod
    def _copy_setups(db: sqlite3.Connection) -> None:
        """Each old setup under its game and key (in the first files, a Kiwara layout keyed by
        its V1_KEY column), described by its game; a setup of a game this kiwara does not know
        keeps what its old columns said (the ones beyond today's, and its descriptors)."""
        cursor = db.execute(f"SELECT * FROM v1_{V1_SETUPS} ORDER BY id")
        names = [d[0] for d in cursor.description]
        for row in cursor.fetchall():
            old = dict(zip(names, row))
            name, key = old.get("game") or V1_GAME, old.get("setup") or old[V1_KEY]
            try:
                game = game_named(name)
                descriptors = dict(game.setup_descriptors(game.setup_from_key(key)))
            except KiwaraError:
                descriptors = {column: value for column, value in old.items()
                               if column not in ("id", "game", "setup", "descriptors")
                               and value is not None and value != key}
                descriptors.update(json.loads(old.get("descriptors") or "{}"))
            db.execute("INSERT INTO setups (id, game, setup, descriptors) VALUES (?, ?, ?, ?)",
                       (old["id"], name, key, json.dumps(descriptors)))

    @staticmethod
    def _copy_games(db: sqlite3.Connection, old_columns: set[str]) -> None:
        """Every old game; one stored before the stats column keeps its statistics in the
        columns today's schema does not have (lists as JSON text), which become its stats."""
        kept = [c for c in _columns(db, "games") if c not in ("setup_id", "stats")]
        legacy = sorted(old_columns - set(kept) - {V1_SETUP_ID, "stats"})
        cursor = db.execute(f"SELECT {V1_SETUP_ID}, {', '.join(kept)}, "
                            f"{'stats' if 'stats' in old_columns else 'NULL'}"
                            f"{''.join(', ' + c for c in legacy)} FROM v1_games")
        insert = (f"INSERT INTO games (setup_id, {', '.join(kept)}, stats) VALUES "
                  f"({', '.join('?' * (len(kept) + 2))})")
        while rows := cursor.fetchmany(10_000):
            db.executemany(insert, [
                (*row[:len(kept) + 1], row[len(kept) + 1] if row[len(kept) + 1] is not None
                 else json.dumps(dict(zip(legacy, map(_json_value, row[len(kept) + 2:])))))
                for row in rows])

    def _tables(self) -> dict[str, set[str]]:
        names = [r[0] for r in self.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        return {name: {r[1] for r in self.db.execute(f'PRAGMA table_info("{name}")')}
                for name in names}

    def _refuse_foreign_database(self) -> None:
        """An SQLite file of some other program is refused untouched (sweep would otherwise add
        our tables to it, and rank and report fail on its tables of the same names)."""
        tables = self._tables()
        if tables and not ("meta" in tables and self.db.execute(
                "SELECT 1 FROM meta WHERE key = 'schema_version'").fetchone()):
            raise StoreError(f"{self.path}: not a kiwara results database (it holds tables "
                             f"{', '.join(sorted(tables))})")

    def _check_seeding(self) -> None:
        """Games are seeded in seat-swapped pairs (games 2j and 2j + 1 share a seed). A database
        whose games were seeded one by one, as before, is still read (rank, report), but no game
        is added to it: a resumed sweep would mix the two seedings."""
        row = self.db.execute("SELECT value FROM meta WHERE key = 'game_seeding'").fetchone()
        self.paired_seeding = bool(row) or not self.db.execute(
            "SELECT 1 FROM games LIMIT 1").fetchone()
        if self.paired_seeding and not row:
            with self.transaction() as db:
                db.execute("INSERT OR IGNORE INTO meta VALUES ('game_seeding', 'seat-swapped pairs')")

    def require_paired_seeding(self) -> None:
        if not self.paired_seeding:
            raise StoreError(f"{self.path}: its games were seeded one by one, before games were "
                             f"played in seat-swapped pairs; it can be ranked and reported, but "
                             f"new games need a new database")

    def _require_tables(self) -> None:
        """A kiwara file of today's schema (it has its meta) holds every table of it; one that
        lost a table is damaged."""
        tables = self._tables()
        for name in _schema_columns():
            if name not in tables:
                raise self._damage(f"table {name}", "the table is missing")

    def _check_columns(self) -> None:
        expected = _schema_columns()
        self._require_tables()
        tables = self._tables()
        for name, columns in expected.items():
            missing = columns - tables.get(name, set())
            if missing:
                raise StoreError(f"{self.path}: not a kiwara results database: table {name!r} "
                                 f"lacks columns {', '.join(sorted(missing))}")

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, kind, value, tb) -> None:
        self.close()
        # The machine's fault (disk full, locked past the busy timeout, I/O error), not a bug:
        # one line naming the file. Every committed game is safe; a rerun resumes. A damaged
        # file is another matter: no rerun repairs it.
        if isinstance(value, sqlite3.Error) and str(
                getattr(value, "sqlite_errorname", "")).startswith(ENVIRONMENT_ERRORS):
            damaged = str(getattr(value, "sqlite_errorname", "")).startswith(DAMAGE_ERRORS)
            raise (DamagedStoreError if damaged else StoreError)(
                f"{self.path}: {value} ({self._remedy(value)})") from None

    def _remedy(self, error: sqlite3.Error) -> str:
        """What can be done about ``error``: wait and rerun, or, for a damaged file, recover
        what it holds into a new database (rerunning cannot repair it)."""
        if str(getattr(error, "sqlite_errorname", "")).startswith(DAMAGE_ERRORS):
            return (f"the file is damaged and rerunning cannot repair it: recover what it holds "
                    f"with sqlite3 {shlex.quote(self.path)} .recover | sqlite3 "
                    f"recovered.sqlite, or start a new database")
        return "stored games are kept; rerun to resume"

    # -- reading stored values: decoded and shape-checked here, and only here ---------------------
    def _damage(self, where: str, what: str) -> DamagedStoreError:
        """The one-line error of a damaged value: the file, ``where`` (the table and row), what
        is wrong and what to do."""
        remedy = (SUMMARY_REMEDY.format(path=shlex.quote(self.path))
                  if where.startswith("table metric_summaries") else REMEDY)
        return DamagedStoreError(f"{self.path}: damaged store: {where}: {what}; {remedy}")

    def _decode(self, text: Any, where: str, column: str, kind: type = dict,
                checked: bool = False) -> Any:
        """The stored JSON ``text`` of ``column`` as the ``kind`` kiwara writes there (an object,
        a list), without NaN or Infinity (what ``json.dumps`` writes for a number that is not
        finite); every number finite unless ``checked`` (the caller checks the numbers it reads,
        and a summary's thousands are read faster so); :class:`DamagedStoreError` otherwise."""
        if not isinstance(text, str):
            raise self._damage(where, f"{column} is {_shown(text)}, not JSON text")
        try:
            value = (json.loads(text, parse_constant=_no_constant) if checked else
                     json.loads(text, parse_float=_finite, parse_constant=_no_constant))
        except RecursionError:
            raise self._damage(where, f"{column} is JSON nested too deep") from None
        except ValueError as exc:
            reason = str(exc) if "finite" in str(exc) else f"not JSON ({exc})"
            raise self._damage(where, f"{column} {_shown(text, 30)} is {reason}") from None
        if not isinstance(value, kind):
            raise self._damage(where, f"{column} is {_json_kind(value)}, not "
                                      f"{_json_kind(kind())}")
        return value

    def _number(self, value: Any, where: str, column: str, whole: bool = False,
                optional: bool = False) -> Any:
        """A stored number, finite (and whole if ``whole``); None if ``optional``."""
        if value is None and optional:
            return value
        if not _is_number(value) or (whole and not isinstance(value, int)):
            what = "a whole number" if whole else "a finite number"
            raise self._damage(where, f"{column} is {_shown(value)}, not {what}")
        return value

    def _game_row(self, row: tuple) -> GameResult:
        """A games row (rowid, setup, game index, seed, a_seat, winner, scores, plies,
        decisions, branching, lead changes, decisiveness, seconds, stats) as the result it
        stored."""
        (rowid, setup_id, index, seed, a_seat, winner, first, second, plies, decisions,
         branching, lead_changes, decisiveness, seconds, stats) = row
        where = f"table games, rowid {rowid} (setup {setup_id}, game index {index})"
        for column, value in (("game_index", index), ("seed", seed), ("plies", plies),
                              ("decisions", decisions), ("lead_changes", lead_changes)):
            self._number(value, where, column, whole=True)
        for column, value in (("a_seat", a_seat), ("winner", winner)):
            if value not in (0, 1) and not (column == "winner" and value is None) or (
                    isinstance(value, float)):
                raise self._damage(where, f"{column} is {_shown(value)}, not a seat (0 or 1"
                                          f"{', or null for a draw' if column == 'winner' else ''})")
        for column, value in (("score_first", first), ("score_second", second),
                              ("branching", branching), ("seconds", seconds)):
            self._number(value, where, column)
        self._number(decisiveness, where, "decisiveness", optional=True)
        return GameResult(index=index, seed=seed, a_seat=a_seat, winner=winner,
                          scores=(first, second), plies=plies, decisions=decisions,
                          branching=branching, lead_changes=lead_changes,
                          decisiveness=decisiveness, seconds=seconds,
                          stats=self._decode(stats, where, "stats"))

    def _summary_values(self, vals: Any, metrics: Any, score: Any, games: Any,
                        where: str) -> tuple[dict, dict]:
        """A metric_summaries row's ``vals`` ({metric: number or null}) and ``metrics`` (every
        metric with its interval), decoded and checked with its score and game count."""
        self._number(games, where, "games", whole=True)
        self._number(score, where, "score")
        values = self._decode(vals, where, "vals", checked=True)
        for name, value in values.items():
            if value is not None and not _is_number(value):
                raise self._damage(where, f"vals has {name} {_shown(value)}, not a number")
        measured = self._decode(metrics, where, "metrics", checked=True)
        for name, value in measured.items():
            problem = _metric_problem(name, value)
            if problem:
                raise self._damage(where, f"metrics: {problem}")
        return values, measured

    def metrics_of(self, games: list[GameResult], setup: Any, skill_games: list[GameResult],
                   game: Game, where: str) -> Metrics:
        """The metrics of stored games (``where``: which experiment's, for the error): games
        whose stored statistics do not fit their setup (a territory of the statistics that the
        layout lacks) are a damaged store, not a bug of the metric that reads them."""
        try:
            return compute_metrics(games, setup, skill_games, game)
        except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            if isinstance(exc, KiwaraError):
                raise
            raise self._damage(f"table games, {where}", f"their stored statistics do not make "
                                                        f"metrics ({type(exc).__name__}: {exc})"
                               ) from None

    def races(self) -> list[dict]:
        """Every race saved in the store, newest first: its settings and outcome in one dict
        (and ``finished_at``), checked for what the report reads of them."""
        found = []
        for rowid, settings, result, finished in self.db.execute(
                "SELECT rowid, settings, result, finished_at FROM races ORDER BY finished_at DESC"):
            where = f"table races, rowid {rowid}"
            race = {**self._decode(settings, where, "settings"),
                    **self._decode(result, where, "result"),
                    "finished_at": self._number(finished, where, "finished_at")}
            lacking = [k for k in ("k", "delta", "tolerance", "objective", "strategy", "games",
                                   "rounds", "separated", "top", "arms") if k not in race]
            if lacking:
                raise self._damage(where, f"it lacks {', '.join(lacking)}")
            if not isinstance(race["arms"], list) or not isinstance(race["top"], list):
                raise self._damage(where, "its arms or top are not lists")
            for arm in race["arms"]:
                if not isinstance(arm, dict) or not all(
                        isinstance(arm.get(k), int) for k in ("arm", "games")) or not all(
                        _is_number(arm.get(k)) for k in ("low", "high")) or not (
                        arm.get("estimate") is None or _is_number(arm.get("estimate"))):
                    raise self._damage(where, f"arm {_shown(arm)} is not of the shape written")
            found.append(race)
        return found

    def score_margins(self, game_name: str) -> list[float]:
        """The score margin (first − second) of every game of ``game_name`` registered in an
        experiment (the report's histogram), each score checked finite."""
        margins = []
        for rowid, setup_id, index, first, second in self.db.execute(
                "SELECT g.rowid, g.setup_id, g.game_index, g.score_first, g.score_second FROM "
                "games g JOIN experiments e ON e.setup_id = g.setup_id AND e.variant_id = "
                "g.variant_id AND e.agents_id = g.agents_id JOIN setups s ON s.id = g.setup_id "
                "WHERE s.game = ?", (game_name,)):
            where = f"table games, rowid {rowid} (setup {setup_id}, game index {index})"
            margins.append(self._number(first, where, "score_first")
                           - self._number(second, where, "score_second"))
        return margins

    # -- transactions ---------------------------------------------------------------------------
    class _Transaction:
        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db

        def __enter__(self):
            # IMMEDIATE takes the write lock at once, so two writers queue on the busy timeout
            # instead of deadlocking on a read-to-write upgrade
            self.db.execute("BEGIN IMMEDIATE")
            return self.db

        def __exit__(self, kind, value, tb) -> None:
            self.db.execute("COMMIT" if kind is None else "ROLLBACK")

    def transaction(self) -> "_Transaction":
        return Store._Transaction(self.db)

    # -- registration --------------------------------------------------------------------------
    def _get_or_insert(self, select: str, insert: str, key: tuple, values: tuple) -> int:
        row = self.db.execute(select, key).fetchone()
        if row:
            return row[0]
        with self.transaction() as db:
            db.execute(insert, values)
        return self.db.execute(select, key).fetchone()[0]

    def setup_id(self, setup: Any, game: Game | None = None) -> int:
        """The id of ``setup`` of ``game`` (default: the default game), registered if new with
        the game's descriptors of the setup its key stands for."""
        game = resolve_game(game)
        key = game.setup_key(setup)
        select = "SELECT id FROM setups WHERE game = ? AND setup = ?"
        row = self.db.execute(select, (game.name, key)).fetchone()
        if row is None:
            described = json.dumps(dict(game.setup_descriptors(game.setup_from_key(key))))
            with self.transaction() as db:
                db.execute("INSERT OR IGNORE INTO setups (game, setup, descriptors) "
                           "VALUES (?, ?, ?)", (game.name, key, described))
            row = self.db.execute(select, (game.name, key)).fetchone()
        return row[0]

    def variant_id(self, variant: Any, game: Game | None = None) -> int:
        """The id of ``variant`` of ``game`` (default: the default game): each game's rules are
        its own, even when two games' specs read alike (both defaults are ``{}``)."""
        name, spec = variant_identity(variant)
        played = resolve_game(game).name
        return self._get_or_insert(
            "SELECT id FROM variants WHERE game = ? AND spec = ?",
            "INSERT OR IGNORE INTO variants (game, name, spec) VALUES (?, ?, ?)",
            (played, spec), (played, name, spec))

    def agents_id(self, pairing: Pairing) -> int:
        return self._get_or_insert(
            "SELECT id FROM agent_configs WHERE agent_a = ? AND agent_b = ?",
            "INSERT OR IGNORE INTO agent_configs (agent_a, agent_b) VALUES (?, ?)",
            (pairing.a, pairing.b), (pairing.a, pairing.b))

    def experiment(self, setup: Any, variant: Any, pairing: Pairing,
                   game: Game | None = None) -> Experiment:
        """The experiment of ``pairing`` playing ``game`` (default: the default game) from
        ``setup`` under ``variant``, registered if new (a variant is its game's)."""
        return Experiment(self.setup_id(setup, game), self.variant_id(variant, game),
                          self.agents_id(pairing))

    # -- games ---------------------------------------------------------------------------------
    def stored_indices(self, exp: Experiment) -> set[int]:
        rows = self.db.execute(
            "SELECT game_index FROM games WHERE setup_id = ? AND variant_id = ? AND agents_id = ?",
            (exp.setup_id, exp.variant_id, exp.agents_id))
        return {r[0] for r in rows}

    def master_seeds(self, exp: Experiment) -> set[int]:
        rows = self.db.execute(
            "SELECT DISTINCT master_seed FROM games WHERE setup_id = ? AND variant_id = ? "
            "AND agents_id = ?", (exp.setup_id, exp.variant_id, exp.agents_id))
        return {r[0] for r in rows}

    def add_game(self, exp: Experiment, master_seed: int, game: GameResult) -> bool:
        """Store one finished game in its own transaction; False if it was already stored."""
        self.require_paired_seeding()
        with self.transaction() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO games (setup_id, variant_id, agents_id, game_index, "
                "master_seed, seed, a_seat, winner, score_first, score_second, plies, decisions, "
                "branching, lead_changes, decisiveness, seconds, finished_at, stats) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (exp.setup_id, exp.variant_id, exp.agents_id, game.index, master_seed, game.seed,
                 game.a_seat, game.winner, game.scores[0], game.scores[1], game.plies,
                 game.decisions, game.branching, game.lead_changes, game.decisiveness,
                 game.seconds, time.time(), json.dumps(dict(game.stats))))
            return cursor.rowcount == 1

    def games(self, exp: Experiment) -> list[GameResult]:
        """The stored games of ``exp`` by index, each row checked (:class:`DamagedStoreError`)."""
        rows = self.db.execute(
            "SELECT rowid, setup_id, game_index, seed, a_seat, winner, score_first, score_second, "
            "plies, decisions, branching, lead_changes, decisiveness, seconds, stats FROM games "
            "WHERE setup_id = ? AND variant_id = ? AND agents_id = ? ORDER BY game_index",
            (exp.setup_id, exp.variant_id, exp.agents_id))
        return [self._game_row(r) for r in rows]

    def game_counts(self) -> dict[tuple[int, int, int], int]:
        rows = self.db.execute("SELECT setup_id, variant_id, agents_id, COUNT(*) FROM games "
                               "GROUP BY setup_id, variant_id, agents_id")
        return {(a, b, c): n for a, b, c, n in rows}

    # -- metric summaries -------------------------------------------------------------------------
    def setup(self, setup_id: int, game: Game | None = None) -> tuple[Game, Any]:
        """The game and the setup of a setup id (``game``: the game to use if it is the one
        named, e.g. one outside the registry)."""
        row = self.db.execute("SELECT game, setup FROM setups WHERE id = ?",
                              (setup_id,)).fetchone()
        if not row:
            raise StoreError(f"{self.path}: no setup with id {setup_id}")
        if not all(isinstance(text, str) for text in row):
            raise self._damage(f"table setups, id {setup_id}", f"its game and setup "
                                                                f"{_shown(row)} are not text")
        played = game_named(row[0], game)
        try:
            return played, played.setup_from_key(row[1])
        except KiwaraError as exc:
            raise self._damage(f"table setups, id {setup_id}",
                               f"its setup is not one of {row[0]}'s ({exc})") from None

    def summarise(self, exp: Experiment, skill: Experiment | None = None,
                  game: Game | None = None) -> Metrics:
        """Recompute the metrics of an experiment from its games (of the game its setup names;
        ``game`` is used when it is that one), whose own metrics join the common ones, and
        store them."""
        game, setup = self.setup(exp.setup_id, game)
        games = self.games(exp)
        skill_games = self.games(skill) if skill else []
        metrics = self.metrics_of(games, setup, skill_games, game,
                                  f"setup {exp.setup_id}, variant {exp.variant_id}, "
                                  f"agents {exp.agents_id}")
        values = metrics.values()
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO metric_summaries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (exp.setup_id, exp.variant_id, exp.agents_id,
                        skill.agents_id if skill else None, len(games), len(skill_games),
                        metrics.score, json.dumps(values), json.dumps(metrics.to_json()),
                        time.time()))
        return metrics

    def register(self, exp: Experiment, skill: Experiment | None = None) -> None:
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO experiments VALUES (?, ?, ?, ?)",
                       (exp.setup_id, exp.variant_id, exp.agents_id,
                        skill.agents_id if skill else None))

    def refresh_summaries(self, game: Game | None = None) -> int:
        """Recompute every summary that is missing or out of date (a sweep killed before its
        final summaries, or another sweep adding games); returns how many were recomputed."""
        counts = self.game_counts()
        rows = self.db.execute(
            "SELECT e.setup_id, e.variant_id, e.agents_id, e.skill_agents_id, s.games, "
            "s.skill_games FROM experiments e LEFT JOIN metric_summaries s ON "
            "s.setup_id = e.setup_id AND s.variant_id = e.variant_id AND "
            "s.agents_id = e.agents_id").fetchall()
        stale = 0
        for lid, vid, aid, skill_id, games, skill_games in rows:
            want = counts.get((lid, vid, aid), 0)
            want_skill = counts.get((lid, vid, skill_id), 0) if skill_id else 0
            if games != want or skill_games != want_skill:
                self.summarise(Experiment(lid, vid, aid),
                               Experiment(lid, vid, skill_id) if skill_id else None, game)
                stale += 1
        return stale

    def ranked(self, by: str = "score", top: int | None = None, descending: bool = True,
               variant: str | None = None, agents: str | None = None,
               game: Game | None = None,
               experiments: Collection[Experiment] | None = None) -> list[RankedExperiment]:
        """Summarised experiments (of ``game`` only, if given; of every game that measures
        ``by`` otherwise), best first; filtered by variant name, pairing and ``experiments``."""
        if by not in NEUTRAL_VALUES:      # every game measures those: no game to look up
            names = metric_names(game) if game is not None else all_metric_names()
            if by not in names:
                raise StoreError(f"unknown metric {by!r}; choose from {', '.join(names)}")
        rows = self.db.execute(
            "SELECT s.setup_id, s.variant_id, s.agents_id, l.game, l.setup, l.descriptors, "
            "v.name, v.spec, a.agent_a, a.agent_b, s.games, s.score, s.vals, s.metrics "
            "FROM metric_summaries s JOIN setups l ON l.id = s.setup_id "
            "JOIN variants v ON v.id = s.variant_id JOIN agent_configs a ON a.id = s.agents_id"
            ).fetchall()
        wanted = set(experiments) if experiments is not None else None
        measures = _MeasuredBy(by, game)
        result = []
        for (sid, vid, aid, game_name, key, descriptors, vname, spec, a, b, n, score, vals,
             metrics) in rows:
            pairing = f"{a},{b}"
            if (variant and vname != variant) or (agents and pairing != agents) or (
                    wanted is not None and Experiment(sid, vid, aid) not in wanted) or (
                    game is not None and game_name != game.name):
                continue
            where = f"table metric_summaries, the row of setup {sid}, variant {vid}, agents {aid}"
            values, measured = self._summary_values(vals, metrics, score, n, where)
            if not measures(game_name, values):
                continue
            self._decode(spec, f"table variants, id {vid}", "spec")   # its readers decode it
            if not isinstance(key, str):
                raise self._damage(f"table setups, id {sid}", f"setup is {_shown(key)}, not text")
            result.append(RankedExperiment(
                sid, game_name, key, self._decode(descriptors, f"table setups, id {sid}",
                                                  "descriptors"),
                vname, pairing, n, score, values, measured, spec))
        present = [r for r in result if r.values.get(by) is not None]
        absent = [r for r in result if r.values.get(by) is None]
        # ties (common with few games per setup) are broken by the combined score, then the id
        present.sort(key=lambda r: (-r.values[by] if descending else r.values[by], -r.score,
                                    r.setup_id))
        ordered = present + absent
        return ordered[:top] if top else ordered

    def save_race(self, variant_id: int, agents_id: int, master_seed: int, settings: dict,
                  result: dict) -> None:
        """Record a race's outcome; the same race run again (resumed) replaces its record."""
        setups = sorted(int(a["arm"]) for a in result["arms"])
        with self.transaction() as db:
            db.execute("INSERT OR REPLACE INTO races (variant_id, agents_id, master_seed, "
                       "settings, setups, result, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (variant_id, agents_id, master_seed, json.dumps(settings, sort_keys=True),
                        json.dumps(setups), json.dumps(result), time.time()))

    def totals(self) -> dict:
        one = lambda sql: self.db.execute(sql).fetchone()[0]   # noqa: E731
        return {"setups": one("SELECT COUNT(*) FROM setups"),
                "games": one("SELECT COUNT(*) FROM games"),
                "summaries": one("SELECT COUNT(*) FROM metric_summaries"),
                "duplicates": one("SELECT COUNT(*) - COUNT(DISTINCT setup_id || ':' || variant_id "
                                  "|| ':' || agents_id || ':' || game_index) FROM games")}

    def setup_counts(self) -> dict[str, int]:
        """How many setups of each game the store holds."""
        return dict(self.db.execute("SELECT game, COUNT(*) FROM setups GROUP BY game"))

    def integrity_ok(self) -> bool:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


class _MeasuredBy:
    """Whether an experiment's game measures the metric ``by`` (games are looked up once)."""

    def __init__(self, by: str, game: Game | None) -> None:
        self.by, self.game, self.known = by, game, {}

    def __call__(self, game_name: str, values: dict) -> bool:
        if self.by in NEUTRAL_VALUES:
            return True
        if game_name not in self.known:
            try:
                self.known[game_name] = self.by in metric_names(game_named(game_name, self.game))
            except StoreError:          # a game outside the registry: its stored values tell
                self.known[game_name] = None
        known = self.known[game_name]
        return self.by in values if known is None else known


def _columns(db: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]


def _json_value(value: Any) -> Any:
    """A legacy column's value: lists were stored as JSON text."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _schema_columns() -> dict[str, set[str]]:
    """Every table of :data:`SCHEMA` with its columns (read from an in-memory copy)."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        names = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: {r[1] for r in db.execute(f'PRAGMA table_info("{n}")')} for n in names}
    finally:
        db.close()


def _table_statement(name: str) -> str:
    """The CREATE statement of table ``name`` in :data:`SCHEMA`."""
    return next(statement.strip() for statement in SCHEMA.split(";")
                if f"EXISTS {name} (" in statement)


def open_store(path: str | Path, must_exist: bool = False, read_only: bool = False) -> Store:
    """The store at ``path``; ``read_only`` (what rank, report and explain use): an existing
    SQLite file, never created, migrated or changed (see :class:`Store`)."""
    if must_exist and not Path(path).exists():
        raise StoreError(f"{path}: no such results database")
    return Store(path, read_only)
