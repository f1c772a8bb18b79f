# Two entry points on a fresh machine: `make run` (set up, then the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup clean

# The compiled rules core is built by the same install (setup.py: a C extension, optional);
# the last line says whether it was built or the pure-Python engine will run.
CORE := setup.py $(wildcard kiwara_designer/games/kiwara/_core/*.[ch])

$(STAMP): pyproject.toml Makefile $(CORE)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,pdf,cluster,stats,studio,docs]'
	$(BIN)/python -m kiwara_designer.games.kiwara.compiled
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/kiwara generate

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build site *.egg-info kiwara_designer/games/kiwara/_engine*.so

# The compiled core under AddressSanitizer and UBSan (docs/developers/compiled-core.md): built
# into build/sanitize, then the compiled-core tests and the fuzz of its entry points run against
# that build (tests/test_core_sanitized.py runs this when the compiler can). The virtualenv is
# made only when missing: an edit to the sources must not reinstall it.
.PHONY: sanitize
sanitize:
	test -e $(STAMP) || $(MAKE) setup
	$(BIN)/python tools/sanitize_core.py
