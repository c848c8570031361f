"""Each way a node misbehaves, on every screen at once.

Each screen shows the right state, nothing read from an unchecked node, the key nowhere; then
the node behaves and each screen recovers on Retry.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.rpc.errors import ErrorKind
from explorer.services.chaincheck import Verification
from explorer.viewmodels.home_status import UNCHECKED_MESSAGES
from explorer.viewmodels.logs import ScanState
from explorer.viewmodels.page import PageState
from explorer.viewmodels.shell import UNVERIFIED_CAUSES
from explorer.views.page_view import PageView
from explorer.views.settings_dialog import SettingsDialog
from tests.gui.reliability.checks import untrustworthy
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import PAGE_ROUTES, App
from tests.gui.reliability.node import Mode
from tests.helpers.settings import choose
from tests.helpers.timing import WAIT

UNVERIFIED: dict[Mode, ErrorKind] = {
    Mode.AUTH: ErrorKind.AUTH,
    Mode.RATE_LIMITED: ErrorKind.RATE_LIMITED,
    Mode.HTML_502: ErrorKind.SERVER,
    Mode.NOT_JSON: ErrorKind.MALFORMED,
    Mode.WRONG_ID: ErrorKind.MALFORMED,
    Mode.ECHO_PATH: ErrorKind.NODE,
    Mode.ECHO_UPPER: ErrorKind.NODE,
    Mode.ECHO_LOWER: ErrorKind.NODE,
    Mode.ECHO_ENCODED: ErrorKind.NODE,
    Mode.NEVER: ErrorKind.TRANSPORT,
    Mode.MID_BODY: ErrorKind.TRANSPORT,
    Mode.DOWN: ErrorKind.TRANSPORT,
}


class Screens:
    """Every screen of the app open at once.

    Home, block, transaction, address, Logs, and the Settings dialog's connection test of the
    same endpoint.
    """

    def __init__(self, app: App, qtbot: QtBot) -> None:
        """Open them all."""
        self.app = app
        self.pages = [app.open(route) for route in PAGE_ROUTES]
        self.logs = app.open_logs()
        self.dialog: SettingsDialog = app.app._settings_dialog()
        qtbot.addWidget(self.dialog)
        self.dialog.show()
        choose(self.dialog, "custom:Mine")
        self.test_connection()

    def page_views(self) -> list[PageView]:
        """Return the block, transaction and address views."""
        return [view for view in self.pages if isinstance(view, PageView)]

    def test_connection(self) -> None:
        """Press Test connection in Settings."""
        button = self.dialog.form_panel.test_button
        button.click()

    @property
    def test_result(self) -> str:
        """Return the Settings dialog's result line."""
        return self.dialog.form_panel.test_result.text()


def wait(qtbot: QtBot, condition: object, timeout: int = WAIT) -> None:
    """Wait for a condition, processing events."""
    qtbot.waitUntil(condition, timeout=timeout)  # type: ignore[arg-type]


def recover(app: App, screens: Screens, qtbot: QtBot) -> None:
    """Press every Retry the screens offer, and wait until each shows the node's data."""
    if app.window.banner_retry.isVisible():
        qtbot.mouseClick(app.window.banner_retry, Qt.MouseButton.LeftButton)
    wait(qtbot, lambda: app.session.check.verified)
    for view in screens.page_views():
        app.window.tabs.setCurrentWidget(view)
        if view.retry_button.isVisible():
            qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    screens.test_connection()
    logs = screens.logs
    if logs.model.state is not ScanState.RUNNING:
        qtbot.mouseClick(logs.start_button, Qt.MouseButton.LeftButton)
    for view in screens.page_views():
        wait(qtbot, lambda v=view: v.model.state is PageState.LOADED)
    wait(qtbot, lambda: app.home().model.blocks.rowCount() > 0)
    wait(qtbot, lambda: logs.model.state is ScanState.DONE)
    assert logs.model.table.total == 1
    wait(qtbot, lambda: screens.test_result.startswith("✓ chain 31"))
    assert not app.window.banner.isVisible()
    assert "chain id 31 ✓" in app.window.status_label.text()


@pytest.mark.parametrize("mode", list(UNVERIFIED), ids=[m.name.lower() for m in UNVERIFIED])
def test_an_unreachable_node_shows_why_everywhere_then_recovers(
    mode: Mode, app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Every screen says why nothing is shown, and shows the node's data after Retry.

    The banner names the error in its own words.
    """
    kind = UNVERIFIED[mode]
    node = nodes(mode)
    app = app_on({"Mine": (node, 31)})
    screens = Screens(app, qtbot)

    def unreachable_for_its_reason() -> None:  # on a busy machine a first try may time out
        assert app.session.check.verification is Verification.UNREACHABLE
        assert app.session.check.error_kind is kind

    wait(qtbot, unreachable_for_its_reason)
    for view in screens.page_views():

        def failed_for_its_reason(view: PageView = view) -> None:
            assert view.model.state is PageState.ERROR
            assert view.model.error_kind is kind

        wait(qtbot, failed_for_its_reason)
        app.window.tabs.setCurrentWidget(view)
        assert view.error_title.text() == f"Could not load this page: {kind.said}"
        assert view.retry_button.isVisible()
    assert app.window.banner.isVisible()
    assert app.window.banner.text().startswith(UNVERIFIED_CAUSES[kind])
    assert ("was reached" in app.window.banner.text()) is (kind is not ErrorKind.TRANSPORT)
    assert app.window.banner_retry.isVisible()
    assert f"chain not verified: {kind.said}" in app.window.status_label.text()
    home = app.home()
    assert home.model.blocks.rowCount() == 0
    assert home.message.text() == UNCHECKED_MESSAGES[Verification.UNREACHABLE]
    assert screens.logs.model.state is ScanState.RUNNING
    assert "confirm its chain id" in screens.logs.status.text()
    wait(qtbot, lambda: screens.test_result.startswith("✗ "))
    said = kind.said.removeprefix("the node ")
    assert said in screens.test_result, screens.test_result  # in words, not "transport"
    assert untrustworthy(app.window, app.watch) == []
    node.switch(Mode.GOOD)
    recover(app, screens, qtbot)
    assert untrustworthy(app.window, app.watch) == []


def test_a_node_of_another_chain_shows_nothing_anywhere_then_recovers(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Chain 30 for a chain-31 network: every screen says so and shows none of its data."""
    node = nodes(Mode.OTHER_CHAIN)
    app = app_on({"Mine": (node, 31)})
    screens = Screens(app, qtbot)
    wait(qtbot, lambda: app.session.check.verification is Verification.MISMATCH)
    for view in screens.page_views():
        wait(qtbot, lambda v=view: v.model.state is PageState.MISMATCH)
    banner = app.window.banner.text()
    assert banner.startswith("Chain mismatch: the node serves Rootstock Mainnet (chain id 30")
    assert "Mine is chain 31" in banner
    assert "chain id 30 ✗ (expected 31)" in app.window.status_label.text()
    assert app.home().model.blocks.rowCount() == 0
    assert app.home().message.text() == UNCHECKED_MESSAGES[Verification.MISMATCH]
    wait(qtbot, lambda: screens.logs.model.state is ScanState.FAILED)
    assert screens.logs.model.table.total == 0
    wait(qtbot, lambda: screens.test_result.startswith("✗ chain mismatch"))
    assert untrustworthy(app.window, app.watch) == []
    node.switch(Mode.GOOD)
    recover(app, screens, qtbot)


def test_a_node_that_changes_chain_behind_the_url_is_caught(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """A node that comes back serving another chain is caught; pages drop what they showed.

    Chain 31 at first; the node goes away and comes back serving chain 30: the banner says
    why; back on 31, Retry shows the pages again.
    """
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    views = [view for view in map(app.open, PAGE_ROUTES) if isinstance(view, PageView)]
    for view in views:
        wait(qtbot, lambda v=view: v.model.state is PageState.LOADED)
    node.switch(Mode.DOWN)  # the head poll fails: the chain is checked again
    wait(qtbot, lambda: app.session.check.verification is Verification.UNREACHABLE)
    node.switch(Mode.OTHER_CHAIN)
    wait(qtbot, lambda: app.session.check.verification is Verification.MISMATCH)
    for view in views:
        wait(qtbot, lambda v=view: v.model.state is PageState.MISMATCH)
        assert view.model.document is None
    assert app.home().model.blocks.rowCount() == 0
    assert untrustworthy(app.window, app.watch) == []
    node.switch(Mode.GOOD)
    qtbot.mouseClick(app.window.banner_retry, Qt.MouseButton.LeftButton)
    wait(qtbot, lambda: app.session.check.verified)
    for view in views:
        wait(qtbot, lambda v=view: v.model.state is PageState.LOADED)
    wait(qtbot, lambda: app.home().model.blocks.rowCount() > 0)
