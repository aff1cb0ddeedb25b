# Quick start: `make run` and `make test`. Both create .venv on first use.
# `make run` installs only what the bot needs; the development targets add the dev tools
# (pytest, mypy, ruff, ...) to the same .venv the first time one of them runs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# One stamp per set of packages, each redone when pyproject.toml changes.
RUN_STAMP := $(VENV)/.installed-run
STAMP := $(VENV)/.installed
IMAGE ?= salud:latest

.PHONY: install run test lint typecheck unit e2e stress bench mutation screenshots image clean

$(BIN)/python:
	@echo "Creating $(VENV) (first run only)..."
	@$(PYTHON) -m venv $(VENV)

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	@echo "Installing Salud's run-time dependencies into $(VENV)..."
	@$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	@touch $@

# The development tools; they include everything the bot needs, so `run` is up to date too.
# Installed with uv (Astral's installer, from PyPI into .venv itself): on a fresh clone it
# installs the ~60 packages in about 15 s where pip took 60-150 s of `make test`'s five
# minutes. `make run` keeps plain pip, what a server is expected to have.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check 'uv>=0.5,<1'
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e '.[dev]'
	touch $@ $(RUN_STAMP)

# What a server needs (the systemd unit runs .venv/bin/salud): the run-time dependencies.
install: $(RUN_STAMP)

# Exit code 2 is a setting to fix (or a database that cannot be used): the bot has already
# said so in one line, so make stops there without an "Error 2" of its own. Every other
# failure fails the target.
run: $(RUN_STAMP)
	@$(BIN)/python -m bot; status=$$?; [ $$status -eq 2 ] || exit $$status

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

# Four workers even on two cores: most tests wait on a bot process, a slowed disk or
# Discord's timings rather than compute. Work stealing keeps a worker from idling while
# another still holds a queue of the slow reliability tests.
PARALLEL := -n 4 --dist worksteal

test: lint typecheck
	$(BIN)/python -m pytest -m "not stress" $(PARALLEL)

unit: $(STAMP)
	$(BIN)/python -m pytest -m "not stress and not e2e" $(PARALLEL)

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

# The container image of Dockerfile, with podman (or docker) when one is installed.
image:
	@engine=$$(command -v podman || command -v docker || true); \
	if [ -z "$$engine" ]; then \
		echo "make image: no container engine (install podman or docker)"; exit 1; \
	fi; \
	"$$engine" build -t $(IMAGE) .

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache mutants
