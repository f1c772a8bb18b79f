"""Hardening III (issue 32), points 2 to 5: the search settings, the compiled core's entry
points, Ctrl-C in perft and the bound on chain swaps. Each test failed before its fix; a call
that crashed the interpreter runs in a subprocess, so that a crash fails the test instead of
killing pytest."""
from __future__ import annotations

import math
import os
import random
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from click.testing import CliRunner

from kiwara_designer.agents.ismcts import IsmctsAgent
from kiwara_designer.agents.mcts import MctsAgent
from kiwara_designer.cli import main
from kiwara_designer.games.kiwara import KiwaraVariant, load_layout, new_game
from kiwara_designer.games.kiwara.compiled import _engine, position_tuple, rules_tables
from kiwara_designer.games.kiwara.expert import ExpertAgent
from kiwara_designer.games.kiwara.layout import Layout
from kiwara_designer.games.kiwara.state import MAX_SWAP_MOVES, MoveLimitError, setup_position

needs_core = pytest.mark.skipif(_engine is None, reason="the compiled core is not built")
NON_FINITE = [math.nan, math.inf, -math.inf]


def run_python(code: str, timeout: float = 60, engine: str | None = None
               ) -> subprocess.CompletedProcess:
    """``code`` in a fresh interpreter (a crash there is a return code, not a dead pytest)."""
    env = dict(os.environ)
    env.pop("KIWARA_ENGINE", None)
    if engine:
        env["KIWARA_ENGINE"] = engine
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=env)


def assert_python_error(result: subprocess.CompletedProcess, *words: str) -> None:
    """The subprocess ended with a Python exception (exit 1, a traceback), not a signal."""
    assert result.returncode == 1, (result.returncode, result.stderr[-2000:])
    last = result.stderr.strip().splitlines()[-1]
    assert "SystemError" not in last and "Fatal Python error" not in result.stderr
    for word in words:
        assert word in last, last


# -- point 2: non-finite or negative search settings -------------------------------------------
@pytest.mark.parametrize("value", NON_FINITE + [-1.0])
def test_search_agents_refuse_a_non_finite_or_negative_exploration(value):
    for make in (lambda: MctsAgent("m", iterations=200, exploration=value),
                 lambda: IsmctsAgent("i", iterations=200, exploration=value),
                 lambda: ExpertAgent("e", exploration=value)):
        with pytest.raises(ValueError, match="exploration"):
            make()


@pytest.mark.parametrize("seconds", NON_FINITE + [0.0, -1.0])
def test_search_agents_refuse_a_time_budget_that_is_not_a_positive_number(seconds):
    with pytest.raises(ValueError, match="seconds"):
        MctsAgent("m", iterations=None, seconds=seconds)


@pytest.mark.parametrize("iterations", [0, -5, 2.5])
def test_search_agents_refuse_a_bad_iteration_budget(iterations):
    with pytest.raises(ValueError, match="iterations"):
        MctsAgent("m", iterations=iterations)
    with pytest.raises(ValueError, match="iterations"):
        ExpertAgent("e", iterations=iterations)


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_a_nan_exploration_no_longer_crashes_a_search(engine):
    # before: a segfault in the core (node_select returned NULL), AttributeError in Python
    if engine == "compiled" and _engine is None:
        pytest.skip("the compiled core is not built")
    result = run_python("""
        import random
        from kiwara_designer.agents.mcts import MctsAgent
        from kiwara_designer.games.kiwara import load_layout, new_game
        state = new_game(load_layout("classic"))
        MctsAgent("m", iterations=200, exploration=float("nan")).choose(state, random.Random(1))
        """, engine=engine)
    assert_python_error(result, "ValueError", "exploration")


@needs_core
@pytest.mark.parametrize("value", ["nan", "-inf", "inf", "-1.0"])
def test_the_core_refuses_a_non_finite_exploration_itself(value):
    # mcts() and play_game() with an mcts or expert spec: a segfault before
    result = run_python(f"""
        import random
        from kiwara_designer.games.kiwara import load_layout, new_game
        from kiwara_designer.games.kiwara.compiled import _engine, position_tuple, rules_tables
        state = new_game(load_layout("classic"))
        rules = _engine.Rules(rules_tables(state._t))
        pos, words = position_tuple(state), random.Random(1).getstate()[1]
        errors = []
        for call in (
                lambda: rules.mcts(pos, 200, None, "random", float("{value}"), words),
                lambda: rules.play_game(pos, (("expert", 50, float("{value}"), 0, 0),
                                              ("random",)), (b"a", b"b")),
                lambda: rules.play_game(pos, (("mcts", 50, "greedy", float("{value}")),
                                              ("random",)), (b"a", b"b"))):
            try:
                call()
            except ValueError as error:
                errors.append(str(error))
        assert len(errors) == 3 and all("exploration" in e for e in errors), errors
        print("ok")
        """)
    assert result.returncode == 0 and result.stdout == "ok\n", result.stderr[-2000:]


# -- point 3: every entry point of the core checks its arguments -------------------------------
@needs_core
@pytest.mark.parametrize("call", [
    "rules.playout(pos, 'random', words)",
    "rules.greedy(pos, words)",
    "rules.mcts(pos, 100, None, 'random', 1.0, words)",
    "rules.solve(pos, 1000)",
    "rules.play_game(pos, (('random',), ('random',)), (b'a', b'b'))",
])
def test_an_uninitialised_rules_object_raises_in_every_method(call):
    # before: read_position in search.c skipped the ready() check: heap corruption
    result = run_python(f"""
        import random
        from kiwara_designer.games.kiwara import load_layout, new_game
        from kiwara_designer.games.kiwara.compiled import _engine, position_tuple
        pos = position_tuple(new_game(load_layout("classic")))
        words = random.Random(1).getstate()[1]
        rules = _engine.Rules.__new__(_engine.Rules)
        # a position of the empty board an uninitialised object would read: 0 cells, 0 lines
        empty = ((), (0,) * 10, (), 0, -1, 0, -1, 0)
        for pos in [pos, empty] * 10:
            try:
                {call}
            except ValueError as error:
                assert "not initialised" in str(error)
            else:
                raise AssertionError("no error")
        print("ok")
        """)
    assert result.returncode == 0 and result.stdout == "ok\n", result.stderr[-2000:]


@needs_core
def test_over_long_step_targets_are_refused_when_the_rules_are_built():
    # before: destinations() wrote past its stack buffer
    result = run_python("""
        from kiwara_designer.games.kiwara import load_layout, new_game
        from kiwara_designer.games.kiwara.compiled import _engine, position_tuple, rules_tables
        state = new_game(load_layout("classic"))
        tables = rules_tables(state._t)
        tables["step_targets"] = (((1, 0),) * 2000,) * tables["positions"]
        rules = _engine.Rules(tables)
        state = state.apply(state.legal_moves()[0])
        rules.legal_moves(position_tuple(state))
        """)
    assert_python_error(result, "ValueError", "step_targets")


@needs_core
@pytest.mark.parametrize("ops", [["below"], [["below", 5]], [("below", 2 ** 70)],
                                 [("bits", -2 ** 80)], [(b"below", 3)], [("sample", 5)],
                                 [("random", "x")]])
def test_rng_draws_checks_its_ops(ops):
    # before: ['below'] raised SystemError (PyArg_ParseTuple on a list), huge numbers OverflowError
    words = random.Random(1).getstate()[1]
    with pytest.raises((TypeError, ValueError)) as raised:
        _engine.Rules.rng_draws(words, ops)
    assert type(raised.value) in (TypeError, ValueError)


@needs_core
@pytest.mark.parametrize("deadline", ["nan", "inf", "-inf"])
def test_mcts_refuses_a_deadline_that_is_not_a_finite_time(deadline):
    # before: deadline=nan never ended (no clock reading is >= nan)
    result = run_python(f"""
        import random
        from kiwara_designer.games.kiwara import load_layout, new_game
        from kiwara_designer.games.kiwara.compiled import _engine, position_tuple, rules_tables
        state = new_game(load_layout("classic"))
        rules = _engine.Rules(rules_tables(state._t))
        rules.mcts(position_tuple(state), 0, float("{deadline}"), "random", 1.0,
                   random.Random(1).getstate()[1])
        """, timeout=30)
    assert_python_error(result, "ValueError", "deadline")


@needs_core
def test_numbers_too_large_for_c_are_value_errors_not_overflow_errors():
    state = new_game(load_layout("classic"))
    rules = _engine.Rules(rules_tables(state._t))
    pos, words = position_tuple(state), random.Random(1).getstate()[1]
    for call in (lambda: rules.perft(pos, 2 ** 70), lambda: rules.divide(pos, -2 ** 70),
                 lambda: rules.evaluate(pos, 2 ** 70), lambda: rules.solve(pos, 2 ** 70),
                 lambda: rules.mcts(pos, 2 ** 70, None, "random", 1.0, words),
                 lambda: rules.playout(pos, "random", (2 ** 40,) + words[1:]),
                 lambda: rules.playout(pos, "random", (-1,) + words[1:])):
        with pytest.raises(ValueError):
            call()
    with pytest.raises(IndexError):
        rules.apply(pos, 2 ** 70)


# -- point 4: Ctrl-C stops a compiled perft ------------------------------------------------------
BIG_ROWS = ["AAAABBBBCCCC", "AAAABBBBCCCC", "DDDDEEEEFFFF", "DDDDEEEEFFFF", "GGGGHHHHIIII",
            "GGGGHHHHIIII", "JJJJKKKKLLLL", "JJJJKKKKLLLL", "MMMMNNNNOOOO", "MMMMNNNNOOOO"]


def interrupt(args: list[str], code: str | None = None) -> tuple[subprocess.CompletedProcess,
                                                                 float]:
    """Start ``args``, send SIGINT once it has been counting for a second; the result and how
    long it took to end after the signal."""
    env = dict(os.environ)
    env.pop("KIWARA_ENGINE", None)
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    try:
        process.stdout.readline()       # "counting" (the Python snippet) or the first depth
        time.sleep(1.0)
        assert process.poll() is None, "ended before the signal"
        process.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        out, err = process.communicate(timeout=30)
        took = time.perf_counter() - sent
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    return subprocess.CompletedProcess(args, process.returncode, out, err), took


@needs_core
@pytest.mark.parametrize("method", ["perft", "divide"])
def test_ctrl_c_stops_a_compiled_perft_within_a_moment(method):
    # before: perft ran on for minutes after SIGINT (no signal check without the GIL)
    code = f"""
        import sys
        from kiwara_designer.games.kiwara.compiled import _engine, position_tuple, rules_tables
        from kiwara_designer.games.kiwara.layout import Layout
        from kiwara_designer.games.kiwara import new_game
        state = new_game(Layout.from_rows({BIG_ROWS!r}))
        rules = _engine.Rules(rules_tables(state._t))
        print("counting", flush=True)
        try:
            rules.{method}(position_tuple(state), 6)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    result, took = interrupt([sys.executable, "-c", textwrap.dedent(code)])
    assert result.returncode == 3 and "interrupted" in result.stdout, result.stderr[-2000:]
    assert took < 5


@needs_core
def test_ctrl_c_stops_kiwara_perft_with_exit_130(tmp_path):
    board = tmp_path / "big.txt"
    board.write_text("\n".join(BIG_ROWS) + "\n")
    kiwara = os.path.join(os.path.dirname(sys.executable), "kiwara")
    result, took = interrupt([kiwara, "perft", "5", "--layout", str(board)])
    assert result.returncode == 130, (result.returncode, result.stderr[-2000:])
    assert result.stderr.strip().splitlines()[-1] == "kiwara: interrupted"
    assert "Traceback" not in result.stderr
    assert took < 5


# -- point 5: chain swaps are bounded, the same in both engines -----------------------------------
CHECKER = Layout.from_rows(["ABABAB", "BABABA", "ABABAB", "BABABA", "ABABAB"])
MANY_GAZELLES = KiwaraVariant(name="many-gazelles", zebra_tokens=0, gazelle_tokens=14,
                              elephant_tokens=0, lion_tokens=0, crocodile_tokens=1)


def crowded(empties=("a1", "f1", "c3"), totem=21):
    """27 gazelles on a 6 x 5 checkerboard (every neighbour across a river), a crocodile in
    hand: about 600,000 legal moves without the bound."""
    grid = CHECKER.grid
    tokens, n = {}, 0
    for cell in grid.cells:
        name = grid.cell_name(cell)
        if name not in empties:
            tokens[name] = "G" if n % 2 == 0 else "g"
            n += 1
    return setup_position(CHECKER, MANY_GAZELLES, tokens=tokens, totem=totem, to_move=0,
                          reserves=({"C": 1}, {"C": 1}))


def test_both_engines_have_the_same_bound():
    assert MAX_SWAP_MOVES == 100_000
    if _engine is not None:
        assert _engine.MAX_SWAP_MOVES == MAX_SWAP_MOVES


def check_limit_error(error: BaseException) -> None:
    message = str(error)
    assert isinstance(error, MoveLimitError) and "\n" not in message
    assert "'many-gazelles'" in message and "100,000" in message
    assert "crocodile_swaps" in message and "gazelle_tokens" in message


def test_the_python_engine_stops_at_the_bound(monkeypatch):
    # before: every one of the ~600,000 moves was built (seconds and about 200 MB)
    monkeypatch.setenv("KIWARA_ENGINE", "python")
    state = crowded()
    started = time.perf_counter()
    with pytest.raises(MoveLimitError) as raised:
        state.legal_moves()
    check_limit_error(raised.value)
    assert time.perf_counter() - started < 5


@needs_core
def test_the_compiled_engine_stops_at_the_same_bound(monkeypatch):
    monkeypatch.delenv("KIWARA_ENGINE", raising=False)
    state = crowded()
    rules = _engine.Rules(rules_tables(state._t))
    with pytest.raises(_engine.MoveLimitError):
        rules.legal_moves(position_tuple(state))
    from kiwara_designer.games.kiwara.compiled import twin
    for call in (lambda core: core.perft(1), lambda core: core.perft_divide(1),
                 lambda core: core.solve(1000), lambda core: core.greedy(random.Random(1)),
                 lambda core: core.search(50, None, "random", 1.0, random.Random(1))):
        with pytest.raises(MoveLimitError) as raised:
            call(twin(state))
        check_limit_error(raised.value)


@needs_core
@pytest.mark.parametrize("empties, totem", [(("a1", "f1", "c3"), 21), (("c1", "c2", "c3"), 20),
                                            (("c1", "c2", "c3"), 21), (("c1", "d1", "c3"), 21)])
def test_both_engines_agree_on_which_positions_pass_the_bound(empties, totem, monkeypatch):
    state = crowded(empties, totem)
    rules = _engine.Rules(rules_tables(state._t))
    try:
        core = len(rules.legal_moves(position_tuple(state)))
    except _engine.MoveLimitError:
        core = None
    monkeypatch.setenv("KIWARA_ENGINE", "python")
    try:
        python = len(crowded(empties, totem).legal_moves())
    except MoveLimitError:
        python = None
    assert core == python
    if core is not None:
        assert core <= MAX_SWAP_MOVES + 1000


def moves_to_a_crowded_position() -> str:
    """Gazelles placed one after another (the first legal gazelle move) until the crocodile's
    chains pass the bound: the moves, in notation."""
    state = new_game(CHECKER, MANY_GAZELLES)
    played = []
    while True:
        try:
            moves = state.legal_moves()
        except MoveLimitError:
            return " ".join(played)
        move = next((m for m in moves if m.kind in (None, "G")), moves[0])
        played.append(str(move))
        state = state.apply(move)
        assert not state.is_terminal()


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_the_command_line_says_it_in_one_line(engine, tmp_path, monkeypatch):
    if engine == "compiled" and _engine is None:
        pytest.skip("the compiled core is not built")
    monkeypatch.setenv("KIWARA_ENGINE", engine)
    (tmp_path / "checker.txt").write_text("\n".join(CHECKER.rows) + "\n")
    (tmp_path / "many.toml").write_text(
        'name = "many-gazelles"\nzebra_tokens = 0\ngazelle_tokens = 14\nelephant_tokens = 0\n'
        'lion_tokens = 0\ncrocodile_tokens = 1\n')
    moves = moves_to_a_crowded_position()
    result = CliRunner().invoke(main, ["perft", "1", "--layout", str(tmp_path / "checker.txt"),
                                       "--variant", str(tmp_path / "many.toml"),
                                       "--moves", moves])
    assert result.exit_code == 2, result.output
    # (a note first: the checkerboard is not a free-play layout)
    errors = [line for line in result.output.splitlines() if not line.startswith("kiwara: note:")]
    assert len(errors) == 1 and errors[0].startswith("kiwara: error: variant 'many-gazelles'")
    assert "crocodile_swaps" in errors[0] and "Traceback" not in result.output


@pytest.mark.parametrize("engine", ["compiled", "python"])
def test_a_search_meeting_the_bound_deep_down_says_so_in_both_engines(engine, monkeypatch):
    # the root has 3 moves; the crocodile's turn after them passes the bound (a MemoryError
    # from the core's playouts and tree before)
    if engine == "compiled" and _engine is None:
        pytest.skip("the compiled core is not built")
    monkeypatch.setenv("KIWARA_ENGINE", engine)
    grid = CHECKER.grid
    tokens = {grid.cell_name(c): "G" for c in grid.cells
              if grid.cell_name(c) not in ("a1", "f1", "c3")}
    state = setup_position(CHECKER, MANY_GAZELLES, tokens=tokens, totem=21, to_move=0,
                           reserves=({"G": 1}, {"C": 1}))
    assert len(state.legal_moves()) == 3
    for playout in ("random", "greedy", "egreedy"):
        with pytest.raises(MoveLimitError) as raised:
            MctsAgent("m", iterations=20, playout=playout).choose(state, random.Random(1))
        check_limit_error(raised.value)
