"""One chain's saved data: a SQLite file read and written on one worker thread, never the GUI's.

WAL, one connection (the process's one writer), short transactions, a busy timeout: two
windows and a command line may use the same file at once. Answers are kept as the node sent
them, compressed; the least recently used go first beyond the size limit. A file that is
damaged, locked for good or unreadable is moved aside (with its WAL) and started afresh, and
`on_notice` says so: never a crash, never a wrong answer.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from explorer.saved import sql
from explorer.saved.logs import dump_result
from explorer.saved.schema import (
    BUSY_TIMEOUT_SECONDS,
    Row,
    Segment,
    create_schema,
    drop_from,
    evict,
    used_bytes,
)
from explorer.saved.sql import SavedState
from explorer.saved.sqlite_worker import SqliteWorker

T = TypeVar("T")
WRITE_BATCH_BYTES = 8 * 1024 * 1024  # one transaction writes at most this much (short ones)
NoticeListener = Callable[[str], None]


class StoreUnavailable(Exception):
    """The saved data cannot be used now (it is being rebuilt, or the disk refuses)."""


@dataclass(frozen=True)
class ChainIdentity:
    """A chain: its chain id and its genesis hash (a reset devnet is another chain)."""

    chain_id: int
    genesis_hash: str

    @property
    def file_name(self) -> str:
        """Return the name of this chain's database file."""
        return f"chain-{self.chain_id}-{self.genesis_hash[2:18]}.sqlite3"


class ChainStore:
    """A chain's database; every call runs on the store's one worker thread."""

    def __init__(
        self,
        path: Path,
        identity: ChainIdentity,
        size_limit: int,
        on_notice: NoticeListener | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> None:
        self.path = path
        self.identity = identity
        self.size_limit = size_limit
        self.busy_timeout = busy_timeout
        self.notice_listeners: list[NoticeListener] = [on_notice] if on_notice else []
        self.moved_aside: list[Path] = []
        self.others_size: Callable[[Path], int] = lambda _path: 0  # other chains' files
        self.writes = 0  # transactions committed
        self.write_seconds = 0.0  # worker time spent writing
        self._worker = SqliteWorker(self._connect, "chain-cache")
        self._pending: list[Callable[[sqlite3.Connection], None]] = []
        self._touched: list[tuple[str, int]] = []
        self._flushing: asyncio.Future[None] | None = None
        self._closed = False

    # --- the worker thread ------------------------------------------------------------------

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the worker thread (opening the file first)."""
        if self._closed:
            raise StoreUnavailable("the saved data is closed")
        return await self._worker.call(lambda: self._guarded(function, args))

    def _guarded(self, function: Callable[..., T], args: Sequence[Any]) -> T:
        """Run on an open database; a damaged or locked one is moved aside and rebuilt."""
        try:
            return function(self._worker.connection(), *args)
        except sqlite3.OperationalError as error:
            if "locked" in str(error) or "busy" in str(error):
                self._rebuild(f"it stayed locked for {self.busy_timeout:g} s")
            else:
                self._rebuild(str(error))
        except (sqlite3.DatabaseError, zlib.error, ValueError) as error:
            self._rebuild(str(error))
        except OSError as error:
            raise StoreUnavailable(f"{self.path} cannot be used: {error}") from None
        raise StoreUnavailable("the saved data was damaged and is being rebuilt")

    def _connect(self) -> sqlite3.Connection:
        """Open (and if needed create) the database, checking it belongs to this chain."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=self.busy_timeout, isolation_level=None)
        try:
            identity = self.identity
            create_schema(db, identity.chain_id, identity.genesis_hash, self.busy_timeout)
        except BaseException:
            db.close()
            raise
        return db

    def _rebuild(self, reason: str) -> None:
        """Move the file (and its WAL) aside, start afresh, and say so."""
        self._worker.forget()
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.broken-{stamp}")
        try:
            if self.path.exists():
                self.path.replace(aside)
            for suffix in ("-wal", "-shm"):
                companion = self.path.with_name(self.path.name + suffix)
                if companion.exists():
                    companion.replace(aside.with_name(aside.name + suffix))
            self.moved_aside.append(aside)
            self._worker.connection()
        except (OSError, sqlite3.Error) as error:
            reason = f"{reason}; it could not be moved aside either ({error})"
        message = (
            f"The saved data of chain {self.identity.chain_id} could not be used ({reason}). "
            f"It was moved aside to {aside.name} and is rebuilt from the node as pages are "
            "opened."
        )
        for listener in list(self.notice_listeners):
            listener(message)

    # --- reads ------------------------------------------------------------------------------

    async def get(self, key: str, null_if: str | None = None) -> bytes | None:
        """Return the body kept under key, or None (a read marks it recently used).

        With null_if, a null answer when nothing is kept under key but something under
        null_if (a transaction's hash is no block's).
        """
        try:
            found = await (
                self._run(sql.get, key)
                if null_if is None
                else self._run(sql.get_or_known, key, null_if)
            )
        except StoreUnavailable:
            return None
        if found is None:
            return None
        rowid, body = found
        if rowid >= 0:
            self._touch("answers", rowid)
        return body

    def _touch(self, table: str, rowid: int) -> None:
        """Mark a row recently used at the next write (reads write nothing themselves)."""
        self._touched.append((table, rowid))
        self._schedule()

    async def block_at(self, number: int, full: bool) -> bytes | None:
        """Return the settled block at a height (through the number → hash map), or None."""
        try:
            found = await self._run(sql.block_at, number, full)
        except StoreUnavailable:
            return None
        if found is None:
            return None
        rowid, body = found
        self._touch("answers", rowid)
        return body

    async def contradicted(self, sighted: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """Return the saved (height, hash) pairs that sighted ones contradict (a reorganisation)."""
        if not sighted:
            return []
        try:
            return await self._run(sql.contradicted, list(sighted))
        except StoreUnavailable:
            return []

    async def segments(self, filter_key: str, first: int, last: int) -> list[Segment]:
        """Return the saved log segments of a filter that overlap first..last."""
        try:
            found = await self._run(sql.segments, filter_key, first, last)
        except StoreUnavailable:
            return []
        for rowid, _segment in found:
            self._touch("log_segments", rowid)
        return [segment for _rowid, segment in found]

    async def record(self, kind: str, key: str) -> bytes | None:
        """Return a derived record (another service's own, e.g. token metadata), or None."""
        try:
            return await self._run(sql.record, kind, key)
        except StoreUnavailable:
            return None

    async def state(self) -> SavedState:
        """Return when data was last saved and the head then."""
        try:
            return await self._run(sql.saved_state)
        except StoreUnavailable:
            return SavedState(None, None)

    async def size(self) -> int:
        """Return the bytes the database uses (pages in use)."""
        try:
            return await self._run(used_bytes)
        except StoreUnavailable:
            return 0

    async def json_size(self) -> int:
        """Return the bytes of JSON the database holds (uncompressed)."""
        try:
            return await self._run(sql.json_size)
        except StoreUnavailable:
            return 0

    # --- writes (queued, one short transaction per flush) -----------------------------------

    def put(self, rows: Iterable[Row], head: int | None = None) -> None:
        """Queue answers to keep (with the number → hash of their settled blocks)."""
        batch = list(rows)
        if batch:
            self._queue(lambda db: sql.put_rows(db, batch, head))

    def put_segment(self, segment: Segment) -> None:
        """Queue a settled range's logs for a filter."""
        self._queue(lambda db: sql.put_segment(db, segment))

    def put_segment_logs(self, filter_key: str, first: int, last: int, logs: list[Any]) -> None:
        """Queue some of a range's logs (serialised on the worker thread) as a settled range."""
        self._queue(
            lambda db: sql.put_segment(db, Segment(filter_key, first, last, dump_result(logs)))
        )

    def put_record(self, kind: str, key: str, body: bytes, number: int | None = None) -> None:
        """Queue a derived record of another service (its own kind and key)."""
        self._queue(lambda db: sql.put_record(db, kind, key, body, number))

    def drop_from(self, number: int) -> None:
        """Queue dropping everything resting on blocks at or above a height (a reorganisation)."""
        self._queue(lambda db: drop_from(db, number))

    def clear(self) -> None:
        """Queue emptying the database (Clear cache)."""
        self._queue(sql.clear)

    def _queue(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """Add work to the next transaction and make sure a flush is coming."""
        if self._closed:
            return
        self._pending.append(work)
        self._schedule()

    def _schedule(self) -> None:
        """Make sure a flush is coming."""
        if not self._closed and (self._flushing is None or self._flushing.done()):
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        """Write everything queued, a short transaction at a time, then evict beyond the limit."""
        while (self._pending or self._touched) and not self._closed:
            batch, self._pending = self._pending, []
            touched, self._touched = self._touched, []
            saves = bool(batch)  # data, not only the marks of rows read
            if touched:
                batch.append(partial(sql.write_touches, touched=touched))
            try:
                await self._run(self._write, batch, saves)
            except StoreUnavailable:
                continue  # rebuilt or refused: what was queued is not kept

    def _write(
        self,
        db: sqlite3.Connection,
        batch: list[Callable[[sqlite3.Connection], None]],
        saves: bool = True,
    ) -> None:
        """Run queued work in one transaction (worker thread), then keep within the limit.

        When it saves data the time is noted (`saved_at`: what an offline session shows);
        the marks of rows read (which keep them from eviction) do not count as saving.
        """
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        try:
            for work in batch:
                work(db)
            if saves:
                db.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('saved_at', ?)", (str(time.time()),)
                )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        evict(db, max(self.size_limit - self.others_size(self.path), 1))
        self.writes += 1
        self.write_seconds += time.perf_counter() - started

    async def flush(self) -> None:
        """Wait until everything queued is written."""
        while self._flushing is not None and not self._flushing.done():
            await asyncio.shield(self._flushing)

    async def aclose(self) -> None:
        """Write what is queued, close the file and stop the worker."""
        await self.flush()
        self._closed = True
        await self._worker.aclose()
