"""The lab knows no game: a toy game's setups are stored, described, ranked and reported through
the game's own answers to the lab's questions (``Game.setup_descriptors``, ``setup_text``,
``setup_picture``, ``rank_columns``, ``setup_noun``), with no code of Kiwara loaded; and the
lab's errors name the settings they speak of in plain words, which a command calls by its
options."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kiwara_designer.core.errors import KiwaraError
from kiwara_designer.games.awimbawe import AwimbaweVariant
from kiwara_designer.lab import Pairing, PlaySettings
from kiwara_designer.lab.race_lab import race_metric
from kiwara_designer.lab.sweep import variant_grid

TESTS = Path(__file__).parent

PILES_SCRIPT = textwrap.dedent("""
    import json, sys
    sys.path.insert(0, {tests!r})
    from toy_games import TakeAwayGame
    from kiwara_designer.lab import PlaySettings, Store, render_report, run_sweep
    from kiwara_designer.lab.text import format_ranking


    class Piles(TakeAwayGame):
        '''Take-away, its setups (piles of stones) described, drawn and ranked by their size.'''
        setup_noun = "pile"

        def setup_descriptors(self, pile):
            return {{"stones": pile, "first_player_loses": pile % 4 == 0}}

        def setup_text(self, pile):
            return f"{{pile}} stones"

        def setup_picture(self, pile):
            return f'<svg width="{{pile}}" height="4"></svg>'

        def rank_columns(self, pile):
            return ((f"{{'stones':>6}}", f"{{pile:>6}}"),)


    PILES = Piles()
    with Store({db!r}) as store:
        summary = run_sweep(store, [5, 8, 9], PlaySettings("greedy,random", 8, seed=1, workers=1),
                            game=PILES)
        rows = store.ranked(game=PILES)
        print(json.dumps({{
            "setups": store.db.execute("SELECT game, setup, descriptors FROM setups").fetchall(),
            "ranking": format_ranking(rows, "score", PILES),
            "mixed": format_ranking(rows, "score"),
            "report": render_report(store, title="piles", game=PILES),
            "modules": sorted(m for m in sys.modules if m.startswith("kiwara_designer.games.")),
        }}))
""")


@pytest.fixture(scope="module")
def piles(tmp_path_factory):
    db = tmp_path_factory.mktemp("piles") / "piles.sqlite"
    out = subprocess.run([sys.executable, "-c", PILES_SCRIPT.format(tests=str(TESTS), db=str(db))],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    return json.loads(out)


def test_no_code_of_any_game_is_loaded(piles):
    assert piles["modules"] == []


def test_setups_are_stored_under_the_game_with_its_descriptors(piles):
    assert [(g, key, json.loads(d)) for g, key, d in piles["setups"]] == [
        ("take-away", str(n), {"stones": n, "first_player_loses": n % 4 == 0}) for n in (5, 8, 9)]


def test_ranking_shows_the_games_columns_under_its_noun(piles):
    header, *lines, ties, intervals = piles["ranking"].splitlines()
    assert header.split() == ["rank", "=", "pile", "score", "balance", "1st", "win", "games",
                              "stones"]
    # with greedy opening, a multiple of 4 is lost by the first player: the least balanced last
    assert lines[-1][:4] == "   3" and lines[-1][7:].startswith("#2  ") and lines[-1].endswith("      8      8")
    assert all(line[7:].split()[0].startswith("#") for line in lines)
    assert "piles" in ties and intervals.startswith("intervals: 95 %")


def test_ranking_without_the_game_shows_its_name_and_setup_keys(piles):
    # rank over a store whose game this kiwara does not know: the rows say what is stored
    header, *lines, _, _ = piles["mixed"].splitlines()
    assert header.endswith("games  game: setup, agents, rules played")
    assert sorted(line.split("  take-away: ")[1] for line in lines) == [
        f"{n}, greedy,random, the game's defaults" for n in (5, 8, 9)]


def test_report_has_the_games_section_with_its_pictures_and_no_board_words(piles):
    report = piles["report"]
    assert "<h2>take-away: top 3 of 3 experiments by score</h2>" in report
    assert all(f'<svg width="{n}" height="4"></svg>' in report for n in (5, 8, 9))
    assert "<th>pile</th>" in report and "played from one pile" in report
    for word in ("layout", "river", "Okapi", "territor"):
        assert word not in report


@pytest.mark.parametrize("refuse, library, command", [
    (lambda: Pairing.parse("a,b,c"),
     "agents wants one or two agent specs separated by a comma, got 'a,b,c'",
     "--agents wants one or two agent specs separated by a comma, got 'a,b,c'"),
    (lambda: variant_grid(AwimbaweVariant(), {"hyenas_to_lose": []}),
     "set hyenas_to_lose: no values", "--set hyenas_to_lose: no values"),
    (lambda: variant_grid(AwimbaweVariant(), {"hyena": [3]}),
     "set hyena: unknown key 'hyena'", "--set hyena: unknown key 'hyena'"),
    (lambda: race_metric("balance", ascending=True),
     "ascending does not apply to balance", "--ascending does not apply to balance"),
])
def test_the_labs_errors_name_settings_which_a_command_calls_by_its_options(refuse, library,
                                                                           command):
    with pytest.raises(KiwaraError) as caught:
        refuse()
    assert str(caught.value).startswith(library) and "--" not in str(caught.value)
    assert caught.value.naming({"agents": "--agents", "set": "--set",
                                "ascending": "--ascending"}).startswith(command)


def test_play_settings_read_pairings_given_as_text():
    settings = PlaySettings("mcts:20,greedy", 10, skill="greedy,random")
    assert settings.pairing == Pairing("mcts:20", "greedy")
    assert (settings.skill, settings.skill_jobs) == (Pairing("greedy", "random"), 0)
    assert PlaySettings(skill_games=4).skill_jobs == 0      # no skill pairing, no skill games


@pytest.mark.parametrize("name", ["kiwara", "awimbawe"])
def test_every_registered_game_answers_the_labs_questions_about_its_setups(name):
    from kiwara_designer.core.game import get_game
    game = get_game(name)
    setup = game.setup_from_key(game.setup_key(None))      # the setup it plays by default
    assert isinstance(game.setup_noun, str) and game.setup_noun
    described = game.setup_descriptors(setup)
    assert json.loads(json.dumps(described)) == described   # stored as JSON as it is
    text = game.setup_text(setup)
    assert text and "\n" not in text
    picture = game.setup_picture(setup)
    assert picture is None or picture.startswith("<svg")
    columns = game.rank_columns(setup)
    assert all(len(header) == len(cell) for header, cell in columns[:-1])   # the last runs on
