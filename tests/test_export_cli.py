"""``kiwara export`` and ``kiwara generate`` through click's test runner."""
from __future__ import annotations

import json
import sys

import pytest

from kiwara_designer.games.kiwara import FREE_PLAY, Layout, validate
from svg_support import NS, find_class, length_mm, parse

try:
    import cairosvg  # noqa: F401
    HAVE_CAIRO = True
except (ImportError, OSError):
    HAVE_CAIRO = False


# Shapes of valid free-play layouts, all with the mix 3,3,5,5,7,7 but the second.
STUB_BOARDS = [["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"],
               ["ADDDFF", "ABBDDF", "ABCCDD", "BBCEED", "CCCCED"],
               ["AAABBB", "CCCCBD", "ECFFBD", "EEFDDD", "FFFFFF"]]


@pytest.fixture
def quick_generator(monkeypatch):
    """The real sampler builds its counting tables once per process (seconds): these tests are
    about the command, so they draw by seed from three known layouts, honouring --mix."""
    import random

    import kiwara_designer.games.kiwara.generator as generator

    def sample_layouts(n, seed, *, mix=None, **_):
        boards = [Layout.from_rows(rows) for rows in STUB_BOARDS]
        boards = [b for b in boards if mix is None or b.size_mix == tuple(mix)]
        return [random.Random(seed).choice(boards) for _ in range(n)]

    monkeypatch.setattr(generator, "sample_layouts", sample_layouts)


def svg_rows(root) -> list[str]:
    """The layout as drawn: each cell's territory, read back from the SVG."""
    cells = {e.get("data-cell"): e.get("data-territory") for e in find_class(root, "cell")}
    rows = max(int(name[1:]) for name in cells)
    cols = max("abcdefghijklmnopqrstuvwxyz".index(name[0]) for name in cells) + 1
    return ["".join(cells[f"{'abcdefghijklmnopqrstuvwxyz'[c]}{r}"] for c in range(cols))
            for r in range(1, rows + 1)]


def test_export_svg_file(run, tmp_path):
    target = tmp_path / "classic.svg"
    result = run("export", "classic", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert f"wrote {target}" in result.stdout and "cell 25 mm" in result.stdout
    assert result.stderr == ""
    root = parse(target.read_text())
    assert length_mm(root.get("width")) == 297
    assert svg_rows(root) == ["ABCCCC", "ABBCFF", "AABCCF", "DABBBE", "DDEEEE"]


def test_export_to_stdout_letter_with_options(run):
    result = run("export", "president", "-o", "-", "--paper", "letter", "--cell-mm", "20",
                 "--crop-marks", "--bleed-mm", "2")
    assert result.exit_code == 0, result.output
    root = parse(result.stdout)
    assert length_mm(root.get("width")) == pytest.approx(279.4)
    assert len(find_class(root, "crop-mark")) == 8
    assert float(find_class(root, "cell")[0].get("width")) == 20
    assert "wrote stdout" in result.stderr


def test_export_layout_from_stdin(run, tmp_path):
    target = tmp_path / "b.svg"
    result = run("export", "-", "-o", str(target), input="AAB\nCCB\n")
    assert result.exit_code == 0, result.output
    assert svg_rows(parse(target.read_text())) == ["AAB", "CCB"]
    assert "not a valid free-play layout: board is 3 × 2, expected 6 × 5" in result.stderr


def test_export_kit_as_svg_files(run, tmp_path):
    result = run("export", "classic", "-o", str(tmp_path / "set.svg"), "--kit")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["set-board.svg", "set-rules.svg",
                                                          "set-tokens.svg"]
    assert len(find_class(parse((tmp_path / "set-tokens.svg").read_text()), "front")) == 30


@pytest.mark.parametrize("args, message", [
    (["nosuchboard", "-o", "x.svg"], "no such file or built-in layout"),
    (["classic", "-o", "x.doc"], "unknown output format"),
    (["classic", "-o", "x.svg", "--paper", "a5"], "unknown paper"),
    (["classic", "-o", "x.svg", "--cell-mm", "0"], "cell size must be"),
    (["classic", "-o", "x.svg", "--bleed-mm", "50"], "bleed must be"),
    (["classic", "-o", "-", "--kit"], "cannot go to stdout"),
    (["classic", "-o", "/nonexistent-dir/x.svg"], "cannot write"),
])
def test_export_errors_are_one_line_exit_2(run, args, message):
    result = run("export", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_export_needs_an_output(run):
    result = run("export", "classic")
    assert result.exit_code == 2 and "--output" in result.stderr


def test_pdf_without_cairosvg_says_how_to_install(run, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)
    result = run("export", "classic", "-o", str(tmp_path / "b.pdf"))
    assert result.exit_code == 2
    assert "pip install 'kiwara-designer[pdf]'" in result.stderr
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.skipif(not HAVE_CAIRO, reason="needs the pdf extra (cairosvg and libcairo)")
def test_export_pdf_kit(run, tmp_path):
    target = tmp_path / "kit.pdf"
    result = run("export", "classic", "-o", str(target), "--kit")
    assert result.exit_code == 0, result.output
    assert target.read_bytes().startswith(b"%PDF") and "3 pages" in result.stdout


def generated_layout(stdout: str) -> Layout:
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("seed "))
    return Layout.from_rows(lines[start + 1:start + 6])


def test_generate_writes_a_valid_board(run, tmp_path):
    """End to end with the real uniform sampler."""
    target = tmp_path / "board.svg"
    result = run("generate", "--seed", "7", "-o", str(target))
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("seed 7 ")
    layout = generated_layout(result.stdout)
    assert validate(layout, FREE_PLAY).valid
    assert "valid free-play layout" in result.stdout
    assert f"{len(layout.river_edges())} river segments" in result.stdout
    root = parse(target.read_text())
    assert svg_rows(root) == list(layout.rows)
    title = " ".join(e.text for e in find_class(root, "title-block")[0].iter(NS + "text"))
    assert "seed 7" in title


def test_generate_same_seed_same_board_default_file_name(run, quick_generator, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    first, second = run("generate", "--seed", "11"), run("generate", "--seed", "11")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert (tmp_path / "kiwara-board-11.svg").exists()


def test_generate_without_seed_prints_one_that_reproduces(run, quick_generator, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("generate")
    assert result.exit_code == 0, result.output
    seed = result.stdout.split()[1]
    again = run("generate", "--seed", seed)
    assert generated_layout(again.stdout) == generated_layout(result.stdout)


def test_generate_mix_and_json(run, quick_generator, tmp_path):
    result = run("generate", "--seed", "3", "--mix", "7,3,5,3,7,5", "-o", str(tmp_path / "b.svg"),
                 "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["seed"] == 3 and data["valid"] is True
    assert data["mix"] == data["facts"]["size_mix"] == [3, 3, 5, 5, 7, 7]
    assert data["files"] == [str(tmp_path / "b.svg")] and data["cell_mm"] == 25
    assert validate(Layout.from_rows(data["rows"]), FREE_PLAY).valid


def test_generate_svg_to_stdout_keeps_the_summary_on_stderr(run, quick_generator):
    result = run("generate", "--seed", "5", "-o", "-")
    assert result.exit_code == 0, result.output
    root = parse(result.stdout)
    assert svg_rows(root) == list(generated_layout(result.stderr).rows)


@pytest.mark.parametrize("args, message", [
    (["--mix", "3,3,5,5,7,8"], "it covers 31 cells, not 30; sizes 8 are not allowed"),
    (["--mix", "3,3,5,5,7"], "it has 5 sizes, not 6"),
    (["--mix", "three"], "whole numbers"),
    (["--seed", "-1"], "--seed"),
    (["--json", "-o", "-"], "pick one"),
])
def test_generate_errors(run, quick_generator, args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("generate", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("args, message", [
    (["-o", "x.doc"], "unknown output format"),
    (["--paper", "a5"], "unknown paper"),
    (["--cell-mm", "0"], "cell size must be"),
])
def test_generate_refuses_bad_print_options_before_drawing(run, args, message, tmp_path, monkeypatch):
    import kiwara_designer.games.kiwara.cli.printing as cli

    def no_drawing(*_):
        raise AssertionError("a board was drawn before the options were checked")
    monkeypatch.setattr(cli, "_generator_sample", no_drawing)
    monkeypatch.chdir(tmp_path)
    result = run("generate", "--seed", "1", *args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert not list(tmp_path.iterdir())


# -- print-ready output (issue 15) and the kit's variant (issue 10) ---------------------------
def test_export_kit_reads_the_variant(run, tmp_path):
    result = run("export", "classic", "-o", str(tmp_path / "set.svg"), "--kit",
                 "--variant", "gazelles_3")
    assert result.exit_code == 0, result.output
    tokens = parse((tmp_path / "set-tokens.svg").read_text())
    gazelles = [t for t in find_class(tokens, "front") if t.get("data-animal") == "gazelle"]
    assert len(gazelles) == 12 and {t.get("data-points") for t in gazelles} == {"3"}
    rules = " ".join(e.text for e in parse((tmp_path / "set-rules.svg").read_text()).iter(NS + "text"))
    assert "variant gazelles_3" in rules
    bad = run("export", "classic", "-o", str(tmp_path / "x.svg"), "--variant", "nosuch")
    assert bad.exit_code == 2 and "nosuch" in bad.stderr and not (tmp_path / "x.svg").exists()


def test_export_duplex_backs_and_president_title(run, tmp_path):
    result = run("export", "president", "-o", str(tmp_path / "p.svg"), "--kit", "--backs", "duplex",
                 "--bleed-mm", "3")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "p-board.svg", "p-rules.svg", "p-tokens-backs.svg", "p-tokens-fronts.svg"]
    board = parse((tmp_path / "p-board.svg").read_text())
    title = find_class(board, "title-block")[0]
    assert next(title.iter(NS + "text")).text == "président"
    assert find_class(board, "crop-mark")


@pytest.mark.skipif(not HAVE_CAIRO, reason="needs the pdf extra")
def test_export_png_dpi(run, tmp_path):
    import struct
    result = run("export", "classic", "-o", str(tmp_path / "b.png"), "--dpi", "300")
    assert result.exit_code == 0, result.output
    data = (tmp_path / "b.png").read_bytes()
    assert struct.unpack(">II", data[16:24]) == (3508, 2480)
    assert data[37:41] == b"pHYs" and struct.unpack(">II", data[41:49]) == (11811, 11811)


@pytest.mark.parametrize("args, message", [
    (["--dpi", "300"], "--dpi only applies to .png output"),
    (["--dpi", "5", "-o", "b.png"], "--dpi"),
    (["--backs", "glue"], "--backs"),
])
def test_export_print_option_errors(run, args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("export", "classic", *(["-o", "b.svg"] if "-o" not in args else []), *args)
    assert result.exit_code == 2 and message in result.stderr
    assert not list(tmp_path.iterdir())


def test_generate_prints_the_command_that_draws_it_again(run, quick_generator, tmp_path):
    target = tmp_path / "b.svg"
    result = run("generate", "--seed", "3", "--mix", "7,3,5,3,7,5", "-o", str(target))
    assert result.exit_code == 0, result.output
    command = "kiwara generate --seed 3 --mix 3,3,5,5,7,7"
    assert f"(again: {command})" in result.stdout
    root = parse(target.read_text())
    assert " ".join(e.text for e in find_class(root, "command")) == command
    again = run(*command.split()[1:], "-o", str(tmp_path / "again.svg"))
    assert generated_layout(again.stdout) == generated_layout(result.stdout)
