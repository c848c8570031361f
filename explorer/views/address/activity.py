"""The activity tab: scan controls, progress, status and the lazy table of what was found."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QProgressBar,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer.services.activity import ActivityKind
from explorer.services.routes import Route
from explorer.viewmodels.address.activity import ActivityViewModel
from explorer.viewmodels.address.blocks import START_HINT
from explorer.viewmodels.observable import TypedSignal
from explorer.views.address.controls import bind_result, block_field, button
from explorer.views.cost_question import bind_cost_gate
from explorer.views.theme import plain_label
from explorer.views.widgets.columns import ColumnFitter
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.progress import set_progress
from explorer.views.widgets.sortable import make_sortable

PROGRESS_STEPS = 1000
SHARED_COLUMNS = (1, 3, 4)  # the transaction, counterparty and contract: hashes, addresses


class ActivityTab(QWidget):
    """Binds an ActivityViewModel: kind and range, scan and cancel, progress, results.

    Signals:
        link_activated(Route, bool): a block, transaction or address cell was clicked.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, activity: ActivityViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.activity = activity
        bind_cost_gate(self, activity.gate)
        self.kind_choice = QComboBox()
        for kind in ActivityKind:
            self.kind_choice.addItem(kind.value, kind)
        self.scan_from = block_field(START_HINT)
        self.scan_to = block_field()
        self.scan_button = button("Scan", self.on_scan)
        self.cancel_button = button("Cancel", activity.cancel)
        controls = QHBoxLayout()
        for item in (
            self.kind_choice,
            plain_label("from block", selectable=False),
            self.scan_from,
            plain_label("to", selectable=False),
            self.scan_to,
            self.scan_button,
            self.cancel_button,
        ):
            controls.addWidget(item)
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.status = bind_result(plain_label(wrap=True), activity)
        layout = QVBoxLayout(self)
        layout.addLayout(controls)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self._table(), 1)
        activity.kind_changed.connect(self.on_kind_changed)
        activity.progress_changed.connect(self.on_progress_changed)
        activity.running_changed.connect(self.on_running_changed)
        self.on_progress_changed(activity.fraction)
        self.on_running_changed(activity.running)

    def _table(self) -> QTableView:
        """Return the table of found activity; its cells link to blocks, txs and addresses."""
        self.table = table = QTableView()
        table.setModel(self.activity.table)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.verticalHeader().setDefaultSectionSize(22)
        open_clicked_routes(table, self.link_activated.emit)
        make_sortable(table)
        self.columns = ColumnFitter(table, SHARED_COLUMNS)
        return table

    def offer_transaction_scan(self, first: str) -> None:
        """Set up the transaction scan from a block (the user presses Scan: it costs a lot)."""
        self.kind_choice.setCurrentIndex(list(ActivityKind).index(ActivityKind.TRANSACTIONS))
        self.scan_from.setText(first)

    def on_scan(self) -> None:
        """Start a scan of the chosen kind and range."""
        self.activity.start(
            self.kind_choice.currentData(), self.scan_from.text(), self.scan_to.text()
        )

    def on_kind_changed(self, kind: ActivityKind) -> None:
        """Show the kind being scanned for."""
        self.kind_choice.setCurrentIndex(list(ActivityKind).index(kind))

    def on_progress_changed(self, fraction: float) -> None:
        """Show how much of the scan is done."""
        set_progress(self.progress, int(fraction * PROGRESS_STEPS))

    def on_running_changed(self, running: bool) -> None:
        """Offer Scan while idle and Cancel while scanning."""
        self.scan_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
