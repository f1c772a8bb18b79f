"""``make sanitize`` as part of the suite: the compiled core built with AddressSanitizer and
UBSan, its tests and the fuzz of its entry points run against that build
(tools/sanitize_core.py, what the make target runs). Skipped, saying why, when the compiler
cannot sanitize. About a minute and a half on 2 cores."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "tools", "sanitize_core.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
try:
    import sanitize_core
finally:
    sys.path.pop(0)

pytestmark = pytest.mark.slow


def test_the_compiled_core_under_address_and_undefined_behaviour_sanitizers():
    if os.environ.get("KIWARA_SANITIZED_CORE"):
        pytest.skip("already running under the sanitized core")
    cc = sanitize_core.compiler()
    if sanitize_core.runtime_library(cc) is None:
        pytest.skip(f"{cc} cannot build with -fsanitize=address,undefined (or has no libasan)")
    result = subprocess.run([sys.executable, SCRIPT], cwd=ROOT, capture_output=True, text=True,
                            timeout=900)
    tail = (result.stdout + result.stderr)[-6000:]
    assert result.returncode == 0, tail
    assert "AddressSanitizer" not in result.stderr and "runtime error" not in result.stderr, tail
