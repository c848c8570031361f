"""Reliability fixtures: a private home, short waits, every log record, nodes and the app.

The app's files go to the private home, where they are searched for the key.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from explorer.services import chainwatch as chainwatch_module
from explorer.services import probe as probe_module
from explorer.services import session as session_module
from explorer.viewmodels import shell as shell_module
from tests.gui.reliability.checks import key_leaks, untrustworthy
from tests.gui.reliability.harness import CHAIN_ID_POLL, FAST, HEAD_POLL, TEST_TIMEOUT, App
from tests.gui.reliability.node import Mode, SwitchableNode
from tests.helpers.rpc import API_KEY
from tests.helpers.settings import private_home


class Records(logging.Handler):
    """Every log record of every logger, as it would be written."""

    def __init__(self) -> None:
        """Collect at every level."""
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        """Keep the record's text, arguments and traceback."""
        self.lines.append(self.format(record))


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: object) -> Iterator[Path]:
    """Give the app a private home for its settings, data and cache (searched later)."""
    with private_home(tmp_path / "home", monkeypatch) as root:
        yield root


@pytest.fixture
def fast(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the app wait fractions of a second instead of the user's seconds."""
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", FAST)
    monkeypatch.setattr(shell_module, "HEAD_POLL_SECONDS", HEAD_POLL)
    monkeypatch.setattr(chainwatch_module, "CHAIN_ID_SECONDS", CHAIN_ID_POLL)
    monkeypatch.setattr(probe_module, "TEST_TIMEOUT", TEST_TIMEOUT)


@pytest.fixture
def records() -> Iterator[Records]:
    """Every log record written during the test, from DEBUG up."""
    handler = Records()
    root = logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


NodeFactory = Callable[..., SwitchableNode]
AppFactory = Callable[[dict[str, tuple[SwitchableNode | str, int]]], App]


@pytest.fixture
def nodes() -> Iterator[NodeFactory]:
    """Make switchable nodes; all are closed after the test."""
    made: list[SwitchableNode] = []

    def make(mode: Mode = Mode.GOOD, port: int = 0) -> SwitchableNode:
        node = SwitchableNode(mode, port)
        made.append(node)
        return node

    yield make
    for node in made:
        node.close()


@pytest.fixture
def failures(qloop: asyncio.AbstractEventLoop) -> list[str]:
    """Collect what the event loop reports: a task or callback that failed (a traceback)."""
    found: list[str] = []

    def report(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
        error = context.get("exception")
        if not isinstance(error, asyncio.CancelledError):
            where = context.get("future") or context.get("task")
            found.append(f"{context.get('message')}: {error!r} in {where!r}")

    qloop.set_exception_handler(report)
    return found


@pytest.fixture
def app_on(
    qtbot: QtBot, qloop: object, home: Path, fast: None, records: Records, failures: list[str]
) -> Iterator[AppFactory]:
    """Start the app on networks of switchable nodes.

    At the end the app is closed, and the key must have been nowhere, nothing untrustworthy
    shown and no background task failed.
    """
    made: list[App] = []

    def make(networks: dict[str, tuple[SwitchableNode | str, int]]) -> App:
        app = App(qtbot, networks)
        made.append(app)
        return app

    yield make
    for app in made:
        if not app.closed:  # an app the test closed (to start again) was checked then
            assert untrustworthy(app.window, app.watch) == []
        app.close()
        assert key_leaks(API_KEY, records.lines, home, app.settings_path) == []
    qtbot.wait(50)  # deleted widgets go, their tasks' last steps run
    gc.collect()  # a task that failed and was dropped is reported when collected
    assert failures == []
