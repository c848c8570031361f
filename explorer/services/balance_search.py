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
first while older ranges are still being split. With `express` (when many changes are
expected and the bound's slack pays for it) the first request probes 1, 2, 4, … blocks below
the newest end, and the narrow range holding the newest change is probed at every block at
once: the first entry comes three round trips after the opening, not ⌈log2 n⌉.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import math
import time
from collections.abc import AsyncGenerator, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from explorer.services.probes import AccountState, Contradiction, StateProbes
from explorer.services.tasks import cancel_all

if TYPE_CHECKING:
    from explorer.services.history_limit import SearchLimit

IN_FLIGHT = 8  # requests at once: the client's own cap
DENSE = 24  # blocks probed at once to pin the newest change (48 reads: within a batch's 50)
EXPRESS_PROBES = 14 + DENSE  # what the express start may cost beyond a binary search
WITNESS_FROM = 4  # the first probe request that reads a block again (then every 4× more)
WITNESS_DEPTH = 12  # a block read again is this deep (a reorganisation may change a newer one)
FEW_BLOCKS = 16  # a range this narrow (a revisit's new blocks) is probed at every block at once


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
    open_ranges: int = 0  # ranges still to split: each holds at least one change

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
        express: bool = False,
        limit: SearchLimit | None = None,
    ) -> None:
        self.probes = probes
        self.low, self.high = low, high
        self.states: dict[int, AccountState] = {low: first, high: last}
        self.in_flight = max(1, in_flight)
        self.opening_round = opening_round
        self.express = express  # fan out from the newest block, then probe densely
        self.limit = limit  # holds the probes below the run's limit (history_limit.py)
        self.probe_count = 0
        self.requests = 0  # probe requests sent (the witnesses ride along some)
        self.found = 0
        self._open: list[_Range] = []
        self._splitting = 0  # ranges taken for a request not answered yet
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
            len(self._open) + self._splitting,
        )

    def _settle(self, low: int, high: int, round_: int, found: list[Change]) -> None:
        """Decide about (low, high]: nothing in it, one change pinned, or a range to split.

        A nonce never goes down: a node that says it did contradicts itself (Contradiction).
        """
        before, after = self.states[low], self.states[high]
        if after.nonce < before.nonce:
            raise Contradiction(
                high,
                f"the nonce went down from {before.nonce:,} after block {low:,} to "
                f"{after.nonce:,} after block {high:,}",
            )
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
        fanned = dense = not self.express
        if self._open and self._open[0].high - self._open[0].low - 1 <= FEW_BLOCKS:
            fanned, dense = True, False  # a few new blocks (a revisit): each probed at once
        try:
            while self._open or running:
                if not fanned:  # the first request: the newest end, at growing distances
                    fanned = True
                    running.add(asyncio.ensure_future(self._split([self._fan()])))
                if not dense and not self.found and self._newest_narrow():
                    dense = True  # the newest change's range, every block of it at once
                    whole = heapq.heappop(self._open)
                    inside = list(range(whole.low + 1, whole.high))
                    running.add(asyncio.ensure_future(self._split([(whole, inside)])))
                while self._open and len(running) < self.in_flight:
                    share = -(-len(self._open) // (self.in_flight - len(running)))
                    plan = [(r, [(r.low + r.high) // 2]) for r in self._take(share)]
                    running.add(asyncio.ensure_future(self._split(plan)))
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
            await cancel_all(running)

    def _witness(self, points: Sequence[int]) -> int | None:
        """Return the block probed last before this request that no reorganisation may touch.

        Only a block whose state the node itself gave in this run: one the saved data answered
        (a revisit's settled blocks, told by this node before) has no answer of this run's to
        contradict, so it is not asked again.
        """
        probing, deep, asked = set(points), self.high - WITNESS_DEPTH, self.probes.asked
        candidates = (b for b in reversed(self.states) if b not in probing and b in asked)
        return next((block for block in candidates if block <= deep), None)

    def _take(self, share: int) -> list[_Range]:
        """Take the newest open ranges for one request: its share of them, a probe each."""
        taken: list[_Range] = []
        while self._open and len(taken) < min(share, self.probes.per_batch):
            taken.append(heapq.heappop(self._open))
        return taken

    def _fan(self) -> tuple[_Range, list[int]]:
        """Take the whole range with probes at 1, 2, 4, … blocks below its newest end."""
        whole = heapq.heappop(self._open)
        width = whole.high - whole.low
        points = [whole.high - (1 << i) for i in range(max(1, width.bit_length() - 1))]
        return whole, [point for point in points if point > whole.low]

    def _newest_narrow(self) -> bool:
        """Tell whether the newest open range is narrow enough to probe every block of it."""
        return bool(self._open) and self._open[0].high - self._open[0].low - 1 <= DENSE

    async def _split(self, plan: Sequence[tuple[_Range, list[int]]]) -> list[Change]:
        """Probe each range at its points (one request) and settle the pieces between.

        The 4th, 16th, 64th… request reads a block probed before again, of the node itself (a
        few reads in all; none for a search of three requests): a node whose answers for one
        block differ contradicts itself (Contradiction).
        """
        points = [point for _taken, inside in plan for point in inside]
        may_pin = sum(  # pieces one block wide: a change there is pinned by this request
            high - low == 1
            for taken, inside in plan
            for low, high in itertools.pairwise([taken.low, *sorted(inside), taken.high])
        )
        self.requests += 1
        witness = self._witness(points) if witness_due(self.requests) else None
        reads = len(points) + (witness is not None)  # a witness is one more block's state
        self._splitting += len(plan)
        if self.limit is not None:
            await self.limit.admit(reads, may_pin)
        self.probe_count += len(points)
        try:
            if witness is None:
                states = await self.probes.at(points)
            else:
                states, again = await asyncio.gather(
                    self.probes.at(points), self.probes.reread(witness)
                )
                witnessed(self.states, witness, again)
        finally:
            self._splitting -= len(plan)
        for point, state in zip(points, states, strict=True):
            self.states[point] = state
        found: list[Change] = []
        for taken, inside in plan:
            edges = [taken.low, *sorted(inside), taken.high]
            for low, high in itertools.pairwise(edges):
                self._settle(low, high, taken.round + 1, found)
        if self.limit is not None:
            await self.limit.answered(reads, may_pin, len(found))
        return found


def witness_due(request: int) -> bool:
    """Tell whether a probe request reads a block again: the 4th, 16th, 64th… (powers of 4)."""
    power_of_four = request & (request - 1) == 0 and request.bit_length() % 2 == 1
    return request >= WITNESS_FROM and power_of_four


def witnessed(states: dict[int, AccountState], block: int, again: AccountState) -> None:
    """Raise Contradiction when a block read again has another state than before."""
    before = states[block]
    if again.balance != before.balance:
        raise Contradiction(
            block,
            f"it gave two different balances for block {block:,} ({before.balance:,} wei, then "
            f"{again.balance:,})",
        )
    if again.nonce != before.nonce:
        raise Contradiction(
            block,
            f"it gave two different nonces for block {block:,} ({before.nonce}, then "
            f"{again.nonce})",
        )


def search_bound(changes: int, blocks: int) -> int:
    """Return 2·k·(⌈log2(n/k)⌉+1): the reads a search of k changes over n blocks should need."""
    if changes <= 0 or blocks <= 0:
        return 4  # the two ends
    return 2 * changes * (math.ceil(math.log2(max(blocks / changes, 1.0))) + 1)
