"""``make sanitize``: the compiled rules core under AddressSanitizer and UndefinedBehaviorSanitizer.

Builds the extension with ``-fsanitize=address,undefined`` into ``build/sanitize`` (the module the
package imports is not touched), then runs the compiled-core tests and the fuzz of the core's
entry points in a subprocess that loads that build instead: ``LD_PRELOAD`` of the compiler's
libasan (Python itself is not instrumented, so the sanitizer's runtime must come first),
``ASAN_OPTIONS=detect_leaks=0`` (the interpreter keeps memory until exit by design), and UBSan
stopping at its first report. A read or write out of bounds, a use after free or an undefined
operation in the core then fails the run even where it happens not to crash.

Exit status: 0 all passed, 1 a test or the sanitizer failed, 2 the build failed, 3 the compiler
cannot sanitize (no -fsanitize or no libasan; tests/test_core_sanitized.py then skips).
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "build", "sanitize")
# The compiled-core tests and the fuzz; left out, to stay within about two minutes on 2 cores:
# the slow marathon of test_compiled_engine, and two of its tests whose time goes to the Python
# reference (perft 4 in Python; the agents move by move, which test_compiled_search covers).
TESTS = ["tests/test_compiled_rules.py", "tests/test_compiled_search.py",
         "tests/test_compiled_engine.py", "tests/test_core_fuzz.py",
         "tests/test_hardening3_core.py"]
DESELECT = "not test_perft_agrees and not test_agents_choose_alike"

MODULE = "kiwara_designer.games.kiwara._engine"
# Loaded by pytest (-p) before any test: the sanitized build takes the compiled module's place
# in sys.modules, so `from . import _engine` finds it.
PLUGIN = '''\
import importlib.util, os, sys
_spec = importlib.util.spec_from_file_location({module!r}, os.environ["KIWARA_SANITIZED_CORE"])
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)
sys.modules[{module!r}] = _module


def pytest_report_header(config):
    return "compiled core: " + _module.__file__ + " (AddressSanitizer + UBSan)"
'''


def compiler() -> str:
    """The C compiler the build will use (``CC``, else Python's), as a command line."""
    return os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"


def runtime_library(cc: str) -> str | None:
    """The compiler's libasan, to preload; None when it cannot sanitize."""
    with tempfile.TemporaryDirectory() as temporary:
        source = os.path.join(temporary, "probe.c")
        with open(source, "w") as file:
            file.write("int main(void) { return 0; }\n")
        try:
            command = shlex.split(cc)
            built = subprocess.run([*command, "-fsanitize=address,undefined", source, "-o",
                                    os.path.join(temporary, "probe")], capture_output=True)
            found = subprocess.run([*command, "-print-file-name=libasan.so"],
                                   capture_output=True, text=True)
        except (OSError, ValueError, IndexError):
            return None
    library = found.stdout.strip()
    if built.returncode != 0 or found.returncode != 0 or not os.path.isabs(library) \
            or not os.path.exists(library):
        return None
    return library


def main(argv: list[str]) -> int:
    cc = compiler()
    library = runtime_library(cc)
    if library is None:
        print(f"sanitize: {cc} cannot build with -fsanitize=address,undefined (or has no "
              f"libasan); nothing run", file=sys.stderr)
        return 3
    shutil.rmtree(OUT, ignore_errors=True)
    built = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "build_core.py"), "--out",
                            OUT, "--sanitize"], cwd=ROOT, capture_output=True, text=True)
    if built.returncode != 0:
        print(built.stdout + built.stderr, file=sys.stderr)
        print("sanitize: the sanitized build failed", file=sys.stderr)
        return 2
    module = built.stdout.strip().splitlines()[-1]
    plugin_dir = os.path.join(OUT, "plugin")
    os.makedirs(plugin_dir, exist_ok=True)
    with open(os.path.join(plugin_dir, "kiwara_sanitized_core.py"), "w") as file:
        file.write(PLUGIN.format(module=MODULE))
    env = dict(os.environ)
    env.pop("KIWARA_ENGINE", None)
    env.update({
        "KIWARA_SANITIZED_CORE": module,
        "KIWARA_REQUIRE_CORE": "1",
        "LD_PRELOAD": library,
        "ASAN_OPTIONS": "detect_leaks=0:abort_on_error=1:allocator_may_return_null=1",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "PYTHONPATH": os.pathsep.join([plugin_dir, env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
        "KIWARA_FUZZ_ROUNDS": env.get("KIWARA_FUZZ_ROUNDS", "1000"),
    })
    print(f"sanitize: {module} (ASan + UBSan), preloading {library}", flush=True)
    tests = subprocess.run([sys.executable, "-m", "pytest", "-p", "kiwara_sanitized_core", "-q",
                            "-x", "-m", "not slow", "-k", DESELECT, "-p", "no:cacheprovider",
                            *TESTS, *argv], cwd=ROOT, env=env)
    return 0 if tests.returncode == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
