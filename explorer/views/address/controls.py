"""Small controls the address page's tabs share: buttons, block fields, bound result labels."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QLabel, QLineEdit, QPushButton

from explorer.viewmodels.address.blocks import BLOCK_HINT
from explorer.viewmodels.address.tool import Tool
from explorer.views.theme import monospace, plain_label


def button(text: str, slot: Callable[[], None]) -> QPushButton:
    """Return a push button that calls slot when clicked."""
    push = QPushButton(text)
    push.clicked.connect(slot)
    return push


def block_field(hint: str = BLOCK_HINT) -> QLineEdit:
    """Return a field for a block number or tag (empty means the hint)."""
    field = QLineEdit()
    field.setPlaceholderText(hint)
    return field


def bind_result(label: QLabel, tool: Tool) -> QLabel:
    """Show a tool's result text in label, now and whenever it changes; return label."""
    label.setText(tool.result)
    tool.result_changed.connect(label.setText)
    return label


def result_label(tool: Tool) -> QLabel:
    """Return a wrapped fixed-width label showing a tool's result."""
    return bind_result(monospace(plain_label(wrap=True)), tool)
