# Quick start: `make demo` and `make test` (each creates .venv if absent and installs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all install demo test pytest pytest-interpreter pytest-rest lit lint bench fuzz clean

all: test

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python examples/demo.py
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python examples/mx_quantize_mlp.py

# make test runs pytest as two processes (tests/interpreter, and the rest) beside lit's two
# workers, so that no single process is the critical path on 2 cores; each target's output is
# printed together when it ends. docs/testing.md: the figures and how to profile.
PYTEST := PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest

test: $(STAMP)
	$(BIN)/ruff check .
	$(MAKE) --no-print-directory -j4 --output-sync=target pytest-interpreter pytest-rest lit

pytest: $(STAMP)
	$(PYTEST)

pytest-interpreter: $(STAMP)
	$(PYTEST) tests/interpreter

pytest-rest: $(STAMP)
	$(PYTEST) --ignore=tests/interpreter

lit: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -v tests/filecheck examples

lint: $(STAMP)
	$(BIN)/ruff check .

# Mutation fuzzing of pto-opt / pto-run (tests/fuzz); make test runs a small budget.
FUZZ_MUTANTS ?= 20000
FUZZ_SEED ?= 1
fuzz: $(STAMP)
	nice $(BIN)/python -m tests.fuzz.fuzz --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED)

bench: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
