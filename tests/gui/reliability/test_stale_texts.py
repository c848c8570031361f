"""Words that went stale: each text says what holds now, not what held a moment ago."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services.chaincheck import Verification
from explorer.viewmodels.page import PageState
from explorer.views.settings_dialog import SettingsDialog
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import TX_ROUTE
from tests.gui.reliability.node import Mode
from tests.helpers.settings import type_into
from tests.helpers.testnet_node import TX_HASH
from tests.helpers.timing import WAIT


def test_a_search_waits_for_the_chain_check_and_says_so_only_while_it_does(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Enter before the node is confirmed asks nothing; the refusal goes once it is confirmed."""
    node = nodes(Mode.GOOD)
    node.hold("eth_chainId")
    app = app_on({"Mine": (node, 31)})
    window = app.window
    window.search_bar.setText(TX_HASH)
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    assert window.search_message.text() == (
        "Not searching yet: the node is not confirmed to serve Mine (see the banner)."
    )
    qtbot.wait(300)
    assert node.asked("eth_getTransactionByHash") == 0  # nothing read from an unchecked node
    assert app.app.navigator.count == 1
    node.release()
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    assert window.search_message.text() == "Mine is confirmed: press Enter to search."
    window.search_bar.setFocus()
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    navigator = app.app.navigator
    qtbot.waitUntil(lambda: navigator.route(navigator.current_index) == TX_ROUTE, timeout=WAIT)
    assert not window.search_message.isVisible()


def test_a_connection_result_goes_when_what_it_tested_changes(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """✓ chain 31 stays while the name changes; another chain id or URL takes it away."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    dialog = app.app._settings_dialog()
    assert isinstance(dialog, SettingsDialog)
    qtbot.addWidget(dialog)
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.url_edit, node.url)
    type_into(qtbot, form.chain_edit, "31")
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: form.test_result.text().startswith("✓ chain 31"), timeout=WAIT)
    type_into(qtbot, form.name_edit, "Renamed")
    assert form.test_result.text().startswith("✓ chain 31")
    type_into(qtbot, form.chain_edit, "30")
    assert form.test_result.text() == ""
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: form.test_result.text().startswith("✗ chain mismatch"), timeout=WAIT)
    type_into(qtbot, form.url_edit, "http://127.0.0.1:1")
    assert form.test_result.text() == ""
    dialog.reject()


def test_the_banner_never_says_nothing_is_shown_over_a_page_that_shows_data(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """The node goes away after a page loaded: the banner says what the page shows is older."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    view = app.open_loaded(TX_ROUTE)
    node.switch(Mode.DOWN)  # the head poll fails: the chain is checked again, and fails
    qtbot.waitUntil(
        lambda: app.session.check.verification is Verification.UNREACHABLE, timeout=WAIT
    )
    assert view.model.state is PageState.LOADED
    banner = app.window.banner.text()
    assert "Nothing is shown" not in banner
    assert "What the pages show was read while it was confirmed; nothing new is shown" in banner
