"""A pipelined eth_getLogs scanner that respects the service's limits: chunks, splits, retries."""

from __future__ import annotations

import asyncio
import contextlib
import math
import operator
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from explorer.chain.abi import decode_log
from explorer.chain.hexutil import HexFormatError, parse_address, parse_hash, to_quantity
from explorer.chain.records import Log, RecordFormatError
from explorer.rpc.errors import (
    AnswerTooLarge,
    ErrorKind,
    InvalidInput,
    MalformedResponse,
    NodeError,
    RpcError,
    TransportError,
)

LIMIT_CODES = (-32012, -32011)
LIMIT_WORDS = ("more than", "too many", "limit exceeded", "range too")
MAX_BLOCKS = 2000
MAX_SPAN = 32 * MAX_BLOCKS  # blocks in one request, however sparse the range
TARGET_LOGS = 2500  # a quarter of the service's 10,000-log cap for longer ranges
GROWTH = 4
TAGS = ("earliest", "latest", "pending")
PARSE_SLICE = 500  # logs parsed per event-loop turn (about 3 ms)
FRESH_SLICE = 2000  # logs checked for duplicates per event-loop turn (about 2 ms)
FATAL = (ErrorKind.AUTH, ErrorKind.RATE_LIMITED, ErrorKind.CHAIN_MISMATCH, ErrorKind.INVALID_INPUT)

Topics = tuple[tuple[str, ...] | None, ...]
_LOG_KEY = operator.attrgetter("transaction_hash", "log_index")  # a log's identity, at C speed


@dataclass(frozen=True)
class LogQuery:
    """What to scan: addresses (any of), topics per position (None = any, tuple = any of),
    and either a block hash or a from/to range of numbers or tags."""

    addresses: tuple[str, ...] = ()
    topics: Topics = ()
    from_block: int | str = "earliest"
    to_block: int | str = "latest"
    block_hash: str | None = None

    def checked(self) -> LogQuery:
        """Return the query with canonical hex; InvalidInput on a malformed field."""
        try:
            addresses = tuple(dict.fromkeys(parse_address(a, "address") for a in self.addresses))
            topics = tuple(
                None if alts is None else tuple(parse_hash(t, f"topic {i}") for t in alts)
                for i, alts in enumerate(self.topics)
            )
            block_hash = None if self.block_hash is None else parse_hash(self.block_hash)
        except HexFormatError as exc:
            raise InvalidInput(str(exc)) from None
        if len(topics) > 4:
            raise InvalidInput("topics: at most 4 positions")
        if any(alts == () for alts in topics):
            raise InvalidInput("an OR-list of topics must not be empty")
        for bound in (self.from_block, self.to_block):
            if isinstance(bound, str) and bound not in TAGS:
                raise InvalidInput(f"block {bound!r} must be a number or one of {', '.join(TAGS)}")
            if isinstance(bound, int) and bound < 0:
                raise InvalidInput("block numbers must not be negative")
        return LogQuery(addresses, topics, self.from_block, self.to_block, block_hash)

    def filter_json(self, start: int | None = None, end: int | None = None) -> dict[str, Any]:
        """Return the eth_getLogs filter object for a block range (or the block hash)."""
        obj: dict[str, Any] = {}
        if self.block_hash is not None:
            obj["blockHash"] = self.block_hash
        else:
            obj["fromBlock"] = to_quantity(start if start is not None else 0)
            obj["toBlock"] = to_quantity(end if end is not None else 0)
        if len(self.addresses) == 1:
            obj["address"] = self.addresses[0]
        elif self.addresses:
            obj["address"] = list(self.addresses)
        if self.topics:
            obj["topics"] = [
                None if alts is None else (alts[0] if len(alts) == 1 else list(alts))
                for alts in self.topics
            ]
        return obj


@dataclass(frozen=True)
class ScanProgress:
    """How far a scan is: blocks done, failed and total, logs found, seconds, ETA."""

    blocks_done: int
    blocks_failed: int
    blocks_total: int
    logs_found: int
    elapsed: float
    requests: int

    @property
    def fraction(self) -> float:
        """Return the share of the range handled (done or failed), 0..1."""
        if self.blocks_total <= 0:
            return 1.0
        return min(1.0, (self.blocks_done + self.blocks_failed) / self.blocks_total)

    @property
    def eta(self) -> float | None:
        """Return the estimated seconds left, None until a chunk is done."""
        if self.blocks_done <= 0:
            return None
        left = self.blocks_total - self.blocks_done - self.blocks_failed
        return max(0.0, self.elapsed / self.blocks_done * left)


@dataclass(frozen=True)
class FailedChunk:
    """A block range whose request failed (after the client's own retries)."""

    start: int
    end: int
    error: RpcError

    @property
    def blocks(self) -> int:
        """Return the number of blocks in the range."""
        return self.end - self.start + 1


ProgressListener = Callable[[ScanProgress], None]


@dataclass
class _Chunk:
    """One block range in flight or waiting; `logs` once done, `error` once failed."""

    start: int
    end: int
    task: asyncio.Task[list[Log]] | None = None
    logs: list[Log] | None = None
    error: RpcError | None = None

    @property
    def blocks(self) -> int:
        """Return the number of blocks in the range."""
        return self.end - self.start + 1


def is_limit_error(error: RpcError) -> bool:
    """Tell whether an error says the query was too big (split it and go on): the node's
    limit errors, or an answer over the client's size cap."""
    if isinstance(error, AnswerTooLarge):
        return True
    if not isinstance(error, NodeError):
        return False
    text = error.node_message.lower()
    return error.code in LIMIT_CODES or any(word in text for word in LIMIT_WORDS)


@dataclass
class _Run:
    """The state of one scan (or retry pass): chunks in block order, counters, the cursor."""

    query: LogQuery
    total: int
    cursor: int = 0
    last: int = -1
    size: int = MAX_BLOCKS
    chunks: list[_Chunk] = field(default_factory=list)
    done_blocks: int = 0
    failed_blocks: int = 0
    started: float = field(default_factory=time.perf_counter)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    fatal: BaseException | None = None
    closed: bool = False


class LogScanner:
    """Scan a block range for logs, `concurrency` requests in flight, results in block order.

    Chunks hold at most `max_blocks` blocks at first, then follow the log density aiming at
    `target_logs` per request, growing at most `growth` times a step (larger than max_blocks,
    up to MAX_SPAN, only while results stay well under the service's 10,000-log cap); when
    the rest of the range fits the free slots it is shared evenly among them. Each request's
    end refills its slot, so `concurrency` stay in flight while the consumer works on a batch.
    A limit error (or an answer over the client's size cap) splits the chunk; any other
    failure (after the client's retries) leaves the chunk in `failed`, for `retry_failed()`,
    except errors no other range would escape (auth, rate limit, chain mismatch), which end
    the scan. Cancel by cancelling the task that iterates (or closing the generator). Logs are
    deduplicated by (transaction hash, log index).
    """

    def __init__(
        self,
        client: Any,
        *,
        concurrency: int = 4,
        max_blocks: int = MAX_BLOCKS,
        target_logs: int = TARGET_LOGS,
        initial_blocks: int | None = None,
        growth: float = GROWTH,
    ) -> None:
        """Use client's `call(method, params)` and `block_number()`."""
        if concurrency < 1 or max_blocks < 1 or target_logs < 1:
            raise ValueError("concurrency, max_blocks and target_logs must be positive")
        self.client = client
        self.concurrency = concurrency
        self.max_blocks = max_blocks
        self.target_logs = target_logs
        self.initial_blocks = initial_blocks or max_blocks
        self.growth = growth
        self.failed: list[FailedChunk] = []
        self.requests = 0
        self.splits = 0
        self.logs_found = 0
        self._query: LogQuery | None = None
        self._seen: set[tuple[str | None, int | None]] = set()

    async def resolve(self, bound: int | str, head: int | None) -> tuple[int, int | None]:
        """Return (number, head) for a bound; tags are read from the node once."""
        if isinstance(bound, int):
            return bound, head
        if bound == "earliest":
            return 0, head
        if head is None:
            head = int(await self.client.block_number())
        return head, head

    async def scan(
        self, query: LogQuery, on_progress: ProgressListener | None = None
    ) -> AsyncGenerator[list[Log], None]:
        """Yield batches of matching logs in block order as chunks complete."""
        query = query.checked()
        self._query, self.failed, self._seen = query, [], set()
        self.requests = self.splits = self.logs_found = 0
        if query.block_hash is not None:
            async for batch in self._by_hash(query, on_progress):
                yield batch
            return
        start, head = await self.resolve(query.from_block, None)
        end, head = await self.resolve(query.to_block, head)
        if start > end:
            raise InvalidInput(f"fromBlock {start} is after toBlock {end}")
        total = end - start + 1
        first = min(self.initial_blocks, self.max_blocks, max(1, -(-total // self.concurrency)))
        run = _Run(query, total, cursor=start, last=end, size=first)
        async for batch in self._drive(run, on_progress):
            yield batch

    async def retry_failed(
        self, on_progress: ProgressListener | None = None
    ) -> AsyncGenerator[list[Log], None]:
        """Scan the failed chunks again; chunks that fail again stay in `failed`."""
        if self._query is None or not self.failed:
            return
        again, self.failed = self.failed, []
        total = sum(chunk.blocks for chunk in again)
        run = _Run(self._query, total, size=self.max_blocks)
        run.chunks = [_Chunk(chunk.start, chunk.end) for chunk in again]
        async for batch in self._drive(run, on_progress):
            yield batch

    async def _by_hash(
        self, query: LogQuery, on_progress: ProgressListener | None
    ) -> AsyncGenerator[list[Log], None]:
        """One request for a block hash query."""
        started = time.perf_counter()
        logs = await self._fresh(await self._fetch(query.filter_json()))
        if on_progress is not None:
            elapsed = time.perf_counter() - started
            on_progress(ScanProgress(1, 0, 1, self.logs_found, elapsed, self.requests))
        yield logs

    async def _fetch(self, filter_obj: dict[str, Any]) -> list[Log]:
        """Send one eth_getLogs call and parse the logs."""
        self.requests += 1
        raw = await self.client.call("eth_getLogs", [filter_obj])
        if not isinstance(raw, list):
            raise MalformedResponse(f"eth_getLogs returned {type(raw).__name__}, not an array")
        logs: list[Log] = []
        for first in range(0, len(raw), PARSE_SLICE):
            if first:
                await asyncio.sleep(0)  # let the loop (and a GUI on it) breathe between slices
            try:
                logs.extend(Log.many_from_json(raw[first : first + PARSE_SLICE]))
            except (RecordFormatError, HexFormatError, TypeError) as exc:
                raise MalformedResponse(f"eth_getLogs returned an unexpected log: {exc}") from None
        return logs

    async def _fresh(self, logs: Sequence[Log]) -> list[Log]:
        """Drop logs already yielded (same transaction hash and log index), a slice a turn."""
        keys = list(map(_LOG_KEY, logs))
        if self._seen.isdisjoint(keys) and len(set(keys)) == len(keys):
            self._seen.update(keys)  # the usual case, checked at C speed: every log is new
            self.logs_found += len(logs)
            return list(logs)
        fresh: list[Log] = []
        for number, (log, key) in enumerate(zip(logs, keys, strict=True), 1):
            if None not in key:
                if key in self._seen:
                    continue
                self._seen.add(key)
            fresh.append(log)
            if number % FRESH_SLICE == 0:
                await asyncio.sleep(0)
        self.logs_found += len(fresh)
        return fresh

    async def _drive(
        self, run: _Run, on_progress: ProgressListener | None
    ) -> AsyncGenerator[list[Log], None]:
        """Keep `concurrency` chunks in flight (refilled as each ends, even while the consumer
        works on a batch); yield finished chunks in block order."""
        try:
            self._dispatch(run)
            while run.chunks or run.cursor <= run.last:
                await run.wake.wait()
                run.wake.clear()
                if run.fatal is not None:
                    raise run.fatal
                ready: list[Log] = []
                while run.chunks and (run.chunks[0].logs is not None or run.chunks[0].error):
                    chunk = run.chunks.pop(0)
                    if chunk.logs is not None:
                        ready.extend(await self._fresh(chunk.logs))
                if on_progress is not None:
                    on_progress(self._progress(run))
                if ready:
                    yield ready
        finally:
            run.closed = True
            await self._cancel(run)

    def _dispatch(self, run: _Run) -> None:
        """Start waiting chunks (lowest blocks first), then carve new ones from the cursor:
        the chunk size, or the rest shared evenly by the free slots when it fits in them."""
        in_flight = sum(1 for c in run.chunks if c.task is not None and not c.task.done())
        for chunk in run.chunks:
            if in_flight >= self.concurrency:
                return
            if chunk.task is None:
                self._start(run, chunk)
                in_flight += 1
        while in_flight < self.concurrency and run.cursor <= run.last:
            free, left = self.concurrency - in_flight, run.last - run.cursor + 1
            size = run.size if left > run.size * free else math.ceil(left / free)
            chunk = _Chunk(run.cursor, min(run.last, run.cursor + size - 1))
            run.cursor = chunk.end + 1
            run.chunks.append(chunk)
            self._start(run, chunk)
            in_flight += 1

    def _start(self, run: _Run, chunk: _Chunk) -> None:
        """Send a chunk's request as a task; its end settles it and refills the slots."""
        chunk.task = asyncio.ensure_future(
            self._fetch(run.query.filter_json(chunk.start, chunk.end))
        )
        chunk.task.add_done_callback(lambda _: self._on_done(run, chunk))

    def _on_done(self, run: _Run, chunk: _Chunk) -> None:
        """Settle a finished request, start the next ones and wake the scan."""
        if run.closed or run.fatal is not None:
            return
        try:
            self._settle(run, chunk)
            self._dispatch(run)
        except Exception as error:  # handed to the scan, which raises it
            run.fatal = error
        run.wake.set()

    def _settle(self, run: _Run, chunk: _Chunk) -> None:
        """Record a finished request: keep logs, split on limit errors, note failures."""
        assert chunk.task is not None
        error: BaseException | None = (
            TransportError("the request was cancelled")
            if chunk.task.cancelled()
            else chunk.task.exception()
        )
        if error is None:
            found = chunk.task.result()
            chunk.logs = found
            run.done_blocks += chunk.blocks
            self._adapt(run, chunk.blocks, len(found))
        elif isinstance(error, RpcError) and is_limit_error(error) and chunk.blocks > 1:
            self.splits += 1
            middle = (chunk.start + chunk.end) // 2
            index = run.chunks.index(chunk)
            run.chunks[index : index + 1] = [
                _Chunk(chunk.start, middle),
                _Chunk(middle + 1, chunk.end),
            ]
            run.size = max(1, min(run.size, chunk.blocks // 2))
        elif isinstance(error, RpcError) and error.kind not in FATAL:
            chunk.error = error
            run.failed_blocks += chunk.blocks
            self.failed.append(FailedChunk(chunk.start, chunk.end, error))
            self.failed.sort(key=lambda failed: failed.start)
        else:
            raise error

    def _adapt(self, run: _Run, blocks: int, found: int) -> None:
        """Size the next chunks after the density of a finished one: about target_logs logs,
        at most `growth` times its blocks; over max_blocks only when that many stay under
        the target (the service allows longer ranges while results stay under 10,000)."""
        wanted = int(blocks * self.target_logs / max(found, 1))
        run.size = max(1, min(wanted, int(blocks * self.growth), MAX_SPAN))

    def _progress(self, run: _Run) -> ScanProgress:
        """Return the progress of a run."""
        elapsed = time.perf_counter() - run.started
        return ScanProgress(
            run.done_blocks,
            run.failed_blocks,
            run.total,
            self.logs_found,
            elapsed,
            self.requests,
        )

    async def _cancel(self, run: _Run) -> None:
        """Cancel requests still in flight (the scan was cancelled or abandoned)."""
        for chunk in run.chunks:
            if chunk.task is not None and chunk.task.done() and not chunk.task.cancelled():
                chunk.task.exception()  # retrieved: a fatal error elsewhere ended the scan
        tasks = [c.task for c in run.chunks if c.task is not None and not c.task.done()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


CSV_HEADER = (
    "block",
    "transaction_hash",
    "log_index",
    "address",
    "topic0",
    "topic1",
    "topic2",
    "topic3",
    "data",
    "event",
)


def event_name(topics: Sequence[str], data: bytes) -> str:
    """Return the decoded event's name for a log, or "" when it is unknown."""
    decoded = decode_log(topics, data)
    return "" if decoded is None else decoded.name


def csv_fields(log: Log) -> list[str]:
    """Return one CSV row of a log, in the order of CSV_HEADER."""
    topics = [*log.topics, "", "", "", ""][:4]
    return [
        "" if log.block_number is None else str(log.block_number),
        log.transaction_hash or "",
        "" if log.log_index is None else str(log.log_index),
        log.address,
        *topics,
        "0x" + log.data.hex(),
        event_name(log.topics, log.data),
    ]
