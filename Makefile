# Quick start: `make demo` and `make test` (each creates .venv if absent and installs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all install demo test pytest pytest-interpreter pytest-lowering pytest-rest lit lint wheel-smoke \
	bench math-bounds fuzz fuzz-mutation fuzz-semantic mutate clean

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

# make test runs pytest as three processes (tests/interpreter; the lowering suites and the corpus;
# the rest, tests/evidence included)
# beside lit's two workers, so that no single process is the critical path on 2 cores; each
# target's output is printed together when it ends. docs/testing.md: the figures and how to
# profile.
PYTEST := PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest

test: $(STAMP)
	$(BIN)/ruff check .
	$(MAKE) --no-print-directory -j5 --output-sync=target pytest-interpreter pytest-lowering \
		pytest-rest lit

pytest: $(STAMP)
	$(PYTEST)

pytest-interpreter: $(STAMP)
	$(PYTEST) tests/interpreter

LOWERING_TESTS := tests/passes tests/corpus tests/isa

pytest-lowering: $(STAMP)
	$(PYTEST) $(LOWERING_TESTS)

pytest-rest: $(STAMP)
	$(PYTEST) --ignore=tests/interpreter $(addprefix --ignore=,$(LOWERING_TESTS))

lit: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -v tests/filecheck examples

lint: $(STAMP)
	$(BIN)/ruff check .

# Build the wheel, install it (not editable) into a scratch venv and smoke-test it from outside
# the checkout: every package imports, pto-opt / pto-run run, one example lowers (CI runs it).
wheel-smoke: $(STAMP)
	scripts/wheel_smoke.sh $(CURDIR)/$(BIN)/python

# Fuzzing (tests/fuzz, docs/fuzzing.md); make test runs a small budget of each.
# fuzz-mutation: crashes of pto-opt / pto-run; fuzz-semantic: wrong answers of the lowering.
FUZZ_MUTANTS ?= 20000
FUZZ_PROGRAMS ?= 5000
FUZZ_SEED ?= 1
fuzz: fuzz-mutation fuzz-semantic

fuzz-mutation: $(STAMP)
	nice $(BIN)/python -m tests.fuzz.fuzz --mutants $(FUZZ_MUTANTS) --seed $(FUZZ_SEED)

fuzz-semantic: $(STAMP)
	nice $(BIN)/python -u -m tests.fuzz.semantic --programs $(FUZZ_PROGRAMS) --seed $(FUZZ_SEED) --progress 500

# Mutation testing of the kernels, verifiers and lowering rows (scripts/mutate.py, issue 27):
# MUTATE_SAMPLE mutants, each against its module's fast tests; survivors in
# scripts/mutation_survivors.txt.
MUTATE_SAMPLE ?= 40
MUTATE_SEED ?= 1
mutate: $(STAMP)
	nice $(BIN)/python scripts/mutate.py --sample $(MUTATE_SAMPLE) --seed $(MUTATE_SEED)

bench: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m benchmarks

# D22: the exhaustive / 10^6-input measurement of the math compositions (about a minute).
math-bounds: $(STAMP)
	$(BIN)/python scripts/measure_math_bounds.py

clean:
	rm -rf $(VENV) build *.egg-info
