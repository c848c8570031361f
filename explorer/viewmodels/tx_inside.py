"""The transaction page's Inside tab: the trace asked for when the tab is chosen, streamed in.

Nothing is requested before the tab is shown. The trace (services/trace.py) runs on the
page's loop and its replay's CPU in a worker thread; its rows are handed to the view in
slices of a few milliseconds each, the loop free between them, so the window never stalls
while a big tree streams in. A replay that would cost more than ASK_ABOVE requests asks
first with its estimate; one that diverged from the receipt shows the receipt's facts and
where it diverged, never its tree as what happened.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject

from explorer.chain.trace import TraceResult
from explorer.presentation.inside_cells import Cell, LabelOf, Labels
from explorer.presentation.inside_diff import DiffRow, diff_rows
from explorer.presentation.inside_rows import FrameRow, frame_rows, move_rows
from explorer.presentation.inside_text import facts_lines, headline, source_text
from explorer.presentation.trace_csv import trace_csv
from explorer.presentation.trace_json import trace_data
from explorer.services.trace import (
    ASK_ABOVE,
    TraceChoice,
    TraceOverBudget,
    TraceProblem,
    TraceProgress,
    Tracer,
)
from explorer.services.trace_reads import NoOldState
from explorer.viewmodels.observable import TypedSignal

SLICE_SECONDS = 0.010  # the work of a slice of rows (built and added) per turn of the loop
MAX_SLICE = 2_000
TracerOf = Callable[[], Tracer]
T = TypeVar("T")
STOPPED = ("Stopped: nothing of the trace is shown. Trace again starts it over (answers "
           "already saved on this computer are not asked again).")  # fmt: skip


class InsideState(enum.Enum):
    """What the Inside tab shows."""

    IDLE = "idle"  # not chosen yet: nothing asked
    LOADING = "loading"
    ASKING = "asking"  # a replay over the allowed requests waits for a yes
    ERROR = "error"
    CANCELLED = "cancelled"
    SHOWN = "shown"


@dataclass(frozen=True)
class Rows:
    """A slice of rows for the view: frames, money-trail moves or state-diff addresses."""

    frames: tuple[FrameRow, ...] = ()
    moves: tuple[tuple[Cell, ...], ...] = ()
    diff: tuple[DiffRow, ...] = ()


class InsideViewModel(QObject):
    """One transaction's inside: its trace, proven, as rows streamed to the view.

    Signals:
        state_changed(): the state, its message or the verdict changed.
        rows_added(Rows): another slice of rows to append.
        cleared(): every row shown so far is gone (a new trace begins).
    """

    state_changed = TypedSignal[()]()
    rows_added = TypedSignal[Rows]()
    cleared = TypedSignal[()]()

    def __init__(self, tracer_of: TracerOf, chain_id: int | None, currency: str,
                 parent: QObject | None = None) -> None:  # fmt: skip
        super().__init__(parent)
        self.tracer_of, self.chain_id, self.currency = tracer_of, chain_id, currency
        self.tx_hash: str | None = None
        self.label_of: LabelOf | None = None
        self.state = InsideState.IDLE
        self.message = ""  # the error, the question or the progress, in a sentence
        self.result: TraceResult | None = None
        self.streaming = False
        self._task: asyncio.Task[None] | None = None

    # -- what the view asks --------------------------------------------------------------

    def set_transaction(self, tx_hash: str | None) -> None:
        """Follow a mined transaction (None: none yet); a new one is traced when shown again."""
        if tx_hash == self.tx_hash:
            return
        self.dispose()
        self.tx_hash, self.result = tx_hash, None
        self._set(InsideState.IDLE, "")
        self.cleared.emit()

    def on_shown(self) -> None:
        """Trace the transaction the first time the tab is chosen."""
        if self.state is InsideState.IDLE and self.tx_hash is not None:
            self._start(ASK_ABOVE)

    def on_allow(self) -> None:
        """Answer yes to the estimate: replay without a cap."""
        self._start(None)

    def on_retry(self) -> None:
        """Trace again after an error or a cancel."""
        self._start(ASK_ABOVE)

    def on_cancel(self) -> None:
        """Stop the trace: between rounds of reads, nothing half-shown."""
        if self._task is not None and not self._task.done():
            self._task.cancel()
            self._set(InsideState.CANCELLED, STOPPED)

    def dispose(self) -> None:
        """Stop any trace (the page closes or follows another transaction)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None

    @property
    def headline(self) -> str:
        """Return the verdict (first) or the state's sentence."""
        return headline(self.result) if self.result is not None else self.message

    @property
    def source(self) -> str:
        """Return where the trace came from, the rules and its cost, in words."""
        return source_text(self.result) if self.result is not None else ""

    @property
    def facts(self) -> list[str]:
        """Return the receipt's facts (for a diverged replay) and the trace's notes."""
        return facts_lines(self.result, self.currency) if self.result is not None else []

    @property
    def shows_tree(self) -> bool:
        """Tell whether the tree, trail and diff are shown: only a faithful trace's are."""
        return self.result is not None and self.result.faithful

    def export_json(self) -> dict[str, Any]:
        """Return the trace as `explorer trace --format json` prints it."""
        assert self.result is not None
        return trace_data(self.result, self.chain_id)

    def export_csv(self) -> str:
        """Return the trace as CSV."""
        assert self.result is not None
        return trace_csv(self.result, self.chain_id)

    def save(self, path: Path) -> str:
        """Write the export a path's suffix names (.csv, else JSON); return what was done."""
        text = self.export_csv() if path.suffix.lower() == ".csv" else (
            json.dumps(self.export_json(), indent=2) + "\n")  # fmt: skip
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            return f"Could not write {path}: {error.strerror or error}"
        return f"Saved to {path}"

    # -- the work ------------------------------------------------------------------------

    def _set(self, state: InsideState, message: str) -> None:
        """Change the state and its sentence."""
        self.state, self.message = state, message
        self.state_changed.emit()

    def _start(self, allowed: int | None) -> None:
        """Start a trace on the loop."""
        self.dispose()
        self.result = None
        self.cleared.emit()
        self._set(InsideState.LOADING, "Reading the transaction and its receipt…")
        self._task = asyncio.get_event_loop().create_task(self._run(allowed))

    def _progress(self, progress: TraceProgress) -> None:
        """Say how far the trace has come."""
        self._set(
            InsideState.LOADING,
            f"{progress.what[:1].upper()}{progress.what[1:]}… "
            f"({progress.requests:,} requests in {progress.round_trips:,} round trips)",
        )

    async def _run(self, allowed: int | None) -> None:
        """Trace, then stream the rows; every failure ends in a sentence."""
        assert self.tx_hash is not None
        try:
            result = await self.tracer_of().trace(
                self.tx_hash, TraceChoice.AUTO, allowed=allowed, progress=self._progress
            )
        except TraceOverBudget as asked:
            self._set(InsideState.ASKING, f"This node serves no trace, so the transaction is "
                      f"replayed here: {asked}. Replay it?")  # fmt: skip
            return
        except (TraceProblem, NoOldState) as problem:
            self._set(InsideState.ERROR, _sentence(str(problem)))
            return
        except Exception as error:  # a node's failure, in a sentence
            self._set(InsideState.ERROR, _sentence(f"the trace failed: {error}"))
            return
        self.result = result
        self._set(InsideState.SHOWN, "")
        if result.faithful:
            await self._stream(result)

    async def _stream(self, result: TraceResult) -> None:
        """Hand the rows to the view a slice at a time, the loop free between slices."""
        labels = Labels(self.chain_id, self.label_of)
        self.streaming = True
        try:
            if result.root is not None:
                await _sliced(
                    frame_rows(result.root, labels, self.currency),
                    lambda part: self.rows_added.emit(Rows(frames=tuple(part))),
                )
            moves = move_rows(result.transfers, labels, self.currency)
            await _sliced(moves, lambda part: self.rows_added.emit(Rows(moves=tuple(part))))
            if result.diff is not None:
                rows = diff_rows(result.diff, result.transfers, labels, self.currency)
                await _sliced(rows, lambda part: self.rows_added.emit(Rows(diff=tuple(part))))
        finally:
            self.streaming = False
            self.state_changed.emit()


async def _sliced(rows: Iterable[T], hand: Callable[[list[T]], None]) -> None:
    """Hand rows over in slices of about SLICE_SECONDS each, the view's work included.

    Each slice is sized by what the last one cost per row (building it and the view adding
    it), and the loop gets a turn after each.
    """
    size, iterator = 8, iter(rows)
    while True:
        began = time.perf_counter()
        part = list(itertools.islice(iterator, size))
        if not part:
            return
        hand(part)
        per_row = (time.perf_counter() - began) / len(part)
        size = max(1, int(min(MAX_SLICE, SLICE_SECONDS / max(per_row, 1e-6))))
        await asyncio.sleep(0)


def _sentence(text: str) -> str:
    """Return text as a sentence: a capital first, a full stop last."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")
