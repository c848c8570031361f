"""The Settings dialog's left side: the networks, Add custom endpoint and Remove."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from explorer.viewmodels.network_settings import DraftEntry, DraftLayout, NetworkSettingsViewModel

CURRENT_TIP = "The network the explorer shows now"


class NetworkListPanel(QWidget):
    """The list of drafts bound to the Settings view model; choosing one shows it."""

    def __init__(self, model: NetworkSettingsViewModel, parent: QWidget | None = None) -> None:
        """List the model's drafts, the shown one selected."""
        super().__init__(parent)
        self.model = model
        self.setFixedWidth(220)
        self.network_list = QListWidget()
        self.add_button = QPushButton("Add custom endpoint")
        self.remove_button = QPushButton("Remove")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.network_list, 1)
        column.addWidget(self.add_button)
        column.addWidget(self.remove_button)
        self.network_list.currentItemChanged.connect(self._on_item_changed)
        self.add_button.clicked.connect(model.add_custom)
        self.remove_button.clicked.connect(model.remove_shown)
        model.drafts_changed.connect(self._fill)
        model.selection_changed.connect(self._select)
        model.layout_changed.connect(self._show_layout)
        self._fill()
        self._show_layout(model.layout)

    def _fill(self) -> None:
        """Show the model's drafts: rename in place, rebuild when drafts came or went."""
        entries = self.model.drafts
        self.network_list.blockSignals(True)
        if [e.draft_id for e in entries] != self._draft_ids():
            self.network_list.clear()
            for _ in entries:
                self.network_list.addItem(QListWidgetItem())
        for row, entry in enumerate(entries):
            self._show_entry(self.network_list.item(row), entry)
        self.network_list.blockSignals(False)
        self._select(self.model.selected_id)

    def _draft_ids(self) -> list[str]:
        """Return the draft ids listed now."""
        items = (self.network_list.item(row) for row in range(self.network_list.count()))
        return [str(item.data(Qt.ItemDataRole.UserRole)) for item in items]

    @staticmethod
    def _show_entry(item: QListWidgetItem, entry: DraftEntry) -> None:
        """Show one draft: its title; the current network in bold."""
        item.setText(entry.title)
        item.setData(Qt.ItemDataRole.UserRole, entry.draft_id)
        font = item.font()
        font.setBold(entry.is_current)
        item.setFont(font)
        item.setToolTip(CURRENT_TIP if entry.is_current else "")

    def _select(self, draft_id: str) -> None:
        """Select the entry of the shown draft."""
        row = self._draft_ids().index(draft_id) if draft_id in self._draft_ids() else -1
        if row != self.network_list.currentRow():
            self.network_list.blockSignals(True)
            self.network_list.setCurrentRow(row)
            self.network_list.blockSignals(False)

    def _show_layout(self, layout: DraftLayout) -> None:
        """Allow Remove on custom endpoints only."""
        self.remove_button.setEnabled(layout.removable)

    def _on_item_changed(self, item: QListWidgetItem | None, _previous: object) -> None:
        """Show the draft of the newly chosen entry."""
        if item is not None:
            self.model.select(str(item.data(Qt.ItemDataRole.UserRole)))
