# Set-up is automatic: the first `make run` or `make test` builds .venv from the pins.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export QT_API := pyside6

.PHONY: run test check lint typecheck pytest bench devnet package clean

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/explorer $(ARGS)

test: $(STAMP) lint typecheck pytest

# Lint and types alone, no pytest: seconds, for while you work.
check: $(STAMP) lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check explorer tests bench
	$(BIN)/ruff format --check explorer tests bench

typecheck: $(STAMP)
	$(BIN)/mypy explorer tests bench

pytest: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/pytest -q -p no:cacheprovider --timeout=300

bench: $(STAMP)
	for b in bench/[a-z]*.py; do $(BIN)/python $$b || exit 1; done  # _*.py: helpers they start

devnet: $(STAMP)
	$(BIN)/explorer devnet $(ARGS)

package: $(STAMP)
	packaging/build.sh

clean:
	rm -rf $(VENV) build dist *.egg-info
