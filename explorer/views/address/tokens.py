"""The tokens tab: balances of known and added tokens, with a field to add or remove one."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer.services.routes import Route
from explorer.viewmodels.address.tokens import TokensViewModel
from explorer.viewmodels.observable import TypedSignal
from explorer.views.address.controls import bind_result, button
from explorer.views.theme import plain_label
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.sortable import make_sortable


class TokensTab(QWidget):
    """Binds a TokensViewModel: its status, its table and the add and remove commands.

    Signals:
        link_activated(Route, bool): a token's contract was clicked (Ctrl: in a new tab).
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, tokens: TokensViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tokens = tokens
        layout = QVBoxLayout(self)
        self.status = bind_result(plain_label(wrap=True), tokens)
        self.table = QTableView()
        self.table.setModel(tokens.table)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        open_clicked_routes(self.table, self.link_activated.emit)
        make_sortable(self.table)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Token contract address (0x…)")
        self.edit.returnPressed.connect(self.on_add)
        self.error = plain_label(tokens.input_error)
        tokens.input_error_changed.connect(self.error.setText)
        tokens.token_added.connect(self.edit.clear)
        add_row = QHBoxLayout()
        add_row.addWidget(self.edit, 1)
        add_row.addWidget(button("Add token", self.on_add))
        add_row.addWidget(button("Remove selected", self.on_remove))
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        layout.addLayout(add_row)
        layout.addWidget(self.error)

    def on_add(self) -> None:
        """Add the typed token address."""
        self.tokens.add(self.edit.text())

    def on_remove(self) -> None:
        """Forget the selected token."""
        self.tokens.remove(self.table.currentIndex().row())
