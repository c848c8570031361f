"""Cancel cancels: a stopped wait sends nothing more, a silent check always offers Retry and Cancel.

And a call that gets no answer gives up after the time chosen in Settings (30 s by default).
"""

from __future__ import annotations

import dataclasses
import time

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services import session as session_module
from explorer.services.chaincheck import Verification
from explorer.viewmodels.page import PageState
from explorer.views.page_view import PageView
from explorer.views.settings_dialog import SettingsDialog
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import BLOCK_ROUTE, FAST, SILENT_CHECK, TX_ROUTE, App
from tests.gui.reliability.node import Mode
from tests.helpers.timing import WAIT, scaled


def linger(qtbot: QtBot, seconds: float) -> None:
    """Process events for a while."""
    deadline = time.monotonic() + seconds
    qtbot.waitUntil(lambda: time.monotonic() > deadline, timeout=int(seconds * 1000) + 5_000)


def loaded_home(app: App, qtbot: QtBot) -> None:
    """Wait until the node is verified and the home page has read its blocks."""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    qtbot.waitUntil(lambda: app.home().model.blocks.rowCount() > 0, timeout=WAIT)
    qtbot.waitUntil(lambda: not app.home().model.busy, timeout=WAIT)


def test_cancel_stops_the_request_and_its_retries(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block page's shared read ends with Cancel: no retry reaches the node afterwards.

    The status bar says the app stopped waiting, and for which request.
    """
    each_try = scaled(2.0)  # a second try lasts long enough to be seen, and cancelled, in it
    budget = dataclasses.replace(FAST, read_timeout=each_try, page_deadline=60.0)
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", budget)
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    loaded_home(app, qtbot)
    counts = ("eth_getBlockTransactionCountByNumber", "eth_getUncleCountByBlockNumber")
    node.hold("eth_getBlockByNumber", *counts, target="0x1b4")  # each try times out and again
    view = app.open(BLOCK_ROUTE)
    assert isinstance(view, PageView)
    qtbot.waitUntil(lambda: "attempt 2 of 4" in view.loading_text.text(), timeout=WAIT)
    waits = app.session.client.waits.values()
    sent = max(a.number for a in waits if a.method == "eth_getBlockByNumber")
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    assert view.model.state is PageState.CANCELLED
    assert 2 <= sent < 4  # one more try was still to come
    linger(qtbot, each_try + 1.0)  # the next try would have been sent by now
    assert node.asked("eth_getBlockByNumber", "0x1b4") <= sent
    assert [a.method for a in app.session.client.waits.values() if a.method in node.held] == []
    status = app.window.status_label.text()
    assert "stopped waiting for the node (eth_getBlockByNumber, after " in status
    assert "attempt" not in status
    node.release()


def banner_offers_retry_and_cancel(app: App) -> bool:
    """Tell whether the banner is on screen with both its buttons."""
    window = app.window
    return (
        window.banner_bar.isVisible()
        and window.banner_retry.isVisible()
        and window.banner_cancel.isVisible()
    )


def test_a_silent_nodes_check_always_offers_retry_and_cancel(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between tries and during each, the banner offers both; Cancel ends the check for good."""
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", SILENT_CHECK)
    node = nodes(Mode.NEVER)
    app = app_on({"Mine": (node, 31)})
    qtbot.waitUntil(lambda: app.session.check.attempt >= 2, timeout=WAIT)
    samples: list[tuple[Verification, bool]] = []
    wanted = {Verification.CHECKING, Verification.UNREACHABLE}
    deadline = time.monotonic() + WAIT / 1000

    def seen_both() -> bool:  # several tries and the waits between them
        return wanted <= {state for state, _ in samples}

    while not seen_both() and time.monotonic() < deadline:
        qtbot.wait(50)
        samples.append((app.session.check.verification, banner_offers_retry_and_cancel(app)))
    assert seen_both()
    assert [sample for sample in samples if not sample[1]] == []
    assert not app.window.banner_close.isVisible()  # the check's verdict is not closed away
    status, budget = app.window.status_label, app.window.budget_label
    assert status.text().endswith("· head not read yet")  # "head —" ran into the budget
    assert budget.x() + budget.indent() >= status.geometry().right() + 20
    checking = app.window.banner.text()
    assert "Retry" in checking
    assert "Cancel" in checking
    qtbot.mouseClick(app.window.banner_cancel, Qt.MouseButton.LeftButton)
    assert app.session.check.verification is Verification.STOPPED
    stats = app.session.client.stats.by_method
    sent = stats["eth_chainId"]
    linger(qtbot, scaled(2.5))  # the next tries would have been sent by now
    assert stats["eth_chainId"] == sent
    assert node.asked("eth_chainId") <= sent  # a try sent before Cancel may arrive after it
    assert app.window.banner.text() == (
        "You stopped checking the node: nothing is shown as Mine. Retry checks again."
    )
    assert app.window.banner_retry.isVisible()
    assert not app.window.banner_cancel.isVisible()
    assert "you stopped checking" in app.window.status_label.text()
    node.switch(Mode.GOOD)
    qtbot.mouseClick(app.window.banner_retry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)


def test_a_call_gives_up_after_the_time_chosen_in_settings(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """30 s by default; 1 s chosen in Settings ends a silent call after 1 s, not 4 × 20 s."""
    slow_reads = dataclasses.replace(FAST, read_timeout=20.0, page_deadline=90.0)
    monkeypatch.setattr(session_module, "DEFAULT_BUDGET", slow_reads)
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    loaded_home(app, qtbot)
    assert app.session.client.call_timeout == 30
    dialog = app.app._settings_dialog()
    assert isinstance(dialog, SettingsDialog)
    qtbot.addWidget(dialog)
    assert dialog.call_timeout_row.seconds.value() == 30
    dialog.call_timeout_row.seconds.setValue(1)
    dialog.accept()
    assert app.settings.call_timeout() == 1
    assert app.session.client.call_timeout == 1
    node.hold("eth_getTransactionByHash")
    started = time.monotonic()
    view = app.open(TX_ROUTE)
    assert isinstance(view, PageView)
    qtbot.waitUntil(lambda: view.model.state is PageState.ERROR, timeout=WAIT)
    assert time.monotonic() - started < 10.0  # a try alone would have waited 20 s
    assert view.error_text.text() == "127.0.0.1 did not answer within 1 s"
    node.release()
