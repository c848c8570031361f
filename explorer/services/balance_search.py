"""Every block where an address's balance or nonce changed, found by search, not by scan.

An account without code can lose value only through a transaction it sends, which raises its
nonce; so over a range where the nonce did not change its balance never went down, and if
balance and nonce are equal at both ends nothing happened in between. The search splits every
range whose ends differ at its middle block, asking balance and nonce there (a probe), until
each difference is pinned to one block: about k·(⌈log2(n/k)⌉+1) probes for k changes over n
blocks. For an address with code the balance can also fall without a nonce change, so equal
ends are only taken as "nothing happened" (a rise and fall inside one range can be missed).

Probes go out newest range first and in parallel: up to `in_flight` requests of `per_batch`
probes each; every answer at once splits its ranges further, so the newest changes come out
first while older ranges are still being split.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import math
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field

from explorer.services.probes import AccountState, StateProbes

IN_FLIGHT = 8  # requests at once: the client's own cap


@dataclass(frozen=True)
class Change:
    """A block where the balance or the nonce changed: the state before and after it."""

    block: int
    before: AccountState
    after: AccountState
    round: int = 0  # the round trip of the probe that pinned it (1: the opening request)

    @property
    def delta(self) -> int:
        """Return the balance change in wei (negative: value left)."""
        return self.after.balance - self.before.balance

    @property
    def sent(self) -> int:
        """Return how many transactions the address sent in the block (its nonce change)."""
        return self.after.nonce - self.before.nonce


@dataclass(frozen=True)
class SearchProgress:
    """How far a search is: blocks known, changes found, probes spent, seconds."""

    blocks_total: int
    blocks_done: int
    changes: int
    probes: int
    reads: int
    requests: int
    elapsed: float

    @property
    def fraction(self) -> float:
        """Return the share of blocks whose story is known, 0..1."""
        return 1.0 if self.blocks_total <= 0 else min(1.0, self.blocks_done / self.blocks_total)


@dataclass(order=True)
class _Range:
    """An open range (low, high]: its ends' states differ; ordered newest first."""

    key: int
    low: int = field(compare=False)
    high: int = field(compare=False)
    round: int = field(compare=False)


class BalanceSearch:
    """Finds the changed blocks in (low, high]; iterate `changes()` and cancel by closing it."""

    def __init__(
        self,
        probes: StateProbes,
        low: int,
        high: int,
        first: AccountState,
        last: AccountState,
        *,
        in_flight: int = IN_FLIGHT,
        opening_round: int = 1,
    ) -> None:
        self.probes = probes
        self.low, self.high = low, high
        self.states: dict[int, AccountState] = {low: first, high: last}
        self.in_flight = max(1, in_flight)
        self.opening_round = opening_round
        self.probe_count = 0
        self.found = 0
        self._open: list[_Range] = []
        self._done_blocks = 0
        self._started = time.perf_counter()
        self.on_progress: Callable[[SearchProgress], None] | None = None

    def progress(self) -> SearchProgress:
        """Return how far the search is."""
        counts = self.probes.counts
        elapsed = time.perf_counter() - self._started
        return SearchProgress(
            self.high - self.low,
            self._done_blocks,
            self.found,
            self.probe_count,
            counts.reads,
            counts.requests,
            elapsed,
        )

    def _settle(self, low: int, high: int, round_: int, found: list[Change]) -> None:
        """Decide about (low, high]: nothing in it, one change pinned, or a range to split."""
        before, after = self.states[low], self.states[high]
        if before == after:
            self._done_blocks += high - low
        elif high - low == 1:
            self._done_blocks += 1
            found.append(Change(high, before, after, round_))
        else:
            heapq.heappush(self._open, _Range(-high, low, high, round_))

    async def changes(self) -> AsyncGenerator[list[Change], None]:
        """Yield the changed blocks in batches as they are pinned, newest ranges first."""
        found: list[Change] = []
        self._settle(self.low, self.high, self.opening_round, found)
        if found:
            self.found += len(found)
            yield found
        running: set[asyncio.Task[list[Change]]] = set()
        try:
            while self._open or running:
                while self._open and len(running) < self.in_flight:
                    share = -(-len(self._open) // (self.in_flight - len(running)))
                    running.add(asyncio.ensure_future(self._split(self._take(share))))
                done, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                if self.on_progress is not None:
                    self.on_progress(self.progress())
                batch = sorted(
                    (change for task in done for change in task.result()),
                    key=lambda change: -change.block,
                )
                if batch:
                    self.found += len(batch)
                    yield batch
        finally:
            for task in running:
                task.cancel()
            for task in running:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def _take(self, share: int) -> list[_Range]:
        """Take the newest open ranges for one request: its share of them, a probe each."""
        taken: list[_Range] = []
        while self._open and len(taken) < min(share, self.probes.per_batch):
            taken.append(heapq.heappop(self._open))
        return taken

    async def _split(self, ranges: Sequence[_Range]) -> list[Change]:
        """Probe the middle of each range and settle both halves."""
        middles = [(r.low + r.high) // 2 for r in ranges]
        self.probe_count += len(middles)
        states = await self.probes.at(middles)
        found: list[Change] = []
        for taken, middle, state in zip(ranges, middles, states, strict=True):
            self.states[middle] = state
            self._settle(middle, taken.high, taken.round + 1, found)
            self._settle(taken.low, middle, taken.round + 1, found)
        return found


def search_bound(changes: int, blocks: int) -> int:
    """Return 2·k·(⌈log2(n/k)⌉+1): the reads a search of k changes over n blocks should need."""
    if changes <= 0 or blocks <= 0:
        return 4  # the two ends
    return 2 * changes * (math.ceil(math.log2(max(blocks / changes, 1.0))) + 1)
