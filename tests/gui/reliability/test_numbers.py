"""A node's numbers cannot kill the window: an absurd head is an invalid answer, in a banner."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services.chaincheck import Verification
from explorer.views.home_view import HomeView
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.node import Mode
from tests.helpers.timing import WAIT

HUGE = "0x" + "8" + "0" * 4999  # 5,000 hex digits: the head that made the window segfault


@pytest.mark.parametrize(
    ("head", "shown"),
    [
        (HUGE, "0x80000000…0000 (5,000 digits) is not a block number (more than 63 bits)"),
        ("0x8000000000000000", "0x8000000000000000 is not a block number (more than 63 bits)"),
    ],
)
def test_an_impossible_head_is_an_invalid_answer_in_the_banner(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot, head: str, shown: str
) -> None:
    """The window stays up and says which node sent what; it recovers when the node does."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    qtbot.waitUntil(lambda: app.shell.head == 0x2EC6B8, timeout=WAIT)
    node.head = head
    app.shell.poller.poll_now()
    banner = app.window.banner

    def says_the_head_cannot_be_right() -> None:
        assert banner.isVisible()
        assert banner.text() == (
            f"The node's head cannot be right: 127.0.0.1 sent an impossible eth_blockNumber "
            f"answer: {shown}. It is not shown; the head is asked again by itself, or press Retry."
        )
        assert app.window.banner_retry.isVisible()
        status = app.window.status_label.text()
        assert "head #3,065,528" in status  # the last head that could be right, never "#-1"
        assert "(head: the node's answer could not be read)" in status  # in words

    qtbot.waitUntil(says_the_head_cannot_be_right, timeout=WAIT)  # banner and status: both
    assert banner.textFormat() is Qt.TextFormat.PlainText
    assert app.window.isVisible()
    node.head = None
    qtbot.mouseClick(app.window.banner_retry, Qt.MouseButton.LeftButton)

    def recovered() -> None:
        assert app.session.check.verification is Verification.VERIFIED
        assert "(head:" not in app.window.status_label.text()
        assert not app.window.banner_bar.isVisible()

    qtbot.waitUntil(recovered, timeout=WAIT)


def test_a_head_past_32_bits_reaches_the_window_intact(
    app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """A head a chain could have (62 bits) crosses every signal whole, to the status bar."""
    node = nodes(Mode.GOOD)
    node.head = hex(2**62)
    app = app_on({"Mine": (node, 31)})
    status = app.window.status_label
    home = app.home()
    assert isinstance(home, HomeView)

    def shown_whole() -> None:
        assert "head #4,611,686,018,427,387,904" in status.text()
        assert app.shell.head == 2**62
        assert home.model.blocks.rowCount() > 0
        assert home.model.chain.newest == 2**62

    qtbot.waitUntil(shown_whole, timeout=WAIT)
    assert not app.window.banner_bar.isVisible()
