"""What a log scan reports: progress, the ranges that failed, and the logs not yet yielded."""

from __future__ import annotations

import asyncio
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from explorer.chain.records import Log
from explorer.rpc.errors import RpcError

FRESH_SLICE = 2000  # logs checked for duplicates per event-loop turn (about 2 ms)
_LOG_KEY = operator.attrgetter("transaction_hash", "log_index")  # a log's identity, at C speed


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


ProgressListener = Callable[[ScanProgress], None]


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


class SeenLogs:
    """The logs a scan has yielded, by (transaction hash, log index): repeats are dropped."""

    def __init__(self) -> None:
        self._seen: set[tuple[str | None, int | None]] = set()
        self.count = 0

    async def fresh(self, logs: Sequence[Log]) -> list[Log]:
        """Return the logs not yielded before, a slice per event-loop turn.

        Pending ones, without identity, are always returned.
        """
        keys = list(map(_LOG_KEY, logs))
        if self._seen.isdisjoint(keys) and len(set(keys)) == len(keys):
            self._seen.update(keys)  # the usual case, checked at C speed: every log is new
            self.count += len(logs)
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
        self.count += len(fresh)
        return fresh
