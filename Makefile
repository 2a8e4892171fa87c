# Quick start: `make demo` and `make test` (each creates .venv if absent and installs).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all install demo test pytest lit lint bench clean

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

test: $(STAMP)
	$(BIN)/ruff check .
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -v tests/filecheck examples

pytest: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m pytest

lit: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/lit -v tests/filecheck examples

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build *.egg-info
