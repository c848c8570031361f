"""Item models of the user's bookmarks (a list) and labels (a table) for the views."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

from explorer.chain.checksum import to_checksum_address
from explorer.services.label_entries import Bookmark
from explorer.services.routes import address_route
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.viewmodels.sorting import SortOrder, sorted_rows, text_key

Index = QModelIndex | QPersistentModelIndex


class BookmarksModel(QAbstractListModel):
    """The bookmarks, newest first: title shown, route as tooltip and in ROUTE_ROLE."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._bookmarks: list[Bookmark] = []

    def set_bookmarks(self, bookmarks: list[Bookmark]) -> None:
        """Replace every row."""
        self.beginResetModel()
        self._bookmarks = list(bookmarks)
        self.endResetModel()

    def bookmarks(self) -> list[Bookmark]:
        """Return the rows' bookmarks."""
        return list(self._bookmarks)

    def bookmark(self, row: int) -> Bookmark:
        """Return one row's bookmark."""
        return self._bookmarks[row]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of bookmarks."""
        return 0 if parent.isValid() else len(self._bookmarks)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a row's title, route tooltip or route."""
        if not index.isValid() or not 0 <= index.row() < len(self._bookmarks):
            return None
        bookmark = self._bookmarks[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return bookmark.title
        if role == Qt.ItemDataRole.ToolTipRole:
            return str(bookmark.route)
        if role == ROUTE_ROLE:
            return bookmark.route
        return None


class LabelsTableModel(QAbstractTableModel):
    """Every label as a row (label, address in the chain's checksum), in the given order."""

    HEADERS = ("Label", "Address")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, str]] = []
        self._chain_id: int | None = None
        self.sorting = SortOrder()  # by label, as the store gives them

    def set_labels(self, labels: dict[str, str], chain_id: int | None) -> None:
        """Replace every row (the store hands them over sorted by label; a click re-sorts)."""
        self.beginResetModel()
        self._chain_id = chain_id
        self._rows = self._ordered(list(labels.items()))
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the labels by label or by address (a header click)."""
        self.sorting = SortOrder.of(column, order)
        self.beginResetModel()
        self._rows = self._ordered(self._rows)
        self.endResetModel()

    def _ordered(self, rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """Return rows (address, label) in the chosen order."""
        column, descending = self.sorting.column, self.sorting.descending
        if column < 0:
            return rows
        return sorted_rows(rows, lambda row: text_key(row[1 - column]), descending)

    def address(self, row: int) -> str:
        """Return a row's canonical address."""
        return self._rows[row][0]

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of labels."""
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return the column titles."""
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == Qt.ItemDataRole.DisplayRole and horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, or the row's address route."""
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        address, label = self._rows[index.row()]
        if role == ROUTE_ROLE:
            return address_route(address)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return label if index.column() == 0 else to_checksum_address(address, self._chain_id)
        return None
