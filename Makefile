# Set-up is automatic: the first `make run` or `make test` builds .venv from the pins.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
NODE_MODULES := tests/clients/node_modules/.installed

export QT_API := pyside6

.PHONY: setup bytecode run test test-fast test-package check lint typecheck pytest guards bench devnet \
	devnet-recent devnet-snapshots readme-screenshots package package-tools clean

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q -c requirements.lock -e '.[test]'
	$(BIN)/python -m compileall -q explorer
	touch $(STAMP)

# pip compiles the installed libraries to bytecode, but not this editable install's own source:
# compiled here (only the files changed since), a start reads ~600 modules' bytecode instead of
# compiling them (about a second of CPU on the first start; on every start where
# PYTHONDONTWRITEBYTECODE is set).
bytecode: $(STAMP)
	$(BIN)/python -m compileall -q explorer

# Qt's X11 plugin needs a few system libraries a fresh desktop may lack: installed with
# apt-get as root, else the exact install line is printed and the start stops (explorer/app/qtdeps.py).
run: bytecode
	$(BIN)/python -m explorer.app.qtdeps --install
	$(BIN)/explorer $(ARGS)

# What the tests need, and nothing else: .venv from the pins, ethers for tests/clients (npm ci,
# when Node.js is installed) and the devnet histories in the shared snapshot cache.
setup: $(STAMP) bytecode $(NODE_MODULES) devnet-snapshots

$(NODE_MODULES): tests/clients/package-lock.json
	@if command -v npm > /dev/null; then \
		cd tests/clients && npm ci --no-audit --no-fund --loglevel=error && touch node_modules/.installed; \
	else echo "setup: no Node.js (npm): the ethers tests will be skipped"; fi

devnet-snapshots: $(STAMP)
	$(BIN)/python -m tests.helpers.warm_devnet

# The tiers (README, "For developers"): two pytest workers per core (pytest-xdist), a test
# file's tests in one worker (its module fixtures are made once). WORKERS=0: one process.
# The tests mostly wait (devnets, timers, child processes): with one worker per core the two
# cores were busy 60 % of the run (pytest 746-759 s), with two per core 184 % (563 s).
# A worker that dies ends the run, naming the test it ran: xdist 3.8 replacing it under
# loadfile can wait forever (pytest-xdist issue 784). Files go out in collection order, the
# longest first (tests/conftest.py), not xdist's most-tests-first, which started the 5-minute
# tour (4 tests) six minutes in and left it running alone at the end.
WORKERS ?= $(shell echo $$((2 * $$(nproc 2> /dev/null || echo 1))))
PYTEST = QT_QPA_PLATFORM=offscreen $(BIN)/pytest -q -p no:cacheprovider -n $(WORKERS) \
	--dist loadfile --no-loadscope-reorder --max-worker-restart 0

# The inner loop: every test but the package build and the screenshot tour.
test-fast: setup
	$(PYTEST) -m "not package and not tour" $(ARGS)

# The README's command: lint, types, every test but the package build (the screenshot tour
# once), then the guards.
test: setup lint typecheck pytest guards

pytest: setup
	$(PYTEST) -m "not package" $(ARGS)

# The package users install: the PyInstaller build, both installers, their checks, the frozen
# screenshot tour (`.ci/run` runs it after `make test`).
test-package: setup
	$(PYTEST) -m package $(ARGS)

# Lint and types alone, no pytest: seconds, for while you work.
check: $(STAMP) lint typecheck

lint: $(STAMP)
	$(BIN)/ruff check explorer tests bench
	$(BIN)/ruff format --check explorer tests bench

typecheck: $(STAMP)
	$(BIN)/mypy explorer tests bench

# Each safety guard taken away in a scratch copy: its test must fail (tests/guards/catalogue.py),
# as many mutations at once as pytest has workers.
guards: setup
	GUARDS_WORKERS=$(WORKERS) $(BIN)/python -m tests.guards $(ARGS)

bench: bytecode
	for b in bench/[a-z]*.py; do $(BIN)/python $$b || exit 1; done  # _*.py: helpers they start

devnet: $(STAMP)
	$(BIN)/explorer devnet $(ARGS)

# The README's two pictures, made by --screenshot (tests/e2e/test_first_contact.py compares them).
readme-screenshots: $(STAMP)
	rm -rf build/readme-screenshots
	QT_QPA_PLATFORM=offscreen $(BIN)/explorer --devnet --screenshot build/readme-screenshots
	cp build/readme-screenshots/home-light.png docs/images/home.png
	cp build/readme-screenshots/tx-success-light.png docs/images/transaction.png

# After a change to the devnet's seeded history (a test says so): build it once, timed, and ship
# its newest blocks and build profile in explorer/devnet/recent/ (~60 KB; docs/architecture.md).
devnet-recent: $(STAMP)
	$(BIN)/python -m explorer.devnet.recent

# The checkers and tools of the package build, from Debian's packages where apt-get exists:
# lintian, desktop-file-validate, appstreamcli, patchelf (RUNPATHs), xvfb-run (an X11 start),
# icupkg and gcc (the trimmed ICU data, packaging/icu_trim.py).
# Where a tool stays missing, the packaging scripts skip what needs it and say why.
PACKAGE_TOOLS := lintian:lintian desktop-file-validate:desktop-file-utils \
	appstreamcli:appstream patchelf:patchelf xvfb-run:xvfb dpkg-deb:dpkg readelf:binutils \
	icupkg:icu-devtools gcc:gcc
# Libraries Qt's X11 plugin loads that a desktop has and a build machine may lack (the X11 start).
PACKAGE_LIBS := libxcb-icccm.so.4:libxcb-icccm4 libxcb-keysyms.so.1:libxcb-keysyms1 \
	libxcb-cursor.so.0:libxcb-cursor0 libxcb-image.so.0:libxcb-image0 \
	libxcb-render-util.so.0:libxcb-render-util0 libxcb-util.so.1:libxcb-util1 \
	libxkbcommon-x11.so.0:libxkbcommon-x11-0

package-tools:
	@missing=""; for pair in $(PACKAGE_TOOLS); do \
		command -v $${pair%%:*} > /dev/null || missing="$$missing $${pair#*:}"; done; \
	for pair in $(PACKAGE_LIBS); do \
		ldconfig -p | grep -q $${pair%%:*} || missing="$$missing $${pair#*:}"; done; \
	if [ -z "$$missing" ]; then echo "package-tools: all installed"; \
	elif command -v apt-get > /dev/null && [ "$$(id -u)" = 0 ]; then \
		echo "package-tools: apt-get install$$missing"; \
		apt-get install -y -q$$missing > /dev/null || \
		{ apt-get update -q > /dev/null && apt-get install -y -q$$missing > /dev/null; } || \
		echo "package-tools: could not install$$missing: their checks are skipped"; \
	else echo "package-tools: no apt-get (or not root): not installed:$$missing (checks skipped)"; fi

# The folder build (smoke-tested against the source), the .deb and the .tar.gz, then their
# validation and a start from where each installs: ~10 minutes on two cores.
package: $(STAMP) package-tools
	packaging/build.sh
	packaging/check_installers.sh

clean:
	rm -rf $(VENV) build dist *.egg-info packaging/build packaging/dist
