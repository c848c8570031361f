"""The Logs screen's table: every log kept as the node's JSON bytes, shown lazily in block order."""

from __future__ import annotations

import bisect
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
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.roles import ROUTE_ROLE

BATCH = 1000
SYSTEM_CONTRACTS = (BRIDGE, REMASC)
CACHE_ROWS = 1024
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
    """Logs in block order; each row keeps only the node's JSON (bytes) and its block number.

    Rows are shown BATCH at a time; cells are formatted on demand from a small cache of
    parsed rows.
    """

    headers = HEADERS
    batch = BATCH

    def __init__(self, chain_id: int | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.chain_id = chain_id
        self._raw: list[bytes] = []
        self._blocks: list[int] = []
        self._cache: OrderedDict[int, _Shown] = OrderedDict()

    @property
    def total(self) -> int:
        """Return how many logs the model holds (shown or not)."""
        return len(self._raw)

    def available(self) -> int:
        """Return how many rows could be shown."""
        return len(self._raw)

    def clear(self) -> None:
        """Drop every row."""
        self.beginResetModel()
        self._raw, self._blocks, self._shown = [], [], 0
        self._cache.clear()
        self.endResetModel()

    def add_logs(self, logs: Sequence[Log]) -> None:
        """Add logs of consecutive blocks, at their place in block order."""
        if not logs:
            return
        self.add_compact([compact(log) for log in logs], [log.block_number or 0 for log in logs])

    def add_compact(self, raws: Sequence[bytes], blocks: Sequence[int]) -> None:
        """Add rows already in compact form (node JSON bytes and block numbers)."""
        if not raws:
            return
        at = bisect.bisect_right(self._blocks, blocks[0])
        self._raw[at:at] = raws
        self._blocks[at:at] = blocks
        if at < len(self._raw) - len(raws):
            self._cache.clear()  # rows from `at` on moved down
        if at < self._shown or self._shown < BATCH:
            new_shown = max(self._shown, min(BATCH, len(self._raw)))
            visible = new_shown - self._shown if at >= self._shown else len(raws)
            first = min(at, self._shown)
            self.beginInsertRows(QModelIndex(), first, first + visible - 1)
            self._shown += visible
            self.endInsertRows()

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

    def _format(self, log: Log) -> _Shown:
        """Return the cell texts (shortened) and tooltips (full) of a log's row."""
        decoded = decode_log(log.topics, log.data)
        event = brief = full = ""
        if decoded is not None:
            event = decoded.name
            full = ", ".join(f"{p.name or p.type}: {p.text}" for p in decoded.params)
            brief = ", ".join(f"{p.name or p.type}: {_brief(p)}" for p in decoded.params)
        elif log.address in SYSTEM_CONTRACTS:  # the Bridge's RLP events, REMASC's payments
            event = system_event_name(log.address, log.topics, log.data) or ""

        topics = [*log.topics, "", "", "", ""][:4]
        data = "0x" + log.data.hex()
        tx = log.transaction_hash or ""
        block = "" if log.block_number is None else str(log.block_number)
        index = "" if log.log_index is None else str(log.log_index)
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

    def snapshot(self) -> list[bytes]:
        """Return every row's node JSON (immutable bytes: safe to hand to another thread)."""
        return list(self._raw)
