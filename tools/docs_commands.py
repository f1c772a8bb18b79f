"""Writes docs/reference/commands.md: every `kiwara` command's --help, as the program prints it.

    python tools/docs_commands.py            # rewrite the page
    python tools/docs_commands.py --check    # exit 1 if the page differs from the live --help

tests/test_docs_site.py runs the check, so the reference cannot drift from the program.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kiwara_designer.cli import main  # noqa: E402

PAGE = ROOT / "docs" / "reference" / "commands.md"
HEADER = """# Commands

Every command's `--help`, exactly as `kiwara` prints it (this page is written by
`tools/docs_commands.py` and the test suite fails when it differs from the program). Every
command follows the [conventions](conventions.md): exit codes, `-` for standard input, `--json`,
`--seed`.
"""


def _commands(group: click.Group, path: tuple[str, ...] = ()):
    for name in sorted(group.list_commands(None)):
        command = group.get_command(None, name)
        yield path + (name,), command
        if isinstance(command, click.Group):
            yield from _commands(command, path + (name,))


def _help(path: tuple[str, ...]) -> str:
    result = CliRunner().invoke(main, [*path, "--help"], prog_name="kiwara", terminal_width=80)
    assert result.exit_code == 0, result.output
    return result.output


def page() -> str:
    commands = list(_commands(main))
    lines = [HEADER, "| command | what it does |", "|---|---|"]
    for path, command in commands:
        anchor = "kiwara-" + "-".join(path)
        summary = command.get_short_help_str(limit=90).replace("|", "\\|")
        lines.append(f"| [`kiwara {' '.join(path)}`](#{anchor}) | {summary} |")
    lines += ["", "## `kiwara`", "", "```text", _help(()).rstrip("\n"), "```", ""]
    for path, _ in commands:
        heading = "#" * min(len(path) + 1, 4)     # anchors kiwara-NAME, on GitHub and MkDocs alike
        lines += [f"{heading} `kiwara {' '.join(path)}`", "", "```text",
                  _help(path).rstrip("\n"), "```", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    text = page()
    if "--check" in sys.argv[1:]:
        if PAGE.read_text("utf-8") != text:
            sys.exit(f"{PAGE.relative_to(ROOT)} differs from the live --help: "
                     "run python tools/docs_commands.py")
    else:
        PAGE.write_text(text, "utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
