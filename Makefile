# Entry points for developers and CI. Nothing here downloads at run time; only `install` fetches packages.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
VENV := .venv
BIN := $(VENV)/bin
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help install run run-replicas check test explore lint format bench i18n clean distclean

help:
	@echo "make install    system packages (as root), .venv and pinned requirements; quick when already done"
	@echo "make run        serve the app at http://127.0.0.1:8501"
	@echo "make check      the fast loop: lint, format check, knowledge validation and the fast tests (none that drives"
	@echo "                a browser, serves, starts a process, runs AppTest or is marked slow: README, Testing)"
	@echo "make test       lint, format check, knowledge validation, every test over every core (the real-browser ones"
	@echo "                one after another on one of them); CI runs it"
	@echo "make explore    the property tests with new random examples, 2,000 per test (make test repeats its own)"
	@echo "make lint       ruff check and ruff format --check"
	@echo "make format     apply ruff's fixes and formatting"
	@echo "make run-replicas  serve 2 app replicas behind nginx with sticky sessions (REPLICAS=n to change)"
	@echo "make bench      run every benchmarks/*.py (the load test included: several minutes)"
	@echo "make i18n       extract the interface's messages, update the Chinese catalog, compile it (README, Languages)"
	@echo "make clean      remove caches and test artefacts (distclean also removes $(VENV))"

install:
	@VENV=$(VENV) bash scripts/install.sh

# serve.py is `streamlit run app.py` (same configuration and flags) that prepares the first page while Streamlit starts.
run: install
	$(BIN)/python serve.py

REPLICAS ?= 2
run-replicas: install
	PYTHONPATH=$(CURDIR) $(BIN)/python benchmarks/_serve.py --replicas $(REPLICAS)

# The tests that no slow marker names (tests/conftest.py, SLOW_KINDS; pyproject.toml declares the markers); every
# test in tests/app and tests/e2e is marked by its folder, so those are not even collected. Pytest may keep its
# compiled test modules (these machines set PYTHONDONTWRITEBYTECODE), so a second run skips compiling them.
FAST_TESTS := not e2e and not app and not server and not subprocess and not slow
check: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m selector validate
	PYTHONDONTWRITEBYTECODE= HYPOTHESIS_PROFILE=check $(BIN)/pytest -n auto -m "$(FAST_TESTS)" --ignore=tests/app --ignore=tests/e2e

# Every test in one pytest run spread over every core (pytest-xdist): the real-browser tests (marked e2e) form one
# xdist group (tests/conftest.py, BROWSER_GROUP) that one worker runs one after another against one server and one
# chromium, while the other workers share the rest; it prints one pass/fail count. PYTHONDONTWRITEBYTECODE is
# cleared as in `check`: each worker and each command a test starts then compiles the sources once, not every time.
# -q comes from pyproject addopts; a second -q would hide the pass/fail count.
test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m selector validate
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -n auto --dist loadgroup

# Property tests only (tests that use hypothesis), drawing new examples each run: see tests/conftest.py.
explore: install
	HYPOTHESIS_PROFILE=explore $(BIN)/pytest -m "not e2e" $$(grep -rl --include='test_*.py' '^from hypothesis\|^import hypothesis' tests)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# Benchmarks are scripts, run from the repository root so that `import selector` resolves.
bench: install
	@for script in benchmarks/*.py; do \
		[[ -e "$$script" ]] || continue; \
		[[ $$(basename "$$script") == _* ]] && continue; \
		echo "== $$script"; \
		PYTHONPATH=$(CURDIR) $(BIN)/python "$$script"; \
	done

# The message catalogs (selector.i18n): extract every `_()`/`N_()` message, merge it into each language's catalog
# (new messages arrive untranslated; tests/test_i18n.py fails until each has its translation), then compile the .mo
# files the app reads. The compiled files are committed, so serving never builds or fetches them.
LOCALES := selector/locale
i18n: install
	$(BIN)/pybabel extract -F babel.cfg -k _ -k N_ --no-location --sort-output --omit-header --no-wrap \
		-o $(LOCALES)/messages.pot .
	$(BIN)/pybabel update -i $(LOCALES)/messages.pot -d $(LOCALES) -l zh --init-missing --no-wrap --ignore-obsolete \
		--no-fuzzy-matching --ignore-pot-creation-date
	$(BIN)/pybabel compile -d $(LOCALES) --statistics

clean:
	rm -rf .pytest_cache .ruff_cache .hypothesis test-artifacts out
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV)
