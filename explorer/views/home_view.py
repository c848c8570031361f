"""The home page: a summary line and the latest blocks table."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QVBoxLayout, QWidget

from explorer.viewmodels.home import HomeViewModel
from explorer.views.theme import plain_label
from explorer.views.widgets.links import open_clicked_routes

HINT = "Paste a transaction hash, a block number, an address or a name.rsk above."


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
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        open_clicked_routes(self.table, self.link_activated.emit)
        for widget in (self.hint, self.summary, self.message):
            layout.addWidget(widget)
        layout.addWidget(plain_label("Latest blocks", selectable=False))
        layout.addWidget(self.table, 1)
        model.summary_changed.connect(self._refresh)

    def _refresh(self) -> None:
        """Show the model's current summary and message."""
        self.summary.setText(self.model.summary)
        self.message.setText(self.model.message)
        self.message.setVisible(bool(self.model.message))
