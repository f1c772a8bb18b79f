"""A third game is one new folder (issue 21): the toy take-away in tests/third_game/takeaway is
laid beside Kiwara and Awimbawé (on ``kiwara_designer.games``' path, in a fresh interpreter) and
the registry, the command line, the table and the agents take it with no change elsewhere."""
from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

THIRD = Path(__file__).parent / "third_game"


def run_with_third_game(code: str, stdin: str = "") -> subprocess.CompletedProcess:
    prelude = textwrap.dedent(f"""
        import kiwara_designer.games
        kiwara_designer.games.__path__.append({str(THIRD)!r})
    """)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], input=stdin,
                          capture_output=True, text=True, timeout=120)


def kiwara(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return run_with_third_game(f"""
        from kiwara_designer.cli import main
        main({list(args)!r})
    """, stdin)


def test_the_registry_finds_it():
    result = run_with_third_game("""
        from kiwara_designer.core.game import game_names, get_game
        game = get_game("takeaway")
        print(game_names(), game.name, game.has_chance(), game.headline_metric)
    """)
    assert result.stdout == "['awimbawe', 'kiwara', 'takeaway'] takeaway False score\n", \
        result.stderr


def test_its_commands_join_the_command_line():
    listing = kiwara("--help")
    assert "  takeaway " in listing.stdout and "  awimbawe " in listing.stdout
    result = kiwara("takeaway", "play", "--first", "human", "--second", "greedy", "--stones", "6",
                    stdin="5\n1\n3\n")
    # 6 stones: the person takes 1 (5 left), greedy takes 1 (4 left: a lost pile for the
    # person), the person takes 3, greedy the last one
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.startswith("kiwara takeaway play: 6 stones, first human vs second greedy, seed 0\n")
    assert "illegal: a move is 1, 2 or 3 (stones taken)" in out
    assert "first takes 1\n" in out and "second takes 1\n" in out
    assert out.rstrip().endswith("second took the last stone and wins")


def test_agents_and_a_batch_of_games_play_it():
    result = run_with_third_game("""
        import random
        from kiwara_designer.agents import make_agent, play_match
        from kiwara_designer.core.game import get_game
        game = get_game("takeaway")
        greedy, rnd = make_agent("greedy", game), make_agent("random", game)
        wins = sum(play_match(game.new_state(10), [greedy, rnd], random.Random(s))[0].returns()[0] > 0
                   for s in range(20))
        print(wins, make_agent("mcts:50", game).choose(game.new_state(10), random.Random(0)))
    """)
    # from 10 stones the first mover wins by taking 2 (leaving a multiple of 4), always
    assert result.stdout == "20 2\n", result.stderr
