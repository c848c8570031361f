"""`make guards`: take each safety guard away in a scratch copy; its test must then fail.

python -m tests.guards            run every guard's mutation (exit 1 when a test survives it)
python -m tests.guards --list     print the guards, their files and their tests
python -m tests.guards WORDS      only the guards whose name holds WORDS
"""

from __future__ import annotations

import argparse
import os
import queue
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from explorer.devnet.process import CACHE_VARIABLE, default_cache_dir
from tests.guards.catalogue import GUARDS, Guard
from tests.helpers.profile import FOLDERS, REAL_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
COPIED = ("explorer", "tests", "resources", "docs", "pyproject.toml")
BUDGET_SECONDS = 300.0  # `make test` runs this: five minutes at most
TEST_TIMEOUT = 120
WORKERS = int(os.environ.get("GUARDS_WORKERS", "1"))  # mutations tried at once (each its copy)
WAIT_MS = 6000  # a reliability test's waits: they end in 2 s unmutated, never under a mutation


def scratch_copy() -> Path:
    """Copy the code and the tests (no caches) to a scratch folder; return it."""
    scratch = Path(tempfile.mkdtemp(prefix="explorer-guards-"))
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, scratch / name, ignore=ignore)
        else:
            shutil.copy2(source, scratch / name)
    compile_all(scratch)
    return scratch


def compile_all(scratch: Path) -> None:
    """Compile the copy's modules once, so that no test run compiles the whole code afresh.

    Only the file a mutation changes is compiled again: its bytecode is dropped when it is
    mutated and again when it is restored (`drop_bytecode`).
    """
    command = [sys.executable, "-m", "compileall", "-q", "-j", "0", "explorer", "tests"]
    subprocess.run(command, cwd=scratch, check=True, capture_output=True)


def drop_bytecode(path: Path) -> None:
    """Remove a module's compiled forms beside it (Python's, and pytest's rewritten one)."""
    for compiled in (path.parent / "__pycache__").glob(f"{path.stem}.*.pyc"):
        compiled.unlink(missing_ok=True)


def environment(scratch: Path) -> dict[str, str]:
    """Return the tests' environment: headless, with the warm devnet snapshots.

    The user's profile is the scratch copy's own: a test session fails when anything appears
    in the profile it runs from (tests/helpers/profile.py), and here only the test writes
    there, so a pass under a mutation is never turned into a failure by another program. The
    devnet's snapshot cache stays the warm one.
    """
    profile = {name: str(scratch / "profile" / name.lower()) for name in ("HOME", *FOLDERS)}
    return {
        **{name: value for name, value in os.environ.items() if name != REAL_VARIABLE},
        **profile,
        CACHE_VARIABLE: str(default_cache_dir()),
        "QT_QPA_PLATFORM": "offscreen",
        "QT_API": "pyside6",
        "EXPLORER_TEST_WAIT_MS": str(WAIT_MS),
    }


def pytest_command(test: str) -> list[str]:
    """Return the command that runs a guard's test (a node id, or a file and -k words)."""
    target, _, words = test.partition(" -k ")
    command = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
    command += [f"--timeout={TEST_TIMEOUT}", target]
    return [*command, "-k", words] if words else command


def run_test(scratch: Path, test: str) -> tuple[int, str]:
    """Run one test in the scratch copy; return pytest's exit code and its last line."""
    run = subprocess.run(
        pytest_command(test),
        cwd=scratch,
        env=environment(scratch),
        capture_output=True,
        text=True,
        timeout=TEST_TIMEOUT * 3,
        check=False,
    )
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    return run.returncode, lines[-1] if lines else run.stderr.strip()[-200:]


def mutate(scratch: Path, guard: Guard) -> str:
    """Apply a guard's mutation in the scratch copy; return the file's original text."""
    path = scratch / guard.path
    text = path.read_text()
    found = text.count(guard.original)
    if found != 1:
        raise SystemExit(f"guards: {guard.name!r}: its text is in {guard.path} {found} times")
    path.write_text(text.replace(guard.original, guard.mutated))
    drop_bytecode(path)  # compiled from the mutated text, whatever its size and time
    return text


def restore(scratch: Path, guard: Guard, original: str) -> None:
    """Put a mutated file back as it was, its mutated bytecode dropped."""
    path = scratch / guard.path
    path.write_text(original)
    drop_bytecode(path)


def check_imports(scratch: Path) -> None:
    """Make sure the tests in the scratch copy import the scratch copy's code."""
    code = "import explorer, sys; sys.stdout.write(explorer.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", code], cwd=scratch, capture_output=True, text=True, check=True
    ).stdout
    if not Path(found).is_relative_to(scratch):
        raise SystemExit(f"guards: the scratch copy imports {found}, not its own code")


def try_guard(scratches: queue.Queue[Path], guard: Guard) -> tuple[bool, str]:
    """Take one guard away in a free scratch copy and run its test; return (caught, report)."""
    scratch = scratches.get()
    began = time.monotonic()
    try:
        original = mutate(scratch, guard)
        try:
            code, last = run_test(scratch, guard.test)
        finally:
            restore(scratch, guard, original)
    finally:
        scratches.put(scratch)
    caught = code == 1  # tests failed (not: a collection error, interrupted, none found)
    verdict = "caught" if caught else f"NOT CAUGHT (pytest exit {code})"
    report = (
        f"{verdict:<8} {time.monotonic() - began:5.1f} s  {guard.name}\n"
        f"      {guard.path}  ->  {guard.test}\n      {last}"
    )
    return caught, report


def run(guards: list[Guard], workers: int = WORKERS) -> int:
    """Run every guard's mutation, a few at once; return 0 when each test failed as it must.

    Each worker has its own scratch copy, so that one mutation never meets another. The
    tests mostly wait (for what a mutation keeps from happening), so a few run side by side.
    """
    started = time.monotonic()
    copies = [scratch_copy() for _ in range(max(1, min(workers, len(guards))))]
    scratches: queue.Queue[Path] = queue.Queue()
    survivors: list[str] = []
    try:
        for scratch in copies:
            check_imports(scratch)
            scratches.put(scratch)
        with ThreadPoolExecutor(len(copies)) as pool:
            results = pool.map(lambda guard: try_guard(scratches, guard), guards)
            for number, (guard, outcome) in enumerate(zip(guards, results, strict=True), 1):
                caught, report = outcome
                print(f"{number:2}/{len(guards)} {report}", flush=True)
                if not caught:
                    survivors.append(guard.name)
    finally:
        for scratch in copies:
            shutil.rmtree(scratch, ignore_errors=True)
    took = time.monotonic() - started
    print(f"guards: {len(guards) - len(survivors)} of {len(guards)} caught in {took:.0f} s")
    if took > BUDGET_SECONDS:
        print(f"guards: over the budget of {BUDGET_SECONDS:.0f} s by {took - BUDGET_SECONDS:.0f} s")
    if survivors:
        print("guards: no test notices these mutations: " + "; ".join(survivors))
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    """List the guards, or run their mutations."""
    parser = argparse.ArgumentParser(prog="python -m tests.guards", description=__doc__)
    parser.add_argument("--list", action="store_true", help="print the guards and exit")
    parser.add_argument("words", nargs="*", help="only the guards whose name holds these words")
    options = parser.parse_args(argv)
    chosen = [g for g in GUARDS if all(w.lower() in g.name.lower() for w in options.words)]
    if options.list:
        for number, guard in enumerate(chosen, 1):
            print(f"{number:2}. {guard.name}\n    {guard.path}\n    {shlex.quote(guard.test)}")
        return 0
    return run(chosen)


if __name__ == "__main__":
    sys.exit(main())
