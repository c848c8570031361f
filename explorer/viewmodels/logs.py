"""The Logs explorer: the query form checked as you type, the scan into a lazy table, export."""

from __future__ import annotations

import asyncio
import contextlib
import enum
from collections.abc import AsyncGenerator

from PySide6.QtCore import QObject

from explorer.chain.records import Log
from explorer.presentation import format as fmt
from explorer.presentation.log_form import Field, check_fields, query_of
from explorer.rpc.errors import ChainMismatch, RpcError
from explorer.services.budget import Estimate, log_scan
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.logexport import csv_line
from explorer.services.logquery import LogQuery
from explorer.services.logresults import ScanProgress
from explorer.services.logscan import LogScanner
from explorer.services.session import Session
from explorer.services.token_units import AMOUNT_TOPICS
from explorer.viewmodels.cost_gate import CostGate
from explorer.viewmodels.log_export import ExportState, LogExportViewModel
from explorer.viewmodels.log_table import LogTableModel, compact
from explorer.viewmodels.observable import TypedSignal, qproperty

APPEND_SLICE = 200  # logs encoded for the table per event-loop turn
# Every step on the GUI thread is short whatever the answer's size: the client decodes big
# answers a slice per turn, the scanner parses and checks logs a slice per turn, the view
# model encodes rows a slice per turn. The first answers are small so rows show at once; the
# size then follows the log density (4x per answer at most), past 2,000 blocks where sparse.
GUI_INITIAL_BLOCKS = 100
GUI_TARGET_LOGS = 1000
GUI_GROWTH = 4.0


class ScanState(enum.Enum):
    """Where the scan is."""

    IDLE = "idle"
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


class LogsViewModel(QObject):
    """The Logs screen's state: fields and their messages, the scan, progress and the table.

    `export` writes the table to a file (see LogExportViewModel).

    Signals:
        errors_changed(dict[Field, str]): the fields' messages changed.
        state_changed(ScanState): a scan started, ended, was cancelled or failed.
        message_changed(str): the scan's outcome for the user changed.
        progress_changed(ScanProgress | None): the progress numbers changed.
        estimate_changed(): the scan's estimated cost changed (the fields did).
    """

    errors_changed = TypedSignal[dict[Field, str]]()
    state_changed = TypedSignal[ScanState]()
    message_changed = TypedSignal[str]()
    progress_changed = TypedSignal[ScanProgress | None]()
    estimate_changed = TypedSignal[()]()

    def __init__(
        self, session: Session, parent: QObject | None = None, *, concurrency: int = 4
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.concurrency = concurrency
        self.texts: dict[str, str] = dict.fromkeys(Field, "")
        self._errors: dict[Field, str] = {}
        self._state = ScanState.IDLE
        self._message = ""
        self._progress: ScanProgress | None = None
        self.table = LogTableModel(session.network.chain_id, self)
        self.export = LogExportViewModel(self.table, self)
        self.scanner: LogScanner | None = None
        self._task: asyncio.Task[None] | None = None
        self._awaiting_check = False  # a scan waits for the chain check (it fails by itself)
        self._disposed = False  # the page closed: its last task steps tell nobody
        self._units_asked: set[str] = set()
        self._unit_tasks: set[asyncio.Future[None]] = set()
        self._stop_listening = session.checker.listen(self._on_check)
        self.gate = CostGate(session, self)  # asks before a scan past the day's quota

    def _get_errors(self) -> dict[Field, str]:
        """Return a message per field that breaks the spec's rules."""
        return self._errors

    def _get_state(self) -> ScanState:
        """Return where the scan is."""
        return self._state

    def _get_message(self) -> str:
        """Return the scan's outcome for the user ("" while all is well)."""
        return self._message

    def _get_progress(self) -> ScanProgress | None:
        """Return the scanner's latest progress, None before its first report."""
        return self._progress

    errors = qproperty(_get_errors, errors_changed)
    state = qproperty(_get_state, state_changed)
    message = qproperty(_get_message, message_changed)
    progress = qproperty(_get_progress, progress_changed)

    def draft(self) -> dict[str, str]:
        """Return what the user typed in the fields (kept across a network switch)."""
        return dict(self.texts)

    def restore(self, draft: dict[str, str]) -> None:
        """Fill the fields with what the user typed on the page this one replaces."""
        for name, text in draft.items():
            self.set_field(name, text)

    def set_field(self, name: str, text: str) -> None:
        """Change one field (a Field or its name) and check every field again."""
        field = Field(name)
        self.texts[field] = text
        errors = check_fields(self.texts)
        if errors != self._errors:
            self._errors = errors
            self.errors_changed.emit(errors)
        self.estimate_changed.emit()

    @property
    def estimate(self) -> Estimate | None:
        """Return what the scan of the fields would cost (None: not known yet)."""
        if self._errors:
            return None
        try:
            query = query_of(self.texts)
        except RpcError:
            return None
        if query.block_hash is not None:
            return Estimate(1, "This log scan of one block")
        head = self.session.reader.head
        ends = [
            head if isinstance(end, str) and end != "earliest" else end
            for end in (query.from_block, query.to_block)
        ]
        start, end = (0 if e == "earliest" else e for e in ends)
        if not isinstance(start, int) or not isinstance(end, int):
            return None
        blocks = max(end - start + 1, 1)
        return log_scan(blocks, first_blocks=GUI_INITIAL_BLOCKS, growth=GUI_GROWTH)

    @property
    def estimate_text(self) -> str:
        """Return the scan's cost before it starts ('' while the fields are not valid)."""
        estimate = self.estimate
        if estimate is None:
            return ""
        return f"Costs {estimate.text()} (saved ranges cost none)."

    @property
    def can_start(self) -> bool:
        """Tell whether the fields are valid and no scan runs."""
        return not self._errors and self._state is not ScanState.RUNNING

    @property
    def failed_chunks(self) -> int:
        """Return how many block ranges failed and can be retried."""
        return 0 if self.scanner is None else len(self.scanner.failed)

    @property
    def can_retry(self) -> bool:
        """Tell whether failed chunks wait for a retry."""
        return self.failed_chunks > 0 and self._state is not ScanState.RUNNING

    @property
    def can_export(self) -> bool:
        """Tell whether there are rows to export, no scan runs and no export is writing."""
        return (
            self.table.total > 0
            and self._state is not ScanState.RUNNING
            and self.export.state is not ExportState.WRITING
        )

    @property
    def fraction(self) -> float:
        """Return the share of the range done, 0..1."""
        return 0.0 if self._progress is None else self._progress.fraction

    @property
    def progress_text(self) -> str:
        """Return `blocks done of total · logs · ETA` for the progress bar."""
        p = self._progress
        if p is None:
            return ""
        parts = [f"{p.blocks_done:,} of {p.blocks_total:,} blocks", f"{p.logs_found:,} logs"]
        if p.blocks_failed:
            parts.append(f"{p.blocks_failed:,} blocks failed")
        if self._state is ScanState.RUNNING and p.eta is not None:
            parts.append(f"about {fmt.duration_text(p.eta)} left")
        elif self._state is not ScanState.RUNNING:
            parts.append(f"took {fmt.duration_text(p.elapsed)}")
        return " · ".join(parts)

    def start(self) -> bool:
        """Start a new scan with the current fields; False when they are not valid."""
        if not self.can_start:
            return False
        try:
            query = query_of(self.texts)
        except RpcError as error:
            self._set_message(error.message)
            return False
        estimate = self.estimate
        if estimate is not None and self.gate.crosses(estimate):
            self._task = asyncio.ensure_future(self._scan_if_allowed(query, estimate))
            return True
        self._scan(query)
        return True

    async def _scan_if_allowed(self, query: LogQuery, estimate: Estimate) -> None:
        """Ask before a scan past the day's quota; scan only when told to."""
        if await self.gate.allow(estimate):
            self._scan(query)
        else:
            self._set_message(f"Not started: it would cost {estimate.text()}.")

    def _scan(self, query: LogQuery) -> None:
        """Scan the query into a fresh table."""
        self.table.clear()
        self.scanner = LogScanner(
            self.session.client,
            concurrency=self.concurrency,
            initial_blocks=GUI_INITIAL_BLOCKS,
            target_logs=GUI_TARGET_LOGS,
            growth=GUI_GROWTH,
        )
        self._run(self.scanner.scan(query, self._on_progress))

    def retry_failed(self) -> bool:
        """Scan the failed chunks again."""
        if not self.can_retry or self.scanner is None:
            return False
        self._run(self.scanner.retry_failed(self._on_progress))
        return True

    def cancel(self) -> None:
        """Stop the scan; the requests in flight are cancelled."""
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def _run(self, batches: AsyncGenerator[list[Log], None]) -> None:
        """Consume a scan in a task."""
        self._on_progress(None)
        self._set_message("")
        self._set(ScanState.RUNNING)
        self._task = asyncio.ensure_future(self._consume(batches))

    async def _consume(self, batches: AsyncGenerator[list[Log], None]) -> None:
        """Encode each batch for the table a slice per turn, then add it at once.

        One insert, so one repaint, per batch.
        """
        try:
            await self._chain_confirmed()
            async for batch in batches:
                raws: list[bytes] = []
                lines: list[str] = []  # made now, so a CSV export only writes them
                for first in range(0, len(batch), APPEND_SLICE):
                    part = batch[first : first + APPEND_SLICE]
                    raws.extend(compact(log) for log in part)
                    lines.extend(csv_line(log) for log in part)
                    await asyncio.sleep(0)
                blocks = [log.block_number or 0 for log in batch]
                self.table.add_compact(raws, blocks, batch, lines)
                self._read_units(batch)
        except asyncio.CancelledError:
            self._set_message("cancelled")
            self._set(ScanState.CANCELLED)
            raise
        except RpcError as error:
            self._set_message(f"{error.kind.said} ({error.message})")
            self._set(ScanState.FAILED)
            return
        finally:
            with contextlib.suppress(Exception):
                await batches.aclose()
        failed = self.failed_chunks
        if failed:
            self._set_message(f"{failed} block range(s) failed; Retry scans them again")
        self._set(ScanState.DONE)

    def _read_units(self, batch: list[Log]) -> None:
        """Ask the units of the tokens whose amounts the batch's events carry (once each)."""
        emitters = {log.address for log in batch if log.topics and log.topics[0] in AMOUNT_TOPICS}
        new = emitters - self._units_asked
        if new:
            self._units_asked |= new
            task = asyncio.ensure_future(self._add_units(new))
            self._unit_tasks.add(task)
            task.add_done_callback(self._unit_tasks.discard)

    async def _add_units(self, tokens: set[str]) -> None:
        """Read tokens' units (the reader keeps them) and show amounts in them."""
        self.table.add_units(await self.session.reader.token_units.read(tokens))

    def _on_progress(self, progress: ScanProgress | None) -> None:
        """Keep the scanner's latest progress."""
        if self._disposed:
            return
        self._progress = progress
        self.progress_changed.emit(progress)

    def _set_message(self, text: str) -> None:
        """Change the scan's message for the user."""
        if self._disposed:
            return
        self._message = text
        self.message_changed.emit(text)

    def _set(self, state: ScanState) -> None:
        """Change the scan state."""
        if self._disposed:
            return
        self._state = state
        self.state_changed.emit(state)

    async def _chain_confirmed(self) -> None:
        """Wait until the node is known to serve the network's chain; ChainMismatch if not."""
        if not self.session.check.settled:
            self._set_message("waiting for the node to confirm its chain id (see the status bar)…")
        self._awaiting_check = True
        try:
            check = await self.session.settled_check()
        finally:
            self._awaiting_check = False
        self._set_message("")
        if not check.verified:
            raise ChainMismatch(
                f"the node serves chain {check.chain_id}: nothing is scanned",
                expected=self.session.network.chain_id,
                actual=check.chain_id,
            )

    def _on_check(self, check: ChainCheck) -> None:
        """Drop the results once the node turns out to serve another chain."""
        reading = self.state is ScanState.RUNNING and not self._awaiting_check
        if check.verification is Verification.MISMATCH and (self.table.total or reading):
            self.cancel()
            self.table.clear()
            self._set_message("the node serves another chain: its logs are not shown")

    def dispose(self) -> None:
        """Cancel the scan and any export; stop following the chain check (it is closing)."""
        self._disposed = True
        self._stop_listening()
        self.cancel()
        for task in self._unit_tasks:
            task.cancel()
        self.export.dispose()
