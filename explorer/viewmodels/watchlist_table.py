"""The Watchlist screen's table: name, address, balance, last activity; new activity marked."""

from __future__ import annotations

import enum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from explorer.chain.checksum import to_checksum_address
from explorer.presentation.format import utc_text
from explorer.presentation.history_text import rbtc_text
from explorer.services.routes import address_route, block_route
from explorer.services.watchlist import Watched
from explorer.viewmodels.roles import ROUTE_ROLE

Index = QModelIndex | QPersistentModelIndex


class WatchColumn(enum.IntEnum):
    """The table's columns."""

    NEW = 0
    NAME = 1
    ADDRESS = 2
    BALANCE = 3
    ACTIVITY = 4
    WHAT = 5


HEADERS = ("", "Name", "Address", "Balance", "Last activity", "What happened")


class WatchlistTableModel(QAbstractTableModel):
    """The watched addresses; an unseen activity shows a dot and bold text."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: list[Watched] = []
        self.chain_id = 31
        self.currency = "RBTC"

    def replace_all(self, entries: list[Watched]) -> None:
        """Show these entries."""
        self.beginResetModel()
        self.entries = list(entries)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of watched addresses."""
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles."""
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, route or font."""
        if not index.isValid() or index.row() >= len(self.entries):
            return None
        entry, column = self.entries[index.row()], WatchColumn(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(entry, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "New activity since you last looked" if column is WatchColumn.NEW else None
        if role == ROUTE_ROLE:
            if column in (WatchColumn.NAME, WatchColumn.ADDRESS):
                return address_route(entry.address)
            if column is WatchColumn.ACTIVITY and entry.last_activity is not None:
                return block_route(entry.last_activity)
        if role == Qt.ItemDataRole.FontRole and entry.unseen:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def text(self, entry: Watched, column: WatchColumn) -> str:
        """Return the text of one cell."""
        if column is WatchColumn.NEW:
            return "●" if entry.unseen else ""
        if column is WatchColumn.NAME:
            return entry.name or "—"
        if column is WatchColumn.ADDRESS:
            return to_checksum_address(entry.address, self.chain_id)
        if column is WatchColumn.BALANCE:
            return rbtc_text(entry.balance, self.currency) or "reading at the next block…"
        if column is WatchColumn.ACTIVITY:
            if entry.last_activity is None:
                return "none seen yet"
            when = f" · {utc_text(entry.last_activity_time)}" if entry.last_activity_time else ""
            return f"block {entry.last_activity:,}{when}"
        return entry.note
