"""The search bar as a browser's address bar: the page in front's query, per tab, on the devnet."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.presentation.document import Tone
from explorer.services.routes import address_route, tx_route
from explorer.views.main_window import MainWindow
from explorer.views.theme import tone_colour
from tests.helpers.gui import wait_loaded

CHAIN_ID = 31


def submit(qtbot: QtBot, window: MainWindow, text: str) -> None:
    """Type text into the search bar as a user does (after clearing it) and press Enter."""
    window.search_bar.clear()
    qtbot.keyClicks(window.search_bar, text)
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)


def text_colour(window: MainWindow) -> str:
    """Return the colour the line under the search bar is drawn in."""
    return window.search_message.palette().color(QPalette.ColorRole.WindowText).name()


def test_a_found_name_is_said_plainly_not_as_an_error(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """`alice.rsk → 0x…` under the search bar is a note in the text colour, not red."""
    name, owner = devnet_manifest["rns_names"][0]
    submit(qtbot, window, name)
    qtbot.waitUntil(lambda: window.navigator.route() == address_route(owner), timeout=10_000)
    shown = to_checksum_address(owner, CHAIN_ID)
    assert window.search_message.isVisible()
    assert window.search_message.text() == f"{name} → {shown}"
    assert window.search.notice == (f"{name} → {shown}", Tone.NORMAL)
    bad = tone_colour(Tone.BAD, window.search_message.palette())
    assert text_colour(window) != bad.name()
    assert window.search_bar.text() == shown  # the bar shows where the name led
    submit(qtbot, window, "0x" + "1" * 63)  # an error still is red
    assert text_colour(window) == bad.name()


def test_the_bar_shows_the_query_of_the_page_in_front(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """Search, links, back, a new tab and another tab each show their own query; Esc reverts.

    Before, the bar kept whatever was typed last: a link, Back or a new tab left it stale.
    """
    bar, navigator = window.search_bar, window.navigator
    submit(qtbot, window, "12")
    qtbot.waitUntil(lambda: str(navigator.route()) == "block/12", timeout=10_000)
    assert bar.text() == "12"
    tx_hash = devnet_manifest["plain_transfer"]
    window.open_route(tx_route(tx_hash), False)  # what a link on the page does
    assert bar.text() == tx_hash
    window.back_action.trigger()
    assert str(navigator.route()) == "block/12"
    assert bar.text() == "12"
    qtbot.keyClick(bar, Qt.Key.Key_End)
    qtbot.keyClicks(bar, "34")  # typed, not submitted: Esc puts the page's query back
    assert bar.text() == "1234"
    qtbot.keyClick(bar, Qt.Key.Key_Escape)
    assert bar.text() == "12"
    submit(qtbot, window, "0x" + "1" * 63)  # not a query: the message stays until the page changes
    assert window.search_message.isVisible()
    navigator.open_tab()  # Ctrl+T
    assert navigator.count == 2
    assert bar.text() == ""  # a new tab: an empty bar
    assert not window.search_message.isVisible()
    window.tabs.setCurrentIndex(0)
    assert bar.text() == "12"
    window.open_route(address_route(devnet_manifest["accounts"][0]), True)  # a background tab
    assert bar.text() == "12"
    window.tabs.setCurrentIndex(window.tabs.count() - 1)
    assert bar.text() == to_checksum_address(devnet_manifest["accounts"][0], CHAIN_ID)
    window.navigator.close_tab(window.tabs.currentIndex())
    assert bar.text() == window.search.route_text(navigator.route())


def test_closing_the_first_tab_shows_the_next_ones_query(qtbot: QtBot, window: MainWindow) -> None:
    """The tab that takes the first's place in front puts its query in the bar."""
    window.navigator.go(tx_route("0x" + "ab" * 32), new_tab=True)
    window.tabs.setCurrentIndex(0)
    assert window.search_bar.text() == ""
    window.navigator.close_tab(0)
    assert window.navigator.current_index == 0
    assert window.search_bar.text() == "0x" + "ab" * 32


def test_a_found_tokens_units_leave_with_its_block_before_its_page_is_built(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """The units' read and the block's both leave before navigation builds the page.

    Building the page holds the loop for tens of milliseconds: a read still on its way to
    the socket then went out after it, and came back after the block (about 20 ms late).
    """
    session = window.shell.session
    assert session is not None
    methods = session.client.stats.by_method
    sent_at_navigation: list[tuple[int, int]] = []
    window.search.navigation_requested.connect(
        lambda _route, _new_tab: sent_at_navigation.append(
            (methods["eth_getBlockByHash"], methods["eth_call"])
        )
    )
    submit(qtbot, window, devnet_manifest["token_transfer"])
    page = wait_loaded(qtbot, window)
    assert sent_at_navigation == [(1, 1)]
    assert page.document_view.value_labels["  amount (uint256)"].text() == "1,000,000 DVT"
