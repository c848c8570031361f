"""Find text a window shows cut: table cells, headers and labels measured with QFontMetrics."""

from __future__ import annotations

import re

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QStyle, QTableView, QWidget

from explorer.views.widgets.links import ElidedLinkLabel

# An address or hash elided in the middle stays recognisable while it keeps its first and
# last four digits: "0x6b17…a46d" (11 characters); "0x6…46d" does not.
MIN_SHOWN = 11
HEX = re.compile(r"0x[0-9a-fA-F]{8,}")
ROWS = 40  # the rows measured per table (the first screenful and more)
# The Logs results have ten columns, four of them 32-byte topics: like a spreadsheet, they
# scroll sideways (each cell still reads whole once in sight).
SCROLLING = frozenset({"log results"})


def readable(full: str, shown: str) -> bool:
    """Tell whether a text shown shortened still reads: only an address or hash, mid-elided."""
    return HEX.fullmatch(full.strip()) is not None and len(shown) >= MIN_SHOWN


def cell_room(view: QTableView, index: QModelIndex) -> int:
    """Return the width a cell's text has: its column less the item margins and any icon."""
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    room = view.columnWidth(index.column()) - 2 * margin
    if index.data(Qt.ItemDataRole.DecorationRole) is not None:
        room -= view.iconSize().width() + 2 * margin
    return room


def cut_cells(view: QTableView, name: str) -> list[str]:
    """Return the columns, titles and cells of a table that are cut or out of sight."""
    model = view.model()
    header = view.horizontalHeader()
    found = []
    for column in range(model.columnCount()):
        if view.isColumnHidden(column):
            continue
        title = str(model.headerData(column, Qt.Orientation.Horizontal) or column)
        right = header.sectionViewportPosition(column) + view.columnWidth(column)
        beyond = right > view.viewport().width() + 1 or header.sectionViewportPosition(column) < 0
        if beyond and name not in SCROLLING:
            found.append(f"{name} › {title}: beyond the table's width (scrolls sideways)")
        if header.sectionSizeFromContents(column).width() > view.columnWidth(column) + 1:
            found.append(f"{name} › {title}: its title is cut")
        for row in range(min(ROWS, model.rowCount())):
            index = model.index(row, column)
            text = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
            metrics = QFontMetrics(view.font())
            room = cell_room(view, index)
            if "\n" in text or metrics.horizontalAdvance(text) <= room:
                continue
            shown = metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, room)
            if not readable(text, shown):
                found.append(f"{name} › {title} row {row}: {text!r} shown as {shown!r}")
    return found


def cut_label(label: QLabel) -> str | None:
    """Return how a label's text is cut, or None when it shows whole."""
    if isinstance(label, ElidedLinkLabel):
        full, shown = label.full_text(), label.text()
        return None if shown == full or readable(full, shown) else f"{full!r} shown as {shown!r}"
    if not label.text() or label.height() <= 1:
        return None
    if label.wordWrap():
        needed = label.heightForWidth(label.width())
        return f"{label.text()!r} cut below" if needed > label.height() + 1 else None
    if label.width() + 1 < label.minimumSizeHint().width():
        return f"{label.text()!r} cut at {label.width()} of {label.minimumSizeHint().width()} px"
    return None


def cut_texts(page: QWidget) -> list[str]:
    """Return every visible text of a page that is cut: in its tables and its labels."""
    found = []
    for table in page.findChildren(QTableView):
        if table.isVisible() and table.model() is not None:
            found += cut_cells(table, table.objectName() or type(table.parent()).__name__)
    for label in page.findChildren(QLabel):
        if label.isVisible() and (cut := cut_label(label)) is not None:
            found.append(f"label: {cut}")
    return found
