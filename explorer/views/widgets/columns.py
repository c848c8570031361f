"""Table columns that read whole: texts at their widest, addresses and hashes share the rest."""

from __future__ import annotations

from collections.abc import Collection

from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtWidgets import QHeaderView, QTableView

PADDING = 12  # a cell's margins either side of its text
HEX_SHOWN = "0x0000…0000"  # the least of an address or hash that still reads (4 + 4 digits)
MEASURED_ROWS = 200  # the rows a column's width is measured on (the first of the sort)
FIT_AFTER_MS = 150  # rows streaming in are measured once they pause this long


def hex_room(view: QTableView) -> int:
    """Return the least width of an address or hash column: its first and last four digits."""
    return view.fontMetrics().horizontalAdvance(HEX_SHOWN) + PADDING


def whole_width(view: QTableView, column: int) -> int:
    """Return the width that shows a column's title and its first rows' texts whole."""
    model, metrics = view.model(), view.fontMetrics()
    widest = view.horizontalHeader().sectionSizeFromContents(column).width()
    for row in range(min(MEASURED_ROWS, model.rowCount())):
        text = model.index(row, column).data(Qt.ItemDataRole.DisplayRole)
        if text is not None:
            widest = max(widest, metrics.horizontalAdvance(str(text)) + PADDING)
    return widest


class ColumnFitter(QObject):
    """Keeps a table's text columns as wide as their texts; the shared columns stretch.

    A reset measures afresh; rows added only widen (a column never jumps narrower while rows
    stream in), measured once they pause; once the stream ends (settle), afresh again.
    """

    def __init__(self, view: QTableView, shared: Collection[int]) -> None:
        super().__init__(view)
        self.view, self.shared = view, frozenset(shared)
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        for column in self.shared:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self._settling = False  # the next pause fits afresh (a stream of rows ended)
        self._timer = QTimer(self, singleShot=True, interval=FIT_AFTER_MS)
        self._timer.timeout.connect(self._on_pause)
        model = view.model()
        model.modelReset.connect(self.fit)
        model.layoutChanged.connect(self._timer.start)
        model.rowsInserted.connect(self._timer.start)
        model.dataChanged.connect(self._timer.start)
        self.fit()

    def settle(self) -> None:
        """Fit afresh once rows pause: a stream ended, and its columns may narrow now."""
        self._settling = True
        self._timer.start()

    def _on_pause(self) -> None:
        """Fit the columns after rows paused: only wider while streaming, afresh once settled."""
        settled, self._settling = self._settling, False
        self.fit(widen_only=not settled)

    def fit(self, widen_only: bool = False) -> None:
        """Size every text column to its widest text (only wider when widen_only)."""
        view = self.view
        for column in range(view.model().columnCount()):
            if column in self.shared or view.isColumnHidden(column):
                continue
            width = whole_width(view, column)
            if not widen_only or width > view.columnWidth(column):
                view.setColumnWidth(column, width)

    def needed(self) -> int:
        """Return the width the table needs to show every column readable."""
        return needed_width(self.view, self.shared)


def needed_width(view: QTableView, shared: Collection[int]) -> int:
    """Return the width a table needs: its text columns whole, the shared ones readable."""
    shown = [c for c in range(view.model().columnCount()) if not view.isColumnHidden(c)]
    texts = sum(view.columnWidth(column) for column in shown if column not in shared)
    frame = 2 * view.frameWidth() + view.verticalScrollBar().sizeHint().width()
    return texts + hex_room(view) * len(set(shared) & set(shown)) + frame
