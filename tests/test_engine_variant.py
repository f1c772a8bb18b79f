"""Rules variants: defaults, TOML files, built-ins, and errors that name file, key and reason."""
from __future__ import annotations

import pytest

from kiwara_designer.games.kiwara import (KiwaraVariant, VariantError, builtin_variant_names,
                                          load_variant)


def test_defaults_are_the_rules_reference():
    v = KiwaraVariant()
    assert v.tokens == (5, 6, 1, 1, 2) and v.points == (6, 2, 5, 1, 0)
    assert (v.totem_min_step, v.totem_max_step, v.crocodile_swaps) == (1, 3, "chain")
    assert (v.okapi_points, v.territory_tie, v.first_placer) == (5, "nobody", "second")
    assert v.lion_gazelles_flee and v.lion_flips_zebras and v.face_down_next_to_lion
    assert not v.lion_blocked_by_rivers


def test_builtin_variants():
    assert {"classic", "no_crocodile_swaps", "totem_1_2", "gazelles_3"} <= set(builtin_variant_names())
    assert KiwaraVariant.load("classic") == KiwaraVariant()
    assert KiwaraVariant.load("no_crocodile_swaps").crocodile_swaps == 0
    assert KiwaraVariant.load("totem_1_2").totem_max_step == 2
    assert KiwaraVariant.load("gazelles_3").gazelle_points == 3
    assert KiwaraVariant.load("gazelles_3").name == "gazelles_3"
    assert load_variant(None) == KiwaraVariant()


def test_file_only_lists_changes_and_round_trips(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text("crocodile_swaps = 1\nlion_points = 2\n")
    v = KiwaraVariant.load(str(path))
    assert v.name == "mine" and v.crocodile_swaps == 1 and v.lion_points == 2
    assert v.to_dict(only_changes=True) == {"crocodile_swaps": 1, "lion_points": 2}
    assert KiwaraVariant.from_toml(v.to_toml()) == v
    assert KiwaraVariant.from_dict(v.to_dict()) == v
    assert v.to_dict()["name"] == "mine"


@pytest.mark.parametrize("text,words", [
    ("crocodile_swap = 1", ["bad.toml", "unknown key 'crocodile_swap'", "crocodile_swaps"]),
    ("crocodile_swaps = 2", ["bad.toml", "crocodile_swaps", '0, 1 or "chain"']),
    ("crocodile_swaps = true", ["crocodile_swaps", '0, 1 or "chain"']),
    ("zebra_points = 'six'", ["zebra_points", "whole number"]),
    ("lion_gazelles_flee = 1", ["lion_gazelles_flee", "true or false"]),
    ("totem_min_step = 0", ["totem_min_step", "between 1 and 1000"]),
    ("totem_min_step = 3\ntotem_max_step = 2", ["totem_min_step", "larger than"]),
    ("territory_tie = 'split'", ["territory_tie", '"nobody" or "both"']),
    ("first_placer = 'me'", ["first_placer"]),
    ("gazelle_tokens = -1", ["gazelle_tokens", "between 0 and 99"]),
    ("this is not toml", ["bad.toml", "invalid TOML"]),
])
def test_bad_files_say_file_key_and_reason(tmp_path, text, words):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(VariantError) as info:
        KiwaraVariant.load(str(path))
    message = str(info.value)
    assert "\n" not in message
    for word in words:
        assert word in message


def test_missing_variant_lists_the_builtins():
    with pytest.raises(VariantError, match="no_crocodile_swaps"):
        KiwaraVariant.load("no-such-variant")


def test_variants_are_values():
    assert KiwaraVariant(name="x") == KiwaraVariant()
    assert hash(KiwaraVariant(name="x")) == hash(KiwaraVariant())
    assert KiwaraVariant(crocodile_swaps=0) != KiwaraVariant()
    with pytest.raises(Exception):
        KiwaraVariant().zebra_points = 3
