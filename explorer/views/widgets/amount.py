"""AmountLabel: an exact decimal RBTC amount with the exact wei on hover."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from explorer.chain.units import format_rbtc
from explorer.views.widgets.menus import build_context_menu


class AmountLabel(QLabel):
    """An amount of wei shown exactly in RBTC (or tRBTC); the tooltip gives the wei."""

    def __init__(self, wei: int, symbol: str = "RBTC", parent: QWidget | None = None):
        """Show wei as an exact decimal amount of symbol."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.wei = 0
        self.symbol = symbol
        self.set_amount(wei, symbol)

    def set_amount(self, wei: int, symbol: str | None = None) -> None:
        """Show another amount."""
        self.wei = wei
        self.symbol = symbol if symbol is not None else self.symbol
        self.setText(format_rbtc(wei, self.symbol))
        self.setToolTip(f"{wei:,} wei")

    def copy_text(self) -> str:
        """Copy the amount as shown."""
        return self.text()

    def json_value(self) -> object:
        """Return {"wei": decimal string (exact), "symbol"}."""
        return {"wei": str(self.wei), "symbol": self.symbol}

    def context_menu(self) -> QMenu:
        """Build the context menu: Copy, Copy as JSON."""
        return build_context_menu(self, self.copy_text(), self.json_value())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Show the context menu."""
        self.context_menu().exec(event.globalPos())
