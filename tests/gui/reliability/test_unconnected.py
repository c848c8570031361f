"""Testnet chosen with no key and no node in reach: said once, the tools keep working.

The banner says why once (not the network's name twice, not both networks' advice); pages
that need the node say which network and why; the tools, which compute locally, stay and
keep what was typed; a failed search says the node cannot be reached in words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit
from pytestqt.qtbot import QtBot

from explorer.services.networks import TESTNET
from explorer.services.routes import tool_route
from explorer.views.tools_view import ToolView
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import TX_ROUTE, App
from tests.gui.reliability.node import Mode, SwitchableNode
from tests.helpers.testnet_node import TX_HASH
from tests.helpers.timing import WAIT


def verified(app_on: AppFactory, node: SwitchableNode, qtbot: QtBot) -> App:
    """Return the app on a custom chain-31 node, its chain checked."""
    app = app_on({"Mine": (node, 31)})
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    return app


def test_without_a_key_the_tools_work_and_keep_what_was_typed(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    app = verified(app_on, nodes(Mode.GOOD), qtbot)
    app.open_loaded(TX_ROUTE)
    app.app.navigator.open_tab(tool_route("units"))
    units = app.window.tabs.currentWidget()
    assert isinstance(units, ToolView)
    amount = next(w for w in units.findChildren(QLineEdit) if w.isVisibleTo(units))
    amount.setText("2.5")  # typed, not in the route
    combo = app.window.network_combo
    combo.activated.emit(combo.findData(TESTNET.id))  # no key, no public node
    assert app.shell.session is None
    banner = app.window.banner.text()
    assert banner.startswith("Rootstock Testnet cannot be used: it needs an API key. ")
    assert banner.count("Rootstock Testnet") == 2  # the network, then where its key goes
    assert "Mainnet" not in banner
    tools = app.window.tabs.widget(app.window.tabs.count() - 1)
    assert isinstance(tools, ToolView)  # the tool still works, without a node
    assert tools.model.values["amount"] == "2.5"
    assert any("2,500,000,000,000,000,000" in line.text for line in tools.model.result)
    page = app.window.tabs.widget(1)
    assert isinstance(page, QLabel)
    assert page.text().startswith("Rootstock Testnet is not connected")
    assert "Not connected yet" not in page.text()


def test_a_search_that_cannot_reach_the_node_says_so_in_words(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    node = nodes(Mode.GOOD)
    app = verified(app_on, node, qtbot)
    node.switch(Mode.DOWN)
    app.window.search_bar.setText(TX_HASH)
    qtbot.keyClick(app.window.search_bar, Qt.Key.Key_Return)
    message = app.window.search_message
    qtbot.waitUntil(lambda: message.text().startswith("Search failed"), timeout=WAIT)
    assert message.text().startswith("Search failed: the node cannot be reached (")
    assert "(transport" not in message.text()
    qtbot.waitUntil(lambda: "chain not verified" in app.window.status_label.text(), timeout=WAIT)
    assert "the node cannot be reached" in app.window.status_label.text()
    assert "transport" not in app.window.status_label.text()
