# Two entry points on a fresh machine: `make run` (set up, then the main job) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test setup clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,pdf,cluster,stats,studio,docs]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/kiwara generate

test: $(STAMP)
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build site *.egg-info
