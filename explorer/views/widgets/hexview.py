"""HexViewer: read-only monospace bytes with offsets, as 32-byte words or 16-byte rows."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QMenu,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.views.theme import monospace, plain_label
from explorer.views.widgets.links import CopyButton
from explorer.views.widgets.menus import build_context_menu, copy_to_clipboard

Mode = Literal["words", "rows"]
WORD = 32
ROW = 16
SELECTOR = "selector"


def _printable(chunk: bytes) -> str:
    """Return the ASCII column of a row: printable characters, others as dots."""
    return "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in chunk)


def hex_lines(data: bytes, mode: Mode, selector: bool = False) -> list[str]:
    """Lay data out in lines: offset then 32-byte words, or offset, 16 bytes and ASCII.

    With selector (words mode, 4+ bytes), the first line shows the 4-byte selector and word
    offsets count from the arguments, as ABI pointers do.
    """
    lines: list[str] = []
    width = max(4, len(f"{max(len(data) - 1, 0):x}"))
    if mode == "words" and selector and len(data) >= 4:
        width = max(width, len(SELECTOR))
        lines.append(f"{SELECTOR:<{width}}  {data[:4].hex()}")
        data = data[4:]
    size = WORD if mode == "words" else ROW
    for offset in range(0, len(data), size):
        chunk = data[offset : offset + size]
        if mode == "words":
            lines.append(f"{offset:0{width}x}  {chunk.hex()}")
        else:
            left, right = chunk[:8].hex(" "), chunk[8:].hex(" ")
            cells = f"{left:<23}  {right:<23}"
            lines.append(f"{offset:0{width}x}  {cells}  |{_printable(chunk)}|")
    return lines


class HexViewer(QWidget):
    """Bytes in a read-only monospace view with a words/rows switch and copy."""

    def __init__(
        self,
        data: bytes = b"",
        *,
        mode: Mode = "words",
        selector: bool = False,
        parent: QWidget | None = None,
    ):
        """Show data; selector marks transaction input (first 4 bytes are the method)."""
        super().__init__(parent)
        self._data = b""
        self._mode: Mode = mode
        self._selector = selector
        self.size_label = plain_label(selectable=False)
        self.words_button = self._mode_button("32-byte words", "words")
        self.rows_button = self._mode_button("16-byte rows", "rows")
        group = QButtonGroup(self)
        group.addButton(self.words_button)
        group.addButton(self.rows_button)
        self.copy_button = CopyButton("data as hex")
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        for widget in (self.size_label, self.words_button, self.rows_button):
            bar.addWidget(widget)
        bar.addStretch(1)
        bar.addWidget(self.copy_button)
        self.view = QPlainTextEdit()
        self.view.setReadOnly(True)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        monospace(self.view)
        self.view.setPlaceholderText("No data (0x)")
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(
            lambda pos: self.context_menu().exec(self.view.mapToGlobal(pos))
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(bar)
        layout.addWidget(self.view)
        self._take(data)
        self.set_mode(mode)

    def _mode_button(self, text: str, mode: Mode) -> QToolButton:
        """Return a checkable button that switches to mode."""
        button = QToolButton()
        button.setText(text)
        button.setCheckable(True)
        button.setChecked(mode == self._mode)
        button.toggled.connect(lambda on: self._on_mode_toggled(mode, on))
        return button

    def _on_mode_toggled(self, mode: Mode, on: bool) -> None:
        """Switch to mode when its button is checked."""
        if on and mode != self._mode:
            self.set_mode(mode)

    def data(self) -> bytes:
        """Return the bytes shown."""
        return self._data

    def mode(self) -> Mode:
        """Return the layout: "words" or "rows"."""
        return self._mode

    def set_data(self, data: bytes) -> None:
        """Show other bytes."""
        self._take(data)
        self._render()

    def _take(self, data: bytes) -> None:
        """Store data and update the size and the copy button."""
        self._data = bytes(data)
        self.size_label.setText(f"{len(self._data):,} bytes")
        self.copy_button.set_copy_text(self.copy_text())

    def set_mode(self, mode: Mode) -> None:
        """Switch between 32-byte words and 16-byte rows."""
        self._mode = mode
        for button, own in ((self.words_button, "words"), (self.rows_button, "rows")):
            button.setChecked(mode == own)
            font = button.font()
            font.setBold(mode == own)
            button.setFont(font)
        self._render()

    def text(self) -> str:
        """Return the text shown in the view."""
        return self.view.toPlainText()

    def copy_text(self) -> str:
        """Return the data as 0x-prefixed hex."""
        return "0x" + self._data.hex()

    def copy(self) -> None:
        """Copy the data as hex."""
        copy_to_clipboard(self.copy_text())

    def context_menu(self) -> QMenu:
        """Build the context menu: Copy (selection or all), Copy as JSON."""
        selected = self.view.textCursor().selectedText().replace("\u2029", "\n")
        return build_context_menu(self, selected or self.copy_text(), {"data": self.copy_text()})

    def _render(self) -> None:
        """Lay the bytes out for the current mode."""
        self.view.setPlainText("\n".join(hex_lines(self._data, self._mode, self._selector)))
