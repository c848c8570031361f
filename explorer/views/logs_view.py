"""The Logs explorer screen: query builder, Start/Cancel/Retry, progress, the log table, export."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.presentation.log_form import Field
from explorer.services.logexport import ExportFormat
from explorer.services.routes import Route
from explorer.viewmodels.log_export import ExportState
from explorer.viewmodels.logs import LogsViewModel, ScanState
from explorer.viewmodels.observable import TypedSignal
from explorer.views.cost_question import bind_cost_gate
from explorer.views.theme import plain_label, tone_colour, tone_palette
from explorer.views.widgets.links import open_clicked_routes
from explorer.views.widgets.progress import set_progress
from explorer.views.widgets.sortable import make_sortable

ROW_HEIGHT = 22
ROW_NUMBER_DIGITS = "000000"  # the row-number column fits this from the start (no relayouts)
PROGRESS_EVERY_MS = 100  # progress widgets repaint at most this often (scan or export)
PROGRESS_STEPS = 1000
COLUMN_WIDTHS = (70, 165, 40, 200, 90, 560, 165, 165, 165, 165)  # short hashes, a Transfer fit
FIELD_ROWS = (
    (Field.ADDRESSES, "Addresses", "0x… (any of; separate with commas or spaces)"),
    (Field.TOPIC0, "Topic 0", "event signature hash, or several (any of)"),
    (Field.TOPIC1, "Topic 1", "32-byte topic(s), empty = any"),
    (Field.TOPIC2, "Topic 2", "32-byte topic(s), empty = any"),
    (Field.TOPIC3, "Topic 3", "32-byte topic(s), empty = any"),
    (Field.BLOCK_HASH, "Block hash", "one block by hash (instead of From/To)"),
    (Field.FROM_BLOCK, "From", "block number or earliest (default: earliest)"),
    (Field.TO_BLOCK, "To", "block number or latest (default: latest)"),
)
FILE_FILTERS = {ExportFormat.CSV: "CSV files (*.csv)", ExportFormat.JSON: "JSON files (*.json)"}

AskExportPath = Callable[[QWidget, ExportFormat], Path | None]


def ask_export_path(parent: QWidget, fmt: ExportFormat) -> Path | None:
    """Ask where to write the logs in a format; None when cancelled."""
    title = f"Export logs as {fmt.title}"
    name, _ = QFileDialog.getSaveFileName(parent, title, "", FILE_FILTERS[fmt])
    return Path(name) if name else None


def progress_bar() -> QProgressBar:
    """Return a text-less progress bar counting PROGRESS_STEPS."""
    bar = QProgressBar()
    bar.setRange(0, PROGRESS_STEPS)
    bar.setTextVisible(False)
    return bar


class LogsView(QWidget):
    """The Logs screen of a LogsViewModel.

    `ask_export_path` asks where to export (replace it to answer without a dialog).

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: LogsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.ask_export_path: AskExportPath = ask_export_path
        self.inputs: dict[str, QLineEdit] = {}  # by Field (a Field is its name)
        self.messages: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.addLayout(self._form())
        layout.addLayout(self._buttons())
        layout.addLayout(self._progress_rows())
        self.table = self._table()
        layout.addWidget(self.table, 1)
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(PROGRESS_EVERY_MS)
        self._progress_timer.timeout.connect(self._show_progress)
        model.errors_changed.connect(self.on_errors)
        model.state_changed.connect(self.on_state)
        model.message_changed.connect(self.on_message)
        model.progress_changed.connect(self._on_progress_changed)
        model.export.state_changed.connect(self.on_export_state)
        model.export.progress_changed.connect(self._on_progress_changed)
        model.export.message_changed.connect(self.on_export_state)
        self.on_errors()
        self.on_state()
        self.on_message()
        self.on_export_state()

    def _form(self) -> QFormLayout:
        """Build the query builder: a line edit and an inline message per field."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        color = tone_colour(Tone.BAD, self.palette()).name()
        for field, label, hint in FIELD_ROWS:
            edit = QLineEdit(self.model.texts[field])  # what was typed on the page it replaces
            edit.setPlaceholderText(hint)
            edit.setClearButtonEnabled(True)
            edit.textChanged.connect(lambda text, field=field: self.model.set_field(field, text))
            edit.returnPressed.connect(self.on_start)
            message = plain_label(selectable=False, wrap=True)
            message.setStyleSheet(f"color: {color};")
            message.hide()
            box = QVBoxLayout()
            box.setSpacing(1)
            box.addWidget(edit)
            box.addWidget(message)
            form.addRow(label, box)
            self.inputs[field], self.messages[field] = edit, message
        return form

    def _buttons(self) -> QHBoxLayout:
        """Build Start, Cancel, Retry failed and the export buttons."""
        self.start_button = QPushButton("Start scan")
        self.cancel_button = QPushButton("Cancel")
        self.retry_button = QPushButton("Retry failed")
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_json_button = QPushButton("Export JSON…")
        self.start_button.clicked.connect(self.on_start)
        self.cancel_button.clicked.connect(self.model.cancel)
        self.retry_button.clicked.connect(self.model.retry_failed)
        self.export_csv_button.clicked.connect(lambda: self.on_export(ExportFormat.CSV))
        self.export_json_button.clicked.connect(lambda: self.on_export(ExportFormat.JSON))
        row = QHBoxLayout()
        for button in (self.start_button, self.cancel_button, self.retry_button):
            row.addWidget(button)
        self.estimate = plain_label(selectable=False)  # the scan's cost, before it starts
        tone_palette(self.estimate, Tone.MUTED)
        self.model.estimate_changed.connect(lambda: self.estimate.setText(self.model.estimate_text))
        bind_cost_gate(self, self.model.gate)
        row.addWidget(self.estimate)
        row.addStretch(1)
        row.addWidget(self.export_csv_button)
        row.addWidget(self.export_json_button)
        return row

    def _progress_rows(self) -> QGridLayout:
        """Build the scan's and the export's progress and the export's outcome.

        The progress bars are aligned; the export's has a Cancel export button.
        """
        self.progress = progress_bar()
        self.progress_label = plain_label(selectable=False)
        self.status = plain_label(selectable=False, wrap=True)
        self.export_progress = progress_bar()
        self.export_label = plain_label(selectable=False)
        self.export_result = plain_label(wrap=True)
        self.cancel_export_button = QPushButton("Cancel export")
        self.cancel_export_button.clicked.connect(self.model.export.cancel)
        grid = QGridLayout()
        grid.addWidget(self.progress, 0, 0)
        grid.addWidget(self.progress_label, 0, 1, 1, 2)
        grid.addWidget(self.status, 1, 0, 1, 3)
        grid.addWidget(self.export_progress, 2, 0)
        grid.addWidget(self.export_label, 2, 1)
        grid.addWidget(self.cancel_export_button, 2, 2)
        grid.addWidget(self.export_result, 3, 0, 1, 3)
        grid.setColumnStretch(0, 1)
        grid.setColumnStretch(1, 2)
        return grid

    def _table(self) -> QTableView:
        """Build the results table: uniform row heights, middle-elided cells, links on click."""
        table = QTableView()
        table.setModel(self.model.table)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setWordWrap(False)
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        rows = table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(ROW_HEIGHT)
        rows.setMinimumWidth(rows.fontMetrics().horizontalAdvance(ROW_NUMBER_DIGITS))
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.setObjectName("log results")  # ten columns: it scrolls sideways, by design
        header.setStretchLastSection(True)
        open_clicked_routes(table, self.link_activated.emit)
        self.model.table.rowsInserted.connect(self._prepare_rows_in_sight)
        make_sortable(table)
        for column, width in enumerate(COLUMN_WIDTHS):  # never narrower than the title
            table.setColumnWidth(column, max(width, header.sectionSizeFromContents(column).width()))
        return table

    def _prepare_rows_in_sight(self) -> None:
        """Format the rows in sight as rows arrive (this turn), not in the paint (the next)."""
        top = max(0, self.table.rowAt(0))
        self.model.table.prepare(top, top + self.table.viewport().height() // ROW_HEIGHT + 1)

    def on_start(self) -> None:
        """Start a scan when the fields allow it."""
        if self.model.can_start:
            self.model.start()

    def on_export(self, fmt: ExportFormat) -> None:
        """Ask for a path and export the results there (the model writes off this thread)."""
        path = self.ask_export_path(self, fmt)
        if path is not None:
            self.model.export.start(path, fmt)

    def on_errors(self) -> None:
        """Show each field's message; Start follows whether the fields are valid."""
        for field in Field:
            text = self.model.errors.get(field, "")
            self.messages[field].setText(text)
            self.messages[field].setVisible(bool(text))
        self.start_button.setEnabled(self.model.can_start)

    def on_state(self) -> None:
        """Enable the buttons the scan state allows; fields are read-only while it runs."""
        model = self.model
        running = model.state is ScanState.RUNNING
        self.start_button.setEnabled(model.can_start)
        self.cancel_button.setEnabled(running)
        self.retry_button.setEnabled(model.can_retry)
        self.retry_button.setText(
            f"Retry failed ({model.failed_chunks})" if model.failed_chunks else "Retry failed"
        )
        self.export_csv_button.setEnabled(model.can_export)
        self.export_json_button.setEnabled(model.can_export)
        for edit in self.inputs.values():
            edit.setReadOnly(running)
        self.on_progress()

    def on_message(self) -> None:
        """Show the scan's outcome under the progress bar."""
        self.status.setText(self.model.message)
        self.status.setVisible(bool(self.model.message))

    def on_export_state(self) -> None:
        """Show the export's progress while it writes, then its outcome."""
        export = self.model.export
        writing = export.state is ExportState.WRITING
        for widget in (self.export_progress, self.export_label, self.cancel_export_button):
            widget.setVisible(writing)
        self.export_result.setText(export.message)
        self.export_result.setVisible(bool(export.message))
        self.on_export_progress()
        self.on_state()

    def on_export_progress(self) -> None:
        """Show how many rows the export has written."""
        progress = self.model.export.progress
        if progress is not None:
            self.export_progress.setValue(int(progress.fraction * PROGRESS_STEPS))
            self.export_label.setText(progress.text)

    def _on_progress_changed(self) -> None:
        """Show new progress soon, at most every PROGRESS_EVERY_MS.

        That holds while a scan streams or an export writes.
        """
        if not self._progress_timer.isActive():
            self._progress_timer.start()

    def _show_progress(self) -> None:
        """Show the latest progress of the scan and of the export."""
        self.on_progress()
        self.on_export_progress()

    def on_progress(self) -> None:
        """Show the progress bar and its text; keep following new rows at the table's end."""
        set_progress(self.progress, int(self.model.fraction * PROGRESS_STEPS))
        self.progress_label.setText(self.model.progress_text)
        rows, bar = self.model.table, self.table.verticalScrollBar()
        if rows.canFetchMore(QModelIndex()) and bar.value() >= bar.maximum():
            rows.fetchMore(QModelIndex())

    def changeEvent(self, event: QEvent) -> None:
        """Recolor the field messages when the palette changes (light/dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            color = tone_colour(Tone.BAD, self.palette()).name()
            for label in self.messages.values():
                label.setStyleSheet(f"color: {color};")
        super().changeEvent(event)
