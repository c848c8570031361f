"""Exporting the Logs screen's table: written off the GUI thread, with progress, cancel-safe."""

from __future__ import annotations

import asyncio
import enum
import threading
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from explorer.services.logexport import ExportCancelled, ExportFormat, export_rows
from explorer.viewmodels.log_table import LogTableModel
from explorer.viewmodels.observable import qproperty


class ExportState(enum.Enum):
    """Where an export is."""

    IDLE = "idle"
    WRITING = "writing"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


@dataclass(frozen=True)
class ExportProgress:
    """How far an export is: rows written of the total, the format and the file."""

    written: int
    total: int
    fmt: ExportFormat
    path: Path

    @property
    def fraction(self) -> float:
        """Return the share of rows written, 0..1."""
        return 1.0 if self.total <= 0 else min(1.0, self.written / self.total)

    @property
    def text(self) -> str:
        """Return e.g. `Writing CSV to logs.csv: 4,000 of 13,571 logs`."""
        return (
            f"Writing {self.fmt.title} to {self.path.name}: {self.written:,} of {self.total:,} logs"
        )


class LogExportViewModel(QObject):
    """Writes every row of a log table to a file as CSV or JSON, one export at a time.

    The rows are copied (immutable bytes) and written by a worker thread, never touching Qt
    objects; it reports its progress to the GUI thread. The file appears whole at its path
    only once complete: a cancelled or failed export leaves no file behind (nor changes an
    existing one).

    Signals:
        state_changed(ExportState): an export started, ended, was cancelled or failed.
        progress_changed(ExportProgress): more rows were written.
        message_changed(str): the outcome, for the user.
    """

    state_changed = Signal(object)
    progress_changed = Signal(object)
    message_changed = Signal(str)

    def __init__(self, table: LogTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self._state = ExportState.IDLE
        self._progress: ExportProgress | None = None
        self._message = ""
        self._stop = threading.Event()
        self._task: asyncio.Task[int | None] | None = None

    def _get_state(self) -> ExportState:
        """Return where the export is."""
        return self._state

    def _get_progress(self) -> ExportProgress | None:
        """Return the latest progress, None before the first export."""
        return self._progress

    def _get_message(self) -> str:
        """Return the latest outcome for the user."""
        return self._message

    state = qproperty(_get_state, state_changed)
    progress = qproperty(_get_progress, progress_changed)
    message = qproperty(_get_message, message_changed)

    def start(self, path: Path, fmt: ExportFormat) -> asyncio.Task[int | None] | None:
        """Export every row to path; the task returns the rows written (None when the export
        was cancelled or failed). None when an export is already writing."""
        if self._state is ExportState.WRITING:
            return None
        self._stop = threading.Event()
        rows = self.table.snapshot()
        self._set_progress(ExportProgress(0, len(rows), fmt, path))
        self._set(ExportState.WRITING, "")
        self._task = asyncio.ensure_future(self._write(rows, fmt, path, self._stop))
        return self._task

    def cancel(self) -> None:
        """Stop the export at its next slice of rows; its partial file is removed."""
        self._stop.set()

    def dispose(self) -> None:
        """Stop any export (the screen is closing)."""
        self.cancel()

    async def _write(
        self, rows: list[bytes], fmt: ExportFormat, path: Path, stop: threading.Event
    ) -> int | None:
        """Write on a worker thread; publish its progress and its outcome."""
        loop = asyncio.get_running_loop()

        def report(written: int) -> None:
            """Hand the worker's count to the GUI thread (called on the worker)."""
            loop.call_soon_threadsafe(self._on_written, stop, written)

        try:
            written = await asyncio.to_thread(export_rows, rows, fmt, path, report, stop)
        except (asyncio.CancelledError, ExportCancelled) as stopped:
            stop.set()  # the worker stops at its next slice and removes its partial file
            self._set(ExportState.CANCELLED, f"Export cancelled; {path} was not written.")
            if isinstance(stopped, asyncio.CancelledError):
                raise
            return None
        except OSError as error:
            self._set(ExportState.FAILED, f"Export failed: {error.strerror or error}")
            return None
        self._set(ExportState.DONE, f"Exported {written:,} logs to {path}")
        return written

    def _on_written(self, stop: threading.Event, written: int) -> None:
        """Show a worker's progress, unless its export is no longer the current one."""
        progress = self._progress
        if stop is self._stop and progress is not None and self._state is ExportState.WRITING:
            self._set_progress(ExportProgress(written, progress.total, progress.fmt, progress.path))

    def _set_progress(self, progress: ExportProgress) -> None:
        """Change the progress."""
        self._progress = progress
        self.progress_changed.emit(progress)

    def _set(self, state: ExportState, message: str) -> None:
        """Change the state and the message."""
        self._state = state
        self._message = message
        self.state_changed.emit(state)
        self.message_changed.emit(message)
