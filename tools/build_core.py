"""Build the compiled rules core (``kiwara_designer/games/kiwara/_core``) outside ``pip``.

``pip install`` builds it with the package (setup.py). This script builds the same extension with
whatever setuptools the environment has, without reading pyproject.toml (whose metadata may need
a newer setuptools than a virtualenv ships): for developers rebuilding after an edit, and for
``make sanitize``, which builds it with AddressSanitizer and UBSan into a directory of its own.

    python tools/build_core.py --inplace            # next to the sources (what the package imports)
    python tools/build_core.py --out build/asan --sanitize

Compiler errors fail the build (the extension is not optional here). ``--inplace`` compiles into a
temporary directory first and moves the module into place only when it built, so a failed build
never leaves a broken module behind.
"""
from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import tempfile

from setuptools import Distribution, Extension

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "kiwara_designer.games.kiwara._engine"
PACKAGE = os.path.join("kiwara_designer", "games", "kiwara")
SANITIZE = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
            "-fno-omit-frame-pointer"]


def build(out: str, sanitize: bool) -> str:
    """Build the extension into ``out`` (a package tree); the module's path."""
    core = os.path.join(ROOT, PACKAGE, "_core")
    compile_args = ["-std=c11"] + (["-O1", "-g"] + SANITIZE if sanitize else ["-O2"])
    extension = Extension(
        NAME, sources=sorted(glob.glob(os.path.join(core, "*.c"))),
        depends=sorted(glob.glob(os.path.join(core, "*.h"))), extra_compile_args=compile_args,
        extra_link_args=SANITIZE if sanitize else [])
    dist = Distribution({"name": "kiwara-core", "ext_modules": [extension]})
    command = dist.get_command_obj("build_ext")
    command.build_lib = out
    command.build_temp = os.path.join(out, "temp")
    command.force = True
    command.ensure_finalized()
    command.run()
    return command.get_ext_fullpath(NAME)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--inplace", action="store_true",
                       help="replace the module next to the sources")
    where.add_argument("--out", help="build into this directory (a package tree)")
    parser.add_argument("--sanitize", action="store_true",
                        help="with AddressSanitizer and UndefinedBehaviorSanitizer")
    args = parser.parse_args(argv)
    if args.out:
        print(build(os.path.abspath(args.out), args.sanitize))
        return 0
    with tempfile.TemporaryDirectory() as temporary:
        built = build(temporary, args.sanitize)
        target = os.path.join(ROOT, PACKAGE, os.path.basename(built))
        # a new file renamed over the old one: a process that has the old one loaded keeps it
        staged = target + ".new"
        shutil.copy2(built, staged)
        os.replace(staged, target)
    print(target)
    return 0


if __name__ == "__main__":
    sys.exit(main())
