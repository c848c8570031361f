"""The Logs explorer screen: query builder, Start/Cancel/Retry, progress, the log table, export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QFormLayout,
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

from explorer.viewmodels.document import Tone
from explorer.viewmodels.logs import LogsViewModel, ScanState
from explorer.views.theme import tone_colour
from explorer.views.widgets.links import open_clicked_routes

ROW_HEIGHT = 22
ROW_NUMBER_DIGITS = "000000"  # the row-number column fits this from the start (no relayouts)
PROGRESS_EVERY_MS = 100  # progress widgets repaint at most this often while a scan runs
COLUMN_WIDTHS = (70, 165, 40, 200, 90, 560, 165, 165, 165, 165)  # short hashes, a Transfer fit
FIELD_ROWS = (
    ("addresses", "Addresses", "0x… (any of; separate with commas or spaces)"),
    ("topic0", "Topic 0", "event signature hash, or several (any of)"),
    ("topic1", "Topic 1", "32-byte topic(s), empty = any"),
    ("topic2", "Topic 2", "32-byte topic(s), empty = any"),
    ("topic3", "Topic 3", "32-byte topic(s), empty = any"),
    ("block_hash", "Block hash", "one block by hash (instead of From/To)"),
    ("from_block", "From", "block number or earliest (default: earliest)"),
    ("to_block", "To", "block number or latest (default: latest)"),
)


class LogsView(QWidget):
    """The Logs screen of a LogsViewModel.

    Signals:
        link_activated(Route, bool): the route, whether to open it in a new tab.
    """

    link_activated = Signal(object, bool)

    def __init__(self, model: LogsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        self.inputs: dict[str, QLineEdit] = {}
        self.messages: dict[str, QLabel] = {}
        layout = QVBoxLayout(self)
        layout.addLayout(self._form())
        layout.addLayout(self._buttons())
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setTextVisible(False)
        self.progress_label = QLabel()
        self.progress_label.setTextFormat(Qt.TextFormat.PlainText)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.progress, 1)
        row.addWidget(self.progress_label, 2)
        layout.addLayout(row)
        layout.addWidget(self.status)
        self.table = self._table()
        layout.addWidget(self.table, 1)
        self._progress_timer = QTimer(self)
        self._progress_timer.setSingleShot(True)
        self._progress_timer.setInterval(PROGRESS_EVERY_MS)
        self._progress_timer.timeout.connect(self.on_progress)
        model.changed.connect(self.on_changed)
        model.progress_changed.connect(self._on_progress_changed)
        self.on_changed()

    def _form(self) -> QFormLayout:
        """Build the query builder: a line edit and an inline message per field."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.ExpandingFieldsGrow)
        color = tone_colour(Tone.BAD, self.palette()).name()
        for name, label, hint in FIELD_ROWS:
            edit = QLineEdit()
            edit.setPlaceholderText(hint)
            edit.setClearButtonEnabled(True)
            edit.textChanged.connect(lambda text, field=name: self.model.set_field(field, text))
            edit.returnPressed.connect(self.on_start)
            message = QLabel()
            message.setTextFormat(Qt.TextFormat.PlainText)
            message.setStyleSheet(f"color: {color};")
            message.setWordWrap(True)
            message.hide()
            box = QVBoxLayout()
            box.setSpacing(1)
            box.addWidget(edit)
            box.addWidget(message)
            form.addRow(label, box)
            self.inputs[name], self.messages[name] = edit, message
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
        self.export_csv_button.clicked.connect(lambda: self.on_export("csv"))
        self.export_json_button.clicked.connect(lambda: self.on_export("json"))
        row = QHBoxLayout()
        for button in (self.start_button, self.cancel_button, self.retry_button):
            row.addWidget(button)
        row.addStretch(1)
        row.addWidget(self.export_csv_button)
        row.addWidget(self.export_json_button)
        return row

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
        for column, width in enumerate(COLUMN_WIDTHS):
            table.setColumnWidth(column, width)
        header.setStretchLastSection(True)
        open_clicked_routes(table, self.link_activated.emit)
        self.model.table.rowsInserted.connect(self._prepare_rows_in_sight)
        return table

    def _prepare_rows_in_sight(self) -> None:
        """Format the rows in sight as rows arrive (this turn), not in the paint (the next)."""
        top = max(0, self.table.rowAt(0))
        self.model.table.prepare(top, top + self.table.viewport().height() // ROW_HEIGHT + 1)

    def on_start(self) -> None:
        """Start a scan when the fields allow it."""
        if self.model.can_start:
            self.model.start()

    def on_export(self, fmt: str) -> None:
        """Ask for a path and export the results as CSV or JSON."""
        wanted = "CSV files (*.csv)" if fmt == "csv" else "JSON files (*.json)"
        path, _ = QFileDialog.getSaveFileName(self, f"Export logs as {fmt.upper()}", "", wanted)
        if not path:
            return
        try:
            write = self.model.export_csv if fmt == "csv" else self.model.export_json
            count = write(Path(path))
        except OSError as error:
            self._say(f"Export failed: {error.strerror or error}")
            return
        self._say(f"Exported {count:,} logs to {path}")

    def _say(self, text: str) -> None:
        """Show a one-line status message under the progress bar."""
        self.status.setText(text)
        self.status.setVisible(True)

    def on_changed(self) -> None:
        """Show the field messages, the buttons' states and the scan's status."""
        model = self.model
        for name, label in self.messages.items():
            text = model.errors.get(name, "")
            label.setText(text)
            label.setVisible(bool(text))
        running = model.state is ScanState.RUNNING
        self.start_button.setEnabled(model.can_start)
        self.cancel_button.setEnabled(running)
        self.retry_button.setEnabled(model.can_retry)
        self.retry_button.setText(
            f"Retry failed ({model.failed_chunks})" if model.failed_chunks else "Retry failed"
        )
        has_rows = model.table.total > 0 and not running
        self.export_csv_button.setEnabled(has_rows)
        self.export_json_button.setEnabled(has_rows)
        for edit in self.inputs.values():
            edit.setReadOnly(running)
        self.status.setText(model.message)
        self.status.setVisible(bool(model.message))
        self.on_progress()

    def _on_progress_changed(self) -> None:
        """Show new progress soon: at most every PROGRESS_EVERY_MS while a scan streams."""
        if not self._progress_timer.isActive():
            self._progress_timer.start()

    def on_progress(self) -> None:
        """Show the progress bar and its text; keep following new rows at the table's end."""
        self.progress.setValue(int(self.model.fraction * 1000))
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
