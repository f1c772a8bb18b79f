"""`kiwara validate`, `show` and `layouts builtin`, through CliRunner and as a real process."""
import json
import subprocess
import sys

import pytest


CLASSIC = "A B C C C C\nA B B C F F\nA A B C C F\nD A B B B E\nD D E E E E\n"


def test_validate_builtin_and_file(run):
    for target in ("classic", "layouts/classic.txt"):
        result = run("validate", target)
        assert result.exit_code == 0, result.output
        assert "valid" in result.output and "25 of 30 sticks" in result.output
        assert "this is the classic board" in result.output


def test_president_valid_free_play_invalid_classic(run):
    assert run("validate", "president").exit_code == 0
    result = run("validate", "president", "--rules", "classic")
    assert result.exit_code == 1
    assert "territory D has 9 cells" in result.output


@pytest.mark.parametrize("text,code,fragment", [
    ("ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n", 1, "territory C is split into 2 pieces"),
    ("ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n", 1, "{f5}"),
    ("ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n", 1, "territory E has 4 cells {f4, c5, d5, e5}"),
    ("ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEG\n", 1, "7 territories"),
    ("ABCCCC\nABBCFF\nAABCC\nDABBBE\nDDEEEE\n", 2, "board.txt:3: row 3 has 5 cells, expected 6"),
    ("ABCCCC\nABBC%F\nAABCCF\nDABBBE\nDDEEEE\n", 2, "unknown character '%' at row 2, column 5"),
    ("", 2, "empty input"),
    ("# only a comment\n", 2, "no layout found"),
])
def test_bad_layouts_name_the_problem(run, tmp_path, text, code, fragment):
    path = tmp_path / "board.txt"
    path.write_text(text)
    result = run("validate", str(path))
    assert result.exit_code == code
    assert fragment in result.output
    assert "Traceback" not in result.output


def test_binary_and_huge_files(run, tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    result = run("validate", str(junk))
    assert result.exit_code == 2 and "binary data" in result.output and str(junk) in result.output
    latin = tmp_path / "latin.txt"
    latin.write_bytes(b"ABC\xe9\n")
    assert "not UTF-8" in run("validate", str(latin)).output
    huge = tmp_path / "huge.txt"
    huge.write_text("A" * 2_000_000)
    result = run("validate", str(huge))
    assert result.exit_code == 2 and "line longer than 1,000,000 bytes" in result.output
    assert run("validate", str(tmp_path)).exit_code == 2
    assert "no such file" in run("validate", str(tmp_path / "missing.txt")).output


def test_stdin_several_layouts_and_json(run):
    two = CLASSIC + "\n" + "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n"
    result = run("validate", "-", "--json", input=two)
    assert result.exit_code == 1
    payload = json.loads(result.output)
    assert [r["valid"] for r in payload["results"]] == [True, False]
    assert payload["results"][1]["line"] == 7
    assert payload["results"][0]["facts"]["river_segments"] == 25
    assert {p["kind"] for p in payload["results"][1]["problems"]} == {"split", "size"}


def test_custom_rules(run):
    result = run("validate", "-", "--width", "3", "--height", "2", "--territories", "2",
                 "--sizes", "3", input="AAB\nABB\n")
    assert result.exit_code == 0, result.output
    assert run("validate", "-", "--sizes", "x,3", input=CLASSIC).exit_code == 2


def test_show_draws_rivers(run):
    result = run("show", "classic", "--no-colour")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert lines[2] == "  1 | A | B | C   C   C   C |"      # rivers after a1 and b1, none inside C
    assert lines[3] == "    +   +   +---+   +---+---+"      # river under c1 only... and e1, f1
    assert "25 river segments" in result.output


def test_layouts_builtin(run):
    result = run("layouts", "builtin", "--json")
    names = [row["name"] for row in json.loads(result.output)]
    assert {"classic", "president"} <= set(names)


@pytest.mark.slow
def test_exit_codes_from_a_real_process(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"\x00\x01\x02")
    cases = [(["validate", "classic"], 0), (["validate", "president", "--rules", "classic"], 1),
             (["validate", str(bad)], 2), (["validate"], 2), (["nonsense"], 2)]
    for args, code in cases:
        proc = subprocess.run([sys.executable, "-m", "kiwara_designer.cli", *args],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == code, (args, proc.stderr)
        assert "Traceback" not in proc.stderr


def test_validate_streams_inputs_larger_than_a_chunk(run, tmp_path, monkeypatch):
    # a piped listing is far larger than what is read whole: it is read a chunk at a time, and
    # line numbers stay those of the whole input. The chunk is made 60 kB instead of 1 MB so
    # that 1,700 layouts (not 17,000, validated three times over) cross it; they are the
    # built-in free-play layouts over and over (the generator's tables take seconds to build).
    from kiwara_designer.games.kiwara import formats
    from kiwara_designer.games.kiwara.formats import builtin_names, format_block, load_layout
    from kiwara_designer.games.kiwara.geometry import Grid
    monkeypatch.setattr(formats, "MAX_INPUT_BYTES", 60_000)
    builtins = [bytes(load_layout(name).assignment) for name in builtin_names()]
    block = b"".join(builtins[i % len(builtins)] for i in range(1_700))
    text = format_block(block, Grid())
    assert len(text) > formats.MAX_INPUT_BYTES
    broken = text[:-60] + "A A A A A A\nB B B B B B\nA A A A A A\nC C C C C C\nD D E E F F\n"
    path = tmp_path / "many.txt"
    path.write_text(broken)
    result = run("validate", "-q", path)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"{path}:{6 * 1_699 + 1}: INVALID")
    assert "territory A is split" in lines[1]
    assert lines[-1].startswith("1,700 layouts: 1,699 valid, 1 invalid")
    jsonl = tmp_path / "many.jsonl"
    jsonl.write_text(format_block(block, Grid(), "jsonl"))
    result = run("validate", "-q", jsonl)
    assert result.exit_code == 0 and result.output.startswith("1,700 layouts: 1,700 valid")
    listed = tmp_path / "many.json"
    listed.write_text(json.dumps([json.loads(line) for line in jsonl.read_text().splitlines()],
                                 indent=1))
    result = run("validate", listed)
    assert result.exit_code == 2 and "a JSON list larger than 60,000 bytes" in result.output
    tail = tmp_path / "tail.txt"                     # a bad line far in is named by its number
    tail.write_bytes(text.encode() + b"\nA\0\n")
    result = run("validate", "-q", tail)
    assert result.exit_code == 2
    assert f"tail.txt:{text.count(chr(10)) + 2}: binary data (NUL byte)" in result.output


def test_show_json_reports_the_board_shape(run):
    r = run("show", "classic", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["rows"][0] == "ABCCCC" and data["river_segments"] == 25
    assert data["territories"] == {"A": 5, "B": 7, "C": 7, "F": 3, "D": 3, "E": 5}
    assert data["degrees"] == {"A": 2, "B": 3, "C": 2, "F": 2, "D": 2, "E": 3}
    assert data["degree_sequence"] == [2, 2, 2, 2, 3, 3]
    assert data["river_lengths"]["B"] == 15 and data["articulation_territories"] == []
    row = run("show", "-", "--json", input="ABC\nABC\n")
    assert json.loads(row.output)["articulation_territories"] == ["B"]


SPLIT = "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n"


@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_a_malformed_layout_among_others_loses_none_of_them(run, fmt):
    # text and JSON lines behave alike: every layout is reported in order, the malformed one
    # as an error naming its line, and the exit code is the worst (2: bad input)
    rows = [CLASSIC.replace(" ", ""), SPLIT, "ABCCCC\nAB?CFF\nAABCCF\nDABBBE\nDDEEEE\n", CLASSIC]
    if fmt == "text":
        text, lines, bad_line = "\n".join(rows), [1, 7, 13, 19], 14
    else:
        as_json = [json.dumps({"rows": r.replace(" ", "").split()}) for r in rows]
        as_json[2] = '{"rows": ["ABCCCC", "ABBCFF"'          # cut short: not JSON
        text, lines, bad_line = "\n".join(as_json) + "\n", [1, 2, 3, 4], 3
    result = run("validate", "-", "--json", input=text)
    assert result.exit_code == 2, result.output
    payload = json.loads(result.stdout)["results"]
    assert [r["line"] for r in payload] == lines
    assert [r.get("valid") for r in payload] == [True, False, None, True]
    assert payload[2]["error"].startswith(f"<stdin>:{bad_line}:")
    quiet = run("validate", "-q", "-", input=text)
    assert quiet.exit_code == 2
    assert quiet.stderr.count("kiwara: error: <stdin>:") == 1
    assert quiet.stdout.splitlines()[-1].startswith("3 layouts: 2 valid, 1 invalid")
