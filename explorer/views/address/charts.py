"""The charts tab: the balance sampled over the last blocks and the last scan's histogram."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from explorer.viewmodels.address.charts import ARCHIVE_CAVEAT, SAMPLE_COMMAND, ChartsViewModel
from explorer.views.address.controls import bind_result, button
from explorer.views.charts import Chart, ChartKind
from explorer.views.cost_question import bind_cost_gate
from explorer.views.theme import plain_label


class ChartsTab(QWidget):
    """Binds a ChartsViewModel: the sample command, its status and both charts."""

    def __init__(self, charts: ChartsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.charts = charts
        bind_cost_gate(self, charts.gate)
        row = QHBoxLayout()
        row.addWidget(button(SAMPLE_COMMAND, self.on_sample_balance))
        self.status = bind_result(plain_label(""), charts)
        row.addWidget(self.status, 1)
        self.balance_chart = Chart(kind=ChartKind.LINE)
        self.balance_chart.format_value = charts.format_balance
        self.activity_chart = Chart(kind=ChartKind.BARS)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(plain_label(ARCHIVE_CAVEAT, wrap=True))
        layout.addWidget(self.balance_chart, 1)
        layout.addWidget(self.activity_chart, 1)
        charts.balance_changed.connect(self.balance_chart.show_series)
        charts.activity_changed.connect(self.activity_chart.show_series)
        self.balance_chart.show_series(charts.balance)
        self.activity_chart.show_series(charts.activity)

    def on_sample_balance(self) -> None:
        """Read the balance samples."""
        self.charts.sample_balance()
