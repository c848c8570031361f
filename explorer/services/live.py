"""The live chain: the newest blocks, kept current head by head with one read per new block."""

from __future__ import annotations

import asyncio
import itertools
import statistics
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field

from explorer.chain.records import Block
from explorer.rpc.wrappers import TypedCalls
from explorer.services.reader import ChainReader

KEEP = 100  # blocks kept: the charts show this many
BACKFILL_AT_ONCE = 3  # older blocks read at once for the charts (of the client's 8 at once)
RECENT_INTERVALS = 5  # the poll follows the pace of the latest blocks…
RECENT_WINDOW_SECONDS = 600  # …mined lately (not a history's, days old)
SETTLED_INTERVALS = 3  # fewer known: the pace is a guess, so ask at least every FIRST_POLL
MIN_POLL_SECONDS, MAX_POLL_SECONDS = 1.0, 60.0
FIRST_POLL_SECONDS = 5.0
TIMESTAMP_LAG_SECONDS = 1.2  # whole-second timestamps: a block may reach the node 1 s after
#: A reorganisation deeper than this, or new blocks that never link to the shown ones, may be
#: another chain behind the same URL: the chain is checked again before they are shown.
REORG_RECHECK_DEPTH = 3


@dataclass(frozen=True)
class Advance:
    """What one step of following the head changed."""

    added: tuple[int, ...] = ()  # numbers read for the first time, oldest first
    reorganised: tuple[int, ...] = ()  # heights whose block was replaced
    skipped: int = 0  # blocks between the shown ones and the new head left unread (too many)
    suspicious: str = ""  # why the chain must be checked before this is shown ('' when not)


@dataclass
class LiveChain:
    """The newest KEEP blocks by number; replaced heights remember the hash they replaced.

    A block is read once: new heights as the head passes them, with full transactions
    only when asked. A height is read again only when the chain no longer links to it
    (the parent hash of the block above differs): a reorganisation.
    """

    reader: ChainReader
    client: TypedCalls
    keep: int = KEEP
    blocks: dict[int, Block] = field(default_factory=dict)
    replaced: dict[int, str] = field(default_factory=dict)  # number -> hash it replaced
    loaded_head: int | None = None  # the head at the first load

    @property
    def newest(self) -> int | None:
        """Return the newest number shown (None before the first load)."""
        return max(self.blocks) if self.blocks else None

    def newest_first(self, count: int | None = None) -> list[Block]:
        """Return up to count blocks, newest first."""
        numbers = sorted(self.blocks, reverse=True)
        return [self.blocks[n] for n in numbers[:count]]

    async def load(self, head: int, full_count: int, count: int | None = None) -> Advance:
        """Read the newest count blocks up to head (keep by default), full_count in full."""
        self.blocks.clear()
        self.replaced.clear()
        self.loaded_head = head
        numbers = list(range(max(head - (count or self.keep) + 1, 0), head + 1))
        full_from = head - full_count + 1
        found = await asyncio.gather(*(self.reader.block(n, full=n >= full_from) for n in numbers))
        self._put(found)
        return Advance(added=tuple(sorted(self.blocks)))

    async def backfill(self, at_once: int = BACKFILL_AT_ONCE) -> AsyncIterator[int]:
        """Read older blocks until keep are shown, a few at a time; yield how many each time.

        Few at once, and each batch only once no other request is in flight: head polls and
        pages opened meanwhile are never queued behind a hundred reads of a slow node, nor
        share the node and the GUI thread with them.
        """
        while self.blocks:
            quiet = getattr(self.client, "quiet", None)
            if quiet is not None:
                await quiet()
            oldest, floor = min(self.blocks), max((self.newest or 0) - self.keep + 1, 0)
            numbers = range(max(oldest - at_once, floor), oldest)
            if not numbers:
                return
            found = await asyncio.gather(*(self.reader.block(n) for n in numbers))
            if any(block is None for block in found):
                return  # the node does not have them (pruned): the charts show fewer
            self._put(found)
            yield len(numbers)

    async def advance(self, head: int, full: bool) -> Advance:
        """Read the blocks above the newest shown up to head, then mend a broken link."""
        newest = self.newest
        if newest is None:
            return await self.load(head, self.keep if full else 0)
        if head <= newest:
            return Advance()
        first = max(newest + 1, head - self.keep + 1)
        found = await asyncio.gather(
            *(self.reader.block(n, full=full) for n in range(first, head + 1))
        )
        added = self._put(found)
        reorganised, rejoined = await self._mend(full)
        self._trim()
        suspicious = ""
        if not rejoined:
            suspicious = f"the blocks after #{newest:,} do not link to the ones shown"
        elif len(reorganised) > REORG_RECHECK_DEPTH:
            suspicious = f"a reorganisation {len(reorganised)} blocks deep"
        return Advance(tuple(added), tuple(reorganised), first - newest - 1, suspicious)

    def _put(self, found: Iterable[Block | None]) -> list[int]:
        """Keep the blocks read (in order; a missing one ends the run)."""
        added: list[int] = []
        for block in found:
            if block is None or block.number is None:
                break
            self.blocks[block.number] = block
            added.append(block.number)
        return added

    async def finish_mending(self, full: bool) -> list[int]:
        """Mend every broken link, however deep (the chain was checked again meanwhile)."""
        reorganised, _ = await self._mend(full, limit=None)
        self._trim()
        return reorganised

    async def _mend(
        self, full: bool, limit: int | None = REORG_RECHECK_DEPTH
    ) -> tuple[list[int], bool]:
        """Re-read, newest first, each height the block above no longer links to.

        Return the heights replaced and whether the chain rejoined the shown one; the mending
        stops past limit heights (the chain is checked before more is read).
        """
        reorganised: list[int] = []
        for number in sorted(self.blocks, reverse=True):
            below = self.blocks.get(number - 1)
            above = self.blocks.get(number)
            if below is None or above is None or above.parent_hash == below.hash:
                continue
            if limit is not None and len(reorganised) > limit:
                return sorted(reorganised), False
            fresh = await self.client.get_block_by_number(number - 1, full)
            if fresh is None or fresh.hash == below.hash:
                continue  # the node is mid-switch: the next head mends it
            self.replaced[number - 1] = str(below.hash)
            self.blocks[number - 1] = fresh
            reorganised.append(number - 1)
        oldest = min(self.blocks, default=None)
        return sorted(reorganised), oldest not in reorganised or oldest == 0

    def _trim(self) -> None:
        """Forget blocks beyond the newest keep."""
        for number in sorted(self.blocks)[: -self.keep]:
            del self.blocks[number]
            self.replaced.pop(number, None)


def block_intervals(blocks: list[Block]) -> list[int]:
    """Return the seconds between consecutive blocks (blocks oldest first, adjacent numbers)."""
    return [
        later.timestamp - earlier.timestamp
        for earlier, later in itertools.pairwise(blocks)
        if later.number is not None
        and earlier.number is not None
        and later.number == earlier.number + 1
    ]


def median_block_time(blocks: list[Block]) -> float | None:
    """Return the median seconds between blocks (oldest first), robust to one long pause."""
    intervals = block_intervals(blocks)
    return float(statistics.median(intervals)) if intervals else None


def _recent_intervals(blocks: list[Block], now: float) -> list[int]:
    """Return the intervals of the blocks mined lately (twenty block times, ten minutes)."""
    usual = median_block_time(blocks) or FIRST_POLL_SECONDS
    recent = [b for b in blocks if b.timestamp >= now - max(RECENT_WINDOW_SECONDS, 20 * usual)]
    return block_intervals(recent)[-RECENT_INTERVALS:]


def block_pace(blocks: list[Block], now: float) -> float:
    """Return the seconds between blocks now: the recent ones' median, else the history's.

    Blocks mined lately (within twenty block times, ten minutes at least) set the pace once
    one interval between them is known; before, the median of every block shown (a chain's
    usual pace), else FIRST_POLL_SECONDS.
    """
    intervals = _recent_intervals(blocks, now)
    if intervals:
        pace = float(statistics.median(intervals))
    else:
        pace = median_block_time(blocks) or FIRST_POLL_SECONDS
    return min(max(pace, MIN_POLL_SECONDS), MAX_POLL_SECONDS)


def poll_delay(blocks: list[Block], now: float, seen_at: float | None = None) -> float:
    """Return the seconds until the next head poll: just after the next block is due.

    Once per block time costs one eth_blockNumber a block at the chain's pace (issue 21 §3):
    the poll goes a little after the newest block's time plus the pace (the block reaches the
    node's answers shortly after its timestamp). seen_at is when the newest block was first
    shown here: a block already old then (a chain woken or stalled) counts from that moment,
    and while no recent pace is known one poll FIRST_POLL_SECONDS after it shows a fast chain
    before the history's pace is trusted (a chain that is fast finds several new blocks
    there, and its pace from them). While the next block is late, the poll asks again
    at a quarter of the pace, then less often the later it is, never more than
    MAX_POLL_SECONDS apart.
    """
    if not blocks:
        return FIRST_POLL_SECONDS
    pace = block_pace(blocks, now)
    newest = float(blocks[-1].timestamp)
    seen = newest if seen_at is None else seen_at
    old = seen - newest >= pace  # already old when shown: a chain woken, stalled, or starting
    base = seen if old else newest
    if old and not _recent_intervals(blocks, now):
        probe = seen + FIRST_POLL_SECONDS - now
        if probe > 0:
            return max(probe, MIN_POLL_SECONDS)
    lag = min(max(pace / 10, TIMESTAMP_LAG_SECONDS), 2.0)
    wait = base + pace + lag - now
    if wait > 0:
        return min(max(wait, MIN_POLL_SECONDS), MAX_POLL_SECONDS)
    late = -wait
    return min(max(pace / 4, late, MIN_POLL_SECONDS), MAX_POLL_SECONDS)


def poll_interval(blocks: list[Block], now: float) -> float:
    """Return how often to ask for the head: about once per block, at the chain's pace now.

    Polling once per block time spends one eth_blockNumber per block; faster spends more
    for little, slower shows blocks late. The pace is the median of the latest intervals
    between blocks mined lately (within twenty block times, ten minutes at least): a
    history whose pace differs (a devnet woken after days, mining every few seconds)
    does not count. Until three such intervals are known, ask at least every 5 s.
    """
    usual = median_block_time(blocks) or FIRST_POLL_SECONDS
    recent = [b for b in blocks if b.timestamp >= now - max(RECENT_WINDOW_SECONDS, 20 * usual)]
    intervals = block_intervals(recent)[-RECENT_INTERVALS:]
    interval = float(statistics.median(intervals)) if intervals else FIRST_POLL_SECONDS
    if len(intervals) < SETTLED_INTERVALS:
        interval = min(interval, FIRST_POLL_SECONDS)
    return min(max(interval, MIN_POLL_SECONDS), MAX_POLL_SECONDS)
