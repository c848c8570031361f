"""The home page: a summary line and the latest blocks table."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QVBoxLayout, QWidget

from explorer.viewmodels.home import HomeViewModel
from explorer.viewmodels.tx_table import ROUTE_ROLE
from explorer.views.theme import plain_label

HINT = "Paste a transaction hash, a block number, an address or a name.rsk above."


class HomeView(QWidget):
    """Binds a HomeViewModel.

    Signals:
        link_activated(str, bool): route, whether to open it in a new tab.
    """

    link_activated = Signal(str, bool)

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
        self.table.clicked.connect(self._on_click)
        for widget in (self.hint, self.summary, self.message):
            layout.addWidget(widget)
        layout.addWidget(plain_label("Latest blocks", selectable=False))
        layout.addWidget(self.table, 1)
        model.changed.connect(self._refresh)
        model.load()

    def _refresh(self) -> None:
        """Show the model's current summary and message."""
        self.summary.setText(self.model.summary)
        self.message.setText(self.model.message)
        self.message.setVisible(bool(self.model.message))

    def _on_click(self, index: QModelIndex) -> None:
        """Open a clicked block (Ctrl+click: new tab)."""
        route = self.model.blocks.data(index, ROUTE_ROLE)
        if route:
            ctrl = bool(QGuiApplication.keyboardModifiers() & Qt.KeyboardModifier.ControlModifier)
            self.link_activated.emit(str(route), ctrl)
