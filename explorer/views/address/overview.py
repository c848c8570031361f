"""The overview tab's own parts: the `At block` picker beside the tabs, and the disassembly."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QPlainTextEdit, QWidget

from explorer.viewmodels.address.overview import OverviewViewModel
from explorer.views.address.controls import block_field, button
from explorer.views.theme import monospace, plain_label


class BlockPicker(QWidget):
    """The `At block` field: the summary, code and tokens are read at the chosen block."""

    def __init__(self, overview: OverviewViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.overview = overview
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 4, 0)
        self.edit = block_field()
        self.edit.setToolTip("Show the balance, nonce, code and tokens at this block")
        self.edit.setMaximumWidth(120)
        self.edit.returnPressed.connect(self.on_chosen)
        self.error = plain_label(overview.block_error)
        overview.block_error_changed.connect(self.error.setText)
        row.addWidget(self.error)
        row.addWidget(plain_label("At block:", selectable=False))
        row.addWidget(self.edit)
        row.addWidget(button("Show", self.on_chosen))

    def on_chosen(self) -> None:
        """Read the summary at the typed block."""
        self.overview.choose_block(self.edit.text())


class DisassemblyView(QPlainTextEdit):
    """The contract's code as an opcode listing."""

    def __init__(self, overview: OverviewViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.overview = overview
        self.setReadOnly(True)
        monospace(self)
        overview.facts_changed.connect(self.on_facts_changed)

    def on_facts_changed(self) -> None:
        """List the code read at the chosen block (nothing for an account)."""
        self.setPlainText(self.overview.disassembly)
