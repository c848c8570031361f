"""One chain's saved data: a SQLite file read and written on one worker thread, never the GUI's.

WAL, one connection (the process's one writer), short transactions, a busy timeout: two
windows and a command line may use the same file at once. Answers are kept as the node sent
them, compressed; the least recently used go first beyond the size limit. The file is a
`GuardedFile`: locked by another program, it is skipped (the node answers) and what was to be
written waits and is tried again every few seconds; damaged, it is moved aside and started
afresh; either way `on_notice` says so: never a crash, never a wrong answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from explorer.saved import sql
from explorer.saved.bodies import dump_result
from explorer.saved.guarded import FileLocked, FileUnavailable, GuardedFile, NoticeListener
from explorer.saved.links import BrokenLink, RunMemo, broken_link
from explorer.saved.schema import (
    CHAIN_FILE,
    Row,
    Segment,
    check_identity,
    drop_from,
    evict,
    used_bytes,
)
from explorer.saved.sql import SavedState
from explorer.saved.sqlite_file import BUSY_TIMEOUT_SECONDS, open_database

WRITE_BATCH_BYTES = 8 * 1024 * 1024  # one transaction writes at most this much (short ones)
RETRY_SECONDS = 2.0  # a locked file is tried again this often (writes wait meanwhile)
FLUSH_LOOK_SECONDS = 0.25  # a flush looks this often whether the file was found locked
Work = Callable[[sqlite3.Connection], None]
T = TypeVar("T")


@dataclass(frozen=True)
class ChainIdentity:
    """A chain: its chain id and its genesis hash (a reset devnet is another chain)."""

    chain_id: int
    genesis_hash: str

    def file_name(self, scope: str | None = None) -> str:
        """Return the name of this chain's database file (one per scope, e.g. an endpoint)."""
        stem = f"chain-{self.chain_id}-{self.genesis_hash[2:18]}"
        return f"{stem}-{scope}.sqlite3" if scope else f"{stem}.sqlite3"


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
        what = f"the saved data of chain {identity.chain_id}"
        self.file = GuardedFile(path, self._connect, what, self._notice)
        self.others_size: Callable[[Path], int] = lambda _path: 0  # other chains' files
        self.writes = 0  # transactions committed
        self.write_seconds = 0.0  # worker time spent writing
        self._pending: list[Work] = []
        self._touched: list[tuple[str, int]] = []
        self._flushing: asyncio.Future[None] | None = None
        self._wake = asyncio.Event()  # ends the wait between retries of a locked file
        self._closing = False
        self._run_memo = RunMemo()  # saved runs walked (touched on the worker thread only)

    @property
    def moved_aside(self) -> list[Path]:
        """Return where damaged files were moved in this process."""
        return self.file.moved_aside

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the worker thread (FileUnavailable when it cannot)."""
        return await self.file.run(function, *args)

    def _notice(self, message: str) -> None:
        """Pass a message of the file on."""
        for listener in list(self.notice_listeners):
            listener(message)

    def _connect(self) -> sqlite3.Connection:
        """Open (and if needed create) the database, checking it belongs to this chain."""
        db = open_database(self.path, CHAIN_FILE, self.busy_timeout)
        try:
            check_identity(db, self.identity.chain_id, self.identity.genesis_hash)
        except BaseException:
            db.close()
            raise
        return db

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
        except FileUnavailable:
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
        except FileUnavailable:
            return None
        if found is None:
            return None
        rowid, body = found
        self._touch("answers", rowid)
        return body

    async def anchored(self, key: str) -> sql.Anchored | None:
        """Return an answer with the block it rests on, or None (the shared data's reads)."""
        try:
            return await self._run(sql.anchored, key)
        except FileUnavailable:
            return None

    async def anchored_block_at(self, number: int, full: bool) -> sql.Anchored | None:
        """Return the settled block at a height with its hash, or None."""
        try:
            return await self._run(sql.anchored_block_at, number, full)
        except FileUnavailable:
            return None

    async def contradicted(self, sighted: Sequence[tuple[int, str]]) -> list[tuple[int, str]]:
        """Return the saved (height, hash) pairs that sighted ones contradict (a reorganisation)."""
        if not sighted:
            return []
        try:
            return await self._run(sql.contradicted, list(sighted))
        except FileUnavailable:
            return []

    async def broken_link(self, number: int, parent_hash: str) -> BrokenLink | None:
        """Return where the saved run under a block breaks its parent links, or None."""
        try:
            return await self._run(broken_link, number, parent_hash, self._run_memo)
        except FileUnavailable:
            return None

    async def segments(self, filter_key: str, first: int, last: int) -> list[Segment]:
        """Return the saved log segments of a filter that overlap first..last."""
        try:
            found = await self._run(sql.segments, filter_key, first, last)
        except FileUnavailable:
            return []
        for rowid, _segment in found:
            self._touch("log_segments", rowid)
        return [segment for _rowid, segment in found]

    async def record(self, kind: str, key: str) -> bytes | None:
        """Return a derived record (another service's own, e.g. token metadata), or None."""
        try:
            return await self._run(sql.record, kind, key)
        except FileUnavailable:
            return None

    async def state(self) -> SavedState:
        """Return when data was last saved and the head then."""
        try:
            return await self._run(sql.saved_state)
        except FileUnavailable:
            return SavedState(None, None)

    async def size(self) -> int:
        """Return the bytes the database uses (pages in use)."""
        try:
            return await self._run(used_bytes)
        except FileUnavailable:
            return 0

    async def json_size(self) -> int:
        """Return the bytes of JSON the database holds (uncompressed)."""
        try:
            return await self._run(sql.json_size)
        except FileUnavailable:
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

    def _queue(self, work: Work) -> None:
        """Add work to the next transaction and make sure a flush is coming."""
        if self.file.closed:
            return
        self._pending.append(work)
        self._schedule()

    def _schedule(self) -> None:
        """Make sure a flush is coming."""
        if not self.file.closed and (self._flushing is None or self._flushing.done()):
            self._flushing = asyncio.ensure_future(self._flush())

    async def _flush(self) -> None:
        """Write everything queued, a short transaction at a time, then evict beyond the limit.

        While the file is locked the queue waits, and is tried again every RETRY_SECONDS
        (a last time when the store closes); what was queued is dropped only when the file
        was damaged and rebuilt, or refused.
        """
        while not self.file.closed and (self._pending or self._touched or self.file.locked):
            if self.file.locked and not self._closing:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), RETRY_SECONDS)
            batch, self._pending = self._pending, []
            touched, self._touched = self._touched, []
            saves = bool(batch)  # data, not only the marks of rows read
            if touched:
                batch.append(partial(sql.write_touches, touched=touched))
            try:
                await self.file.run(self._write, batch, saves, probing=True)
            except FileLocked:
                if self._closing:
                    return  # the last try: the file stays as it was, what was queued is not kept
                self._pending[:0] = batch
            except FileUnavailable:
                continue  # rebuilt or refused: what was queued is not kept

    def _write(self, db: sqlite3.Connection, batch: list[Work], saves: bool) -> None:
        """Run queued work in one transaction (worker thread), then keep within the limit.

        When it saves data the time is noted (`saved_at`: what an offline session shows);
        nothing queued is a try of the lock alone (a locked file tried again).
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
        if batch:
            evict(db, max(self.size_limit - self.others_size(self.path), 1))
            self.writes += 1
            self.write_seconds += time.perf_counter() - started

    async def flush(self) -> None:
        """Wait until everything queued is written, or the file is found locked.

        What waits for a locked file is written once it is free (`written` waits for that).
        """
        while self._flushing is not None and not self._flushing.done() and not self.file.locked:
            await asyncio.wait({self._flushing}, timeout=FLUSH_LOOK_SECONDS)

    async def written(self) -> None:
        """Wait until everything queued is written, a locked file waited out."""
        while self._flushing is not None and not self._flushing.done():
            await asyncio.shield(self._flushing)

    async def aclose(self) -> None:
        """Write what is queued (a locked file is tried once more), close the file, stop."""
        self._closing = True
        self._wake.set()
        await self.written()
        await self.file.aclose()
