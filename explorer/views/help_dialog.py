"""Help > User guide and Help > Keyboard shortcuts: two small windows of the app's own text."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMenu,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.guide import GUIDE

#: Keys and clicks that belong to no menu item.
OTHER_SHORTCUTS = (
    ("Enter", "Search for what the search bar holds"),
    ("Esc", "In the search bar: cancel the search, or put back the page's query"),
    ("Ctrl+click, middle-click", "Open a link in a new tab"),
    ("Mouse back and forward buttons", "Back and forward in the tab's history"),
    ("Right-click on a value", "Copy it, copy as JSON, label it, open it in a new tab"),
    ("Click a column header", "Sort a table by that column; again for the other direction"),
)


def menu_shortcuts(menus: Iterable[QMenu]) -> list[tuple[str, str]]:
    """Return (keys, what they do) of every menu item that has a shortcut, menus in order."""
    rows: list[tuple[str, str]] = []
    for menu in menus:
        for action in _actions(menu.actions()):
            keys = action.shortcut()
            if not keys.isEmpty():
                name = action.text().replace("&", "").removesuffix("…")
                rows.append((keys.toString(QKeySequence.SequenceFormat.NativeText), name))
    return rows


def _actions(actions: Sequence[QAction]) -> list[QAction]:
    """Return actions with the items of their submenus, in order."""
    found: list[QAction] = []
    for action in actions:
        submenu = action.menu()
        found += _actions(submenu.actions()) if isinstance(submenu, QMenu) else [action]
    return found


class ShortcutsDialog(QDialog):
    """A table of every keyboard shortcut and what it does."""

    def __init__(self, rows: Sequence[tuple[str, str]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(620, 520)
        self.table = QTableWidget(len(rows), 2)
        self.table.setHorizontalHeaderLabels(("Keys", "What they do"))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, action) in enumerate(rows):
            self.table.setItem(row, 0, QTableWidgetItem(keys))
            self.table.setItem(row, 1, QTableWidgetItem(action))
        self.table.resizeColumnToContents(0)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header = self.table.horizontalHeader()
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)  # the menus' order first
        self.table.setSortingEnabled(True)  # a header click sorts
        _lay_out(self, self.table)


class GuideDialog(QDialog):
    """The user guide: how to search, read pages, follow a transaction, broadcast, scan logs."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("User guide")
        self.resize(720, 640)
        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setMarkdown(GUIDE)  # the app's own text, not from a node or a file
        _lay_out(self, self.text)


def _lay_out(dialog: QDialog, body: QWidget) -> None:
    """Put body above a Close button."""
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(body)
    layout.addWidget(buttons)
