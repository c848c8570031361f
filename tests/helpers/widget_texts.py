"""Every text a window shows or offers: labels, buttons, fields, tooltips, table cells."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

ROLES = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
MAX_ROWS = 100


def model_texts(model: QAbstractItemModel) -> list[str]:
    """Return the texts of a model's first rows (display and tooltip) and its headers."""
    texts: list[str] = []
    root = QModelIndex()
    try:
        columns = model.columnCount(root)
    except TypeError:  # list models keep columnCount private: they have one column
        columns = 1
    for column in range(columns):
        texts.append(str(model.headerData(column, Qt.Orientation.Horizontal) or ""))
        for row in range(min(model.rowCount(root), MAX_ROWS)):
            for role in ROLES:
                texts.append(str(model.data(model.index(row, column), role) or ""))
    return texts


def widget_texts(widget: QWidget) -> list[str]:
    """Return every text a widget shows or offers (title, tooltip, contents)."""
    texts = [widget.windowTitle(), widget.toolTip(), widget.statusTip(), widget.accessibleName()]
    if isinstance(widget, QLabel):
        texts.append(widget.text())
    elif isinstance(widget, QLineEdit):
        texts.append(widget.displayText())  # a masked key field shows bullets
    elif isinstance(widget, QAbstractButton):
        texts.append(widget.text())
    elif isinstance(widget, QPlainTextEdit | QTextEdit):
        texts.append(widget.toPlainText())
    elif isinstance(widget, QComboBox):
        texts.extend(widget.itemText(i) for i in range(widget.count()))
    elif isinstance(widget, QTabBar):
        for index in range(widget.count()):
            texts.extend((widget.tabText(index), widget.tabToolTip(index)))
    elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
        texts.extend(model_texts(widget.model()))
    return texts


def every_text() -> list[str]:
    """Return the texts of every widget of the application, and the clipboard's."""
    texts = [text for widget in QApplication.allWidgets() for text in widget_texts(widget)]
    return [*texts, QApplication.clipboard().text()]


def visible_texts(window: QWidget, typed: tuple[QWidget, ...] = ()) -> list[str]:
    """Return the texts of the window's visible widgets.

    Left out: typed (what the user typed, such as the search bar) and the tab titles (they
    name what was typed).
    """
    return [
        text
        for widget in window.findChildren(QWidget)
        if widget.isVisible() and widget not in typed and not isinstance(widget, QTabBar)
        for text in widget_texts(widget)
    ]
