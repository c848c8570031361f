"""Helpers for the home page tests: a window on a session, its home view, the devnet's head."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from explorer.services.session import Session
from explorer.viewmodels.home import HomeState
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from tests.helpers.address import raw_rpc
from tests.helpers.devnet import Devnet
from tests.helpers.gui import wired_window


def open_window(qtbot: QtBot, session: Session) -> MainWindow:
    """Return the main window on session, its home page following the head live."""
    shell = ShellViewModel()
    window = wired_window(qtbot, shell)
    shell.set_session(session)
    window.show()
    home = home_view(window)
    qtbot.waitUntil(lambda: home.model.state is HomeState.LIVE, timeout=30_000)
    return window


def home_view(window: MainWindow) -> HomeView:
    """Return the home view of the window's first tab."""
    home = window.tabs.widget(0)
    assert isinstance(home, HomeView)
    return home


def devnet_head(devnet: Devnet) -> int:
    """Return the devnet's head, asked over plain HTTP."""
    return int(raw_rpc(devnet, "eth_blockNumber"), 16)
