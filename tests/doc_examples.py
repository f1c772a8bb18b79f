"""The documentation's examples, read from its Markdown (README.md and docs/**/*.md) so that they
cannot go stale: `tests/test_doc_examples.py` runs each one and compares what it prints.

How to write one (` ```console ` sessions, ` ```pycon ` doctests, titled blocks as files,
``<!-- slow -->``, ``...`` for run times) and why this rather than Sybil or the golden files:
docs/developers/examples.md. ``python tests/doc_examples.py --update PAGE.md`` rewrites the
outputs of a page's examples that differ, after a deliberate change.
"""
from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+|~~~+)\s*(?P<info>.*)$")
TITLE = re.compile(r'title="([^"]+)"')
MARKER = "@@@kiwara-example-output@@@"
CHECKER = doctest.OutputChecker()
SECONDS = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)? s\b")     # a run time, masked by --update
FLAGS = doctest.ELLIPSIS


@dataclass
class Block:
    path: Path
    line: int                   # of the opening fence, 1-based
    language: str
    text: str
    title: str | None = None
    slow: bool = False

    @property
    def id(self) -> str:
        return f"{self.path.relative_to(ROOT).as_posix()}:{self.line}"


@dataclass
class Command:
    line: str
    expected: str


@dataclass
class Page:
    path: Path
    blocks: list[Block] = field(default_factory=list)

    @property
    def files(self) -> dict[str, str]:
        return {b.title: b.text for b in self.blocks if b.title}

    @property
    def examples(self) -> list[Block]:
        return [b for b in self.blocks if b.language in ("console", "pycon")]


def documentation_files() -> list[Path]:
    return [ROOT / "README.md"] + sorted((ROOT / "docs").rglob("*.md"))


def read_page(path: Path) -> Page:
    page = Page(path)
    lines = path.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        match = FENCE.match(lines[i])
        if not match:
            i += 1
            continue
        indent, fence, info = len(match["indent"]), match["fence"], match["info"].strip()
        language = info.split()[0].strip("{.") if info else ""
        title = TITLE.search(info)
        previous = lines[i - 1].strip() if i else ""
        body = []
        j = i + 1
        while j < len(lines) and not lines[j].strip().startswith(fence[0] * len(fence)):
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        page.blocks.append(Block(path, i + 1, language, "\n".join(body) + "\n",
                                 title[1] if title else None, previous == "<!-- slow -->"))
        i = j + 1
    return page


def all_examples() -> list[tuple[Page, Block]]:
    pairs = []
    for path in documentation_files():
        page = read_page(path)
        pairs.extend((page, block) for block in page.examples)
    return pairs


def parse_console(text: str) -> list[Command]:
    commands: list[Command] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise ValueError(f"console block: line {i + 1} is output before any command: "
                             f"{lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\") and i + 1 < len(lines):
            i += 1
            command = command + "\n" + lines[i]
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        commands.append(Command(command, "".join(line + "\n" for line in output)))
    return commands


def _shim(folder: Path) -> Path:
    """A ``kiwara`` on the PATH that runs this checkout with this interpreter (and ``python3``,
    that interpreter)."""
    bin_dir = folder / ".bin"
    bin_dir.mkdir(exist_ok=True)
    kiwara = bin_dir / "kiwara"
    kiwara.write_text(f"#!{sys.executable}\nimport sys\nfrom kiwara_designer.launch import main\n"
                      "sys.exit(main())\n")             # what pip writes for the entry point
    kiwara.chmod(0o755)
    python = bin_dir / "python3"                # examples that read a file with Python: this one
    if not python.exists():
        python.symlink_to(sys.executable)
    return bin_dir


def environment(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIWARA_", "PYTEST_"))}
    env.update(PATH=f"{_shim(folder)}{os.pathsep}{env.get('PATH', '')}",
               PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1", COLUMNS="80", LC_ALL="C.UTF-8",
               PYTHONIOENCODING="utf-8", TERM="dumb", HOME=str(folder))
    env.pop("NO_COLOR", None)
    return env


def run_console(block: Block, folder: Path, timeout: float = 900) -> list[tuple[Command, str]]:
    """Runs the block's commands in ``folder``, one bash script, and returns each command with
    what it printed (stdout and stderr interleaved as written)."""
    commands = parse_console(block.text)
    script = ["exec 2>&1"]
    for command in commands:
        script.append(command.line)
        script.append(f"__status=$?; printf '%s\\n' '{MARKER}'; (exit $__status)")
    result = subprocess.run(["bash", "-c", "\n".join(script)], cwd=folder, env=environment(folder),
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, timeout=timeout)
    outputs = result.stdout.decode("utf-8", "replace").split(MARKER + "\n")
    return list(zip(commands, outputs))


def matches(expected: str, got: str) -> bool:
    return CHECKER.check_output(expected, got, FLAGS)


def write_files(page: Page, folder: Path) -> None:
    for name, text in page.files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, "utf-8")


def run_pycon(block: Block, folder: Path) -> tuple[int, str]:
    """Runs the block's ``>>>`` lines by doctest in ``folder``: (failures, doctest's report)."""
    test = doctest.DocTestParser().get_doctest(block.text, {"__name__": "__doc_example__"},
                                               block.id, str(block.path), block.line - 1)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    report: list[str] = []
    here = os.getcwd()
    os.chdir(folder)
    try:
        runner.run(test, out=report.append)
    finally:
        os.chdir(here)
    return runner.failures, "".join(report)


def update(path: Path, folder_factory) -> int:
    """Rewrites the outputs of the console blocks of ``path`` whose output differs with what the
    program prints now (a deliberate change: read the diff before committing; put ``...`` back
    where a run time was). Returns how many commands changed."""
    page = read_page(path)
    lines = path.read_text("utf-8").split("\n")
    changed = 0
    for block in reversed([b for b in page.examples if b.language == "console"]):
        folder = folder_factory()
        write_files(page, folder)
        new = []
        for command, got in run_console(block, folder):
            if not matches(command.expected, got):
                changed += 1
                expected = SECONDS.sub("... s", got)
            else:
                expected = command.expected
            new.append("$ " + command.line)
            new.extend(expected.rstrip("\n").split("\n") if expected.strip("\n") else [])
        indent = len(lines[block.line - 1]) - len(lines[block.line - 1].lstrip(" "))
        end = block.line + len(block.text.rstrip("\n").split("\n"))
        lines[block.line:end] = [" " * indent + line if line else line for line in new]
    path.write_text("\n".join(lines), "utf-8")
    return changed


if __name__ == "__main__":      # python tests/doc_examples.py --update PAGE.md...
    import tempfile

    if sys.argv[1:2] != ["--update"]:
        sys.exit(__doc__)
    for name in sys.argv[2:]:
        count = update(Path(name).resolve(), lambda: Path(tempfile.mkdtemp()))
        print(f"{name}: {count} command outputs rewritten")
