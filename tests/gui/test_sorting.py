"""Every table sorts by any column with a header click, newest first to begin with (devnet)."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QTableView
from pytestqt.qtbot import QtBot

from explorer.services.activity import ActivityCache, ActivityKind
from explorer.services.routes import block_route
from explorer.services.session import Session
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from tests.helpers.address import holder_of, open_address
from tests.helpers.gui import wait_loaded

NUMBER = re.compile(r"-?[\d,]+(?:\.\d+)?")
TIMES = ("Age",)  # shown as ages ("5 s ago"): they sort by time, not by their text


def texts(model: QAbstractItemModel, column: int) -> list[str]:
    """Return the shown texts of a column, every row fetched."""
    while model.canFetchMore(QModelIndex()):
        model.fetchMore(QModelIndex())
    return [str(model.index(row, column).data() or "") for row in range(model.rowCount())]


def reading(text: str) -> tuple[int, Any]:
    """Return how a person reads a cell: a number (its leading figure) or text."""
    text = text.lstrip("≈<")  # a rounded value, or one too small to show, is still a number
    match = NUMBER.match(text) if not text.startswith("0x") else None
    if match and match.group().replace(",", "").replace(".", "").lstrip("-"):
        return (0, float(match.group().replace(",", "")))
    return (1, text.casefold())


def click_header(qtbot: QtBot, table: QTableView, column: int) -> None:
    """Click a column's title, as a user does."""
    header = table.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, 5))


def check_sorts(qtbot: QtBot, table: QTableView) -> None:
    """Each column sorts the rows (both ways) in the order its cells read."""
    model = table.model()
    assert table.isSortingEnabled()
    for column in range(model.columnCount()):
        if table.isColumnHidden(column):  # the home's Note, until a block is replaced
            continue
        title = str(model.headerData(column, Qt.Orientation.Horizontal))
        table.scrollTo(model.index(0, column))
        for _ in range(2):  # the first click sorts one way, the second the other
            click_header(qtbot, table, column)
            order = table.horizontalHeader().sortIndicatorOrder()
            assert table.horizontalHeader().sortIndicatorSection() == column
            if title in TIMES or model.rowCount() < 2:
                continue
            shown = [reading(text) for text in texts(model, column)]
            known = [value for value in shown if value != (1, "…")]
            descending = order is Qt.SortOrder.DescendingOrder
            assert known == sorted(known, reverse=descending), (title, order)


def test_the_home_tables_sort_and_start_newest_first(qtbot: QtBot, window: MainWindow) -> None:
    home = window.tabs.currentWidget()
    assert isinstance(home, HomeView)
    for table in (home.table, home.transactions_table):
        assert table.horizontalHeader().sortIndicatorOrder() is Qt.SortOrder.DescendingOrder
    blocks = [int(text.replace(",", "")) for text in texts(home.table.model(), 0)]
    assert blocks == sorted(blocks, reverse=True)
    check_sorts(qtbot, home.table)
    check_sorts(qtbot, home.transactions_table)


def test_a_blocks_transactions_sort_and_keep_their_positions(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A block's table sorts by any column; the row header still says each one's position."""
    window.navigator.go(block_route(devnet_manifest["big_block"]))
    page = wait_loaded(qtbot, window)
    table = page.table
    model = table.model()
    check_sorts(qtbot, table)
    positions = [model.headerData(r, Qt.Orientation.Vertical) for r in range(model.rowCount())]
    assert sorted(int(p) for p in positions) == list(range(model.rowCount()))
    assert positions != sorted(positions, key=int)  # sorted by a column, not by position


def test_activity_is_in_time_order_and_sorts(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """Token transfers found by two scans (out, then in) show newest first, mixed in time.

    They showed every "out" row, then every "in" row, and a header click did nothing.
    """
    view = open_address(qtbot, session, holder_of(devnet_manifest), cache=ActivityCache())
    activity = view.address_model.activity
    activity.start(ActivityKind.TRANSFERS, "0", "")
    qtbot.waitUntil(lambda: activity.complete, timeout=60_000)
    items = activity.table.items
    assert {item.direction for item in items} >= {"in", "out"}
    times = [(item.block, item.index) for item in items]
    assert times == sorted(times, reverse=True)
    view.content.setCurrentWidget(view.activity_tab)
    check_sorts(qtbot, view.activity_tab.table)


def test_the_tokens_sort(qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]) -> None:
    extra = [devnet_manifest["token"], devnet_manifest["collectible"]]
    view = open_address(qtbot, session, holder_of(devnet_manifest), extra_tokens=extra)
    qtbot.waitUntil(lambda: view.tokens_tab.table.model().rowCount() == 2, timeout=30_000)
    view.content.setCurrentWidget(view.tokens_tab)
    check_sorts(qtbot, view.tokens_tab.table)
