"""Issue 17: crashes, runaway jobs, silent wrong answers and unfriendly messages found by trying
the tool as a new user would. Each test failed before its fix; the number is the issue's point."""
from __future__ import annotations

import importlib
import io
import json
import re
import sys

import pytest

from kiwara_designer.agents import AgentSpecError, make_agent
from kiwara_designer.games.kiwara import (KiwaraRecord, Move, NotationError, RecordError, ReplayError,
                                          KiwaraVariant, new_game)
from kiwara_designer.games.kiwara.variant import VariantError
from kiwara_designer.core.errors import KiwaraError
from kiwara_designer.games.kiwara.formats import InputError, load_layout, parse_json, stream_layouts
from kiwara_designer.games.kiwara.generator import (GeneratorError, count_layouts, iter_layouts,
                                                    sample_layouts)
from kiwara_designer.games.kiwara.generator.filters import Pattern
from kiwara_designer.games.kiwara.geometry import Grid
from kiwara_designer.core.numbers import parse_whole, plural

GRID = Grid()
NINES = "9" * 4301            # one digit more than Python's int() takes from text
frontier_module = importlib.import_module("kiwara_designer.games.kiwara.generator._frontier")


# -- 1. numbers are parsed by pattern and range ------------------------------------------------
@pytest.mark.parametrize("text", [f"T{NINES}", f"Za{NINES}>3", f"Za3>{NINES}",
                                  f"Ca3xb{NINES}>3", "T٣", "Za٣>3"])
def test_move_with_a_huge_or_foreign_number_is_a_notation_error(text):
    with pytest.raises(NotationError) as caught:
        Move.parse(text, GRID)
    assert len(str(caught.value)) < 200          # quoted short, not 4,301 digits


def test_record_with_a_huge_number_in_a_move_is_an_illegal_move():
    record = KiwaraRecord.from_dict({"layout": "classic", "moves": ["T7", f"Gb2>{NINES}"]})
    with pytest.raises(ReplayError, match="move 2") as caught:
        record.replay()
    assert len(str(caught.value)) < 200          # the move is quoted short, not 4,301 digits


def test_awimbawe_record_with_a_huge_move_quotes_it_short():
    from kiwara_designer.games.awimbawe.cards import NAMES
    from kiwara_designer.games.awimbawe.record import (MatchRecord,
                                                       ReplayError as AwimbaweReplayError)
    record = MatchRecord.from_dict({"game": "awimbawe", "rounds": [
        {"deck": " ".join(NAMES), "moves": [f"G{NINES}"]}]})
    with pytest.raises(AwimbaweReplayError, match="round 1, move 1") as caught:
        record.replay()
    assert len(str(caught.value)) < 400          # one readable line, not 4,301 digits twice


@pytest.mark.parametrize("spec", [f"mcts:{NINES}", f"mcts:{NINES}:greedy"])
def test_agent_budget_with_a_huge_number_is_a_spec_error(spec):
    with pytest.raises(AgentSpecError, match="1 to 1,000,000 iterations"):
        make_agent(spec)


def test_json_and_toml_with_a_huge_number_are_input_errors():
    entries = parse_json('{"rows": ["AB"]}\n{"width": ' + NINES + "}", "f.jsonl")
    assert str(entries[-1].error).startswith("f.jsonl:2:11: invalid JSON: a number of 4,301 digits")
    with pytest.raises(RecordError, match="r.json:1:31: invalid JSON: a number of 4,301"):
        KiwaraRecord.from_json('{"layout": "classic", "seed": ' + NINES + "}", "r.json")
    with pytest.raises(VariantError, match="v.toml: invalid TOML: a number of more than"):
        KiwaraVariant.from_toml(f"zebra_tokens = {NINES}", "v.toml")


def test_parse_whole_takes_ascii_digits_in_range_only():
    assert parse_whole(" 0042 ", 0, 99, "n") == 42
    for text in ["", "-1", "1_000", "٣", "4.0", NINES, "100"]:
        with pytest.raises(KiwaraError):
            parse_whole(text, 0, 99, "n")


# -- 3. a layout block longer than the largest board is refused as it streams -----------------
class _EndlessRows:
    """stdin holding one block of 200,000 rows; counts the rows read."""

    def __init__(self) -> None:
        self.read = 0

    def readline(self, limit: int = -1) -> bytes:
        self.read += 1
        return b"ABCDEF\n" if self.read <= 200_000 else b""


def test_block_longer_than_the_largest_board_is_refused_after_99_rows(monkeypatch):
    rows = _EndlessRows()
    monkeypatch.setattr(sys, "stdin", type("Stdin", (), {"buffer": rows})())
    with pytest.raises(InputError, match=r"<stdin>:100: the layout starting at line 1 has over "
                                         r"99 rows"):
        list(stream_layouts("-"))
    assert rows.read == 100


def test_comment_lines_do_not_count_as_rows_and_blank_lines_reset(tmp_path):
    path = tmp_path / "many.txt"
    path.write_text(("# note\nAB\nAB\n\n" * 80), "utf-8")      # 160 rows in 80 layouts
    assert len(list(stream_layouts(str(path)))) == 80


# -- 5. the generator estimates its table and refuses up front --------------------------------
def _no_table(*args, **kwargs):
    raise AssertionError("the counting table was built")


def test_board_too_large_to_count_is_refused_before_building_the_table(monkeypatch):
    monkeypatch.setattr(frontier_module.Frontier, "completions", _no_table)
    with pytest.raises(GeneratorError, match="8 × 8 board needs more than 5,000,000 table "
                                             "entries"):
        count_layouts(Grid(8, 8), 8, (8,))


@pytest.mark.parametrize("grid,k,sizes", [(Grid(6, 5), 6, (3, 5, 7, 9)), (Grid(5, 5), 5, (5,)),
                                          (Grid(6, 4), 4, (3, 5, 7, 9)), (Grid(4, 4), 4, (3, 4, 5)),
                                          (Grid(7, 4), 4, (7,))])
def test_table_estimate_errs_low(grid, k, sizes):
    from kiwara_designer.games.kiwara.generator.problem import Problem
    problem = Problem.make(grid, k, sizes)
    frontier = frontier_module.Frontier(grid.width, grid.height, problem.sizes, problem.unit,
                                        problem.valid_codes)
    estimate = frontier.estimated_entries()
    frontier.table()
    assert len(frontier.counts) / 2 <= estimate <= len(frontier.counts)


@pytest.mark.parametrize("call", [
    lambda: count_layouts(mix=(3, 3, 5, 5, 7)),
    lambda: next(iter_layouts(mix=(3, 3, 5, 5, 7))),
    lambda: sample_layouts(1, 0, mix=(3, 3, 5, 5, 7)),
])
def test_inadmissible_mix_is_refused_before_counting(monkeypatch, call):
    monkeypatch.setattr(frontier_module.Frontier, "table", _no_table)
    with pytest.raises(GeneratorError, match="3,3,5,5,7 is not admissible"):
        call()


# -- 6. a precision that would need too many games is refused up front ------------------------
def test_precision_needing_more_games_than_allowed_is_refused_before_playing(monkeypatch):
    from kiwara_designer.lab import matches
    monkeypatch.setattr(matches, "play_games", _no_table)
    with pytest.raises(KiwaraError, match=r"±0.001 may need 979,573 games .* ask for ±0.007"):
        matches.play_to_precision(load_layout("classic"), half_width=0.001)


# -- 7. a stored result that the moves contradict, malformed known fields ---------------------
def _finished_record() -> dict:
    from kiwara_designer.agents import play_match
    import random
    final, moves = play_match(new_game(load_layout("classic")),
                              (make_agent("random"), make_agent("random")), random.Random(3))
    scoring = final.scoring()
    return {"layout": "classic", "moves": [str(m) for m in moves], "players": ["random", "random"],
            "seed": 3, "result": {"scores": list(scoring.totals), "winner": scoring.winner}}


def test_stored_result_is_checked_against_the_moves():
    obj = _finished_record()
    record = KiwaraRecord.from_dict(obj)
    assert record.result_difference(record.replay()) is None
    claimed = KiwaraRecord.from_dict({**obj, "result": {"scores": [99, 0], "winner": 0}})
    difference = claimed.result_difference(claimed.replay())
    assert difference.startswith("the record's result (99-0, first player wins) differs from "
                                 "what its moves give (")
    cut = KiwaraRecord.from_dict({**obj, "moves": obj["moves"][:5]})
    assert "the game is not over after its 5 moves" in cut.result_difference(cut.replay())


@pytest.mark.parametrize("key,value,words", [
    ("seed", "7", '"seed" must be a whole number, got "7" (text)'),
    ("seed", True, '"seed" must be a whole number, got true (true/false)'),
    ("players", ["mcts:500"], '"players" must be a list of the two players'),
    ("players", "human", '"players" must be a list'),
    ("result", {"scores": [1, 2]}, '"result" must be {"scores"'),
    ("result", {"scores": [1, 2], "winner": 2}, '"result" must be'),
    ("game_index", -1, '"game_index" must be a whole number from 0'),
])
def test_malformed_known_record_fields_are_refused(key, value, words):
    with pytest.raises(RecordError) as caught:
        KiwaraRecord.from_dict({"layout": "classic", "moves": [], key: value}, "r.json")
    assert str(caught.value).startswith("r.json: " + words)


def test_unknown_record_fields_are_kept():
    record = KiwaraRecord.from_dict({"layout": "classic", "moves": [], "note": [1, "x"]})
    assert record.to_dict()["note"] == [1, "x"]


# -- 11. a UTF-8 byte-order mark is accepted ---------------------------------------------------
BOM = "\ufeff"


def test_byte_order_mark_is_accepted_by_every_reader(tmp_path):
    layout = tmp_path / "board.txt"
    layout.write_text(BOM + "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEE\n", "utf-8")
    assert load_layout(str(layout)) == load_layout("classic")
    as_json = tmp_path / "board.json"
    as_json.write_text(BOM + json.dumps({"rows": list(load_layout("classic").rows)}), "utf-8")
    assert load_layout(str(as_json)) == load_layout("classic")
    variant = tmp_path / "v.toml"
    variant.write_text(BOM + "crocodile_swaps = 0\n", "utf-8")
    assert KiwaraVariant.load(str(variant)).crocodile_swaps == 0
    record = tmp_path / "r.json"
    record.write_text(BOM + '{"layout": "classic", "moves": ["T7"]}', "utf-8")
    assert KiwaraRecord.load(str(record)).moves == ("T7",)
    pattern = tmp_path / "p.txt"
    pattern.write_text(BOM + "AB\n", "utf-8")
    assert Pattern.load(str(pattern)).rows == ("AB",)


# -- 13. type errors read well -----------------------------------------------------------------
@pytest.mark.parametrize("text,words", [
    ('{"width": "6", "rows": ["AB"]}', '"width" must be a whole number, got "6" (text)'),
    ('{"height": true, "rows": ["AB"]}', '"height" must be a whole number, got true (true/false)'),
    ('{"width": 3, "rows": ["AB"]}', '"width" is 3 but the rows give 2'),
    ('{"rows": ["AB', "invalid JSON: Unterminated string starting at line 1, column 11"),
])
def test_json_layout_errors_say_what_was_found(text, words):
    [entry] = parse_json(text, "f.json")
    assert words in str(entry.error)


def test_each_bad_item_of_a_json_list_is_named():
    errors = [str(e.error) for e in parse_json("[1, 2, 3]", "f.json")]
    assert errors == [f"f.json:1: item {i} of the list: expected an object {{\"width\": W, "
                      f"\"height\": H, \"rows\": [\"ABC…\", …]}}, got {i}" for i in (1, 2, 3)]


@pytest.mark.parametrize("line,words", [
    ("zebra_tokens = true", "must be a whole number, got true (true/false)"),
    ('zebra_tokens = "6"', 'must be a whole number, got "6" (text)'),
    ("lion_flips_zebras = 1", "must be true or false, got 1"),
    ("crocodile_swaps = 2.0", 'must be 0, 1 or "chain", got 2.0 (a decimal number)'),
])
def test_variant_type_errors_spell_values_as_the_file_does(line, words):
    with pytest.raises(VariantError) as caught:
        KiwaraVariant.from_toml(line, "v.toml")
    assert str(caught.value).endswith(words)


# -- 16. the same PDF, byte for byte -----------------------------------------------------------
def test_pdf_carries_a_fixed_creation_date():
    pytest.importorskip("cairosvg")
    from kiwara_designer.printing import PrintOptions
    from kiwara_designer.games.kiwara.printing import print_set
    from kiwara_designer.printing.render import render_pdf
    pdf = render_pdf(print_set(load_layout("classic"), PrintOptions()))
    # cairo's own Info and the update that gives its date the D: prefix: the same day in both
    assert set(re.findall(rb"/CreationDate \((?:D:)?(\d{8})", pdf)) == {b"20180101"}


# -- 18. singular and plural -------------------------------------------------------------------
def test_counts_agree_with_their_nouns():
    assert (plural(1, "move"), plural(2, "move"), plural(0, "layout")) == (
        "1 move", "2 moves", "0 layouts")
    assert plural(1200, "symmetry class", "symmetry classes") == "1,200 symmetry classes"


def test_missing_totem_move_is_worded_plainly():
    state = new_game(load_layout("classic")).play("T7")
    with pytest.raises(KiwaraError) as caught:
        state.play("Gb2")
    assert "the totem must move here; the totem can go to 8, 9, 10" in str(caught.value)
    assert "no totem move is not allowed" not in str(caught.value)


def test_legal_move_list_agrees_in_number():
    from kiwara_designer.games.kiwara.view import list_moves
    one = type("OneMove", (), {"legal_moves": lambda self: [Move.parse("T7", GRID)]})()
    assert list_moves(one) == "1 legal move: T7"


# == the command line ============================================================================

from click.testing import CliRunner                            # noqa: E402

from kiwara_designer.cli import main                           # noqa: E402

FAST = ["--agents", "random", "--workers", "1", "--skill-games", "0"]
SPLIT = "ABCCCC\nABBCFF\nAABCCF\nDABBBE\nDDEEEC\n"       # the classic board, C split, E split


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def one_line_error(result, *words, code=2):
    assert result.exit_code == code, (result.output, result.exception)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kiwara:"), lines
    for word in words:
        assert word in lines[0], (word, lines[0])
    return lines[0]


def test_cli_move_with_a_huge_number_is_one_line():                                    # 1
    one_line_error(run("perft", 1, "--moves", f"T{NINES}"), "illegal move 1 in --moves",
                   code=1)


def test_play_with_a_huge_number_typed_still_writes_its_record(tmp_path):               # 1
    record = tmp_path / "game.json"
    result = run("play", "--seed", 1, "--record", record, input=f"T{NINES}\nT7\nquit\n")
    assert result.exit_code == 0, result.output
    assert "illegal: " in result.output
    assert json.loads(record.read_text())["moves"][0] == "T7"


@pytest.mark.parametrize("args", [["playtest", "classic", "-n", 2, *FAST[:2], "-j", 10 ** 20],
                                  ["layouts", "list", "--limit", 1, "-j", 10 ** 6]])
def test_workers_beyond_the_cap_are_refused_with_the_reason(args):                      # 2
    one_line_error(run(*args), "-j/--workers", "worker processes", "per core")


def test_the_workers_cap_is_one_check_for_every_parallel_job():                          # 2
    from kiwara_designer.core.workers import check_workers, max_workers, parallel_map
    assert check_workers(None) is None and check_workers(max_workers()) == max_workers()
    with pytest.raises(KiwaraError):
        list(parallel_map(abs, [1], workers=max_workers() + 1))


@pytest.mark.parametrize("args,words", [
    (["--max-span", 1], "--max-span 1: every layout has a territory of 5 or more cells"),
    (["--max-span", 2], "spans more than 2 cells"),
    (["--min-rivers", 31], "--min-rivers 31: a layout of 6 territories on the 6 × 5 board has "
                           "at most 25 river segments"),
    (["--max-rivers", 4], "at least 5 river segments"),
])
def test_list_filters_no_layout_passes_are_refused_up_front(monkeypatch, args, words):    # 4
    monkeypatch.setattr(frontier_module.Frontier, "table", _no_table)
    one_line_error(run("layouts", "list", "--limit", 3, *args), words, "no layout can pass")


def test_filter_bounds_hold_for_every_layout():                                           # 4
    # so the up-front refusal never refuses a filter some layout passes
    from kiwara_designer.games.kiwara.generator import territory_span
    grid, k = Grid(4, 3), 3
    layouts = list(iter_layouts(grid, k, (2, 3, 4, 5)))
    rivers = [len(layout.river_edges()) for layout in layouts]
    assert min(rivers) >= k - 1 and max(rivers) <= len(grid.edges) - (grid.size - k)
    assert all(territory_span(l) ** 2 >= max(l.sizes) for l in layouts)


def test_perft_states_and_enforces_its_depth_range():                                     # 6
    one_line_error(run("perft", 6), "DEPTH", "0<=x<=5")
    one_line_error(run("perft", -1), "DEPTH", "-1 is not in the range")
    assert "DEPTH is 0 to 5" in " ".join(run("perft", "--help").output.split())


def test_replay_says_when_the_stored_result_differs(tmp_path):                            # 7
    obj = _finished_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps({**obj, "result": {"scores": [99, 0], "winner": 0}}))
    result = run("replay", path)
    assert result.exit_code == 1
    assert result.stderr.strip().endswith("differs from what its moves give "
                                          f"({obj['result']['scores'][0]}-"
                                          f"{obj['result']['scores'][1]}, "
                                          f"{('first', 'second')[obj['result']['winner']]} "
                                          "player wins)")
    assert "provisional score" not in result.stdout           # the board and scores still show
    as_json = json.loads(run("replay", path, "--json").stdout)
    assert as_json["stored_result_differs"].startswith("the record's result (99-0")
    path.write_text(json.dumps(obj))
    assert run("replay", path).exit_code == 0


def test_rank_filter_matching_nothing_says_what_exists(tmp_path):                         # 8
    layouts = tmp_path / "two.txt"
    layouts.write_text("\n".join([load_layout("classic").rows[0]]) and
                       "\n\n".join(["\n".join(load_layout(n).rows) for n in ("classic", "president")]))
    db = tmp_path / "r.sqlite"
    assert run("sweep", "--from", layouts, "--db", db, "--games", 2, *FAST).exit_code == 0
    line = one_line_error(run("rank", "--db", db, "--variant", "nosuch"), code=1)
    assert "no layout matches variant 'nosuch'; the database holds 2 play-tested layouts, " \
           "with variant 'classic', agents 'random,random'" in line


def test_invalid_layouts_are_noted_and_sweep_refuses_them_unless_asked(tmp_path):        # 9
    split = tmp_path / "split.txt"
    split.write_text(SPLIT)
    note = "is not a valid free-play layout: territory C is split"
    for args in (["playtest", split, "-n", 2, *FAST], ["play", "--layout", split, "--first",
                 "random", "--second", "random", "--seed", 1]):
        result = run(*args)
        assert result.exit_code == 0 and note in result.stderr, result.output
    record = tmp_path / "r.json"
    record.write_text(json.dumps({"layout": SPLIT.split(), "moves": ["T7"]}))
    assert note in run("replay", record).stderr
    db = tmp_path / "r.sqlite"
    refused = run("sweep", "--from", split, "--db", db, "--games", 2, *FAST)
    assert refused.exit_code == 2 and "--allow-invalid sweeps them anyway" in refused.stderr
    assert not db.exists()
    allowed = run("sweep", "--from", split, "--db", db, "--games", 2, *FAST, "--allow-invalid")
    assert allowed.exit_code == 0 and note in allowed.stderr


@pytest.mark.parametrize("bad", [b"\xff\xfe\n", b"A\x00\n"])
def test_validate_count_after_a_fatal_read_error_counts_what_came_before(tmp_path, bad):  # 10
    path = tmp_path / "mixed.txt"
    path.write_bytes("\n".join(load_layout("classic").rows).encode() + b"\n\nAB\n" + bad)
    result = run("validate", "-q", path)      # the layout cut by the bad line is not counted
    assert result.exit_code == 2 and "mixed.txt:8: " in result.stderr
    assert result.stdout.startswith("1 layout: 1 valid, 0 invalid")


@pytest.mark.parametrize("args", [["validate"], ["nosuch"], ["perft", 2, "--frob"],
                                  ["layouts", "count", "--width", "x"]])
def test_usage_errors_are_one_line(args):                                                 # 12
    one_line_error(run(*args), "--help")


@pytest.mark.parametrize("args,words", [
    (["layouts", "count", "--sizes", "3,,5"], "--sizes '3,,5' has an empty item"),
    (["layouts", "count", "--sizes", "3,5,"], "has an empty item"),
    (["validate", "classic", "--sizes", "0"], "each of --sizes must be between 1 and"),
    (["layouts", "count", "--sizes", "0"], "each of --sizes must be between 1 and"),
    (["layouts", "count", "--sizes", "٣"], "--sizes must be whole numbers separated by commas"),
    (["validate", "classic", "--rules", "classic", "--sizes", "4,6"],
     "--rules classic fixes the board and the sizes; --sizes makes a custom ruleset"),
])
def test_sizes_are_parsed_strictly_and_alike(args, words):                                # 14
    one_line_error(run(*args), words)


def test_play_shows_the_totem_stones_around_the_board():                                 # 15
    result = run("play", "--second", "human", "--seed", 1, "--no-colour",
                 input="T7\nhelp\nquit\n")
    lines = result.output.splitlines()
    top = [i for i, line in enumerate(lines) if line.split() == list("012345")][1]   # after T7
    assert lines[top + 1].split()[:6] == list("abcdef")
    assert lines[top + 3].split()[0] == "21" and re.search(r"\| 6 ", lines[top + 3])
    assert "<7" in lines[top + 5]                    # the totem's stone, arrow at row 2
    assert lines[top + 13].split()[:6] == ["16", "15", "14", "13", "12", "11"]
    assert "numbers around the board are the totem's stones" in result.output


# (The replay examples of the guide, docs/kiwara/engine.md, are run with every other example
# of the documentation by tests/test_doc_examples.py.)
