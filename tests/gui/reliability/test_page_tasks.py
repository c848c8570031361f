"""A page's tasks end with the page; what the user typed survives a network switch.

No traceback when the Logs tab is closed or the network switched during a scan (the fixture
fails on any failed background task); the Logs fields and the Broadcast box keep their text.
"""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from explorer.services.routes import BROADCAST
from explorer.viewmodels.logs import ScanState
from explorer.views.broadcast_view import BroadcastView
from explorer.views.logs_view import LogsView
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import LOG_BLOCK, App
from tests.gui.reliability.node import Mode
from tests.helpers.timing import WAIT

SIGNED = "0xf86c0a8502540be400825208944bbeeb066ed09b7aed07bf39eee0460dfa26152088" + "0de0b6b3a76"


def scanning(app: App, qtbot: QtBot) -> LogsView:
    """Start a Logs scan whose answer the node holds back."""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    logs = app.open_logs()
    qtbot.waitUntil(lambda: logs.model.state is ScanState.RUNNING, timeout=WAIT)
    return logs


def test_closing_the_logs_tab_during_a_scan_ends_its_work_quietly(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """The scan's task ends with the tab: no 'Signal source has been deleted', no request."""
    node = nodes(Mode.GOOD)
    node.hold("eth_getLogs")
    app = app_on({"Mine": (node, 31)})
    logs = scanning(app, qtbot)
    qtbot.waitUntil(lambda: node.asked("eth_getLogs") > 0, timeout=WAIT)
    app.app.navigator.close_tab(app.window.tabs.indexOf(logs))
    qtbot.wait(300)  # the cancelled scan winds down, the widget is deleted
    node.release()
    qtbot.wait(300)
    assert app.window.tabs.count() == 1


def test_switching_network_keeps_what_was_typed_and_ends_the_old_work_quietly(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Logs fields and the Broadcast box are rebuilt on the new network with the same text."""
    first, second = nodes(Mode.GOOD), nodes(Mode.GOOD)
    first.hold("eth_getLogs")
    app = app_on({"First": (first, 31), "Second": (second, 31)})
    logs = scanning(app, qtbot)
    logs.inputs["addresses"].setText("0x3843d583b0f087ec7e3476c3495e52dbde5280b3")
    broadcast = app.open(BROADCAST)
    assert isinstance(broadcast, BroadcastView)
    broadcast.raw.setPlainText(SIGNED)
    app.switch("Second")
    qtbot.waitUntil(lambda: app.session.network.name == "Second", timeout=WAIT)
    qtbot.wait(300)
    first.release()
    new_logs = next(
        view
        for view in map(app.window.tabs.widget, range(app.window.tabs.count()))
        if isinstance(view, LogsView)
    )
    new_broadcast = next(
        view
        for view in map(app.window.tabs.widget, range(app.window.tabs.count()))
        if isinstance(view, BroadcastView)
    )
    assert new_logs is not logs
    assert new_logs.model.session is app.session
    assert new_logs.inputs["from_block"].text() == LOG_BLOCK
    assert new_logs.inputs["to_block"].text() == LOG_BLOCK
    assert new_logs.inputs["addresses"].text() == "0x3843d583b0f087ec7e3476c3495e52dbde5280b3"
    assert new_logs.model.texts["addresses"] == "0x3843d583b0f087ec7e3476c3495e52dbde5280b3"
    assert new_logs.model.state is ScanState.IDLE  # nothing of the old network's scan
    assert new_broadcast.raw.toPlainText() == SIGNED
    assert new_broadcast.model.text == SIGNED
