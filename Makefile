# Two commands: `make demo` (install into .venv, run the ledger -- its summary line and the entries
# that are not verified --, a derivation and a small reproduction of the regret-vs-T figure into
# demo-figures/)
# and `make test` (install with test extras, run the test suite).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: demo test install docs lock clean

# Installs are pinned: every package (and pip) at the version of constraints.txt, so two machines, or two installs
# a week apart, compute the same ledger.  `make lock` refreshes the pins.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -c constraints.txt pip

$(VENV)/.installed: pyproject.toml constraints.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -c constraints.txt -e ".[test,dask]"
	touch $@

install: $(VENV)/.installed

demo: install
	$(BIN)/rsb verify --status refuted,conditional,loose,vacuous,gap,unchecked
	$(BIN)/rsb derive --h "u**0.3*(1-u)" --p 0.2,0.9
	$(BIN)/rsb reproduce regret-vs-T --out demo-figures --trials 20

# on every core (pytest-xdist; PYTEST_WORKERS=1 for one process): the ledger is computed once per run and shared
# by the workers (tests/conftest.py); no test's result depends on the number of workers
PYTEST_WORKERS ?= auto
test: install
	$(BIN)/ruff check rsb_theory rsb_sim proofs_checks tests benchmarks
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --durations=10

docs: install
	$(BIN)/rsb verify --format md > docs/ledger.md
	$(BIN)/python -c "from proofs_checks import findings, stored; \
	  entries = list(stored.load_or_compute(jobs=2).entries); t = open('README.md').read(); \
	  open('README.md', 'w').write(findings.splice_readme(t, findings.readme_block(entries)))"

lock:
	rm -rf .lock-venv
	$(PYTHON) -m venv .lock-venv
	.lock-venv/bin/python -m pip install --quiet --upgrade pip
	.lock-venv/bin/python -m pip install --quiet -e ".[test]"
	{ sed -n '/^#/p' constraints.txt; .lock-venv/bin/python -m pip freeze --all --exclude-editable \
	  | grep -v -E '^(setuptools|wheel)=='; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf .lock-venv

clean:
	rm -rf $(VENV) build *.egg-info
