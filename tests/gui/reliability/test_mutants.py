"""Guards that mutation runs found no test for, each now with one that fails without it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services.routes import NODE
from explorer.views.node_view import NodeView
from explorer.views.settings_dialog import SettingsDialog
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import App
from tests.gui.reliability.node import Mode
from tests.helpers.qt import run_in_qloop
from tests.helpers.rpc import API_KEY
from tests.helpers.settings import choose
from tests.helpers.timing import WAIT
from tests.helpers.widget_texts import every_text


def settled_home(app: App, qtbot: QtBot) -> None:
    """Wait until the node is confirmed and the home page has read what it reads."""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    qtbot.waitUntil(lambda: app.home().model.blocks.rowCount() > 0, timeout=WAIT)
    qtbot.waitUntil(lambda: not app.home().model.busy, timeout=WAIT)


def test_the_requests_of_a_session_that_ends_count_against_its_key(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Switching away stores what the key spent; coming back and restarting start from it."""
    first, second = nodes(Mode.GOOD), nodes(Mode.GOOD)
    app = app_on({"First": (first, 31), "Second": (second, 31)})
    settled_home(app, qtbot)
    session = app.session
    app.shell.poller.set_minimised(True)  # nothing more is asked meanwhile
    spent = session.client.stats.today
    assert spent == len(first.server.requests) > 0
    app.switch("Second")
    qtbot.waitUntil(lambda: app.session is not session, timeout=WAIT)
    run_in_qloop(qtbot, app.app.saved.drain())  # the ended session's count is written
    usage = app.app.saved.usage  # the counts every window and command line share
    assert run_in_qloop(qtbot, usage.today(session.usage_id)) == spent
    app.shell.poller.set_minimised(False)
    app.switch("First")
    qtbot.waitUntil(lambda: app.session.network.name == "First", timeout=WAIT)
    qtbot.waitUntil(lambda: app.session.earlier_today == spent, timeout=WAIT)
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    assert app.session.requests_today >= spent + 4  # and the chain check of the new session
    before_close = app.session.requests_today
    app.close()
    again = app_on({"First": (first, 31), "Second": (second, 31)})
    qtbot.waitUntil(lambda: again.session.earlier_today >= before_close, timeout=WAIT)


def test_a_key_echoed_in_the_client_version_is_shown_nowhere(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """The node repeats the request path (the key) in web3_clientVersion: home, Node page, test.

    The fixture also searches every widget, log record and file for the key at the end.
    """
    node = nodes(Mode.GOOD)
    node.echo_path = True
    app = app_on({"Mine": (node, 31)})
    settled_home(app, qtbot)
    summary = app.home().model.summary
    assert summary.endswith("RskJ/6.2.0/Linux/<key>")
    view = app.open(NODE)
    assert isinstance(view, NodeView)
    qtbot.waitUntil(lambda: view.model.document is not None, timeout=WAIT)
    dialog = app.app._settings_dialog()
    assert isinstance(dialog, SettingsDialog)
    qtbot.addWidget(dialog)
    choose(dialog, "custom:Mine")
    qtbot.mouseClick(dialog.form_panel.test_button, Qt.MouseButton.LeftButton)
    result = dialog.form_panel.test_result
    qtbot.waitUntil(lambda: result.text().startswith("✓ chain 31"), timeout=WAIT)
    assert "RskJ/6.2.0/Linux/<key>" in result.text()
    assert [text[:80] for text in every_text() if API_KEY in text] == []
    dialog.reject()
