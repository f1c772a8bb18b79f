"""Every console and Python example of the README and docs/ runs, and prints what the page says
(tests/doc_examples.py says how they are read). A page that changes an output, or a program
whose output changes, fails here with the difference."""
from __future__ import annotations

import difflib

import pytest

from doc_examples import all_examples, matches, run_console, run_pycon, write_files

EXAMPLES = all_examples()


def _param(page, block):
    marks = [pytest.mark.slow] if block.slow else []
    return pytest.param(page, block, id=block.id, marks=marks)


def test_the_documentation_has_dozens_of_examples():
    assert len(EXAMPLES) >= 36


@pytest.mark.parametrize("page,block", [_param(p, b) for p, b in EXAMPLES])
def test_example(page, block, tmp_path):
    write_files(page, tmp_path)
    if block.language == "pycon":
        failures, report = run_pycon(block, tmp_path)
        assert failures == 0, report
        return
    problems = []
    for command, got in run_console(block, tmp_path):
        if not matches(command.expected, got):
            diff = "\n".join(difflib.unified_diff(command.expected.splitlines(),
                                                  got.splitlines(), "the page", "the program",
                                                  lineterm=""))
            problems.append(f"$ {command.line}\n{diff}")
    assert not problems, f"{block.id}: output differs\n" + "\n\n".join(problems)
