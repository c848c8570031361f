"""A table whose rows are known in full but shown in batches (Qt's fetch-more pattern)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

Index = QModelIndex | QPersistentModelIndex


class BatchedTableModel(QAbstractTableModel):
    """`rowCount` counts shown rows; `fetchMore` shows the next `batch` of the available ones.

    Subclasses set `headers` and `batch`, say how many rows are available, and format cells.
    """

    headers: tuple[str, ...] = ()
    batch = 200
    first_row_number = 1

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._shown = 0

    def available(self) -> int:
        """Return how many rows could be shown."""
        raise NotImplementedError

    def show_up_to(self, count: int) -> None:
        """Show rows up to count (inserting them), never more than are available."""
        count = min(count, self.available())
        if count > self._shown:
            self.beginInsertRows(QModelIndex(), self._shown, count - 1)
            self._shown = count
            self.endInsertRows()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of rows shown."""
        return 0 if parent.isValid() else self._shown

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        """Return the number of columns."""
        return 0 if parent.isValid() else len(self.headers)

    def canFetchMore(self, parent: Index) -> bool:
        """Tell whether more rows wait to be shown."""
        return not parent.isValid() and self._shown < self.available()

    def fetchMore(self, parent: Index) -> None:
        """Show the next batch of rows."""
        if not parent.isValid():
            self.show_up_to(self._shown + self.batch)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        """Return column titles and row numbers (from first_row_number)."""
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return str(section + self.first_row_number)
