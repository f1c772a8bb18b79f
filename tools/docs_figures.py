"""Runs the guide's long examples and writes their outputs to docs/snippets/NAME.txt, and into
the pages: figures that take minutes are never typed by hand, and each says when, how long and
at what machine load it was taken.

A page shows a figure as a text block after the line ``<!-- figure NAME ... -->``; this script
rewrites that block's text from docs/snippets/NAME.txt, so the page reads the same on the
repository as on the built site (an ``--8<--`` include of MkDocs' snippets extension shows only
its own line on the repository), and tests/test_docs_site.py checks the copies are current.

    python tools/docs_figures.py                 # every figure (some twenty minutes on 2 cores)
    python tools/docs_figures.py race mirror     # only these
    python tools/docs_figures.py --pages         # only copy the snippets into the pages
    python tools/docs_figures.py --list

Each figure runs in a fresh temporary folder, as the tested examples do (tests/doc_examples.py):
the same `kiwara` on the PATH, stdout and stderr together.
"""
from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from doc_examples import MARKER, environment  # noqa: E402

SNIPPETS = ROOT / "docs" / "snippets"
# a figure's place in a page: the marker line, then a text block whose text is the snippet
FIGURE_BLOCK = re.compile(r"^(<!-- figure (?P<name>[\w-]+)\b[^\n]*-->\n```text\n)"
                          r"(?P<text>.*?)(?=^```$)", re.MULTILINE | re.DOTALL)
CLASSIC_MIRROR = "CCCCBA\nFFCBBA\nFCCBAA\nEBBBAD\nEEEEDD\n"


@dataclass(frozen=True)
class Figure:
    name: str
    commands: tuple[str, ...]
    files: dict[str, str] = field(default_factory=dict)
    in_checkout: bool = False       # run in the checkout (a benchmark script), not a new folder


FIGURES = [
    Figure("mirror", ("kiwara playtest classic classic-mirror.txt --agents greedy --games 1000 "
                      "--seed 1 --skill-games 0 -j 2 | grep -e '^[a-z]' -e 'first-player win'",),
           {"classic-mirror.txt": CLASSIC_MIRROR}),
    Figure("sweep", ("kiwara sweep --sample 200 --seed 1 --db results.sqlite --games 20 "
                     "--agents greedy -j 2",
                     "kiwara rank --db results.sqlite --top 5 --export best5",
                     "ls best5 | head -4",
                     "kiwara report --db results.sqlite -o report.html")),
    Figure("explain", ("kiwara sweep --sample 300 --seed 7 --db explain300.sqlite --games 32 "
                       "--agents greedy --skill-games 0 -j 2 | head -2",
                       "kiwara explain --db explain300.sqlite")),
    Figure("cards-value", ("kiwara cards value --games 100 --seed 1 -j 2",)),
    Figure("cards-versus", ("kiwara cards versus --games 1000 --seed 1 -j 2",)),
    Figure("awimbawe-playtest", ("kiwara awimbawe playtest --games 200 -j 2",)),
    Figure("awimbawe-compare", ("kiwara awimbawe compare --variant classic --variant gamepark "
                                "--games 1000 -j 2",)),
    Figure("awimbawe-sweep", ("kiwara awimbawe sweep --set hyenas_to_lose=3,4 --set "
                              "eagle_may_flee=true,false --games 400 --db awimbawe.sqlite -j 2",
                              "kiwara rank --db awimbawe.sqlite --by hyena_round_rate",
                              "kiwara report --db awimbawe.sqlite -o report.html")),
    Figure("kiwara-ladder", ("kiwara ladder classic --agents random,greedy,mcts:200,expert "
                             "--games 100 --seed 1 -j 2",)),
    Figure("awimbawe-ladder", ("kiwara awimbawe ladder --agents random,greedy,ismcts:100,"
                               "cheat-ismcts:100 --games 40 --seed 1 -j 2",)),
    Figure("skill-study", ("python3 benchmarks/skill_study.py --db study/skill.sqlite --report",),
           in_checkout=True),
    Figure("compiled-core-benchmark", ("python3 benchmarks/compiled_core.py",), in_checkout=True),
    Figure("expert-strength", ("python3 benchmarks/expert_strength.py",), in_checkout=True),
]


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.1f} (1 min), {five:.1f} (5 min)"


def take(figure: Figure) -> str:
    with tempfile.TemporaryDirectory() as folder:
        for name, text in figure.files.items():
            Path(folder, name).write_text(text, "utf-8")
        script = ["exec 2>&1"]
        for command in figure.commands:
            script += [command, f"printf '%s\\n' '{MARKER}'"]
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        load_before, start = _load(), time.perf_counter()
        result = subprocess.run(["bash", "-c", "\n".join(script)],
                                cwd=ROOT if figure.in_checkout else folder,
                                env=environment(Path(folder)), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, timeout=3 * 3600)
        seconds, load_after = time.perf_counter() - start, _load()
    outputs = result.stdout.decode("utf-8", "replace").split(MARKER + "\n")
    lines = [f"# taken {when} by tools/docs_figures.py {figure.name}: {seconds:,.0f} s wall on "
             f"{os.cpu_count()} cores, load average {load_before} before, {load_after} after"]
    for command, output in zip(figure.commands, outputs):
        lines.append(f"$ {command}")
        lines.extend(output.rstrip("\n").split("\n") if output.strip() else [])
    return "\n".join(lines) + "\n"


def pages() -> list[Path]:
    return sorted(p for p in (ROOT / "docs").rglob("*.md") if SNIPPETS not in p.parents)


def figure_blocks(text: str) -> list[re.Match[str]]:
    """The figures shown in a page's text, in order."""
    return list(FIGURE_BLOCK.finditer(text))


def copy_into_pages() -> list[Path]:
    """Rewrites every figure block of the pages from its snippet; returns the pages changed."""
    changed = []
    for page in pages():
        text = page.read_text("utf-8")
        new = FIGURE_BLOCK.sub(lambda m: m[1] + (SNIPPETS / f"{m['name']}.txt").read_text("utf-8"),
                               text)
        if new != text:
            page.write_text(new, "utf-8")
            changed.append(page)
    return changed


def main(names: list[str]) -> None:
    if names == ["--list"]:
        print("\n".join(f.name for f in FIGURES))
        return
    if names == ["--pages"]:
        for page in copy_into_pages():
            print(f"updated {page.relative_to(ROOT)}")
        return
    unknown = set(names) - {f.name for f in FIGURES}
    if unknown:
        sys.exit(f"unknown figures: {', '.join(sorted(unknown))} (--list names them)")
    SNIPPETS.mkdir(exist_ok=True)
    for figure in FIGURES:
        if not names or figure.name in names:
            text = take(figure)
            (SNIPPETS / f"{figure.name}.txt").write_text(text, "utf-8")
            print(text.splitlines()[0])
            for page in copy_into_pages():
                print(f"updated {page.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
