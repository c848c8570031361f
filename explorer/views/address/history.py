"""The History tab: status and progress, what waits for the user, filters, chart and table."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer.chain.checksum import to_checksum_address
from explorer.chain.history import NATIVE, EntryKind
from explorer.presentation.balance_steps import BalanceSteps
from explorer.presentation.document import Tone
from explorer.presentation.format import chart_amount
from explorer.presentation.history_text import KIND_TEXT
from explorer.services.routes import Route
from explorer.viewmodels.address.history import HistoryAction, HistoryViewModel
from explorer.viewmodels.address.history_table import Column
from explorer.viewmodels.observable import TypedSignal
from explorer.views.address.balance_chart import BalanceChart
from explorer.views.address.controls import bind_result, button
from explorer.views.cost_question import bind_cost_gate
from explorer.views.theme import plain_label, tone_palette
from explorer.views.widgets.columns import ColumnFitter
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.progress import set_progress

PROGRESS_STEPS = 1000


class Notice(QFrame):
    """A framed sentence, with an action button when given one (hidden while it is empty)."""

    def __init__(self, action: str | None, tone: Tone, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        self.text = plain_label(wrap=True)
        tone_palette(self.text, tone)
        self.action = QPushButton(action or "")
        row.addWidget(self.text, 1)
        row.addWidget(self.action, 0, Qt.AlignmentFlag.AlignTop)
        self.action.setHidden(action is None)
        self.setVisible(False)

    def show_text(self, text: str) -> None:
        """Show a sentence, or hide the notice for ''."""
        self.text.setText(text)
        self.setVisible(bool(text))


class HistoryTab(QWidget):
    """Binds a HistoryViewModel.

    Signals:
        link_activated(Route, bool): a block, transaction or address was clicked.
        scan_transactions(): the user asked for the transaction scan (an address with code).
    """

    link_activated = TypedSignal[Route, bool]()
    scan_transactions = TypedSignal[()]()

    def __init__(self, history: HistoryViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.history = history
        self.status = bind_result(plain_label(wrap=True), history)
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress.setMaximumHeight(10)
        self.progress.setTextVisible(False)
        self.action_button = button(history.action.value, history.on_action)
        top = QHBoxLayout()
        top.addWidget(self.status, 1)
        top.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignTop)
        self.estimate = Notice(None, Tone.WAITING)  # the go is the one button: Search
        self.old_state = Notice("Scan every block", Tone.BAD)
        self.old_state.action.clicked.connect(history.scan_blocks)
        self.caveat = Notice("Scan transactions", Tone.MUTED)
        self.caveat.action.clicked.connect(self.scan_transactions)
        self.chart = BalanceChart()
        self.chart.link_activated.connect(self.link_activated)
        currency = history.session.network.currency
        self.chart.format_value = lambda wei: chart_amount(wei, currency)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.progress)
        for notice in (self.estimate, self.old_state, self.caveat):
            layout.addWidget(notice)
        layout.addLayout(self._filters())
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.chart)
        splitter.addWidget(self._table())
        splitter.setStretchFactor(1, 3)
        layout.addWidget(splitter, 1)
        self._bind()
        bind_cost_gate(self, history.gate)

    def _filters(self) -> QHBoxLayout:
        """Return the kind and asset filters and the export buttons."""
        self.kind_choice = QComboBox()
        self.kind_choice.addItem("All kinds", None)
        for kind in EntryKind:
            self.kind_choice.addItem(KIND_TEXT[kind], kind)
        self.asset_choice = QComboBox()
        self.asset_choice.addItem("All assets", None)
        self.kind_choice.currentIndexChanged.connect(self.on_filter)
        self.asset_choice.currentIndexChanged.connect(self.on_filter)
        row = QHBoxLayout()
        row.addWidget(plain_label("Show", selectable=False))
        row.addWidget(self.kind_choice)
        row.addWidget(self.asset_choice)
        row.addStretch(1)
        row.addWidget(button("Export CSV…", lambda: self.on_export("csv")))
        row.addWidget(button("Export JSON…", lambda: self.on_export("json")))
        return row

    def _table(self) -> QTableView:
        """Return the History table: sortable by any column; cells link where they can."""
        self.table = table = QTableView()
        table.setModel(self.history.rows)
        table.setSortingEnabled(True)
        table.sortByColumn(Column.BLOCK, Qt.SortOrder.DescendingOrder)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.verticalHeader().setDefaultSectionSize(22)
        table.verticalHeader().setVisible(False)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.columns = ColumnFitter(table, (Column.COUNTERPARTY, Column.TX))
        open_clicked_routes(table, self.link_activated.emit)
        return table

    def _bind(self) -> None:
        """Follow the view model."""
        history = self.history
        history.progress_changed.connect(self.on_progress)
        history.action_changed.connect(self.on_action_changed)
        history.estimate_changed.connect(self.estimate.show_text)
        history.old_state_changed.connect(self.old_state.show_text)
        history.note_changed.connect(self.caveat.show_text)
        history.balance_changed.connect(self.on_steps)
        history.assets_changed.connect(self.on_assets)
        self.on_progress(history.fraction)
        self.on_steps(history.steps)
        self.estimate.show_text(history.estimate_text)
        self.old_state.show_text(history.old_state)
        self.caveat.show_text(history.note)

    def on_progress(self, fraction: float) -> None:
        """Show how much is done (a bar repaints at once: only a visible step moves it)."""
        value = int(fraction * PROGRESS_STEPS)
        if abs(value - self.progress.value()) >= PROGRESS_STEPS // 100 or value in (
            0,
            PROGRESS_STEPS,
        ):
            set_progress(self.progress, value)

    def on_action_changed(self, action: HistoryAction) -> None:
        """Title the one button by what it does now; a search ended: its columns fit afresh."""
        self.action_button.setText(action.value)
        if action is not HistoryAction.STOP:  # (streaming only widened them: "balance change…")
            self.columns.settle()

    def on_steps(self, steps: BalanceSteps) -> None:
        """Draw the balance's change points; no chart while there is none to draw."""
        self.chart.show_steps(steps)
        self.chart.setVisible(bool(steps.steps))

    def on_assets(self, assets: list[str]) -> None:
        """List the assets found in the asset filter."""
        chosen = self.asset_choice.currentData()
        self.asset_choice.blockSignals(True)
        self.asset_choice.clear()
        self.asset_choice.addItem("All assets", None)
        chain_id, units = self.history.session.network.chain_id, self.history.table.units
        for asset in assets:
            if asset == NATIVE:
                name = self.history.session.network.currency
            else:
                symbol = units.get(asset, (0, ""))[1]
                name = symbol or to_checksum_address(asset, chain_id)
            self.asset_choice.addItem(name, asset)
        index = self.asset_choice.findData(chosen)
        self.asset_choice.setCurrentIndex(max(index, 0))
        self.asset_choice.blockSignals(False)

    def on_filter(self) -> None:
        """Show only the chosen kind and asset."""
        self.history.choose(self.kind_choice.currentData(), self.asset_choice.currentData())

    def on_export(self, fmt: str) -> None:
        """Ask where, then write what the table shows."""
        suffix = f"{fmt.upper()} (*.{fmt})"
        name, _ = QFileDialog.getSaveFileName(self, "Export history", f"history.{fmt}", suffix)
        if name:
            self.history.export(Path(name), fmt)
