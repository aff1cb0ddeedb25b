# Quick start: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit e2e stress bench mutation screenshots clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m bot

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

test: lint typecheck
	$(BIN)/python -m pytest -m "not stress"

unit: $(STAMP)
	$(BIN)/python -m pytest -m "not stress and not e2e"

stress: $(STAMP)
	$(BIN)/python -m pytest -m stress

bench: $(STAMP)
	$(BIN)/python -m bench $(ARGS)

# Pictures of real replies for the README (docs/images/*.png); installs Debian's chromium
# with apt-get when missing. Not part of `make test`.
screenshots: $(STAMP)
	$(BIN)/python -m tools.screenshots

mutation: $(STAMP)
	SALUD_HYPOTHESIS_PROFILE=mutation $(BIN)/mutmut run --max-children 2; $(BIN)/mutmut results

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache mutants
