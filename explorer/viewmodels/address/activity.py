"""The activity tab: a scan for transfers, events or transactions over a range, and its table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from explorer.chain.checksum import to_checksum_address
from explorer.chain.units import readable_rbtc
from explorer.presentation.format import exact_tooltip
from explorer.rpc.errors import RpcError
from explorer.services.activity import (
    ActivityCache,
    ActivityItem,
    ActivityKind,
    ActivityProgress,
    ActivityScanner,
    histogram,
)
from explorer.services.budget import Estimate, block_scan, log_scan
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.services.session import Session
from explorer.services.token_units import TokenUnit, Units
from explorer.viewmodels.address.blocks import resolve_range
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.cost_gate import CostGate
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.roles import COPY_ROLE, ROUTE_ROLE
from explorer.viewmodels.sorting import Key, SortOrder, sorted_rows, text_key

BATCH = 500
HISTOGRAM_BINS = 20
SCAN_INTRO = (
    "The service has no address index: activity is found by scanning logs "
    "(token transfers, events) or whole blocks (transactions) over a range."
)
Index = QModelIndex | QPersistentModelIndex


class ActivityTableModel(BatchedTableModel):
    """Found activity, streamed in and shown in batches."""

    headers = ("Block", "Transaction", "Direction", "Counterparty", "Contract", "Detail")
    batch = BATCH
    default_sort = SortOrder(0)  # newest first

    def __init__(self, chain_id: int, currency: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._chain_id = chain_id
        self._currency = currency
        self.items: list[ActivityItem] = []
        self.units: dict[str, TokenUnit] = {}  # token contract -> its decimals and symbol
        self.sorting = self.default_sort

    def add_units(self, units: Units) -> None:
        """Learn tokens' decimals and symbols, to show transfer amounts in them."""
        if any(self.units.get(token) != unit for token, unit in units.items()):
            self.units.update(units)
            if self._shown:
                self.dataChanged.emit(self.index(0, 5), self.index(self._shown - 1, 5))

    def clear(self) -> None:
        """Remove every row."""
        self.beginResetModel()
        self.items, self._shown = [], 0
        self.endResetModel()

    def append(self, items: Sequence[ActivityItem]) -> None:
        """Add found items at their place in the order shown (newest first at the start)."""
        self.beginResetModel()
        self.items = self._ordered([*self.items, *items])
        self._shown = min(max(self._shown, BATCH), len(self.items))
        self.endResetModel()

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort every row found by a column (a header click)."""
        self.sorting = SortOrder.of(column, order)
        self.beginResetModel()
        self.items = self._ordered(self.items)
        self.endResetModel()

    def _ordered(self, items: Sequence[ActivityItem]) -> list[ActivityItem]:
        """Return items in the chosen order (time order breaks ties)."""
        column, descending = self.sorting.column, self.sorting.descending
        in_time = sorted(items, key=lambda item: (item.block, item.index), reverse=descending)
        if column <= 0:
            return in_time
        return sorted_rows(in_time, lambda item: self._key(item, column), descending)

    def _key(self, item: ActivityItem, column: int) -> Key:
        """Return an item's key in a column."""
        if column == 5 and item.amount is not None:
            return (0, item.amount)  # amounts by size, before the texts
        if column == 5 and item.value is not None:
            return (0, item.value)
        return (1, text_key(self._text(item, column)) or "")

    def available(self) -> int:
        """Return how many items were found."""
        return len(self.items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """Return a cell's text, or its route for ROUTE_ROLE."""
        if not index.isValid() or index.row() >= self._shown:
            return None
        item = self.items[index.row()]
        column = index.column()
        if role == ROUTE_ROLE:
            return self._route(item, column)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(item, column)
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._exact(item) if column == 5 else self._text(item, column)
        if role == COPY_ROLE and column == 5:
            return self._exact(item).partition("\n")[0]
        return None

    def _exact(self, item: ActivityItem) -> str:
        """Return the detail's exact amount (its tooltip)."""
        if item.value:
            return exact_tooltip(item.value, self._currency)
        unit = self.units.get(item.contract or "")
        if item.amount is None or unit is None:
            return self._detail(item)
        return unit.exact(item.amount)

    def _checksummed(self, address: str | None) -> str:
        """Return an address in the network's checksum case, or ""."""
        return to_checksum_address(address, self._chain_id) if address else ""

    def _text(self, item: ActivityItem, column: int) -> str:
        """Return the text of one cell."""
        texts = (
            f"{item.block:,}",
            item.tx_hash or "",
            item.direction,
            self._checksummed(item.counterparty),
            self._checksummed(item.contract),
            self._detail(item),
        )
        return texts[column]

    def _detail(self, item: ActivityItem) -> str:
        """Return the detail: a value in the network's currency, an amount in the token's."""
        if item.value is not None:
            return readable_rbtc(item.value, self._currency) if item.value else "no value"
        unit = self.units.get(item.contract or "")
        if item.amount is None or unit is None:
            return item.detail
        return unit.amount(item.amount)

    @staticmethod
    def _route(item: ActivityItem, column: int) -> Route | None:
        """Return the route a cell links to."""
        routes: dict[int, Route | None] = {
            0: block_route(item.block),
            1: tx_route(item.tx_hash) if item.tx_hash else None,
            3: address_route(item.counterparty) if item.counterparty else None,
            4: address_route(item.contract) if item.contract else None,
        }
        return routes.get(column)


def activity_estimate(kind: ActivityKind, blocks: int) -> Estimate:
    """Return what an activity scan costs: a request per block, else two or one log scans."""
    if kind is ActivityKind.TRANSACTIONS:
        return block_scan(blocks)
    passes = 2 if kind is ActivityKind.TRANSFERS else 1  # Transfer out and in
    return log_scan(blocks, passes, what="This activity scan")


class ActivityViewModel(Tool):
    """Scans a block range for one kind of activity; a finished scan is cached.

    Signals (besides Tool's: the result is the scan's status line):
        kind_changed(ActivityKind): the kind of activity scanned changed.
        progress_changed(float): the share of the scan done (1.0 once complete) changed.
        scan_ended: a scan ended with results to count (complete, cached or stopped by an error).
    """

    kind_changed = TypedSignal[ActivityKind]()
    progress_changed = TypedSignal[float]()
    scan_ended = TypedSignal[()]()

    def __init__(
        self, session: Session, address: str, cache: ActivityCache, parent: QObject | None = None
    ) -> None:
        super().__init__(session, address, parent)
        self.cache = cache
        self.table = ActivityTableModel(self.chain_id, session.network.currency, self)
        self.scan_range: tuple[int, int] | None = None
        self._kind = ActivityKind.TRANSFERS
        self._progress: ActivityProgress | None = None
        self._complete = False
        self._result = SCAN_INTRO
        self.gate = CostGate(session, self)  # asks before a scan past the day's quota

    def _get_kind(self) -> ActivityKind:
        """Return the kind of activity scanned for."""
        return self._kind

    kind = qproperty(_get_kind, kind_changed)

    def _get_fraction(self) -> float:
        """Return how much of the last scan is done (1.0 once finished or from the cache)."""
        if self._complete:
            return 1.0
        return self._progress.fraction if self._progress else 0.0

    fraction = qproperty(_get_fraction, progress_changed)

    def _get_complete(self) -> bool:
        """Tell whether the last scan covered its whole range."""
        return self._complete

    complete = qproperty(_get_complete, progress_changed)

    def start(self, kind: ActivityKind, start_text: str = "", end_text: str = "") -> None:
        """Scan a typed range (default: the last DEFAULT_RANGE blocks) for one kind of activity."""
        self._kind = kind
        self.kind_changed.emit(kind)
        self._start(self._scan(kind, start_text, end_text))

    def cancel(self) -> None:
        """Stop the running scan; what was found stays in the table."""
        if self._stop():
            self._publish(f"Cancelled — {len(self.table.items):,} found before stopping.")

    def histogram(self, bins: int = HISTOGRAM_BINS) -> list[int]:
        """Return found items per block range of the last scan."""
        if self.scan_range is None:
            return []
        return histogram([i.block for i in self.table.items], *self.scan_range, bins)

    def _set_progress(self, progress: ActivityProgress | None, complete: bool = False) -> None:
        """Set how far the scan is and tell the view."""
        self._progress, self._complete = progress, complete
        self.progress_changed.emit(self.fraction)

    async def _scan(self, kind: ActivityKind, start_text: str, end_text: str) -> None:
        """Run a scan, streaming results into the table; a finished scan is cached."""
        self.table.clear()
        self._set_progress(None)
        try:
            start, end = await resolve_range(self.session.reader, start_text, end_text)
        except (ValueError, RpcError) as error:
            self._publish(f"Cannot scan: {getattr(error, 'message', error)}")
            return
        self.scan_range = (start, end)
        network = self.session.network.id
        cached = self.cache.get(network, self.address, kind, start, end)
        if cached is not None:
            self.table.append(cached)
            await self._read_units(cached)
            self._publish(f"{len(cached):,} found in blocks {start:,}–{end:,} (cached).")
            self._end(complete=True)
            return
        estimate = activity_estimate(kind, end - start + 1)
        self._publish(f"Scanning blocks {start:,}–{end:,} — {estimate.text()}…")
        if not await self.gate.allow(estimate):
            self._publish(f"Not started: the scan would cost {estimate.text()}.")
            self._end(complete=False)
            return
        scanner = ActivityScanner(self.session.client)
        try:
            async for items in scanner.scan(kind, self.address, start, end, self._on_progress):
                self.table.append(items)
                await self._read_units(items)
        except RpcError as error:
            self._publish(f"The scan stopped: {error.message} ({len(self.table.items):,} found)")
            self._end(complete=False)
            return
        self.cache.put(network, self.address, kind, start, end, self.table.items)
        self._publish(
            f"{len(self.table.items):,} found in blocks {start:,}–{end:,} "
            f"({scanner.requests:,} requests)."
        )
        self._end(complete=True)

    async def _read_units(self, items: Sequence[ActivityItem]) -> None:
        """Show transfer amounts in their tokens' units (each token's read once, then kept)."""
        tokens = {i.contract for i in items if i.amount is not None and i.contract}
        unknown = tokens - set(self.table.units)
        if unknown:
            self.table.add_units(await self.session.reader.token_units.read(unknown))

    def _end(self, complete: bool) -> None:
        """Publish the end of a scan."""
        if complete:
            self._set_progress(self._progress, complete=True)
        self.scan_ended.emit()

    def _on_progress(self, progress: ActivityProgress) -> None:
        """Publish scan progress with an ETA."""
        eta = progress.eta
        left = f", about {eta:.0f} s left" if eta is not None else ""
        self._publish(
            f"Scanning: {progress.fraction:.0%} done, {progress.found:,} found, "
            f"{progress.requests:,} requests{left}."
        )
        self._set_progress(progress)
