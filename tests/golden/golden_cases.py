"""The golden command lines: what `kiwara` printed (stdout, stderr), its exit code and the files it
wrote, taken from main before the CLI was split into a package (issue 10), with fixed seeds.

Each session runs its steps in order in one empty working directory (a sweep, then rank and
report on its database), after writing the session's input files there. `regen.py` takes the
outputs; `test_golden.py` compares them byte for byte. Only run times and dates are masked (`MASKS`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SPLIT = "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n"     # the classic board with C reaching f5
TWO_BOARDS = "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n\n" + SPLIT
PATTERN = "AA\nAB\n"
FAST = ("--agents", "random", "--skill", "greedy,random", "--skill-games", "2", "-j", "1")
# Run times (sweep summaries) and the report's date change from run to run: masked in every
# output and written file before comparing.
MASKS = [(re.compile(r"\b\d+\.\d+ s\b"), "<seconds> s"),
         (re.compile(r'("(?:seconds|choosing_seconds)": )[0-9.e-]+'), r"\1<seconds>"),
         (re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d UTC\b"), "<date> UTC")]


@dataclass(frozen=True)
class Step:
    name: str                       # also the name of the folder holding its expected outputs
    args: tuple[str, ...]
    input: str | None = None        # stdin
    files: tuple[str, ...] = ()     # files (or every file under a folder) the step writes


@dataclass(frozen=True)
class Session:
    name: str
    steps: tuple[Step, ...]
    inputs: dict[str, str] = field(default_factory=dict)


def _help(*command: str) -> Step:
    return Step("help-" + ("-".join(command) or "main"), (*command, "--help"))


COMMANDS = [(), ("validate",), ("show",), ("layouts",), ("layouts", "builtin"),
            ("layouts", "count"), ("layouts", "list"), ("layouts", "sample"), ("perft",),
            ("replay",), ("play",), ("playtest",), ("compare",), ("sweep",), ("rank",),
            ("report",), ("export",), ("generate",), ("awimbawe", "playtest"),
            ("awimbawe", "sweep")]

SESSIONS = [
    Session("help", tuple(_help(*c) for c in COMMANDS) + (
        Step("no-such-command", ("frobnicate",)),
        Step("version", ("--version",)),
    )),
    Session("layouts", (
        Step("validate-classic", ("validate", "classic")),
        Step("validate-classic-json", ("validate", "classic", "--json")),
        Step("validate-split", ("validate", "split.txt")),
        Step("validate-split-json", ("validate", "split.txt", "--json")),
        Step("validate-president-classic-rules", ("validate", "president", "--rules", "classic")),
        Step("validate-stdin-quiet", ("validate", "-q", "-"), input=TWO_BOARDS),
        Step("validate-stdin-json-lines", ("validate", "-", "--json"),
             input='{"width": 6, "height": 5, "rows": ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", '
                   '"DDEEEE"]}\nnot json\n'),
        Step("validate-custom-rules", ("validate", "classic", "--sizes", "3,5,7",
                                       "--territories", "6", "--json")),
        Step("validate-missing-file", ("validate", "missing.txt")),
        Step("validate-missing-and-valid", ("validate", "missing.txt", "classic", "--json")),
        Step("validate-binary", ("validate", "binary.txt")),
        Step("show-classic", ("show", "classic", "--no-colour")),
        Step("show-president-colour", ("show", "president", "--colour")),
        Step("show-stdin", ("show", "-"), input=SPLIT),
        Step("builtin", ("layouts", "builtin")),
        Step("builtin-json", ("layouts", "builtin", "--json")),
    ), inputs={"split.txt": SPLIT, "binary.txt": "AB\x00CD\n"}),
    Session("generator", (
        Step("count", ("layouts", "count")),
        Step("count-small-json", ("layouts", "count", "--width", "4", "--height", "4",
                                  "--territories", "4", "--sizes", "3,4,5", "--json")),
        Step("count-canonical-by-mix", ("layouts", "count", "--canonical", "--by-mix")),
        Step("count-mix", ("layouts", "count", "--mix", "3,3,5,5,7,7")),
        Step("count-bad-mix", ("layouts", "count", "--mix", "3,3,3")),
        Step("list-canonical", ("layouts", "list", "--canonical", "--limit", "3", "-j", "1")),
        Step("list-filtered-jsonl", ("layouts", "list", "--mix", "5,5,5,5,5,5", "--max-span", "3",
                                     "--format", "jsonl", "--limit", "4", "-j", "1")),
        Step("list-start", ("layouts", "list", "--limit", "2", "--start", "1000000", "-j", "1")),
        Step("list-contains", ("layouts", "list", "--contains", "pattern.txt", "--min-rivers",
                               "22", "--limit", "2", "-j", "1")),
        Step("list-impossible-rivers", ("layouts", "list", "--min-rivers", "9",
                                        "--max-rivers", "3")),
        Step("list-zero-span", ("layouts", "list", "--max-span", "0")),
        Step("sample", ("layouts", "sample", "-n", "3", "--seed", "1")),
        Step("sample-canonical-jsonl", ("layouts", "sample", "-n", "2", "--seed", "5",
                                        "--canonical", "--format", "jsonl")),
        Step("sample-to-folder", ("layouts", "sample", "-n", "2", "--seed", "9", "--mix",
                                  "3,3,5,5,7,7", "--max-rivers", "24", "-o", "boards"),
             files=("boards",)),
        Step("sample-bad-sizes", ("layouts", "sample", "--sizes", "3,x")),
    ), inputs={"pattern.txt": PATTERN}),
    Session("printing", (
        Step("generate", ("generate", "--seed", "42", "-o", "board.svg"), files=("board.svg",)),
        Step("generate-json-mix", ("generate", "--seed", "7", "--mix", "3,3,5,5,7,7", "--json",
                                   "-o", "mix.svg"), files=("mix.svg",)),
        Step("generate-stdout", ("generate", "--seed", "3", "-o", "-")),
        Step("generate-json-and-stdout", ("generate", "--json", "-o", "-")),
        Step("generate-bad-format", ("generate", "--seed", "1", "-o", "board.txt")),
        Step("export-stdout", ("export", "classic", "-o", "-")),
        Step("export-kit-letter", ("export", "president", "-o", "kit.svg", "--kit", "--paper",
                                   "letter", "--crop-marks", "--bleed-mm", "3"),
             files=("kit-board.svg", "kit-tokens.svg", "kit-rules.svg")),
        Step("export-invalid-note", ("export", "split.txt", "-o", "split.svg", "--cell-mm", "30"),
             files=("split.svg",)),
        Step("export-bad-paper", ("export", "classic", "-o", "x.svg", "--paper", "b5")),
    ), inputs={"split.txt": SPLIT}),
    Session("games", (
        Step("perft", ("perft", "2")),
        Step("perft-json-moves", ("perft", "2", "--json", "--moves", "T7")),
        Step("perft-divide", ("perft", "1", "--divide", "--layout", "president", "--variant",
                              "no_crocodile_swaps")),
        Step("perft-zero", ("perft", "0", "--json")),
        Step("perft-illegal-move", ("perft", "1", "--moves", "T7 T8")),
        Step("perft-bad-variant", ("perft", "1", "--variant", "nope")),
        Step("play-agents-record", ("play", "--first", "random", "--second", "greedy", "--seed",
                                    "3", "--record", "game.json"), files=("game.json",)),
        Step("play-record-stdout", ("play", "--first", "greedy", "--second", "random", "--seed",
                                    "5", "--variant", "totem_1_2", "--record", "-")),
        Step("play-person", ("play", "--second", "greedy", "--seed", "1"),
             input="T7\n?\nZz9\nZa1>3\nhelp\nquit\n"),
        Step("play-person-colour", ("play", "--second", "random", "--seed", "2", "--colour",
                                    "--layout", "president"), input="T3\nZb2>5\n"),
        Step("play-stdin-layout-person", ("play", "--layout", "-"), input=SPLIT),
        Step("play-bad-record-dir", ("play", "--first", "random", "--second", "random",
                                     "--record", "nodir/game.json")),
        Step("replay", ("replay", "game.json", "--no-colour")),
        Step("replay-json", ("replay", "game.json", "--json")),
        Step("replay-colour", ("replay", "game.json", "--colour")),
        Step("replay-illegal", ("replay", "illegal.json")),
        Step("replay-illegal-json", ("replay", "illegal.json", "--json")),
        Step("replay-not-a-record", ("replay", "-"), input="[1, 2]\n"),
    ), inputs={"illegal.json": '{"layout": ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"], '
                               '"moves": ["T7", "T7"]}\n'}),
    Session("lab", (
        Step("playtest", ("playtest", "classic", "-n", "6", "--seed", "2", *FAST)),
        Step("playtest-json-two", ("playtest", "classic", "president", "-n", "4", "--json",
                                   "--variant", "totem_1_2", *FAST)),
        Step("playtest-records", ("playtest", "classic", "-n", "2", "--agents", "random",
                                  "--skill-games", "0", "--records", "recs", "-j", "1"),
             files=("recs",)),
        Step("playtest-precision", ("playtest", "classic", "-n", "20", "--precision", "0.2",
                                    "--json", *FAST)),
        Step("playtest-bad-agents", ("playtest", "classic", "--agents", "clever")),
        Step("compare", ("compare", "--variant", "classic", "--variant", "totem_1_2",
                         "--agents", "random", "-n", "20", "-j", "1")),
        Step("compare-json", ("compare", "classic", "president", "--variant", "classic",
                              "--variant", "gazelles_3", "--agents", "random", "-n", "8",
                              "-j", "1", "--json")),
        Step("compare-once", ("compare", "--variant", "classic")),
        Step("sweep", ("sweep", "--sample", "3", "--seed", "1", "--db", "r.sqlite", "-n", "4",
                       *FAST)),
        Step("sweep-again-json", ("sweep", "--sample", "3", "--seed", "1", "--db", "r.sqlite",
                                  "-n", "4", "--json", *FAST)),
        Step("sweep-from", ("sweep", "--from", "two.txt", "--db", "r.sqlite", "-n", "4", *FAST)),
        Step("sweep-no-source", ("sweep", "--db", "r.sqlite")),
        Step("rank", ("rank", "--db", "r.sqlite")),
        Step("rank-json", ("rank", "--db", "r.sqlite", "--json", "--by", "balance", "--top", "2")),
        Step("rank-ascending", ("rank", "--db", "r.sqlite", "--by", "length", "--ascending",
                                "--agents", "random,random")),
        Step("rank-export", ("rank", "--db", "r.sqlite", "--top", "2", "--export", "best",
                             "--paper", "letter"), files=("best",)),
        Step("rank-paper-alone", ("rank", "--db", "r.sqlite", "--paper", "letter")),
        Step("rank-missing-db", ("rank", "--db", "none.sqlite")),
        Step("report", ("report", "--db", "r.sqlite", "-o", "report.html", "--top", "2"),
             files=("report.html",)),
        Step("report-stdout", ("report", "--db", "r.sqlite", "-o", "-", "--top", "1")),
    ), inputs={"two.txt": TWO_BOARDS.split("\n\n")[0] + "\n\n" + "ABBCCC\nAABCCD\nEAAFDD\n"
                                                                    "EAAFFD\nEEEEED\n"}),
]


def mask(text: str) -> str:
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text
