"""The whole app (Application) on switchable nodes, with short waits, in a private home."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from pytestqt.qtbot import QtBot

from explorer.app.application import Application
from explorer.rpc.retry import RetryPolicy
from explorer.services.network_forms import NetworkForm
from explorer.services.routes import LOGS, Route, address_route, block_route, tx_route
from explorer.services.session import Session, WaitBudget
from explorer.settings.store import Settings
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.page import PageState
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.broadcast_view import BroadcastView
from explorer.views.home_view import HomeView
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow
from explorer.views.node_view import NodeView
from explorer.views.page_view import PageView
from tests.gui.reliability.checks import Watch
from tests.gui.reliability.node import SwitchableNode
from tests.helpers.qt import run_in_qloop
from tests.helpers.rpc import API_KEY
from tests.helpers.testnet_node import ADDRESS, TX_HASH
from tests.helpers.timing import WAIT, scaled

#: The app's waits: short enough that a test sees a silent node given up on within seconds,
#: long enough that a good node on this machine (its server a thread of the test process)
#: always answers in time at load 14 on two cores: 0.4 s tries and a 1.5 s check did not.
#: Tests of what a timeout does set their own shorter ones. All stretched by
#: EXPLORER_TEST_SLACK.
FAST = WaitBudget(
    connect_timeout=scaled(2.0),
    read_timeout=scaled(2.0),
    retry=RetryPolicy(
        attempts=4, base_delay=scaled(0.01), max_delay=scaled(0.05), max_retry_after=scaled(1.0)
    ),
    page_deadline=scaled(8.0),
    check_deadline=scaled(5.0),
    check_delays=(scaled(0.2), scaled(0.4), scaled(0.8)),
    slow_after=scaled(0.3),
)
#: A check of a silent node: given up on, and tried again, within about three seconds.
SILENT_CHECK = dataclasses.replace(FAST, read_timeout=scaled(0.8), check_deadline=scaled(2.5))
HEAD_POLL = scaled(0.5)
TEST_TIMEOUT = scaled(3.0)  # the Settings dialog's connection test (one try, no retry)
BLOCK_ROUTE = block_route(0x1B4)
TX_ROUTE = tx_route(TX_HASH)
ADDRESS_ROUTE = address_route(ADDRESS)
PAGE_ROUTES = (BLOCK_ROUTE, TX_ROUTE, ADDRESS_ROUTE)
LOG_BLOCK = "3065528"  # the block of the samples' one log


class App:
    """The explorer as a user runs it, on custom endpoints (with the key) of switchable nodes."""

    def __init__(self, qtbot: QtBot, nodes: dict[str, tuple[SwitchableNode | str, int]]) -> None:
        """Save a custom network per node and start the app on the first.

        nodes maps each network's name to its node (or a base URL) and expected chain id.
        """
        self.qtbot = qtbot
        self.closed = False
        settings, self.notices = Settings.for_app()
        saved = NetworksViewModel(settings)
        for name, (node, chain_id) in nodes.items():
            url = node.url if isinstance(node, SwitchableNode) else node
            form = NetworkForm(name=name, url=url, chain_id=str(chain_id), api_key=API_KEY)
            if saved.network(f"custom:{name}") is None:  # not saved by an earlier start
                assert saved.save(form) == {}
        settings.set_current_network(f"custom:{next(iter(nodes))}")
        self.settings = settings
        self.app = Application(settings, use_devnet=False)
        self.watch = Watch(self.app.shell)
        self.watch.follow_search(self.app.search)
        self.app.window.resize(1200, 800)
        self.app.window.show()
        run_in_qloop(qtbot, self.app.start())
        self.watch.follow(self.window)

    @property
    def window(self) -> MainWindow:
        """Return the main window."""
        return self.app.window

    @property
    def shell(self) -> ShellViewModel:
        """Return the window's state."""
        return self.app.shell

    @property
    def session(self) -> Session:
        """Return the current session."""
        session = self.app.shell.session
        assert session is not None
        return session

    @property
    def settings_path(self) -> Path:
        """Return the settings file."""
        return Path(self.settings.path)

    def open(self, route: Route) -> PageView | LogsView | HomeView | BroadcastView | NodeView:
        """Open a route in a new tab and return its view."""
        self.app.navigator.open_tab(route)
        view = self.window.tabs.currentWidget()
        assert isinstance(view, PageView | LogsView | HomeView | BroadcastView | NodeView)
        self.watch.follow(self.window)
        return view

    def open_loaded(self, route: Route) -> PageView:
        """Open a page in a new tab and wait until it has shown everything it reads."""
        view = self.open(route)
        assert isinstance(view, PageView)
        self.qtbot.waitUntil(lambda: view.model.state is PageState.LOADED, timeout=WAIT)
        self.qtbot.waitUntil(lambda: not view.model.busy, timeout=WAIT)  # e.g. its block's time
        return view

    def open_logs(self) -> LogsView:
        """Open the Logs screen with a one-block query and start the scan."""
        view = self.open(LOGS)
        assert isinstance(view, LogsView)
        view.model.set_field("from_block", LOG_BLOCK)
        view.model.set_field("to_block", LOG_BLOCK)
        assert view.model.start()
        return view

    def home(self) -> HomeView:
        """Return the home tab's view (the first tab)."""
        view = self.window.tabs.widget(0)
        assert isinstance(view, HomeView)
        return view

    def switch(self, name: str) -> None:
        """Choose another network in the toolbar."""
        self.app.networks.set_current(f"custom:{name}")
        self.watch.follow(self.window)

    def close(self) -> None:
        """Close the app as the user would (settings saved, sessions closed); once."""
        if self.closed:
            return
        self.closed = True
        self.window.close()  # as the app quits: the window (and its pages' work) first
        run_in_qloop(self.qtbot, self.app.aclose())
        self.window.deleteLater()
