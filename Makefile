# Set-up and checks on a fresh machine. `make run` plays; `make test` checks everything.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)

.PHONY: run test lint typecheck unit browser postgres bench clean

# setup.py builds the compiled solver cores: a changed C file reinstalls (rebuilds) them.
$(STAMP): pyproject.toml setup.py $(wildcard src/cardtable/solve/native/*.c) $(wildcard src/cardtable/solve/native/*.h)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,research,analysis]'
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The main program: the card table in the browser (http://127.0.0.1:8000/), games kept in ./cardtable-data.
run: $(STAMP)
	$(BIN)/cardtable serve

# The browser tests drive Debian's Chromium (Playwright's own browser download cannot work here).
browser:
	@command -v chromium >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq chromium; }

# The PostgreSQL tests start a throwaway server of Debian's postgresql package (initdb, pg_ctl).
postgres:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || { \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq postgresql; }

lint: $(STAMP)
	$(BIN)/ruff check src tests bench tools conftest.py
	$(BIN)/ruff format --check src tests bench tools conftest.py

typecheck: $(STAMP)
	$(BIN)/mypy

# CARDTABLE_REQUIRE_NATIVE: the tests of tests/solve/native fail if a compiled core was not built.
# pytest-xdist runs the tests in WORKERS processes (auto: one a core; WORKERS=0 runs them in this one).
# loadfile: one worker runs a whole test file, so a module-scoped fixture (the Dask cluster of
# tests/analysis/test_runner.py) starts once. (Not loadgroup: with pytest 9.2 it ignores xdist_group,
# pytest-xdist issue 1386.)
WORKERS ?= auto
unit: $(STAMP) browser postgres
	CARDTABLE_REQUIRE_NATIVE=1 $(BIN)/pytest -n $(WORKERS) --dist loadfile

# The checks run side by side: mypy (about half a minute) takes the cores while the tests wait
# on their browsers and servers. Any failure fails make test.
test: $(STAMP) browser postgres
	$(MAKE) --no-print-directory -j3 lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install -q -e '.[test,research,bench]'
	$(BIN)/python bench/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache cardtable-data
