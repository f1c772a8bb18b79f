"""The package's own docstring examples run (doctest on every module that has one), so an
example in a docstring cannot go stale."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import kiwara_designer


def _modules_with_examples() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(kiwara_designer.__path__, "kiwara_designer."):
        spec = importlib.util.find_spec(info.name)
        if spec and spec.origin and spec.origin.endswith(".py"):
            with open(spec.origin, encoding="utf-8") as source:
                if ">>> " in source.read():
                    names.append(info.name)
    return names


MODULES = _modules_with_examples()


def test_the_package_has_docstring_examples():
    assert len(MODULES) >= 2, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.attempted > 0, f"{name} mentions >>> but holds no example doctest finds"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
