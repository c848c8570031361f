"""One page in a tab: loading skeleton, not found, error with retry, chain mismatch, or content."""

from __future__ import annotations

import functools

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QScrollArea,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.services.routes import Page, Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.page import PageState, PageViewModel
from explorer.viewmodels.tx_table import Column
from explorer.views.document_view import DocumentView, raw_json_box, raw_json_text
from explorer.views.theme import plain_label, tone_palette
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.sortable import make_sortable


class AmountDelegate(QStyledItemDelegate):
    """Elides amounts at the right, so their leading digits always show."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """Use right elision for this column."""
        super().initStyleOption(option, index)
        option.textElideMode = Qt.TextElideMode.ElideRight


def skeleton(caption: QLabel, cancel: QPushButton, rows: int = 8) -> QWidget:
    """Return a caption and its Cancel button over grey placeholder bars, shown while loading."""
    widget = QWidget()
    layout = QVBoxLayout(widget)
    layout.setAlignment(Qt.AlignmentFlag.AlignTop)
    top = QHBoxLayout()
    top.addWidget(caption, 1)
    top.addWidget(cancel, 0, Qt.AlignmentFlag.AlignTop)
    layout.addLayout(top)
    for row in range(rows):
        bar = QFrame()
        bar.setFixedHeight(14)
        bar.setMaximumWidth(700 - (row % 3) * 150)
        bar.setAutoFillBackground(True)
        palette = bar.palette()
        palette.setColor(QPalette.ColorRole.Window, palette.color(QPalette.ColorRole.Midlight))
        bar.setPalette(palette)
        layout.addWidget(bar)
    return widget


def message_panel(title: str, detail: str) -> tuple[QWidget, QLabel, QLabel]:
    """Return a centred title and detail (plain text)."""
    widget = QWidget()
    layout = QVBoxLayout(widget)
    layout.setAlignment(Qt.AlignmentFlag.AlignCenter)
    heading = plain_label(title)
    font = heading.font()
    font.setPointSizeF(font.pointSizeF() * 1.4)
    font.setBold(True)
    heading.setFont(font)
    text = plain_label(detail)
    text.setWordWrap(True)
    text.setAlignment(Qt.AlignmentFlag.AlignHCenter)
    text.setMinimumWidth(520)
    text.setMaximumWidth(760)
    layout.addWidget(heading, alignment=Qt.AlignmentFlag.AlignHCenter)
    layout.addWidget(text, alignment=Qt.AlignmentFlag.AlignHCenter)
    return widget, heading, text


class PageView(QStackedWidget):
    """Binds a PageViewModel: one child per state.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: PageViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.loading_text = plain_label("Loading…", selectable=False, wrap=True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop waiting for the node")
        self.cancel_button.clicked.connect(model.on_cancel)
        self.loading = skeleton(self.loading_text, self.cancel_button)
        self.not_found, self.not_found_heading, self.not_found_text = message_panel("Not found", "")
        self.error, self.error_title, self.error_text = message_panel("Error", "")
        self.retry_button = QPushButton("Retry")
        self.retry_button.clicked.connect(model.on_retry)
        self.error.layout().addWidget(self.retry_button)  # type: ignore[union-attr]
        self.mismatch, _, self.mismatch_text = message_panel("Wrong chain", "")
        # While loading, the content shows with the skeleton in its Overview tab: the page's
        # widgets are shown and polished during the wait, not after the answer arrives.
        self.content = QTabWidget()
        self.document_view = DocumentView()
        self.document_view.link_activated.connect(self.link_activated)
        self.document_view.completed.connect(model.pacing.shown)
        model.pacing.follow_view(self.document_view)
        overview = QWidget()
        column = QVBoxLayout(overview)
        column.setContentsMargins(0, 0, 0, 0)
        self.notice = plain_label("", wrap=True)  # offline, or read again after a reorganisation
        self.notice.setVisible(False)
        tone_palette(self.notice, Tone.WAITING)
        column.addWidget(self.notice)
        column.addWidget(self.loading)
        column.addWidget(self.document_view)
        column.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(overview)
        self.content.addTab(scroll, "Overview")
        self.cost = plain_label("", selectable=False)
        self.cost.setToolTip(
            "What this page cost: requests sent to the node, and answers read from the data "
            "saved on this computer (no request). Every request of the day: Tools › Requests."
        )
        tone_palette(self.cost, Tone.MUTED)
        self.content.setCornerWidget(self.cost, Qt.Corner.TopRightCorner)
        self.raw_json = raw_json_box()
        self._raw_stale = False
        self.content.currentChanged.connect(self._on_tab_shown)
        for widget in (self.not_found, self.error, self.mismatch, self.content):
            self.addWidget(widget)
        model.state_changed.connect(self.on_changed)
        model.document_changed.connect(self.on_changed)
        model.progress_changed.connect(self._show_progress)
        model.cost_changed.connect(self._show_cost)
        model.notice_changed.connect(self._show_notice)
        self.on_changed()
        self._show_notice()

    @functools.cached_property
    def table(self) -> QTableView:
        """Return the lazy transactions table of a block page, built when it is first shown."""
        table = QTableView()
        table.setModel(self.model.transactions)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.verticalHeader().setDefaultSectionSize(22)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((200, 170, 170, 170, 190, 70, 140)):
            table.setColumnWidth(column, width)
        header.setStretchLastSection(True)
        amounts = AmountDelegate(table)
        for column in (Column.VALUE, Column.FEE):
            table.setItemDelegateForColumn(column, amounts)
        open_clicked_routes(table, self.link_activated.emit)
        make_sortable(table)
        return table

    def on_changed(self) -> None:
        """Show the widget of the model's state."""
        model = self.model
        state = model.state
        self.loading.setVisible(model.waiting)
        self._show_progress()
        if model.waiting:
            self.document_view.hide()
            while self.content.count() > 1:  # nothing read before stays in reach
                self.content.removeTab(1)
            self.content.setCurrentIndex(0)
            self.setCurrentWidget(self.content)
        elif state is PageState.NOT_FOUND:
            self.not_found_text.setText(model.not_found_text)
            self.setCurrentWidget(self.not_found)
        elif state is PageState.ERROR:
            said = model.error_kind.said if model.error_kind else "an error"
            self.error_title.setText(f"Could not load this page: {said}")
            self.error_text.setText(model.error_message)
            self.setCurrentWidget(self.error)
        elif state is PageState.CANCELLED:
            self.error_title.setText("Stopped waiting for the node")
            self.error_text.setText(model.cancelled_text)
            self.setCurrentWidget(self.error)
        elif state is PageState.MISMATCH:
            before = (
                "This page was read before the node changed chain; it is no longer shown. "
                if model.read_before_change
                else ""
            )
            self.mismatch_text.setText(
                f"{before}The node does not serve the chain of the chosen network; nothing it "
                "returns is shown as that network. Fix the endpoint in Settings."
            )
            self.setCurrentWidget(self.mismatch)
        elif model.document is not None:
            self._show_content()

    def _show_cost(self) -> None:
        """Show what the page cost so far."""
        self.cost.setText(self.model.cost_text + "  ")

    def _show_notice(self) -> None:
        """Show the page's note about its data, if any."""
        self.notice.setText(self.model.notice)
        self.notice.setVisible(bool(self.model.notice))

    def _show_progress(self) -> None:
        """Say what the page waits for; offer Cancel once the wait is long."""
        self.loading_text.setText(self.model.waiting_text)
        self.cancel_button.setVisible(self.model.slow)

    def _show_content(self) -> None:
        """Show the loaded document, the transactions table and the raw JSON (tabs kept)."""
        document = self.model.document
        assert document is not None
        self.document_view.show_document(document)
        self.document_view.show()
        tabs: list[tuple[QWidget, str]] = []
        if self.model.route.page is Page.BLOCK:
            tabs.append((self.table, f"Transactions ({self.model.transactions.total:,})"))
        tabs += self.extra_tabs()
        tabs.append((self.raw_json, "Raw JSON"))
        if [self.content.widget(i) for i in range(1, self.content.count())] != [
            widget for widget, _ in tabs
        ]:
            while self.content.count() > 1:
                self.content.removeTab(1)
            for widget, title in tabs:
                self.content.addTab(widget, title)
        for index, (_, title) in enumerate(tabs, start=1):
            self.content.setTabText(index, title)
        self._raw_stale = True  # filled when its tab is shown: big blocks make megabytes of JSON
        self.setCurrentWidget(self.content)
        self._on_tab_shown(self.content.currentIndex())

    def extra_tabs(self) -> list[tuple[QWidget, str]]:
        """Return the page's own tabs after its overview (none here)."""
        return []

    def _on_tab_shown(self, index: int) -> None:
        """Fill the raw JSON the first time its tab is shown after a load."""
        if self._raw_stale and self.content.widget(index) is self.raw_json:
            document = self.model.document
            self._raw_stale = False
            self.raw_json.setPlainText(raw_json_text(document) if document else "")
