"""kiwara explain: a regression of a per-layout metric on the layouts' shape."""
from __future__ import annotations

import statistics
import zlib

import pytest
from click.testing import CliRunner

from kiwara_designer.cli import main
from kiwara_designer.games.kiwara import KiwaraVariant
from kiwara_designer.games.kiwara.generator import sample_layouts
from kiwara_designer.lab import GameResult, Pairing, Store
from kiwara_designer.games.kiwara.explain import ExplainError, explain

pytest.importorskip("statsmodels")

GAMES = 100


def planted_store(path, layouts, rate_of) -> Store:
    """A store whose layouts' first-player win rates are exactly ``rate_of(layout)`` (in
    hundredths): game i is won by the first player when i < 100 × rate."""
    store = Store(path)
    for layout in layouts:
        exp = store.experiment(layout, KiwaraVariant(), Pairing("greedy", "greedy"))
        store.register(exp)
        wins = round(GAMES * rate_of(layout))
        for i in range(GAMES):
            store.add_game(exp, 0, GameResult(
                index=i, seed=i, a_seat=i % 2, winner=0 if i < wins else 1, scores=(40, 30),
                plies=31, decisions=28, branching=30.0, lead_changes=3, decisiveness=0.5,
                stats={"okapi": None, "control": [0] * 6, "control_changes": [0] * 6}))
    store.refresh_summaries()
    return store


def rivers(layout) -> int:
    return len(layout.river_edges())


def test_a_planted_effect_of_rivers_is_found_exactly(tmp_path):
    layouts = sample_layouts(70, 3, canonical=True)      # 10 layouts a feature, for all seven
    with planted_store(tmp_path / "planted.sqlite", layouts,
                       lambda l: 0.3 + rivers(l) / 100) as store:
        alone = explain(store, features=("rivers",))
        (effect,) = alone.effects
        # rate = 0.30 + rivers/100 exactly: per sd of rivers the rate moves sd/100, R² = 1
        sd = statistics.stdev(rivers(l.canonical()) for l in layouts)
        assert effect.per_sd == pytest.approx(sd / 100)
        assert alone.r_squared == pytest.approx(1.0)
        assert effect.clear and effect.low <= effect.per_sd <= effect.high
        assert alone.joint.rejects and effect.p_adjusted == effect.p_value    # one test: no change
        everything = explain(store)
        assert everything.joint.rejects and everything.first_games is None
        assert everything.effects[0].feature in ("rivers", "mean_degree", "longest_border")
        assert everything.layouts == len({l.canonical() for l in layouts})
        assert everything.games == GAMES * everything.layouts


def test_no_effect_gives_intervals_covering_zero(tmp_path):
    layouts = sample_layouts(30, 4, canonical=True)
    # a coin flip per layout (a checksum of its rows), unrelated to its size mix
    flat = lambda l: 0.5 + (0.04 if zlib.crc32("".join(l.canonical().rows).encode()) % 2  # noqa: E731
                            else -0.04)
    with planted_store(tmp_path / "flat.sqlite", layouts, flat) as store:
        result = explain(store, features=("nines", "threes"))
        assert all(e.p_value > 0.001 for e in result.effects)


def test_too_few_layouts_and_unknown_features_are_errors(tmp_path):
    with planted_store(tmp_path / "few.sqlite", sample_layouts(4, 1, canonical=True),
                       lambda l: 0.5) as store:
        with pytest.raises(ExplainError, match=r"needs at least \d+0 .10 a feature"):
            explain(store)
        with pytest.raises(ExplainError, match="a fit of 1 feature needs at least 10"):
            explain(store, features=("rivers",))
        with pytest.raises(ExplainError, match="unknown feature"):
            explain(store, features=("colour",))


def test_explain_command(tmp_path):
    db = tmp_path / "cli.sqlite"
    planted_store(db, sample_layouts(25, 5, canonical=True), lambda l: 0.3 + rivers(l) / 100
                  ).close()
    out = CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "rivers"])
    assert out.exit_code == 0, out.output
    assert "rivers" in out.output and "R² = 1.000" in out.output
    missing = CliRunner().invoke(main, ["explain", "--db", str(tmp_path / "none.sqlite")])
    assert missing.exit_code == 2 and "no such results database" in missing.output


def test_a_fit_without_residuals_says_n_a_in_text_and_null_in_json(tmp_path):
    # issue 22 point 19: statsmodels' warnings reached stderr as two lines each, "p = nan" was
    # printed, --json wrote NaN (not JSON), and a feature given twice was fitted twice
    layouts = sample_layouts(20, 5, canonical=True)
    db = tmp_path / "flat.sqlite"
    planted_store(db, layouts, lambda l: 0.0).close()      # every layout: the same rate, 0
    two = ["--feature", "rivers", "--feature", "nines"]    # 10 layouts a feature
    text = CliRunner().invoke(main, ["explain", "--db", str(db), *two])
    assert text.exit_code == 0 and text.stderr == "", text.stderr
    assert "nan" not in text.stdout and "R² = n/a" in text.stdout
    rows = [line for line in text.stdout.splitlines() if line.startswith("  rivers ")]
    assert len(rows) == 1 and rows[0].endswith("n/a")
    assert "note: first_player_win_rate is the same on every layout" in text.stdout

    def no_constants(name):
        raise AssertionError(f"{name} is not JSON")
    import json
    data = json.loads(CliRunner().invoke(main, ["explain", "--db", str(db), "--json", *two]).stdout,
                      parse_constant=no_constants)
    assert data["r_squared"] is None and {e["p_value"] for e in data["effects"]} == {None}
    assert {e["p_adjusted"] for e in data["effects"]} == {None}
    assert data["joint"]["p_value"] is None and data["joint"]["statistic"] is None
    assert not any(e["clear"] for e in data["effects"])
    twice = CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "rivers",
                                      "--feature", "nines", "--feature", "rivers"])
    assert twice.exit_code == 0 and twice.stderr == ""
    assert [line.split()[0] for line in twice.stdout.splitlines()[4:6]] in (
        ["rivers", "nines"], ["nines", "rivers"])
    assert twice.stdout.count("  rivers ") == 1


def test_a_race_database_is_fitted_on_the_first_games_of_every_layout(tmp_path):
    # issue 24: a race plays more games on the layouts it keeps; weighting by those adaptive
    # counts biased the fit. Here the first 100 games carry an exact effect of rivers and the
    # extra games of the layouts "kept" are all won by the first player: only the first 100 count
    layouts = sample_layouts(20, 3, canonical=True)
    db = tmp_path / "race.sqlite"
    with planted_store(db, layouts, lambda l: 0.3 + rivers(l) / 100) as store:
        kept = store.ranked("score")[:8]
        for row in kept:
            exp = store.experiment(store.setup(row.setup_id)[1], KiwaraVariant(),
                                   Pairing("greedy", "greedy"))
            for i in range(GAMES, GAMES + 50):
                store.add_game(exp, 0, GameResult(
                    index=i, seed=i, a_seat=i % 2, winner=0, scores=(40, 30), plies=31,
                    decisions=28, branching=30.0, lead_changes=3, decisiveness=0.5,
                    stats={"okapi": None, "control": [0] * 6, "control_changes": [0] * 6}))
        store.refresh_summaries()
        result = explain(store, features=("rivers",))
        assert result.first_games == GAMES and result.game_counts == (GAMES, GAMES + 50)
        assert result.games == GAMES * result.layouts
        assert result.r_squared == pytest.approx(1.0)
        sd = statistics.stdev(rivers(l.canonical()) for l in layouts)
        assert result.effects[0].per_sd == pytest.approx(sd / 100)
    text = CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "rivers"])
    assert text.exit_code == 0, text.output
    assert "games per layout differ (100–150" in text.stdout
    assert "fitted on the first 100 games of every layout" in text.stdout
    import json
    data = json.loads(CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "rivers",
                                                "--json"]).stdout)
    assert data["first_games"] == GAMES and data["game_counts"] == [GAMES, GAMES + 50]


def test_noise_is_not_starred_and_the_text_says_so(tmp_path):
    layouts = sample_layouts(30, 4, canonical=True)
    flat = lambda l: 0.5 + (0.04 if zlib.crc32("".join(l.canonical().rows).encode()) % 2  # noqa: E731
                            else -0.04)
    db = tmp_path / "flat.sqlite"
    planted_store(db, layouts, flat).close()
    text = CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "nines",
                                     "--feature", "threes"])
    assert text.exit_code == 0, text.output
    assert ("the features together do not explain first_player_win_rate beyond the games' "
            "noise; no feature is starred") in text.stdout
    assert not any(line.endswith("*") for line in text.stdout.splitlines())
    import json
    data = json.loads(CliRunner().invoke(main, ["explain", "--db", str(db), "--feature", "nines",
                                                "--feature", "threes", "--json"]).stdout)
    joint = data["joint"]
    assert joint["df"] == [2, len(layouts) - 3] and joint["p_value"] >= 0.05
    assert not joint["rejects"] and joint["statistic"] >= 0
    assert all(e["p_adjusted"] >= e["p_value"] and not e["clear"] for e in data["effects"])


def test_holm_and_the_joint_statistic_agree_with_statsmodels():
    import numpy
    import statsmodels.api as sm
    from statsmodels.stats.multitest import multipletests
    from kiwara_designer.core.stats import holm
    from kiwara_designer.games.kiwara.explain import fit_metric
    p = [0.01, 0.04, 0.03, 0.5, 0.002, 0.04]
    assert holm(p) == pytest.approx(list(multipletests(p, method="holm")[1]))
    rng = numpy.random.default_rng(5)
    columns = {"a": list(rng.normal(size=30)), "b": list(rng.integers(0, 3, size=30) * 1.0)}
    y = list(0.5 + 0.02 * numpy.array(columns["a"]) + rng.normal(scale=0.05, size=30))
    weights = list(rng.integers(20, 60, size=30) * 1.0)
    e = fit_metric(columns, y, weights, minimum=False)
    x = sm.add_constant(numpy.column_stack([(numpy.array(c) - numpy.mean(c)) /
                                            numpy.std(c, ddof=1) for c in columns.values()]))
    fit = sm.WLS(numpy.array(y), x, weights=numpy.array(weights)).fit(cov_type="HC3", use_t=True)
    wald = fit.wald_test(numpy.eye(3)[1:], use_f=True, scalar=True)
    assert e.joint.statistic == pytest.approx(float(wald.statistic))
    assert e.joint.p_value_f == pytest.approx(float(wald.pvalue))
    assert e.joint.df == (2.0, 27.0)
    by_name = {f.feature: f for f in e.effects}
    assert by_name["a"].p_value == pytest.approx(float(fit.pvalues[1]))
    assert by_name["a"].low == pytest.approx(float(fit.conf_int(0.05)[1][0]))


def test_the_report_section_leads_with_the_joint_test(tmp_path):
    from kiwara_designer.games.kiwara.report import explain_section
    layouts = sample_layouts(70, 3, canonical=True)
    flat = lambda l: 0.5 + (0.04 if zlib.crc32("".join(l.canonical().rows).encode()) % 2  # noqa: E731
                            else -0.04)
    with planted_store(tmp_path / "flat.sqlite", layouts, flat) as store:
        html = "".join(explain_section(store, "kiwara"))
        assert "no feature explains the rate beyond the games' noise" in html
        assert "HC3" in html and "moves it" not in html
    with planted_store(tmp_path / "rivers.sqlite", layouts,
                       lambda l: 0.3 + rivers(l) / 100) as store:
        html = "".join(explain_section(store, "kiwara"))
        assert "the features together explain part of it" in html
        assert "rivers (+" in html and "moves it beyond the games' noise" in html


def test_features_that_combine_others_get_a_joint_test_and_no_star():
    import numpy
    from kiwara_designer.games.kiwara.explain import fit_metric, format_explanation
    rng = numpy.random.default_rng(1)
    a, b = rng.normal(size=40), rng.normal(size=40)
    y = list(0.5 + 0.1 * a + rng.normal(scale=0.01, size=40))
    e = fit_metric({"a": list(a), "b": list(b), "c": list(a + b)}, y, [100.0] * 40)
    assert e.joint.rejects and e.joint.df == (2.0, 37.0)      # tested on a and b
    assert not any(f.clear for f in e.effects)
    assert "none is starred" in format_explanation(e)
