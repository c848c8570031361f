"""The home table keeps its columns' widths while it is empty (no blocks yet, or none shown)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import TESTNET
from explorer.services.session import Session
from explorer.viewmodels.home import HEADERS, HomeViewModel
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow


def widths(view: HomeView) -> list[int]:
    """Return the widths of the columns of whole texts (the address columns share the rest)."""
    return [view.table.columnWidth(column) for column in range(HEADERS.index("Miner"))]


def test_columns_keep_their_widths_empty_or_full(
    qtbot: QtBot, window: MainWindow, qloop: object
) -> None:
    """Empty, each column is as wide as when the devnet's blocks fill it, and they fit.

    The miner's address is elided in the middle (the blocks share the width with the
    latest transactions); every other column shows its whole text.
    """
    full = window.tabs.currentWidget()
    assert isinstance(full, HomeView)
    assert full.model.blocks.rowCount() > 0
    miner = HEADERS.index("Miner")
    for column in range(len(HEADERS) - 1):
        if column != miner:
            assert full.table.sizeHintForColumn(column) <= full.table.columnWidth(column), column
    assert full.table.textElideMode() is Qt.TextElideMode.ElideMiddle
    unverified = Session(TESTNET, Endpoint.parse("http://127.0.0.1:9/unusedkey0000"))
    empty = HomeView(HomeViewModel(unverified))
    qtbot.addWidget(empty)
    empty.resize(full.size())
    empty.show()
    assert empty.model.blocks.rowCount() == 0
    assert widths(empty) == widths(full)
    header = empty.table.horizontalHeader()
    for column in range(miner):
        assert header.sectionSizeFromContents(column).width() <= widths(empty)[column]
    empty.model.dispose()
