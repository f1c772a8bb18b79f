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
