"""Amounts as people read them, with the exact value on hover and on Copy."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from explorer.chain.units import format_rbtc, readable_rbtc
from explorer.views.widgets.menus import build_context_menu


class ExactValueLabel(QLabel):
    """A rounded value shown as text; its tooltip and Copy give the exact one."""

    def __init__(
        self,
        text: str,
        exact: str,
        tooltip: str = "",
        json_value: object = None,
        parent: QWidget | None = None,
    ) -> None:
        """Show text; exact is what Copy gives, json_value what Copy as JSON gives."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.DefaultContextMenu)
        self.exact = exact
        self.json = json_value
        self.show_value(text, exact, tooltip, json_value)

    def show_value(self, text: str, exact: str, tooltip: str, json_value: object) -> None:
        """Show another value (the tooltip starts with the exact value when text rounds it)."""
        self.exact, self.json = exact, json_value
        self.setText(text)
        shown = [exact] if exact != text else []
        self.setToolTip("\n".join([*shown, tooltip] if tooltip else shown))

    def copy_text(self) -> str:
        """Copy the exact value."""
        return self.exact

    def json_value(self) -> object:
        """Return the value as JSON data."""
        return self.json if self.json is not None else self.exact

    def context_menu(self) -> QMenu:
        """Build the context menu: Copy (exact), Copy as JSON."""
        return build_context_menu(self, self.copy_text(), self.json_value())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Show the context menu."""
        self.context_menu().exec(event.globalPos())


class AmountLabel(ExactValueLabel):
    """An amount of wei in RBTC (or tRBTC) as people read it; exact RBTC and wei on hover."""

    def __init__(self, wei: int, symbol: str = "RBTC", parent: QWidget | None = None):
        """Show wei as a readable amount of symbol."""
        self.wei = wei
        self.symbol = symbol
        super().__init__("", "", parent=parent)
        self.set_amount(wei, symbol)

    def set_amount(self, wei: int, symbol: str | None = None) -> None:
        """Show another amount."""
        self.wei = wei
        self.symbol = symbol if symbol is not None else self.symbol
        json = {"wei": str(wei), "symbol": self.symbol}
        exact = format_rbtc(wei, self.symbol)
        self.show_value(readable_rbtc(wei, self.symbol), exact, f"{wei:,} wei", json)
