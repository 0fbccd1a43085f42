# Set-up and checks on a fresh machine. `make run` plays; `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck unit bench clean

# setup.py builds the compiled solver cores: a changed C file reinstalls (rebuilds) them.
$(STAMP): pyproject.toml setup.py $(wildcard src/cardtable/solve/native/*.c) $(wildcard src/cardtable/solve/native/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/cardtable play klondike

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

# CARDTABLE_REQUIRE_NATIVE: the tests of tests/solve/native fail if a compiled core was not built.
unit: $(STAMP)
	CARDTABLE_REQUIRE_NATIVE=1 $(BIN)/pytest

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,bench]'
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
