"""The Inside tab's tables: trees of cells, sortable by their keys, copying exact values."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeWidget, QTreeWidgetItem, QWidget

from explorer.presentation.document import Tone
from explorer.presentation.inside_cells import Cell
from explorer.services.routes import Route, address_route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.theme import plain_tooltip, tone_colour
from explorer.views.widgets.menus import copy_to_clipboard

CELL_ROLE = Qt.ItemDataRole.UserRole
LONG = 24  # a text this long may be cut by its column: its whole on hover


class CellItem(QTreeWidgetItem):
    """A row of cells: each shows its text, the exact value on hover, sorts by its key."""

    def __init__(self, cells: Sequence[Cell], failed: bool = False) -> None:
        super().__init__([cell.text for cell in cells])
        for column, cell in enumerate(cells):
            self.setData(column, CELL_ROLE, cell)
            if cell.exact != cell.text and (cell.exact or len(cell.text) > LONG):
                self.setToolTip(column, plain_tooltip(cell.exact or cell.text))
            if isinstance(cell.sort, int) or cell.text.startswith(("+", "−")):
                self.setTextAlignment(column, Qt.AlignmentFlag.AlignRight)
        self.failed = failed

    def cell(self, column: int) -> Cell:
        """Return a column's cell (an empty one where there is none)."""
        found = self.data(column, CELL_ROLE)
        return found if isinstance(found, Cell) else Cell(self.text(column))

    def __lt__(self, other: QTreeWidgetItem) -> bool:
        """Order by the sort column's keys (numbers before words)."""
        tree = self.treeWidget()
        column = tree.sortColumn() if tree is not None else 0
        mine = self.cell(column).key
        theirs = other.cell(column).key if isinstance(other, CellItem) else other.text(column)
        return (isinstance(mine, str), mine) < (isinstance(theirs, str), theirs)


class CellTree(QTreeWidget):
    """A tree of CellItems: sortable, Ctrl+C and the menu copy exact values.

    Signals:
        link_activated(Route, bool): an address was opened (double-click), new tab or not.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, columns: Sequence[str], widths: Sequence[int],
                 parent: QWidget | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.setHeaderLabels(list(columns))
        self.setUniformRowHeights(True)
        self.setAlternatingRowColors(True)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        for column, width in enumerate(widths):
            self.setColumnWidth(column, width)
        self.setSortingEnabled(True)
        self.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # execution order until asked
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        QShortcut(QKeySequence.StandardKey.Copy, self, self.copy_current)
        self.itemDoubleClicked.connect(self._open)

    def add(self, cells: Sequence[Cell], parent: QTreeWidgetItem | None = None,
            failed: bool = False) -> CellItem:  # fmt: skip
        """Append a row (under parent, expanded); a failed one is shown in the bad tone."""
        item = CellItem(cells, failed)
        if failed:
            colour = tone_colour(Tone.BAD, self.palette())
            for column in range(len(cells)):
                item.setForeground(column, colour)
        if parent is None:
            self.addTopLevelItem(item)
        else:
            parent.addChild(item)
            parent.setExpanded(True)
        return item

    def current_cell(self) -> Cell | None:
        """Return the selected cell, if any."""
        item = self.currentItem()
        return item.cell(self.currentColumn()) if isinstance(item, CellItem) else None

    def copy_current(self) -> None:
        """Copy the selected cell's exact value."""
        cell = self.current_cell()
        if cell is not None:
            copy_to_clipboard(cell.copy)

    def _menu(self, at: QPoint) -> None:
        """Offer Copy (exact), Copy row and Open the address."""
        item = self.itemAt(at)
        if not isinstance(item, CellItem):
            return
        cell = item.cell(self.columnAt(at.x()))
        menu = QMenu(self)
        menu.addAction("Copy", lambda: copy_to_clipboard(cell.copy))
        row = "\t".join(item.cell(c).copy for c in range(self.columnCount()))
        menu.addAction("Copy row", lambda: copy_to_clipboard(row))
        if cell.address:
            target = address_route(cell.address)
            menu.addAction("Open address", lambda: self.link_activated.emit(target, False))
        menu.exec(self.viewport().mapToGlobal(at))

    def _open(self, item: QTreeWidgetItem, column: int) -> None:
        """Open the address a double-clicked cell shows."""
        cell = item.cell(column) if isinstance(item, CellItem) else None
        if cell is not None and cell.address:
            self.link_activated.emit(address_route(cell.address), False)
