"""The home page: a summary line and the latest blocks table."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QVBoxLayout, QWidget

from explorer.viewmodels.home import HomeViewModel
from explorer.views.theme import plain_label
from explorer.views.widgets.links import open_clicked_routes

HINT = "Paste a transaction hash, a block number, an address or a name.rsk above."
# The widest text each column usually holds: the columns keep these widths while the table is
# empty (no blocks yet, or none shown from an unverified node), so they never collapse.
WIDEST = ("99,999,999", "23 h 59 min ago", "1,000", "0x" + "D" * 40, "9,999,999 (100.0%)")
CELL_PADDING = 24


class HomeView(QWidget):
    """Binds a HomeViewModel.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = Signal(object, bool)

    def __init__(self, model: HomeViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        layout = QVBoxLayout(self)
        self.hint = plain_label(HINT, selectable=False)
        self.summary = plain_label(model.summary)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        self.message = plain_label(model.message)
        self.table = QTableView()
        self.table.setModel(model.blocks)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self._size_columns()
        open_clicked_routes(self.table, self.link_activated.emit)
        for widget in (self.hint, self.summary, self.message):
            layout.addWidget(widget)
        layout.addWidget(plain_label("Latest blocks", selectable=False))
        layout.addWidget(self.table, 1)
        model.summary_changed.connect(self._refresh)

    def _size_columns(self) -> None:
        """Give each column the width of its widest usual text (or its title), full or empty."""
        cells = self.table.fontMetrics()
        titles = self.table.horizontalHeader().fontMetrics()
        model = self.model.blocks
        for column, text in enumerate(WIDEST):
            title = str(model.headerData(column, Qt.Orientation.Horizontal))
            width = max(cells.horizontalAdvance(text), titles.horizontalAdvance(title))
            self.table.setColumnWidth(column, width + CELL_PADDING)

    def _refresh(self) -> None:
        """Show the model's current summary and message."""
        self.summary.setText(self.model.summary)
        self.message.setText(self.model.message)
        self.message.setVisible(bool(self.model.message))
