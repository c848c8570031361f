"""The selector names the chain whose data is shown: a chain is its chain id and genesis block.

A network that cannot be used closes the old session; a node that changes chain behind the
same URL (no outage) is caught within one head poll of its first foreign block, and pages read
before are marked, not mixed.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from explorer.app import early_devnet
from explorer.app.application import Application
from explorer.rpc.endpoint import Endpoint
from explorer.services.chaincheck import Verification
from explorer.services.networks import DEVNET, TESTNET, TESTNET_GENESIS
from explorer.services.routes import tx_route
from explorer.services.session import Session
from explorer.settings.store import Settings
from explorer.viewmodels.page import PageState
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.gui.reliability.checks import untrustworthy
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import TX_ROUTE, App
from tests.gui.reliability.node import Mode, SwitchableNode, block_hash, serve_chain
from tests.helpers.qt import run_in_qloop
from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import ScriptedServer
from tests.helpers.testnet_node import TX_HASH, serve_testnet
from tests.helpers.timing import WAIT
from tests.helpers.widget_texts import visible_texts

HEAD = 0x2EC6B8


def live_home_and_a_page(app: App, qtbot: QtBot) -> tuple[HomeView, PageView]:
    """Open the transaction page, then show the home page, following the head live."""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    page = app.open_loaded(TX_ROUTE)
    app.window.tabs.setCurrentIndex(0)
    home = app.home()
    qtbot.waitUntil(lambda: home.model.blocks.rowCount() > 0, timeout=WAIT)
    qtbot.waitUntil(lambda: not home.model.busy, timeout=WAIT)
    return home, page


def shown_hashes(home: HomeView) -> set[str]:
    """Return the hashes of the blocks the home page lists now."""
    return {str(block.hash) for block in home.model.blocks.blocks}


def test_a_network_that_cannot_be_used_closes_the_old_session(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Testnet without a key: nothing of chain 31's old node is shown, searched or saved as it."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    live_home_and_a_page(app, qtbot)
    old = app.session
    combo = app.window.network_combo
    combo.activated.emit(combo.findData(TESTNET.id))  # as the user picks it in the toolbar
    assert app.shell.session is None
    assert app.settings.current_network() == TESTNET.id
    assert combo.currentData() == TESTNET.id
    banner = app.window.banner.text()
    assert banner.startswith("Rootstock Testnet cannot be used: it needs an API key. ")
    assert banner.count("API key") == 1  # said once, then where to put the key
    assert "Mainnet" not in banner
    assert app.window.network_label.text() == "Rootstock Testnet · not connected"
    assert app.window.status_label.text() == "Not connected"
    for index in range(app.window.tabs.count()):
        page = app.window.tabs.widget(index)
        assert isinstance(page, QLabel), page  # no page, nothing read
    app.window.search_bar.setText(TX_HASH)
    qtbot.keyClick(app.window.search_bar, Qt.Key.Key_Return)
    assert app.window.search_message.text() == "Not connected to a network yet."
    asked = len(node.server.requests)
    qtbot.wait(1_000)  # the old session's head poll and check would have asked by now
    assert len(node.server.requests) == asked
    run_in_qloop(qtbot, app.app.saved.drain())  # counted into the key's day as it ended
    counted = run_in_qloop(qtbot, app.app.saved.usage.today(old.usage_id))
    assert counted == old.client.stats.today > 0
    shown = " ".join(visible_texts(app.window, (app.window.search_bar,)))
    assert "0x359f" not in shown
    assert "3,065,528" not in shown


def swap_then_wait_for_the_verdict(
    app: App, node: SwitchableNode, qtbot: QtBot, mode: Mode, head: int
) -> int:
    """Move the node to another chain at head; return the head polls until the mismatch."""
    polls = app.shell.poller.polls
    node.switch(mode)
    node.head = hex(head)
    qtbot.waitUntil(lambda: app.session.check.verification is Verification.MISMATCH, timeout=WAIT)
    return app.shell.poller.polls - polls


def test_a_node_moved_to_another_chain_ahead_is_caught_at_its_first_block(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Chain 30 one block ahead at the same URL: no foreign block is shown, none 'reorganised'.

    The page read before is marked; the home page shows nothing of either chain after.
    """
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    home, page = live_home_and_a_page(app, qtbot)
    listed: set[str] = set()
    home.model.blocks.modelReset.connect(lambda: listed.update(shown_hashes(home)))
    verdicts: list[Verification] = []
    app.shell.connection_changed.connect(lambda c: verdicts.append(c.verification))
    polls = swap_then_wait_for_the_verdict(app, node, qtbot, Mode.OTHER_CHAIN, HEAD + 1)
    assert polls <= 2  # the poll that saw the foreign head (and at most one already sent)
    assert Verification.VERIFIED not in verdicts
    assert [h for h in listed if h.startswith("0x1e")] == []  # no chain-30 block was listed
    assert home.model.chain.replaced == {}
    assert home.model.blocks.rowCount() == 0
    assert app.window.banner.text().startswith(
        "Chain mismatch: the node serves Rootstock Mainnet (chain id 30, network id 30)."
    )
    assert "chain id 30 ✗ (expected 31)" in app.window.status_label.text()
    qtbot.waitUntil(lambda: page.model.state is PageState.MISMATCH, timeout=WAIT)
    assert page.mismatch_text.text().startswith(
        "This page was read before the node changed chain; it is no longer shown."
    )


def test_a_same_id_chain_ahead_is_caught_by_its_first_block_s_parent_hash(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Another genesis, chain id 31 too, one block ahead: its block's parent hash gives it away.

    The chain id riding each poll is unchanged, so only the broken parent link has the chain
    checked again; no block of the other chain is listed meanwhile.
    """
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    home, _page = live_home_and_a_page(app, qtbot)
    listed: set[str] = set()
    home.model.blocks.modelReset.connect(lambda: listed.update(shown_hashes(home)))
    polls = swap_then_wait_for_the_verdict(app, node, qtbot, Mode.OTHER_GENESIS, HEAD + 1)
    assert polls <= 2
    assert listed <= {block_hash(0, n) for n in range(HEAD + 2)}  # only our chain's blocks
    assert home.model.blocks.rowCount() == 0


def test_a_head_that_goes_back_is_checked_before_it_is_shown(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Another chain with the same id behind at the same URL: caught by the poll that saw it.

    The chain id riding each poll is unchanged: only the head going back has the genesis read
    again (the chain 30 this test used first was caught by the chain id alone).
    """
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    home, page = live_home_and_a_page(app, qtbot)
    heads: list[int] = []
    app.shell.head_changed.connect(heads.append)
    polls = swap_then_wait_for_the_verdict(app, node, qtbot, Mode.OTHER_GENESIS, HEAD - 5)
    assert polls <= 2
    assert heads == []  # the lower head was never shown
    assert home.model.blocks.rowCount() == 0
    qtbot.waitUntil(lambda: page.model.state is PageState.MISMATCH, timeout=WAIT)


def test_a_same_id_chain_with_another_genesis_is_flagged_now_and_after_a_restart(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Chain id 31 both, genesis blocks differ: the first one seen is remembered per endpoint."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    live_home_and_a_page(app, qtbot)
    assert app.session.check.genesis_hash == block_hash(0, 0)
    swap_then_wait_for_the_verdict(app, node, qtbot, Mode.OTHER_GENESIS, HEAD - 1)
    expected = (
        "Chain mismatch: the node reports chain id 31, but its genesis block changed since it "
        f"was first checked ({block_hash(0, 0)} then, {block_hash(0xEE, 0)} now): it is another "
        "chain. Mine is chain 31, so nothing from this node is shown"
    )
    assert app.window.banner.text().startswith(expected)
    assert "chain id 31, genesis ✗" in app.window.status_label.text()
    assert untrustworthy(app.window, app.watch) == []
    app.close()
    node.head = None
    again = app_on({"Mine": (node, 31)})  # the same home: the genesis was remembered
    qtbot.waitUntil(lambda: again.session.check.verification is Verification.MISMATCH, timeout=WAIT)
    assert again.window.banner.text().startswith(expected)
    view = again.open(tx_route(TX_HASH))
    assert isinstance(view, PageView)
    assert view.model.state is PageState.MISMATCH


def test_a_public_network_must_have_its_known_genesis(qtbot: QtBot, qloop: object) -> None:
    """Chain id 31 and net_version 31 are not enough for Rootstock Testnet: block 0 must be its.

    rskj states the testnet genesis hash; a node with another one is a mismatch, in the banner.
    """
    other = ScriptedServer(serve_chain(31, 0xEE))
    real = ScriptedServer(serve_testnet)  # the samples' node gives the testnet's own genesis
    shell = ShellViewModel()
    window = MainWindow(shell)
    qtbot.addWidget(window)
    try:
        shell.set_session(Session(TESTNET, Endpoint.parse(f"{other.url}/{API_KEY}")))
        qtbot.waitUntil(
            lambda: shell.connection.verification is Verification.MISMATCH, timeout=WAIT
        )
        assert window.banner.text().startswith(
            "Chain mismatch: the node reports chain id 31, but its genesis block is "
            f"{block_hash(0xEE, 0)}, not Rootstock Testnet's {TESTNET_GENESIS}."
        )
        shell.set_session(Session(TESTNET, Endpoint.parse(f"{real.url}/{API_KEY}")))
        qtbot.waitUntil(
            lambda: shell.connection.verification is Verification.VERIFIED, timeout=WAIT
        )
        assert shell.connection.check.genesis_hash == TESTNET_GENESIS
        assert "chain id 31 ✓" in window.status_label.text()
    finally:
        assert shell.session is not None
        run_in_qloop(qtbot, shell.session.aclose())
        other.close()
        real.close()


def test_a_saved_network_that_cannot_be_used_is_not_what_the_selector_shows_at_start(
    qtbot: QtBot, qloop: object, home: Path, fast: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Testnet saved, its key gone: the Local devnet stands in, and the selector says so.

    What is saved is what is shown: the next start opens the devnet too. (The devnet child is
    a stand-in that exits at once: its failure is said in the banner.)
    """
    monkeypatch.setattr(early_devnet, "devnet_command", lambda: [sys.executable, "-c", "pass"])
    settings, _ = Settings.for_app()
    settings.set_current_network(TESTNET.id)
    application = Application(settings, use_devnet=False)
    qtbot.addWidget(application.window)
    try:
        run_in_qloop(qtbot, application.start())
        combo = application.window.network_combo
        assert combo.currentData() == DEVNET.id
        assert settings.current_network() == DEVNET.id
        assert application.networks.current is DEVNET
        assert application.window.banner.text().startswith("The local devnet did not start")
    finally:
        run_in_qloop(qtbot, application.aclose())
