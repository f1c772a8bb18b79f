"""The core's one variant mechanism (core/variants.py), as both games use it: every parameter
declared once, TOML round trips, one-line errors naming source, key and reason, and the
parameter table documented in each game's built-in classic file."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiwara_designer.games.awimbawe.variant import AwimbaweVariant
from kiwara_designer.core.variants import Variant, VariantError, param
from kiwara_designer.games.kiwara.variant import KiwaraVariant

GAMES = (KiwaraVariant, AwimbaweVariant)


def _values(p):
    """Values a parameter accepts, drawn the way a designer might write them."""
    if p.name == "name":
        return st.text(min_size=1, max_size=12)
    if p.choices:
        return st.sampled_from(p.choices)
    if isinstance(p.default, bool):
        return st.booleans()
    if isinstance(p.default, int):
        return st.integers(-1000 if p.low is None else p.low, 1000 if p.high is None else p.high)
    if p.name in ("crowns", "eagle_crowns"):
        return st.lists(st.integers(-99, 99), min_size=len(p.default),
                        max_size=len(p.default)).map(tuple)
    return st.just(p.default)      # deck and handicap: covered by test_engine_cards


@st.composite
def variants(draw, cls):
    values = {}
    for p in cls.parameters():
        if draw(st.booleans()):
            values[p.name] = draw(_values(p))
    try:
        return cls(**values)
    except VariantError:       # a combination the rules refuse (min step > max step, …)
        return cls(name=values.get("name", "classic"))


@pytest.mark.parametrize("cls", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_toml_and_table_round_trip(cls, data):
    variant = data.draw(variants(cls))
    again = cls.from_toml(variant.to_toml())
    assert again == variant and again.name == variant.name
    assert cls.from_dict(variant.to_dict()) == variant
    changes = variant.to_dict(only_changes=True)
    assert cls.from_dict(changes) == variant
    assert all(changes[k] != p.to_plain(p.default) for p in cls.parameters()
               for k in changes if k == p.name)


@pytest.mark.parametrize("cls", GAMES)
def test_every_parameter_refuses_a_wrong_type_in_one_line(cls):
    for p in cls.parameters():      # no parameter of either game is a decimal number
        with pytest.raises(VariantError) as info:
            cls.from_toml(f"{p.name} = 3.5", "bad.toml")
        message = str(info.value)
        assert message.startswith(f"bad.toml: key {p.name!r}: ") and "\n" not in message
        assert info.value.key == p.name


@pytest.mark.parametrize("cls,text,key,reason", [
    (KiwaraVariant, "handicap = [1, 0]", "handicap", 'needs reinforcement = "deck"'),
    (KiwaraVariant, "totem_min_step = 3\ntotem_max_step = 2", "totem_min_step", "larger than"),
    (AwimbaweVariant, "piles = 7\nhand_size = 1", "hand_size", "the deck has 28"),
    (AwimbaweVariant, "piles = 0\nhand_size = 0", "hand_size", "nobody has a card"),
])
def test_rules_joining_parameters_name_a_key(cls, text, key, reason):
    with pytest.raises(VariantError) as info:
        cls.from_toml(text, "v.toml")
    assert str(info.value).startswith(f"v.toml: key {key!r}: ") and reason in str(info.value)


def test_choices_are_strict_about_type():
    with pytest.raises(VariantError, match='must be 0, 1 or "chain", got 1.0'):
        KiwaraVariant.from_toml("crocodile_swaps = 1.0")
    with pytest.raises(VariantError, match="must be 0, 1"):
        KiwaraVariant(crocodile_swaps=True)


def test_awimbawe_values_are_described_as_the_file_spells_them():
    with pytest.raises(VariantError, match=r"must be true or false, got \"yes\" \(text\)"):
        AwimbaweVariant.from_toml('snake_power = "yes"')
    with pytest.raises(VariantError, match=r"mouse must be a whole number of crowns between -99 "
                                           r"and 99, got true \(true/false\)"):
        AwimbaweVariant.from_toml("crowns = {mouse = true}")
    with pytest.raises(VariantError, match="invalid TOML: a number of more than"):
        AwimbaweVariant.from_toml("piles = " + "9" * 5000)


@pytest.mark.parametrize("cls", GAMES)
def test_every_parameter_is_in_the_commented_classic_file(cls):
    text = cls.load("classic").to_toml()
    builtin = (__import__("importlib").resources.files(cls.BUILTIN_PACKAGE)
               / "classic.toml").read_text("utf-8")
    assert tomllib.loads(builtin).keys() == tomllib.loads(text).keys()
    assert cls.from_toml(builtin) == cls()
    lines = cls.parameter_lines()
    assert [line.split(" = ")[0] for line in lines] == [p.name for p in cls.parameters()]
    assert all(" # " in line for line in lines)


def test_a_new_game_declares_its_parameters_only():
    @dataclass(frozen=True)
    class Toy(Variant):
        BUILTIN_PACKAGE = "kiwara_designer.games.kiwara.variants"
        name: str = param("classic", "name", compare=False)
        seeds: int = param(4, "seeds per pit", low=1, high=12)
        sowing: str = param("anticlockwise", "direction", choices=("clockwise", "anticlockwise"))

    assert Toy.from_toml("seeds = 6") == Toy(seeds=6)
    assert Toy(seeds=6).to_toml() == 'name = "classic"\nseeds = 6\nsowing = "anticlockwise"\n'
    with pytest.raises(VariantError, match=r"^t.toml: key 'seeds': must be between 1 and 12, "
                                           r"got 13$"):
        Toy.from_toml("seeds = 13", "t.toml")
    with pytest.raises(VariantError, match=r"unknown key 'seed' \(did you mean 'seeds'\?\)"):
        Toy.from_toml("seed = 3", "t.toml")


@pytest.mark.parametrize("cls", GAMES)
def test_a_toml_file_nested_too_deeply_is_one_error(cls):
    # issue 22 point 2: tomllib recurses once per bracket, and 500 brackets (1 KB) ended in a
    # RecursionError traceback of 3,000 lines through every command reading a variant
    text = "zebra_tokens = " + "[" * 500 + "]" * 500
    with pytest.raises(VariantError, match=r"^deep\.toml: invalid TOML: nested too deeply$"):
        cls.from_toml(text, "deep.toml")


def test_the_command_line_says_so_in_one_line(tmp_path):
    from click.testing import CliRunner
    from kiwara_designer.cli import main
    deep = tmp_path / "deep.toml"
    deep.write_text("zebra_tokens = " + "[" * 500 + "]" * 500)
    for args in (["perft", "1"], ["awimbawe", "deal", "--seed", "1"]):
        result = CliRunner().invoke(main, [*args, "--variant", str(deep)])
        assert result.exit_code == 2 and result.output.count("\n") == 1, result.output[-300:]
        assert result.output.endswith("invalid TOML: nested too deeply\n")


def test_nesting_is_bounded_whatever_the_recursion_limit():
    # the generator raises the recursion limit for its own walk, so a RecursionError cannot be
    # counted on: 40 levels parse under the usual limit and are refused all the same
    from kiwara_designer.core.variants import toml_depth
    assert toml_depth('a = "[[[["  # [[[[ a comment\nb = [[1], {c = [2]}]\n') == 3
    with pytest.raises(VariantError, match="nested too deeply"):
        KiwaraVariant.from_toml("zebra_tokens = " + "[" * 40 + "]" * 40, "deep.toml")
