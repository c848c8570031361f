"""Chain identity is watched, not checked once: at every head poll, whatever page is open.

A node that starts reporting another chain id (its blocks unchanged, its head still) is caught
by the chain id the polls carry; a reorganisation deeper than the saved data's confirmations is
caught by the new head's parent link with no home page open, and what rested on the replaced
blocks is read again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.saved.reorg import Reorganised
from explorer.services.chaincheck import Verification
from explorer.services.routes import block_route
from explorer.viewmodels.page import PageState
from explorer.views.page_view import PageView
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.harness import App
from tests.gui.reliability.node import Mode, block_hash
from tests.helpers.timing import WAIT

HEAD = 0x2EC6B8
OTHER_BRANCH = 0xAB  # the mark of the replacing branch's hashes


def live_home(app: App, qtbot: QtBot) -> None:
    """Wait until the home page lists blocks and follows the head."""
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    home = app.home()
    qtbot.waitUntil(lambda: home.model.blocks.rowCount() > 0, timeout=WAIT)


def shown_hash(view: PageView) -> str | None:
    """Return the hash of the block a page shows (None before it shows one)."""
    document = view.model.document
    return None if document is None else str(document.raw.get("hash"))


def test_a_node_that_relabels_its_chain_is_caught_by_the_next_polls(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """Chain id 30 and another genesis at the same URL, the same blocks, the head standing still.

    No new block is ever read, so only the chain id the polls carry can tell: the home page and
    the status bar stop saying chain 31 and the home page stops following.
    """
    node = nodes(Mode.GOOD)
    node.takes_batches = True
    app = app_on({"Mine": (node, 31)})
    live_home(app, qtbot)
    node.switch(Mode.RELABELLED)
    qtbot.waitUntil(lambda: app.session.check.verification is Verification.MISMATCH, timeout=WAIT)
    assert "chain id 30 ✗ (expected 31)" in app.window.status_label.text()
    assert app.home().model.blocks.rowCount() == 0
    assert app.window.banner.text().startswith("Chain mismatch")


def test_a_deep_reorganisation_is_caught_with_only_a_block_page_open(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """45 blocks replaced while only a block page 25 deep is open: searched again, it is new.

    The block was saved (settled at 12 confirmations); the first new head does not link to the
    head seen before, so the watch reads back to where the branches part, the saved data drops
    what the other branch replaced, and the search reads the block again.
    """
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    target = HEAD - 25
    page = app.open_loaded(block_route(target))
    assert shown_hash(page) == block_hash(0, target)
    assert app.window.tabs.currentIndex() != 0  # no home page follows the head
    cache = app.session.cache
    assert cache is not None
    qtbot.waitUntil(lambda: cache.state.settled(target), timeout=WAIT)
    dropped: list[Reorganised] = []
    cache.reorg_listeners.append(dropped.append)
    qtbot.waitUntil(lambda: app.session.watch.tip is not None, timeout=WAIT)  # the head seen
    node.reorganise(HEAD - 44, OTHER_BRANCH)
    node.head = hex(HEAD + 1)
    qtbot.waitUntil(lambda: any(event.number <= target for event in dropped), timeout=WAIT)
    app.window.search_bar.setText(str(target))
    qtbot.keyClick(app.window.search_bar, Qt.Key.Key_Return)

    def shows_the_new_block() -> bool:
        view = app.window.current_page()
        return (
            view is not None
            and view.model.state is PageState.LOADED
            and shown_hash(view) == block_hash(OTHER_BRANCH, target)
        )

    qtbot.waitUntil(shows_the_new_block, timeout=WAIT)
