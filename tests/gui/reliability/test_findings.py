"""The findings of the trust review, each replayed end to end against scripted nodes."""

from __future__ import annotations

import dataclasses
import functools
import socket

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services import session as session_module
from explorer.services.chaincheck import Verification
from explorer.viewmodels.home_status import UNCHECKED_MESSAGES
from explorer.viewmodels.page import PageState
from explorer.views.page_view import PageView
from tests.gui.reliability.checks import untrustworthy
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import FAST, PAGE_ROUTES, TX_ROUTE, App
from tests.gui.reliability.node import CHAIN_MARKS, Mode
from tests.helpers.testnet_node import TX_HASH
from tests.helpers.timing import WAIT, scaled
from tests.helpers.widget_texts import visible_texts


def free_port() -> int:
    """Return a loopback port nothing listens on (yet)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def shows(view: PageView, state: PageState) -> bool:
    """Tell whether a page is in a state."""
    return view.model.state is state


def pages(app: App) -> list[PageView]:
    """Open the block, transaction and address pages."""
    return [view for view in map(app.open, PAGE_ROUTES) if isinstance(view, PageView)]


def test_finding_1_a_node_that_recovers_on_another_chain_is_never_the_chosen_network(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """A node down at start-up, back on chain 31 for a chain-30 endpoint: never shown as 30.

    No page, no home row, no status ever presents chain 31 as the chosen network.
    """
    port = free_port()
    app = app_on({"Mine": (f"http://127.0.0.1:{port}", 30)})
    verdicts: list[Verification] = []
    app.shell.connection_changed.connect(lambda c: verdicts.append(c.verification))
    views = pages(app)
    qtbot.waitUntil(
        lambda: app.session.check.verification is Verification.UNREACHABLE, timeout=WAIT
    )
    assert "cannot connect" in app.window.banner.text()
    assert app.home().model.blocks.rowCount() == 0
    nodes(Mode.GOOD, port)  # the node starts, serving chain 31; nobody presses anything
    qtbot.waitUntil(lambda: app.session.check.verification is Verification.MISMATCH, timeout=WAIT)
    for view in views:
        qtbot.waitUntil(functools.partial(shows, view, PageState.MISMATCH), timeout=WAIT)
    assert Verification.VERIFIED not in verdicts
    banner = app.window.banner.text()
    assert banner.startswith("Chain mismatch: the node serves Rootstock Testnet (chain id 31")
    assert "Mine is chain 30, so nothing from this node is shown" in banner
    assert "chain id 31 ✗ (expected 30)" in app.window.status_label.text()
    assert "transport" not in app.window.status_label.text()
    assert app.home().model.blocks.rowCount() == 0
    assert app.home().message.text() == UNCHECKED_MESSAGES[Verification.MISMATCH]
    shown = " ".join(visible_texts(app.window)).lower()
    assert [mark for mark in CHAIN_MARKS if mark in shown] == []
    assert app.watch.publications == 0  # not one page, row or log was published


def test_finding_4_a_search_never_lands_on_another_network(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """A search still resolving when the user switches network is dropped.

    While it resolves the search bar says so; Esc cancels one.
    """
    first, second = nodes(Mode.GOOD), nodes(Mode.GOOD)
    app = app_on({"First": (first, 31), "Second": (second, 31)})
    window = app.window
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    first.hold("eth_getTransactionByHash", "eth_getBlockByHash")
    window.search_bar.setText(TX_HASH)
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: first.asked("eth_getTransactionByHash") > 0, timeout=WAIT)
    assert app.app.search.busy
    qtbot.waitUntil(window.search_message.isVisible, timeout=WAIT)  # after 150 ms
    assert window.search_message.text().startswith("Searching 0x359f6010…a110 on First")
    assert window.stop_search_action.isVisible()
    app.switch("Second")
    qtbot.waitUntil(lambda: app.session.network.name == "Second", timeout=WAIT)
    assert not app.app.search.busy
    assert not window.stop_search_action.isVisible()
    first.release()  # the first network's answer arrives now, too late
    qtbot.wait(300)
    assert app.app.navigator.count == 1
    assert window.search_message.text() == ""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    second.hold("eth_getTransactionByHash", "eth_getBlockByHash")
    window.search_bar.setFocus()
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: second.asked("eth_getTransactionByHash") > 0, timeout=WAIT)
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Escape)
    assert not app.app.search.busy
    assert window.search_message.text() == "Search cancelled."
    second.release()
    qtbot.wait(300)
    assert app.app.navigator.route(0).page.value == "home"
    assert untrustworthy(window, app.watch) == []


def test_finding_5_a_node_that_never_answers_shows_the_wait_with_cancel(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A silent node: the page names the attempt and offers Cancel; the deadline ends it.

    The status bar names the request; a page left waiting ends at its deadline with Retry.
    """
    each_try = scaled(1.5)  # a second try lasts long enough to be seen, and cancelled, in it
    deadline = 2.5 * each_try  # before the four tries time out
    budget = dataclasses.replace(FAST, read_timeout=each_try, page_deadline=deadline)
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", budget)
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    node.switch(Mode.NEVER)
    view = app.open(TX_ROUTE)
    assert isinstance(view, PageView)
    qtbot.waitUntil(lambda: "attempt 2 of 4" in view.loading_text.text(), timeout=WAIT)
    assert view.loading_text.text().startswith("Loading…\nStill waiting for the node — attempt")
    assert view.cancel_button.isVisible()
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    assert view.model.state is PageState.CANCELLED
    assert view.error_title.text() == "Stopped waiting for the node"
    assert view.retry_button.isVisible()
    status = app.window.status_label  # the head poll waits too, and the status bar says so
    qtbot.waitUntil(lambda: "for the node (eth_" in status.text(), timeout=WAIT)
    assert " of 4)" in status.text()
    qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)  # still silent: the deadline
    qtbot.waitUntil(lambda: view.model.state is PageState.ERROR, timeout=WAIT)
    assert view.error_text.text() == f"127.0.0.1 did not answer within {deadline:g} s"
    node.switch(Mode.GOOD)
    qtbot.mouseClick(app.window.banner_retry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.model.state is PageState.LOADED, timeout=WAIT)


def test_a_successful_retry_clears_the_old_head_error(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """The status bar forgets a head error once a Retry succeeds, the head unchanged."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    view = app.open(TX_ROUTE)
    assert isinstance(view, PageView)
    qtbot.waitUntil(lambda: view.model.state is PageState.LOADED, timeout=WAIT)
    head = app.shell.head
    node.switch(Mode.AUTH)
    said = "(head: the node refused the API key)"
    qtbot.waitUntil(lambda: said in app.window.status_label.text(), timeout=WAIT)
    view.model.reload()
    qtbot.waitUntil(lambda: view.model.state is PageState.ERROR, timeout=WAIT)
    node.switch(Mode.GOOD)
    qtbot.mouseClick(view.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.model.state is PageState.LOADED, timeout=WAIT)
    qtbot.waitUntil(lambda: "(head:" not in app.window.status_label.text(), timeout=2_000)
    assert app.shell.head == head
