"""The History tab: an address's whole history, searched when the tab is chosen, streamed in.

The search (services/address_history.py) costs one request to open; when it would cost more
than a few hundred it waits for the user's go, with the estimate shown. A node without old
state is said plainly, with the block scan and its cost offered instead.
"""

from __future__ import annotations

import asyncio
import enum
import time
from pathlib import Path

from PySide6.QtCore import QObject

from explorer.chain.history import NATIVE, EntryKind, HistoryEntry
from explorer.presentation.balance_steps import BalanceSteps, balance_steps
from explorer.presentation.history_text import csv_text, json_text
from explorer.rpc.errors import RpcError
from explorer.saved.files import replaced_whole
from explorer.services.address_history import AddressHistory
from explorer.services.block_scan import scan_blocks
from explorer.services.budget import Estimate as Cost
from explorer.services.budget import block_scan
from explorer.services.history_parts import HistoryUpdate
from explorer.services.history_plan import Estimate, Scope
from explorer.services.history_store import HistoryStore, store_for
from explorer.services.session import Session
from explorer.services.trace import tracer_of
from explorer.viewmodels.address.history_table import HistoryFilter, HistoryTableModel, assets_of
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.cost_gate import CostGate
from explorer.viewmodels.observable import TypedSignal, qproperty


class HistoryAction(enum.Enum):
    """The one action the History tab offers, titled by value."""

    SEARCH = "Search"
    GO_ON = "Search on"
    STOP = "Stop"
    SEARCH_AGAIN = "Search again"


SLICE = 10  # rows inserted per event-loop turn (each placed by the sorting model)
CHART_EVERY = 0.3  # seconds between redraws of the chart while entries stream in


class HistoryViewModel(Tool):
    """Runs an address's history into `table` (sorted and filtered by `rows`).

    One action button drives it (`action`, `on_action`): Search before the first run and
    while a costly one waits for the go, Stop while it runs, Search on when it paused at its
    estimate's limit, Search again after.

    Signals (besides Tool's: the result is the status line):
        action_changed(HistoryAction): the one action offered changed.
        progress_changed(float): the share done changed (1.0 once complete).
        estimate_changed(str): a costly search waits for a go, with its cost ('' when none).
        old_state_changed(str): the node keeps no old state: what it said, the scan's cost.
        note_changed(str): a caveat about the search (an address with code), or ''.
        balance_changed(BalanceSteps): the balance's change points changed.
        assets_changed(list[str]): the assets found changed ("native", then tokens).
    """

    action_changed = TypedSignal[HistoryAction]()
    progress_changed = TypedSignal[float]()
    estimate_changed = TypedSignal[str]()
    old_state_changed = TypedSignal[str]()
    note_changed = TypedSignal[str]()
    balance_changed = TypedSignal[BalanceSteps]()
    assets_changed = TypedSignal[list[str]]()

    def __init__(
        self,
        session: Session,
        address: str,
        store: HistoryStore | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(session, address, parent)
        network = session.network
        self.store = store if store is not None else store_for(session.client)
        self.table = HistoryTableModel(network.chain_id, network.currency, self)
        self.rows = HistoryFilter(self.table, self)
        self.gate = CostGate(session, self)  # asks before a search past the day's quota
        self.history: AddressHistory | None = None
        self.estimate: Estimate | None = None
        self._fraction = 0.0
        self._estimate_text = self._old_state = self._note = ""
        self._steps = BalanceSteps(0, 0, 0)
        self._assets: list[str] = []
        self._exporting: asyncio.Future[None] | None = None
        self._going_on: asyncio.Future[None] | None = None
        self._charted = 0.0  # when the chart was last drawn anew
        self._action = HistoryAction.SEARCH
        self._awaiting_go = False  # the estimate is shown before any search: a go starts it
        self.running_changed.connect(self._on_running)

    fraction = qproperty(lambda self: self._fraction, progress_changed)
    estimate_text = qproperty(lambda self: self._estimate_text, estimate_changed)
    old_state = qproperty(lambda self: self._old_state, old_state_changed)
    note = qproperty(lambda self: self._note, note_changed)
    steps = qproperty(lambda self: self._steps, balance_changed)
    assets = qproperty(lambda self: self._assets, assets_changed)
    action = qproperty(lambda self: self._action, action_changed)

    @property
    def started(self) -> bool:
        """Tell whether a search was started (it may have ended)."""
        return self.history is not None or self.running

    def open_once(self) -> None:
        """Start the history the first time the tab is shown; later showings keep its result."""
        if not self.started:
            self.open()

    def on_action(self) -> None:
        """Do what the one button offers: search, give the go, stop, or search again."""
        if self._awaiting_go:  # even while the preparation that showed it is still ending
            self.search_anyway()
        elif self.running and self._estimate_text and self.history is not None:
            self._set_estimate("")  # paused at its limit: go on to the next one
            self._going_on = asyncio.ensure_future(self.history.go_on())
        elif self.running:
            self.stop()
        elif self._estimate_text:
            self.search_anyway()
        else:
            self.open()

    def _on_running(self, _running: bool) -> None:
        """Offer the action that fits the state."""
        if self._awaiting_go:
            action = HistoryAction.SEARCH
        elif self.running and self._estimate_text:
            action = HistoryAction.GO_ON
        elif self.running:
            action = HistoryAction.STOP
        elif self._estimate_text or not self.started:
            action = HistoryAction.SEARCH
        else:
            action = HistoryAction.SEARCH_AGAIN
        if action is not self._action:
            self._action = action
            self.action_changed.emit(action)

    def open(self, first: int | None = None, last: int | None = None) -> None:
        """Start the history (from the newest block known): at once unless it costs a lot."""
        self._start(self._open(first, last))

    def search_anyway(self) -> None:
        """Run the search whose estimate was shown."""
        if self.history is not None:
            self._awaiting_go = False
            self._set_estimate("")
            self._start(self._run(self.history))

    def stop(self) -> None:
        """Stop the search; what was found stays."""
        if self._stop():
            self._publish(f"Stopped — {self.table.rowCount():,} entries found before stopping.")

    def scan_blocks(self) -> None:
        """Read every block of the range instead (the way left without old state)."""
        if self.history is not None and self.history.opening is not None:
            self._start(self._scan(self.history))

    def choose(self, kind: EntryKind | None, asset: str | None) -> None:
        """Show only one kind and one asset (None: all)."""
        self.rows.choose(kind, asset)

    def export_text(self, fmt: str) -> str:
        """Return what the table shows, in its order, as CSV or JSON."""
        shown = self.rows.shown()
        network = self.session.network
        if fmt == "json":
            return json_text(shown, self.table.units, network.chain_id)
        return csv_text(shown, self.table.units, network.currency, network.chain_id)

    def export(self, path: Path, fmt: str) -> None:
        """Write what the table shows to path (CSV or JSON), beside the search."""
        self._exporting = asyncio.ensure_future(self._export(path, fmt))

    async def _export(self, path: Path, fmt: str) -> None:
        """Write what the table shows to path (whole or not at all), off the GUI thread."""
        text = self.export_text(fmt)

        def write() -> None:
            with replaced_whole(path, newline="") as file:
                file.write(text)

        await asyncio.to_thread(write)
        self._publish(f"Exported {len(self.rows.shown()):,} entries to {path.name}.")

    # --- running ------------------------------------------------------------------------------

    async def _open(self, first: int | None, last: int | None) -> None:
        """Prepare the history (one request) and run it, or show its cost and wait."""
        self._reset()
        self._publish("Reading the account's state…")
        history = AddressHistory(
            self.session.reader,
            self.address,
            chain=str(self.session.network.chain_id),
            store=self.store,
            scope=Scope.ALL,
            inside=lambda: tracer_of(self.session),
            hold=True,
        )
        self.history = history
        try:
            self.estimate = estimate = await history.prepare(first, last)
        except RpcError as error:
            self._publish(f"The history could not start: {error.message}")
            return
        if estimate.needs_confirmation and history.stored is None:
            self._awaiting_go = True
            self._set_estimate(estimate.text())
            self._publish("Waiting for your go: this search costs many requests.")
            return
        await self._run(history)

    async def _run(self, history: AddressHistory) -> None:
        """Stream the history into the table (asking first when it crosses the day's quota)."""
        estimate = self.estimate
        blocks = estimate.blocks if estimate else 0
        cost = Cost(
            estimate.requests if estimate else 1, f"This history search of {blocks:,} blocks"
        )
        if not await self.gate.allow(cost):
            self._publish("Not searched: it would take today's requests past the quota.")
            return
        self._publish("Searching, newest blocks first…")
        try:
            async for update in history.updates():
                await self._apply(update)
        except RpcError as error:
            self._publish(f"The search stopped: {error.message} ({self.table.rowCount():,} found)")
            return
        self._refresh_chart()
        self._set_fraction(1.0)
        self._publish(self._done_text(history))

    async def _apply(self, update: HistoryUpdate) -> None:
        """Show one update: entries (a slice per loop turn), progress, notes, verdicts."""
        if update.old_state is not None:
            self._set_old_state(update.old_state.text())
            self._drop_native()
        if update.note:
            self._note = update.note
            self.note_changed.emit(update.note)
        if update.over_limit:  # paused at the estimate's limit: the button goes on
            self._set_estimate(update.over_limit)
            self._publish("Paused before spending more than the estimate said.")
        if update.units:
            self.table.set_units(update.units)
        entries = list(update.entries)
        if update.explained:
            entries = self.table.explain(entries, update.explained)
        for start in range(0, len(entries), SLICE):
            if start:
                await asyncio.sleep(0)
            self.table.add(entries[start : start + SLICE])
        if entries and time.monotonic() - self._charted > CHART_EVERY:
            self._refresh_chart()
        if update.progress is not None:
            self._set_fraction(update.progress.fraction)
            self._publish(
                f"Searching: {update.progress.entries:,} entries, "
                f"{update.progress.requests:,} requests so far…"
            )

    async def _scan(self, history: AddressHistory) -> None:
        """Read every block of the range for the address's transactions."""
        opening = history.opening
        assert opening is not None
        self._drop_native()
        blocks = opening.high - opening.low
        if not await self.gate.allow(block_scan(blocks)):
            self._publish("Not scanned: it would take today's requests past the quota.")
            return
        self._publish(f"Reading {blocks:,} blocks one by one…")

        def on_progress(done: int, total: int) -> None:
            self._set_fraction(done / max(1, total))

        async for entries in scan_blocks(
            self.session.reader, self.address, opening.low + 1, opening.high, on_progress
        ):
            self.table.add(entries)
        self._publish(f"Read {blocks:,} blocks: {self.table.rowCount():,} entries.")

    # --- state --------------------------------------------------------------------------------

    def _reset(self) -> None:
        """Forget the last run's results."""
        self.table.clear()
        self._set_fraction(0.0)
        self._awaiting_go = False
        self._set_estimate("")
        self._set_old_state("")

    def _drop_native(self) -> None:
        """Remove the native entries shown (they came from answers that were not state)."""
        keep = [entry for entry in self.table.entries if not entry.is_native]
        self.table.clear()
        self.table.add(keep)
        self._refresh_chart()

    def _refresh_chart(self) -> None:
        """Recompute the balance's change points and the assets found."""
        history = self.history
        self._charted = time.monotonic()
        if history is None or history.opening is None:
            return
        first, last, opening = history.span
        self._steps = balance_steps(self.table.entries, first, last, opening)
        self.balance_changed.emit(self._steps)
        assets = assets_of(self.table.entries)
        if assets != self._assets:
            self._assets = assets
            self.assets_changed.emit(assets)

    def _set_fraction(self, fraction: float) -> None:
        """Set the share done."""
        self._fraction = fraction
        self.progress_changed.emit(fraction)

    def _set_estimate(self, text: str) -> None:
        """Set the estimate waiting for a go."""
        self._estimate_text = text
        self.estimate_changed.emit(text)
        self._on_running(self.running)

    def _set_old_state(self, text: str) -> None:
        """Set the old-state verdict."""
        self._old_state = text
        self.old_state_changed.emit(text)

    def _done_text(self, history: AddressHistory) -> str:
        """Return the status line of a finished history."""
        first, last, _opening = history.span
        native = [entry.block for entry in self.table.entries if entry.asset == NATIVE]
        tokens = self.table.rowCount() - len(native)
        currency = self.session.network.currency
        verdict = history.opening.old_state if history.opening is not None else None
        if verdict is not None:  # the search stopped (the node's words above)
            why = "the node contradicts itself" if verdict.contradicts else "no old state"
            return (
                f"Balance search stopped ({why}); {tokens:,} token transfers in blocks "
                f"{first:,}–{last:,} ({history.requests:,} requests)."
            )
        return (
            f"Complete: {len(set(native)):,} balance changes ({len(native):,} {currency} "
            f"entries) and {tokens:,} token transfers in blocks {first:,}–{last:,} "
            f"({history.requests:,} requests)."
        )

    def span_text(self) -> str:
        """Return the first block of the history's range, as text for a block field."""
        return str(self.history.span[0]) if self.history is not None else ""

    def entries(self) -> list[HistoryEntry]:
        """Return every entry found (in arrival order)."""
        return list(self.table.entries)
