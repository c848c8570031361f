"""A pipelined eth_getLogs scanner that learns each node's limits: chunks, splits, retries."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator
from dataclasses import dataclass, field
from typing import Any

from explorer.chain.hexutil import HexFormatError
from explorer.chain.records import Log, RecordFormatError
from explorer.rpc.errors import ErrorKind, InvalidInput, MalformedResponse, RpcError, TransportError
from explorer.services.logplan import (
    GROWTH,
    MAX_BLOCKS,
    TARGET_LOGS,
    Chunk,
    ChunkSizing,
    NodeLimits,
    RangePlan,
    is_limit_error,
    limits_of,
)
from explorer.services.logquery import LogQuery
from explorer.services.logresults import FailedChunk, ProgressListener, ScanProgress, SeenLogs

PARSE_SLICE = 500  # logs parsed per event-loop turn (about 3 ms)
FATAL = (ErrorKind.AUTH, ErrorKind.RATE_LIMITED, ErrorKind.CHAIN_MISMATCH, ErrorKind.INVALID_INPUT)


@dataclass
class _Run:
    """The state of one scan (or retry pass): chunks in block order, the plan, counters."""

    query: LogQuery
    total: int
    plan: RangePlan
    chunks: list[Chunk] = field(default_factory=list)
    done_blocks: int = 0
    failed_blocks: int = 0
    started: float = field(default_factory=time.perf_counter)
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    fatal: BaseException | None = None
    closed: bool = False


class LogScanner:
    """Scan a block range for logs, `concurrency` requests in flight, results in block order.

    Chunks are sized by `ChunkSizing` (at most `max_blocks` at first, then after the log
    density, aiming at `target_logs` per request and growing at most `growth` times a step);
    when the rest of the range fits the free slots it is shared evenly among them. Each
    request's end refills its slot, so `concurrency` stay in flight while the consumer works
    on a batch. The node's limits (`limits`, by default what earlier scans through the same
    client learnt) bound every request: while they are unknown, one request at a time may be
    longer than any range the node has answered, and a limit error (or an answer over the
    client's size cap) teaches them and splits the chunk to fit. Any other failure (after the
    client's retries) leaves the chunk in `failed`, for `retry_failed()`, except errors no
    other range would escape (auth, rate limit, chain mismatch), which end the scan. Cancel by
    cancelling the task that iterates (or closing the generator). Logs are deduplicated by
    (transaction hash, log index).
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
        limits: NodeLimits | None = None,
    ) -> None:
        """Use client's `call(method, params)` and `block_number()`."""
        if concurrency < 1 or max_blocks < 1 or target_logs < 1:
            raise ValueError("concurrency, max_blocks and target_logs must be positive")
        self.client = client
        self.concurrency = concurrency
        self.sizing = ChunkSizing(max_blocks, target_logs, initial_blocks or max_blocks, growth)
        self.limits = limits if limits is not None else limits_of(client)
        self.failed: list[FailedChunk] = []
        self.requests = 0
        self.splits = 0  # requests the node refused as too big (their ranges asked again)
        self._query: LogQuery | None = None
        self._seen = SeenLogs()

    @property
    def logs_found(self) -> int:
        """Return how many distinct logs the scan has yielded."""
        return self._seen.count

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
        self._query, self.failed, self._seen = query, [], SeenLogs()
        self.requests = self.splits = 0
        if query.block_hash is not None:
            async for batch in self._by_hash(query, on_progress):
                yield batch
            return
        start, head = await self.resolve(query.from_block, None)
        end, head = await self.resolve(query.to_block, head)
        if start > end:
            raise InvalidInput(f"fromBlock {start} is after toBlock {end}")
        total = end - start + 1
        first = self.sizing.first(total, self.concurrency)
        plan = RangePlan(self.sizing, first, start, end, self.limits)
        drive = self._drive(_Run(query, total, plan), on_progress)
        async with contextlib.aclosing(drive) as batches:  # closed with this generator, at once
            async for batch in batches:
                yield batch

    async def retry_failed(
        self, on_progress: ProgressListener | None = None
    ) -> AsyncGenerator[list[Log], None]:
        """Scan the failed chunks again; chunks that fail again stay in `failed`."""
        if self._query is None or not self.failed:
            return
        again, self.failed = self.failed, []
        total = sum(chunk.blocks for chunk in again)
        plan = RangePlan(self.sizing, self.sizing.max_blocks, limits=self.limits)
        run = _Run(self._query, total, plan)
        run.chunks = [Chunk(chunk.start, chunk.end) for chunk in again]
        async with contextlib.aclosing(self._drive(run, on_progress)) as batches:
            async for batch in batches:
                yield batch

    async def _by_hash(
        self, query: LogQuery, on_progress: ProgressListener | None
    ) -> AsyncGenerator[list[Log], None]:
        """One request for a block hash query."""
        started = time.perf_counter()
        logs = await self._seen.fresh(await self._fetch(query.filter_json()))
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

    async def _drive(
        self, run: _Run, on_progress: ProgressListener | None
    ) -> AsyncGenerator[list[Log], None]:
        """Keep `concurrency` chunks in flight; yield finished chunks in block order.

        Chunks are refilled as each ends, even while the consumer works on a batch.
        """
        try:
            self._dispatch(run)
            while run.chunks or not run.plan.exhausted:
                await run.wake.wait()
                run.wake.clear()
                if run.fatal is not None:
                    raise run.fatal
                ready: list[Log] = []
                while run.chunks and run.chunks[0].settled:
                    chunk = run.chunks.pop(0)
                    if chunk.logs is not None:
                        ready.extend(await self._seen.fresh(chunk.logs))
                if on_progress is not None:
                    on_progress(self._progress(run))
                if ready:
                    yield ready
        finally:
            run.closed = True
            await self._cancel(run)

    def _dispatch(self, run: _Run) -> None:
        """Start waiting chunks (lowest blocks first), then carve new ones from the plan."""
        in_flight = sum(1 for chunk in run.chunks if chunk.in_flight)
        for chunk in run.chunks:
            if in_flight >= self.concurrency:
                return
            if chunk.task is None:
                self._start(run, chunk)
                in_flight += 1
        while in_flight < self.concurrency and not run.plan.exhausted:
            probing = any(c.probe and c.task and not c.settled for c in run.chunks)
            chunk = run.plan.carve(self.concurrency - in_flight, probing)
            run.chunks.append(chunk)
            self._start(run, chunk)
            in_flight += 1

    def _start(self, run: _Run, chunk: Chunk) -> None:
        """Send a chunk's request as a task; its end settles it and refills the slots."""
        chunk.task = asyncio.ensure_future(
            self._fetch(run.query.filter_json(chunk.start, chunk.end))
        )
        chunk.task.add_done_callback(lambda _: self._on_done(run, chunk))

    def _on_done(self, run: _Run, chunk: Chunk) -> None:
        """Settle a finished request, start the next ones and wake the scan."""
        if run.closed or run.fatal is not None:
            return
        try:
            self._settle(run, chunk)
            self._dispatch(run)
        except Exception as error:  # handed to the scan, which raises it
            run.fatal = error
        run.wake.set()

    def _settle(self, run: _Run, chunk: Chunk) -> None:
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
            run.plan.learn(chunk.blocks, len(found))
        elif isinstance(error, RpcError) and is_limit_error(error) and chunk.blocks > 1:
            self.splits += 1
            index = run.chunks.index(chunk)
            run.chunks[index : index + 1] = run.plan.split(chunk, error)
        elif isinstance(error, RpcError) and error.kind not in FATAL:
            chunk.error = error
            run.failed_blocks += chunk.blocks
            self.failed.append(FailedChunk(chunk.start, chunk.end, error))
            self.failed.sort(key=lambda failed: failed.start)
        else:
            raise error

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
