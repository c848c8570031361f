"""The Requests window: the last 500 requests, filterable by text and source, copied as JSON."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.viewmodels.requests import RequestsViewModel, Source
from explorer.views.home_view import ToneDelegate
from explorer.views.main_window import MainWindow
from explorer.views.theme import plain_label, tone_palette

COLUMN_WIDTHS = (70, 230, 430, 70, 110, 60)


class RequestsView(QDialog):
    """Binds a RequestsViewModel: filter, source, the table, a summary and Copy as JSON."""

    def __init__(self, model: RequestsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.setWindowTitle("Requests — the last 500")
        self.resize(1040, 560)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter by method or parameters (e.g. eth_getLogs, 0x1f4)")
        self.filter.setClearButtonEnabled(True)
        self.source = QComboBox()
        for source in Source:
            self.source.addItem(source.value, source)
        self.copy_button = QPushButton("Copy as JSON")
        self.copy_button.setToolTip("Copy the requests shown, whole, as a JSON array")
        self.table = QTableView()
        self.table.setModel(model.shown)
        self.table.setItemDelegate(ToneDelegate(self.table))
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate(COLUMN_WIDTHS):
            self.table.setColumnWidth(column, width)
        header.setStretchLastSection(True)
        self.summary = plain_label("", selectable=False)
        tone_palette(self.summary, Tone.MUTED)
        self.note = plain_label(
            "The API key never appears here: it is part of the address, not of the requests.",
            selectable=False,
            wrap=True,
        )
        tone_palette(self.note, Tone.MUTED)
        top = QHBoxLayout()
        top.addWidget(self.filter, 1)
        top.addWidget(self.source)
        top.addWidget(self.copy_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.note)
        self.filter.textChanged.connect(model.set_text)
        self.source.currentIndexChanged.connect(
            lambda _index: model.set_source(self.source.currentData())
        )
        self.copy_button.clicked.connect(self.copy_json)
        model.shown_changed.connect(self._show_summary)
        self._show_summary()

    def _show_summary(self) -> None:
        """Say how many are shown; keep the newest in view."""
        self.summary.setText(self.model.summary)
        self.table.scrollToBottom()

    def copy_json(self) -> None:
        """Put the requests shown on the clipboard as JSON."""
        QGuiApplication.clipboard().setText(self.model.copy_json())
        self.summary.setText(f"{self.model.summary} · copied as JSON")

    def done(self, result: int) -> None:
        """Stop following the journal when closed."""
        self.model.dispose()
        super().done(result)


def install_requests_view(window: MainWindow) -> QAction:
    """Add Tools › Requests… (Ctrl+Shift+R) opening the Requests window; return the action."""
    action = QAction("Requests…", window)
    action.setShortcut(QKeySequence("Ctrl+Shift+R"))
    action.setToolTip("The last 500 requests: sent to the node or answered from saved data")

    def open_view() -> None:
        view = RequestsView(RequestsViewModel(window.shell), window)
        view.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        view.show()

    action.triggered.connect(open_view)
    window.tools_menu.addAction(action)
    return action
