"""GUI fixtures: a window bound to a session on the devnet, over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from tests.helpers.devnet import Devnet
from tests.helpers.gui import wired_window
from tests.helpers.qt import run_in_qloop


@pytest.fixture
def devnet_manifest(devnet: Devnet) -> dict[str, Any]:
    """Return the seed manifest of the devnet's test network."""
    return devnet.manifest("testnet")


@pytest.fixture
def session(qloop: qasync.QEventLoop, qtbot: QtBot, devnet: Any) -> Iterator[Session]:
    """Yield a session on the devnet's test network."""
    session = Session(DEVNET, Endpoint.parse(devnet.url("testnet")))
    yield session
    run_in_qloop(qtbot, session.aclose())


@pytest.fixture
def window(qtbot: QtBot, session: Session) -> MainWindow:
    """Return the main window connected to the devnet, head known, the home page's list read.

    The home page goes on reading older blocks for its charts, a few at a time while nothing
    else is asked (seconds): a test that needs them, or counts every request, waits for
    `not home.model.busy` itself.
    """
    shell = ShellViewModel()
    window = wired_window(qtbot, shell)
    shell.set_session(session)
    window.show()
    qtbot.waitUntil(lambda: shell.head is not None, timeout=20_000)
    home = window.tabs.currentWidget()
    assert isinstance(home, HomeView)
    qtbot.waitUntil(lambda: home.model.blocks.rowCount() > 0, timeout=20_000)
    qtbot.waitUntil(lambda: not home.model.header.busy, timeout=20_000)
    return window
