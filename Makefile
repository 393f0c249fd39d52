# Two commands: `make demo` (install into .venv, run the ledger -- its summary line and the entries
# that are not verified --, a derivation and a small reproduction of the regret-vs-T figure into
# demo-figures/)
# and `make test` (install with test extras, run the test suite).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test install docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $@

install: $(VENV)/.installed

demo: install
	$(BIN)/rsb verify --status refuted,conditional,loose,vacuous,unchecked
	$(BIN)/rsb derive --h "u**0.3*(1-u)" --p 0.2,0.9
	$(BIN)/rsb reproduce regret-vs-T --out demo-figures --trials 20

test: install
	$(BIN)/python -m pytest -q

docs: install
	$(BIN)/rsb verify --format md > docs/ledger.md

clean:
	rm -rf $(VENV) build *.egg-info
