# Quick start: `make demo` and `make test` (each creates .venv if absent and installs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all install demo test pytest lit lint bench fuzz clean

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

# pytest is one process and lit runs two workers: running them side by side keeps both cores
# busy (each target's output is printed together when it ends).
test: $(STAMP)
	$(BIN)/ruff check .
	$(MAKE) --no-print-directory -j2 --output-sync=target pytest lit

pytest: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest

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
