"""The compiled rules core (see kiwara_designer/games/kiwara/_core/core.h); everything else is in
pyproject.toml. ``optional=True``: without a working C compiler the installation still succeeds
and the pure-Python engine runs (``python -m kiwara_designer.games.kiwara.compiled`` says which)."""
from glob import glob

from setuptools import Extension, setup

setup(ext_modules=[Extension(
    "kiwara_designer.games.kiwara._engine",
    sources=sorted(glob("kiwara_designer/games/kiwara/_core/*.c")),
    depends=sorted(glob("kiwara_designer/games/kiwara/_core/*.h")),
    extra_compile_args=["-O2", "-std=c11"],
    optional=True)])
