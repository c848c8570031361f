"""The Logs screen's table: every log kept as the node's JSON bytes, shown lazily in block order."""

from __future__ import annotations

import asyncio
import enum
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, Qt

from explorer.chain.abi import DecodedParam, decode_log
from explorer.chain.bridge_logs import system_event_name
from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import BRIDGE, REMASC
from explorer.chain.records import Log
from explorer.presentation.arguments import amount_index
from explorer.services.logexport import csv_line
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.services.token_units import TokenUnit, Units
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.log_order import Key, ordered, ordered_now, place, row_key
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.viewmodels.sorting import SortOrder

BATCH = 1000
SYSTEM_CONTRACTS = (BRIDGE, REMASC)
CACHE_ROWS = 1024
SORT_AT_ONCE = 5000  # rows ordered at once on a header click; more a slice per loop turn
DATA_CHARS = 74
Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole.value
TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
RIGHT = (Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter).value
_compact = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class Column(enum.IntEnum):
    """The table's columns."""

    BLOCK = 0
    TX = 1
    LOG_INDEX = 2
    ADDRESS = 3
    EVENT = 4
    ARGS = 5
    TOPIC0 = 6
    TOPIC1 = 7
    TOPIC2 = 8
    TOPIC3 = 9
    DATA = 10


RIGHT_ALIGNED = frozenset({Column.BLOCK.value, Column.LOG_INDEX.value})
HEADERS = (
    "Block",
    "Transaction",
    "Log",
    "Address",
    "Event",
    "Decoded arguments",
    "Topic 0",
    "Topic 1",
    "Topic 2",
    "Topic 3",
    "Data",
)


@dataclass(frozen=True)
class _Shown:
    """A row parsed for display: the log, and each column's cell text and tooltip."""

    log: Log
    cells: tuple[str, ...]
    tips: tuple[str | None, ...]


def short_hash(value: str) -> str:
    """Return a hash shortened for a table cell (0x1234abcd…89abcdef)."""
    return value if len(value) <= 22 else f"{value[:10]}…{value[-8:]}"


def _brief(param: DecodedParam) -> str:
    """Return a decoded argument's text, addresses and hashes shortened for a cell."""
    if param.type == "address" or param.hashed:
        text = param.text.split(" ")[0]
        return f"{text[:6]}…{text[-4:]}"
    return param.text


def compact(log: Log) -> bytes:
    """Return the node's JSON object of a log as compact UTF-8 bytes."""
    return _compact(dict(log.raw)).encode()


class LogTableModel(BatchedTableModel):
    """Logs, newest first or by any column; each row keeps only the node's JSON (bytes).

    Rows are shown BATCH at a time; cells are formatted on demand from a small cache of
    parsed rows. Rows are kept in the order shown, each with its key (log_order), so rows
    streaming in go straight to their place; a header click orders them all again.
    """

    headers = HEADERS
    batch = BATCH
    default_sort = SortOrder(Column.BLOCK)  # newest first

    def __init__(self, chain_id: int | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.chain_id = chain_id
        self.units: dict[str, TokenUnit] = {}  # token contract -> its decimals and symbol
        self.sorting = self.default_sort
        self._raw: list[bytes] = []
        self._lines: list[str] = []  # each row's CSV line, made as it arrived ('' if not)
        self._keys: list[Key] = []
        self._cache: OrderedDict[int, _Shown] = OrderedDict()
        self._sorting_task: asyncio.Task[None] | None = None

    @property
    def total(self) -> int:
        """Return how many logs the model holds (shown or not)."""
        return len(self._raw)

    def available(self) -> int:
        """Return how many rows could be shown."""
        return len(self._raw)

    def clear(self) -> None:
        """Drop every row."""
        self._stop_sorting()
        self.beginResetModel()
        self._raw, self._lines, self._keys, self._shown = [], [], [], 0
        self._cache.clear()
        self.endResetModel()

    def add_logs(self, logs: Sequence[Log]) -> None:
        """Add logs, each at its place in the order shown (with its CSV line, made now)."""
        if logs:
            raws, lines = [compact(log) for log in logs], [csv_line(log) for log in logs]
            self.add_compact(raws, [log.block_number or 0 for log in logs], logs, lines)

    def add_compact(
        self,
        raws: Sequence[bytes],
        blocks: Sequence[int],
        logs: Sequence[Log] | None = None,
        lines: Sequence[str] | None = None,
    ) -> None:
        """Add rows in compact form (node JSON bytes), with their blocks (and logs, if parsed).

        lines are the rows' CSV lines when they were made (logexport.csv_line).

        In block order (the default) a batch of consecutive blocks goes in at once; in another
        order each row goes to its place.
        """
        if not raws:
            return
        column, descending = self.sorting.column, self.sorting.descending
        if column in (-1, Column.BLOCK):
            indexes = [log.log_index or 0 for log in logs] if logs else range(len(raws))
            keys: list[Key] = [(b, i) for b, i in zip(blocks, indexes, strict=True)]
        else:
            parsed = (log.raw for log in logs) if logs else (json.loads(raw) for raw in raws)
            keys = [row_key(dict(item), column) for item in parsed]
        made = lines if lines is not None else [""] * len(raws)
        rows = sorted(zip(keys, raws, made, strict=True), key=lambda r: r[0], reverse=descending)
        at = place(self._keys, rows[0][0], descending)
        if at == place(self._keys, rows[-1][0], descending):
            self._insert(at, rows)
            return
        self.beginResetModel()  # rows land in many places: shown again from the top
        for key, raw, line in rows:
            at = place(self._keys, key, descending)
            self._keys.insert(at, key)
            self._raw.insert(at, raw)
            self._lines.insert(at, line)
        self._cache.clear()
        self._shown = min(max(self._shown, BATCH), len(self._raw))
        self.endResetModel()

    def _insert(self, at: int, rows: list[tuple[Key, bytes, str]]) -> None:
        """Insert rows together at a place: in sight when they land among the rows shown.

        As many rows stay shown as before (at least a BATCH): rows that land on top (newest
        first) push the bottom ones out of sight, to be fetched again by scrolling.
        """
        count, shown = len(rows), self._shown
        self._keys[at:at] = [key for key, _, _ in rows]
        self._raw[at:at] = [raw for _, raw, _ in rows]
        self._lines[at:at] = [line for _, _, line in rows]
        if at < len(self._raw) - count:
            self._cache.clear()  # rows from `at` on moved down
        keep = max(shown, min(BATCH, len(self._raw)))
        if at < shown:
            self.beginInsertRows(QModelIndex(), at, at + count - 1)
            self._shown += count
            self.endInsertRows()
            if self._shown > keep:
                self.beginRemoveRows(QModelIndex(), keep, self._shown - 1)
                self._shown = keep
                self.endRemoveRows()
        self.show_up_to(keep)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order every row by a column (a header click): at once, or a slice per turn."""
        self.sorting = SortOrder.of(column, order)
        self._stop_sorting()
        if len(self._raw) <= SORT_AT_ONCE:
            rows, keys = ordered_now(self._raw, column, self.sorting.descending)
            self._apply(rows, keys)
        else:
            self._sorting_task = asyncio.ensure_future(self._sort_in_slices())

    async def _sort_in_slices(self) -> None:
        """Order the rows a slice per turn; rows added meanwhile are ordered too."""
        while True:
            count = len(self._raw)
            order, keys = await ordered(
                list(self._raw), self.sorting.column, self.sorting.descending
            )
            if len(self._raw) == count:  # no rows came meanwhile (else order them all again)
                self._apply(order, keys)
                return

    def _apply(self, order: list[int], keys: list[Key]) -> None:
        """Show the rows in a new order (their row numbers now, in it)."""
        self.beginResetModel()
        self._raw = [self._raw[row] for row in order]
        self._lines = [self._lines[row] for row in order]
        self._keys = keys
        self._cache.clear()
        self.endResetModel()

    def _stop_sorting(self) -> None:
        """Drop an ordering under way (a newer one, or no rows, replaces it)."""
        if self._sorting_task is not None:
            self._sorting_task.cancel()
            self._sorting_task = None

    def log(self, row: int) -> Log:
        """Return the log of a row."""
        return self._row(row).log

    def prepare(self, first: int, last: int) -> None:
        """Format the shown rows first..last ahead of a paint.

        A view calls it for the rows in sight when rows arrive, so the repaint that follows
        only draws.
        """
        for row in range(max(0, first), min(last, self._shown - 1) + 1):
            self._row(row)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        """Return a cell's text, tooltip, route or alignment (cheap: Qt asks for every cell)."""
        if role == DISPLAY:
            row = index.row()
            return self._row(row).cells[index.column()] if 0 <= row < self._shown else None
        if role == ALIGNMENT:
            return RIGHT if index.column() in RIGHT_ALIGNED else None
        if role not in (TOOLTIP, ROUTE_ROLE) or not 0 <= index.row() < self._shown:
            return None
        shown = self._row(index.row())
        if role == TOOLTIP:
            return shown.tips[index.column()]
        return self._route(shown.log, Column(index.column()))

    def _row(self, row: int) -> _Shown:
        """Return a formatted row, from the cache when it was shown lately."""
        shown = self._cache.get(row)
        if shown is not None:
            self._cache.move_to_end(row)
            return shown
        shown = self._format(Log.from_json(json.loads(self._raw[row])))
        self._cache[row] = shown
        if len(self._cache) > CACHE_ROWS:
            self._cache.popitem(last=False)
        return shown

    def add_units(self, units: Units) -> None:
        """Learn tokens' decimals and symbols: their amounts read in them from now on."""
        fresh = {a: u for a, u in units.items() if self.units.get(a) != u}
        if fresh:
            self.units.update(fresh)
            self._cache.clear()
            if self._shown:
                last = self.index(self._shown - 1, Column.ARGS)
                self.dataChanged.emit(self.index(0, Column.ARGS), last)

    def _format(self, log: Log) -> _Shown:
        """Return the cell texts (shortened) and tooltips (full) of a log's row."""
        decoded = decode_log(log.topics, log.data)
        event = brief = full = ""
        if decoded is not None:
            event = decoded.name
            unit = self.units.get(log.address)
            at = amount_index(decoded) if unit is not None else None
            texts = [
                unit.amount(p.value) if i == at and unit and isinstance(p.value, int) else None
                for i, p in enumerate(decoded.params)
            ]
            pairs = list(zip(decoded.params, texts, strict=True))
            full = ", ".join(f"{p.name or p.type}: {text or p.text}" for p, text in pairs)
            brief = ", ".join(f"{p.name or p.type}: {text or _brief(p)}" for p, text in pairs)
        elif log.address in SYSTEM_CONTRACTS:  # the Bridge's RLP events, REMASC's payments
            event = system_event_name(log.address, log.topics, log.data) or ""
        topics = [*log.topics, "", "", "", ""][:4]
        data = "0x" + log.data.hex()
        tx = log.transaction_hash or ""
        block = "" if log.block_number is None else f"{log.block_number:,}"  # as on every page
        index = "" if log.log_index is None else f"{log.log_index:,}"
        address = to_checksum_address(log.address, self.chain_id)
        cells = (
            block,
            short_hash(tx),
            index,
            address,
            event,
            brief,
            *(short_hash(topic) for topic in topics),
            data[:DATA_CHARS] + "…" if len(data) > DATA_CHARS else data,
        )
        tips = (block, tx, index, address, event, full, *topics, data)
        return _Shown(log, cells, tuple(tip or None for tip in tips))

    def _route(self, log: Log, column: Column) -> Route | None:
        """Return where a click on a cell leads."""
        if column is Column.BLOCK and log.block_number is not None:
            return block_route(log.block_number)
        if column is Column.ADDRESS:
            return address_route(log.address)
        if column is Column.TX and log.transaction_hash:
            return tx_route(log.transaction_hash)
        return None

    def csv_lines(self) -> list[str]:
        """Return every row's CSV line as made when it arrived ('' where it was not)."""
        return list(self._lines)

    def snapshot(self) -> list[bytes]:
        """Return every row's node JSON (immutable bytes: safe to hand to another thread)."""
        return list(self._raw)
