"""Exporting the Logs screen's table: written off the GUI thread, with progress, cancel-safe."""

from __future__ import annotations

import asyncio
import enum
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QObject

from explorer.services.logexport import ExportCancelled, ExportFormat, export_rows
from explorer.viewmodels.log_table import LogTableModel
from explorer.viewmodels.observable import TypedSignal, qproperty

TURN_SECONDS = 0.004  # the worker's run between two turns of the GUI thread's event loop
TURN_WAIT_SECONDS = 1.0  # a worker goes on by itself if the event loop never answers


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


class _Turns:
    """Pace a worker thread by the GUI thread's event loop.

    After about TURN_SECONDS of work the worker hands its count over and waits until the loop
    has dealt with what was queued before (paints included). So the GUI thread, which takes the
    GIL again for every call into Python while painting, never waits on the worker for longer
    than one turn.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop, on_written: Callable[[int], None]) -> None:
        self.loop, self.on_written = loop, on_written
        self.stop = threading.Event()
        self._go = threading.Event()
        self._since = time.perf_counter()

    def worked(self, written: int) -> None:
        """Report rows written (on the worker); wait for the GUI's turn when one is due."""
        if time.perf_counter() - self._since < TURN_SECONDS or self.stop.is_set():
            return
        self._go.clear()
        self.loop.call_soon_threadsafe(self._gui_turn, written)
        self._go.wait(TURN_WAIT_SECONDS)
        self._since = time.perf_counter()

    def _gui_turn(self, written: int) -> None:
        """Show the count and let the worker go on (on the GUI thread)."""
        if not self.stop.is_set():
            self.on_written(written)
        self._go.set()

    def end(self) -> None:
        """Stop the worker at its next slice (it removes its partial file), never waiting."""
        self.stop.set()
        self._go.set()


class LogExportViewModel(QObject):
    """Writes every row of a log table to a file as CSV or JSON, one export at a time.

    The rows are copied (immutable bytes) and written by a worker thread, never touching Qt
    objects, paced by the GUI thread's event loop (see _Turns). The file appears whole at
    its path only once complete: a cancelled or failed export leaves no file behind (nor
    changes an existing one).

    Signals:
        state_changed(ExportState): an export started, ended, was cancelled or failed.
        progress_changed(ExportProgress): more rows were written.
        message_changed(str): the outcome, for the user.
    """

    state_changed = TypedSignal[ExportState]()
    progress_changed = TypedSignal[ExportProgress]()
    message_changed = TypedSignal[str]()

    def __init__(self, table: LogTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.table = table
        self._state = ExportState.IDLE
        self._progress: ExportProgress | None = None
        self._message = ""
        self._turns: _Turns | None = None
        self._task: asyncio.Task[int | None] | None = None
        self._disposed = False  # the screen closed: the export's end tells nobody

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
        """Export every row to path; None when an export is already writing.

        The task returns the rows written (None when the export was cancelled or failed).
        """
        if self._state is ExportState.WRITING:
            return None
        rows, lines = self.table.snapshot(), self.table.csv_lines()
        progress = ExportProgress(0, len(rows), fmt, path)
        self._turns = _Turns(asyncio.get_running_loop(), self._on_written)
        self._set_progress(progress)
        self._set(ExportState.WRITING, "")
        self._task = asyncio.ensure_future(self._write(rows, lines, progress, self._turns))
        return self._task

    def cancel(self) -> None:
        """Stop the export at its next slice of rows; its partial file is removed."""
        if self._turns is not None:
            self._turns.end()

    def dispose(self) -> None:
        """Stop any export (the screen is closing)."""
        self._disposed = True
        self.cancel()

    async def _write(
        self, rows: list[bytes], lines: list[str], job: ExportProgress, turns: _Turns
    ) -> int | None:
        """Write on a worker thread; publish its progress and its outcome."""
        fmt, path = job.fmt, job.path
        try:
            written = await asyncio.to_thread(
                export_rows, rows, fmt, path, turns.worked, turns.stop, lines, self.table.chain_id
            )
        except (asyncio.CancelledError, ExportCancelled) as stopped:
            turns.end()  # the worker stops at its next slice and removes its partial file
            self._set(ExportState.CANCELLED, f"Export cancelled; {path} was not written.")
            if isinstance(stopped, asyncio.CancelledError):
                raise
            return None
        except OSError as error:
            self._set(ExportState.FAILED, f"Export failed: {error.strerror or error}")
            return None
        self._set_progress(replace(job, written=written))
        self._set(ExportState.DONE, f"Exported {written:,} logs to {path}")
        return written

    def _on_written(self, written: int) -> None:
        """Show the worker's progress (its export is the current one: one writes at a time)."""
        if self._progress is not None:
            self._set_progress(replace(self._progress, written=written))

    def _set_progress(self, progress: ExportProgress) -> None:
        """Change the progress."""
        if self._disposed:
            return
        self._progress = progress
        self.progress_changed.emit(progress)

    def _set(self, state: ExportState, message: str) -> None:
        """Change the state and the message."""
        if self._disposed:
            return
        self._state = state
        self._message = message
        self.state_changed.emit(state)
        self.message_changed.emit(message)
