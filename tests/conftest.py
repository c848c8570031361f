"""Shared test fixtures: the qasync event loop on the pytest-qt QApplication."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Iterator

from PySide6.QtWidgets import QApplication

os.environ.setdefault("QT_API", "pyside6")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import PySide6.QtWidgets  # noqa: F401  (qasync picks the first Qt binding it finds)
import pytest
import qasync

pytest_plugins = [
    "tests.helpers.profile",
    "tests.helpers.devnet",
    "tests.helpers.support",
    "tests.helpers.cache",
    "tests.helpers.forging",
]


_collections: list[None] = []

#: The test files that take minutes, longest first. make runs pytest-xdist without its reorder
#: (most tests first), so these are handed out first and the short files fill the other workers
#: beside them: handed out last by their few tests, the tour (5 min) ran alone at the end.
LONGEST_FIRST = (
    "tests/e2e/test_first_contact.py",
    "tests/test_benches.py",
    "tests/gui/test_layout.py",
    "tests/gui/reliability/test_random_sequences.py",
    "tests/cli/test_report_cache.py",
    "tests/gui/test_home_live.py",
    "tests/devnet/test_openrpc.py",
    "tests/cli/test_history_cli.py",
    "tests/cli/test_trace_cli.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Put the longest test files first; every other test keeps its place and order."""
    rank = {path: place for place, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.partition("::")[0], len(rank)))


def pytest_configure(config: pytest.Config) -> None:
    """Collect garbage only on the main thread (see collect_on_main_thread)."""
    gc.disable()


@pytest.fixture(autouse=True)
def collect_on_main_thread() -> Iterator[None]:
    """Run the garbage collector after each test, on the main thread.

    Automatic collection runs on whichever thread happens to allocate (devnet loops, test
    servers, SQLite workers); a QObject with timers destroyed there makes Qt warn or crash.
    """
    yield
    if gc.isenabled():  # a test or a library turned it back on (mypy's api does when it ends)
        gc.disable()
    _collections.append(None)
    gc.collect(2 if len(_collections) % 25 == 0 else 0)


@pytest.fixture(autouse=True)
def own_saved_data(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Give each test its own saved-data folder and request counts (never the user's).

    Set in the environment, so command-line faces started as processes use them too.
    """
    folder = tmp_path_factory.mktemp("saved")
    names = ("EXPLORER_CACHE_DIR", "EXPLORER_USAGE_FILE")
    before = {name: os.environ.get(name) for name in names}
    os.environ["EXPLORER_CACHE_DIR"] = str(folder / "chains")
    os.environ["EXPLORER_USAGE_FILE"] = str(folder / "usage.sqlite3")
    yield
    for name, value in before.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[qasync.QEventLoop]:
    """Yield a qasync loop set as the asyncio loop; tear it down without quitting Qt."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        pending = [task for task in asyncio.all_tasks(loop) if not task.done()]
        for task in pending:
            task.cancel()
        if pending:
            gathered = asyncio.gather(*pending, return_exceptions=True)
            deadline = loop.time() + 5
            while not gathered.done() and loop.time() < deadline:
                qapp.processEvents()
        loop._QEventLoop__is_running = False
        asyncio.events._set_running_loop(None)
        loop.close()
        asyncio.set_event_loop(None)
