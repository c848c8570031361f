"""The Logs explorer: the query builder checked as you type, the scan, and a lazy log table."""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import csv
import enum
import json
import re
from collections import OrderedDict
from collections.abc import AsyncGenerator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)

from explorer.chain.abi import DecodedParam, decode_log
from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import is_address, is_hash
from explorer.chain.records import Log
from explorer.rpc.errors import ChainMismatch, RpcError
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.logscan import (
    CSV_HEADER,
    LogQuery,
    LogScanner,
    ScanProgress,
    csv_fields,
)
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.batched_table import BatchedTableModel
from explorer.viewmodels.roles import ROUTE_ROLE

BATCH = 1000
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
        """Format the shown rows first..last ahead of a paint (a view calls it for the rows in
        sight when rows arrive, so the repaint that follows only draws)."""
        for row in range(max(0, first), min(last, self._shown - 1) + 1):
            self._row(row)

    def raw_objects(self) -> Iterable[Any]:
        """Yield every row's node JSON object."""
        return (json.loads(raw) for raw in self._raw)

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

    def export_json(self, path: Path) -> int:
        """Write every row as one JSON array of the node's objects; return the row count."""
        with path.open("w", encoding="utf-8") as out:
            out.write("[")
            for number, raw in enumerate(self._raw):
                out.write(("\n  " if number == 0 else ",\n  ") + raw.decode())
            out.write("\n]\n" if self._raw else "]\n")
        return len(self._raw)

    def export_csv(self, path: Path) -> int:
        """Write every row as CSV (the columns of `explorer logs --format csv`)."""
        with path.open("w", encoding="utf-8", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(CSV_HEADER)
            for raw in self._raw:
                writer.writerow(csv_fields(Log.from_json(json.loads(raw))))
        return len(self._raw)


TAGS = ("latest", "earliest", "pending")
FIELDS = (
    "addresses",
    "topic0",
    "topic1",
    "topic2",
    "topic3",
    "block_hash",
    "from_block",
    "to_block",
)
APPEND_SLICE = 200  # logs encoded for the table per event-loop turn
# Every step on the GUI thread is short whatever the answer's size: the client decodes big
# answers a slice per turn, the scanner parses and checks logs a slice per turn, the view
# model encodes rows a slice per turn. The first answers are small so rows show at once; the
# size then follows the log density (4x per answer at most), past 2,000 blocks where sparse.
GUI_INITIAL_BLOCKS = 100
GUI_TARGET_LOGS = 1000
GUI_GROWTH = 4.0
_SEPARATORS = re.compile(r"[\s,;|]+")


def split_list(text: str) -> list[str]:
    """Split a field's text at commas, spaces or new lines."""
    return [part for part in _SEPARATORS.split(text.strip()) if part]


def parse_bound(text: str) -> int | str | None:
    """Read a block bound: decimal or 0x hex number, or a tag; None when not one."""
    text = text.strip().lower()
    if text in TAGS:
        return text
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    if re.fullmatch(r"0x[0-9a-f]+", text):
        return int(text, 16)
    return None


def check_fields(texts: dict[str, str]) -> dict[str, str]:
    """Return a message per field that breaks the spec's rules (empty when all is well)."""
    errors: dict[str, str] = {}
    bad = [a for a in split_list(texts["addresses"]) if not is_address(a)]
    if bad:
        errors["addresses"] = f"not a 20-byte address (0x and 40 hex digits): {bad[0]}"
    for position in range(4):
        name = f"topic{position}"
        bad = [t for t in split_list(texts[name]) if not is_hash(t)]
        if bad:
            errors[name] = f"not a 32-byte topic (0x and 64 hex digits): {bad[0]}"
    block_hash = texts["block_hash"].strip()
    if block_hash and not is_hash(block_hash):
        errors["block_hash"] = "a block hash is 0x and 64 hex digits"
    elif block_hash and (texts["from_block"].strip() or texts["to_block"].strip()):
        errors["block_hash"] = "a block hash excludes From and To: clear one or the other"
    bounds = {}
    for name in ("from_block", "to_block"):
        text = texts[name].strip()
        bounds[name] = parse_bound(text) if text else None
        if text and bounds[name] is None:
            errors[name] = "a block number (decimal or 0x hex) or latest, earliest, pending"
    start, end = bounds["from_block"], bounds["to_block"]
    if isinstance(start, int) and isinstance(end, int) and start > end:
        errors["to_block"] = f"To ({end}) is before From ({start})"
    return errors


def _bound(text: str, default: int | str) -> int | str:
    """Read a bound field, or the default when it is empty."""
    value = parse_bound(text)
    return default if value is None else value


def query_of(texts: dict[str, str]) -> LogQuery:
    """Build the query of fields that passed check_fields."""
    topics = [tuple(split_list(texts[f"topic{i}"])) or None for i in range(4)]
    while topics and topics[-1] is None:
        topics.pop()
    block_hash = texts["block_hash"].strip() or None
    return LogQuery(
        addresses=tuple(split_list(texts["addresses"])),
        topics=tuple(topics),
        from_block=_bound(texts["from_block"], 0),
        to_block=_bound(texts["to_block"], "latest"),
        block_hash=block_hash,
    ).checked()


class ScanState(enum.Enum):
    """Where the scan is."""

    IDLE = "idle"
    RUNNING = "running"
    DONE = "done"
    CANCELLED = "cancelled"
    FAILED = "failed"


def duration_text(seconds: float) -> str:
    """Return seconds as `0.4 s`, `42 s`, `3 min 5 s` or `2 h 10 min`."""
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    if whole < 3600:
        return f"{whole // 60} min {whole % 60} s"
    return f"{whole // 3600} h {whole % 3600 // 60} min"


class LogsViewModel(QObject):
    """The Logs screen's state: fields and their messages, the scan, progress and the table.

    Signals:
        changed(): fields, messages or scan state changed.
        progress_changed(): the progress numbers changed.
    """

    changed = Signal()
    progress_changed = Signal()

    def __init__(
        self, session: Session, parent: QObject | None = None, *, concurrency: int = 4
    ) -> None:
        super().__init__(parent)
        self.session = session
        self.concurrency = concurrency
        self.texts: dict[str, str] = dict.fromkeys(FIELDS, "")
        self.errors: dict[str, str] = {}
        self.state = ScanState.IDLE
        self.message = ""
        self.progress: ScanProgress | None = None
        self.table = LogTableModel(session.network.chain_id, self)
        self.scanner: LogScanner | None = None
        self._task: asyncio.Task[None] | None = None
        self._awaiting_check = False  # a scan waits for the chain check (it fails by itself)
        self._stop_listening = session.checker.listen(self._on_check)

    def set_field(self, name: str, text: str) -> None:
        """Change one field and check every field again."""
        if name not in self.texts:
            raise KeyError(name)
        self.texts[name] = text
        self.errors = check_fields(self.texts)
        self.changed.emit()

    @property
    def can_start(self) -> bool:
        """Tell whether the fields are valid and no scan runs."""
        return not self.errors and self.state is not ScanState.RUNNING

    @property
    def failed_chunks(self) -> int:
        """Return how many block ranges failed and can be retried."""
        return 0 if self.scanner is None else len(self.scanner.failed)

    @property
    def can_retry(self) -> bool:
        """Tell whether failed chunks wait for a retry."""
        return self.failed_chunks > 0 and self.state is not ScanState.RUNNING

    @property
    def fraction(self) -> float:
        """Return the share of the range done, 0..1."""
        return 0.0 if self.progress is None else self.progress.fraction

    @property
    def progress_text(self) -> str:
        """Return `blocks done of total · logs · ETA` for the progress bar."""
        p = self.progress
        if p is None:
            return ""
        parts = [f"{p.blocks_done:,} of {p.blocks_total:,} blocks", f"{p.logs_found:,} logs"]
        if p.blocks_failed:
            parts.append(f"{p.blocks_failed:,} blocks failed")
        if self.state is ScanState.RUNNING and p.eta is not None:
            parts.append(f"about {duration_text(p.eta)} left")
        elif self.state is not ScanState.RUNNING:
            parts.append(f"took {duration_text(p.elapsed)}")
        return " · ".join(parts)

    def start(self) -> bool:
        """Start a new scan with the current fields; False when they are not valid."""
        if not self.can_start:
            return False
        try:
            query = query_of(self.texts)
        except RpcError as error:
            self.message = error.message
            self.changed.emit()
            return False
        self.table.clear()
        self.scanner = LogScanner(
            self.session.client,
            concurrency=self.concurrency,
            initial_blocks=GUI_INITIAL_BLOCKS,
            target_logs=GUI_TARGET_LOGS,
            growth=GUI_GROWTH,
        )
        self._run(self.scanner.scan(query, self._on_progress))
        return True

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
        self.progress = None
        self.message = ""
        self._set(ScanState.RUNNING)
        self._task = asyncio.ensure_future(self._consume(batches))

    async def _consume(self, batches: AsyncGenerator[list[Log], None]) -> None:
        """Encode each batch for the table a slice per turn, then add it at once (one insert,
        so one repaint, per batch)."""
        try:
            await self._chain_confirmed()
            async for batch in batches:
                raws: list[bytes] = []
                for first in range(0, len(batch), APPEND_SLICE):
                    raws.extend(compact(log) for log in batch[first : first + APPEND_SLICE])
                    await asyncio.sleep(0)
                self.table.add_compact(raws, [log.block_number or 0 for log in batch])
        except asyncio.CancelledError:
            self.message = "cancelled"
            self._set(ScanState.CANCELLED)
            raise
        except RpcError as error:
            self.message = f"{error.kind.value}: {error.message}"
            self._set(ScanState.FAILED)
            return
        finally:
            with contextlib.suppress(Exception):
                await batches.aclose()
        failed = self.failed_chunks
        if failed:
            self.message = f"{failed} block range(s) failed; Retry scans them again"
        self._set(ScanState.DONE)

    def _on_progress(self, progress: ScanProgress) -> None:
        """Keep the scanner's latest progress."""
        self.progress = progress
        self.progress_changed.emit()

    def _set(self, state: ScanState) -> None:
        """Change the scan state."""
        self.state = state
        self.changed.emit()

    def export_json(self, path: Path) -> int:
        """Write the results as one JSON array of the node's log objects."""
        return self.table.export_json(path)

    def export_csv(self, path: Path) -> int:
        """Write the results as CSV."""
        return self.table.export_csv(path)

    async def _chain_confirmed(self) -> None:
        """Wait until the node is known to serve the network's chain; ChainMismatch if not."""
        if not self.session.check.settled:
            self.message = "waiting for the node to confirm its chain id (see the status bar)…"
            self.changed.emit()
        self._awaiting_check = True
        try:
            check = await self.session.settled_check()
        finally:
            self._awaiting_check = False
        self.message = ""
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
            self.message = "the node serves another chain: its logs are not shown"
            self.changed.emit()

    def dispose(self) -> None:
        """Cancel the scan and stop following the chain check (the screen is closing)."""
        self._stop_listening()
        self.cancel()
