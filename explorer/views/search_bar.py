"""The toolbar's search bar: what it takes, a search icon that is Enter, Stop, recent searches."""

from __future__ import annotations

from PySide6.QtCore import QStringListModel, Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import QCompleter, QLineEdit, QStyle, QWidget

from explorer.views.icons import PaletteIcons


def search_bar(
    recent: QStringListModel, icons: PaletteIcons, parent: QWidget
) -> tuple[QLineEdit, QAction]:
    """Return the search bar and its Stop action (hidden until a search is under way)."""
    bar = QLineEdit()
    bar.setPlaceholderText(
        "Search by block number, transaction or block hash, address, or name.rsk"
    )
    bar.setClearButtonEnabled(True)
    search_icon = bar.addAction(QIcon(), QLineEdit.ActionPosition.LeadingPosition)
    search_icon.setToolTip("Search")
    search_icon.triggered.connect(bar.returnPressed)  # a click is Enter
    icons.set_icon(search_icon, "search")
    stop = bar.addAction(
        parent.style().standardIcon(QStyle.StandardPixmap.SP_BrowserStop),
        QLineEdit.ActionPosition.TrailingPosition,
    )
    stop.setToolTip("Searching… click or press Esc to cancel")
    stop.setVisible(False)
    completer = QCompleter(recent, parent)
    completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
    completer.setFilterMode(Qt.MatchFlag.MatchContains)
    bar.setCompleter(completer)
    return bar, stop
