"""An address's whole story without an indexer: balance changes by search, transfers by logs.

`AddressHistory.prepare()` sends the opening request (history_plan.py) and returns the cost
estimate; `updates()` then streams what is found, newest first: the stored history at once, the
native changes as the search pins them (balance_search.py), each attributed (attribution.py),
and the token transfers (token_history.py). What was found is stored with the hash of the newest
block searched, so the next visit asks only for newer blocks (and starts over if that block is
no longer in the chain). Stop by closing `updates()` (cancelling the task that iterates it).
Its requests are counted as the quota counts them, for its own tasks only; the run holds below
its estimate's limit and pauses there (history_limit.py) until `go_on()`, when it is created
with `hold=True` (the window and the command line; the watchlist's short runs go unheld).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.chain.history import HistoryEntry
from explorer.chain.records import Log
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.journal import Spending, counting
from explorer.services.attribution import Attributor
from explorer.services.balance_search import (
    BalanceSearch,
    Change,
)
from explorer.services.history_inside import InsideExplainer
from explorer.services.history_limit import Continuation, SearchLimit, continuation
from explorer.services.history_parts import (
    CONTRACT_CAVEAT,
    NONCE_JUMP,
    BlockTimes,
    HistoryProgress,
    HistoryUpdate,
    hash_of,
    newest_key,
    next_record,
    provisional,
    usable,
)
from explorer.services.history_plan import (
    Estimate,
    OldStateVerdict,
    Opening,
    Scope,
    estimate,
    token_window_fits,
)
from explorer.services.history_store import HistoryStore, StoredHistory
from explorer.services.probes import (
    AccountState,
    Contradiction,
    OldStateMissing,
    ReadCounts,
    StateProbes,
)
from explorer.services.reader import ChainReader
from explorer.services.stale_state import stale_state_reason
from explorer.services.tasks import cancel_all
from explorer.services.token_history import (
    ProgressListener,
    TokenTransfers,
    answered_transfers,
    logs_of,
)

if TYPE_CHECKING:
    from explorer.services.trace import Tracer


class AddressHistory:
    """One address's history on one chain; `chain` names the chain in the store."""

    def __init__(
        self,
        reader: ChainReader,
        address: str,
        *,
        chain: str,
        store: HistoryStore | None = None,
        scope: Scope = Scope.ALL,
        inside: Callable[[], Tracer] | None = None,
        hold: bool = False,
    ) -> None:
        """Read address's history; inside makes the Tracers that name a contract's counterparty."""
        self.inside = inside
        self.reader = reader
        self.hold = hold  # pause at the estimate's limit (else the limit is only said)
        self.address = address
        self.chain = chain
        self.store = store
        self.scope = scope
        self.probes = StateProbes(reader.client, address)
        self.opening: Opening | None = None
        self.stored: StoredHistory | None = None
        self.search: BalanceSearch | None = None
        self.counts = ReadCounts()  # block times and the opening's log queries
        self.token_requests = 0
        self.changes: list[Change] = []
        self.times = BlockTimes(reader.client, self.counts)
        self._native_entries: list[HistoryEntry] = []
        self._token_entries: list[HistoryEntry] = []
        self._early_logs: list[Log] | None = None
        self._high_hash = self._known_hash = ""
        self._latest: tuple[int, str] | None = None  # the head read as a block (number, hash)
        self._started = time.perf_counter()
        self._tokens_low = 0
        self._tokens_done = 0.0
        self._found = 0
        self.spending = Spending()  # the requests of this run's own tasks
        self.limit = SearchLimit(lambda: self.requests, None, self._on_pause)
        self._queue: asyncio.Queue[HistoryUpdate | None] | None = None

    @property
    def span(self) -> tuple[int, int, int]:
        """Return (first block, last block, balance before the first) of the whole history."""
        opening = self.opening
        if opening is None:
            return (0, 0, 0)
        if self.stored is not None:
            return (self.stored.first, opening.high, self.stored.opening.balance)
        start = opening.first.balance if opening.first is not None else 0
        return (opening.low + 1, opening.high, start)

    @property
    def requests(self) -> int:
        """Return the requests (calls, as the quota counts them) the history spent so far."""
        return self.spending.requests

    async def prepare(self, first: int | None = None, last: int | None = None) -> Estimate:
        """Read the head (unless known), the stored history and the opening request."""
        with counting(self.spending):
            found = await self._prepare(first, last)
        self.limit.limit = found.limit if self.hold else None
        self.limit.receipts_left = found.changes if not found.changes_known else 0
        return found

    async def _prepare(self, first: int | None, last: int | None) -> Estimate:
        """Prepare the run: the stored history, the opening, the estimate."""
        high = last if last is not None else await self._head()
        low = max(0, (first or 0) - 1)
        if self.store is not None:
            self.stored = usable(await self.store.load(self.chain, self.address), low, high)
        search_low = self.stored.until if self.stored and self.scope.native else low
        self._tokens_low = low
        if self.stored is not None and self.stored.tokens_until >= low:
            self._tokens_low = self.stored.tokens_until
        self.opening = await self._open(search_low, high)
        stored = self.stored
        if stored is not None and (
            self.opening.first != stored.state or self._known_hash != stored.until_hash
        ):
            self.stored = None  # the chain it knew is gone: search the whole range again
            self._tokens_low = low
            self.opening = await self._open(low, high)
        opening = self.opening
        token_blocks = high - self._tokens_low
        blocks = high - opening.low
        return estimate(
            blocks, opening.first, opening.last, self.scope, None, token_blocks, self.requests
        )

    def _on_pause(self) -> None:
        """Say the run stopped at its limit, and what going on would cost."""
        if self._queue is not None and self.search is not None:
            self._queue.put_nowait(HistoryUpdate(over_limit=self.next_limit().text()))

    def next_limit(self) -> Continuation:
        """Return what going on from here would cost, from the changes found so far."""
        assert self.search is not None
        return continuation(self.search.progress(), self.requests, self.limit)

    async def go_on(self) -> None:
        """Go on past the limit the run stopped at, to the next one."""
        if self.limit.paused:
            await self.limit.raise_to(self.next_limit().limit)

    async def _head(self) -> int:
        """Return the head; unknown, read as the latest block: its number and hash in one read."""
        if self.reader.head is not None:
            return self.reader.head
        latest = await self.reader.block("latest")
        if latest is None or latest.number is None or latest.hash is None:
            raise MalformedResponse("the node gave no latest block")
        self.reader.note_head(latest.number)
        self._latest = (latest.number, latest.hash)
        return latest.number

    async def _open(self, low: int, high: int) -> Opening:
        """Send the opening request: code at high, the states after high and after low.

        The same request reads the hashes of block high (kept with the history) and of the
        last block a stored history knew (the chain must still hold it); a revisit's few new
        blocks have their token transfers asked in it too.
        """
        high_hash = self._latest[1] if self._latest and self._latest[0] == high else ""
        blocks = ([] if high_hash else [high]) + ([self.stored.until] if self.stored else [])
        extra: list[tuple[str, tuple[object, ...]]] = [
            ("eth_getBlockByNumber", (hex(number), False)) for number in blocks
        ]
        window = high - self._tokens_low
        if self.scope.tokens and self.stored is not None and token_window_fits(window):
            transfers = TokenTransfers(self.reader.client, self.address)
            queries = transfers.queries(self._tokens_low + 1, high)
            extra += [
                ("eth_getLogs", (q.filter_json(self._tokens_low + 1, high),)) for q in queries
            ]
        first, last, code, answers = await self.probes.opening(low, high, extra)
        hashes = [high_hash] * bool(high_hash) + [hash_of(a) for a in answers[: len(blocks)]]
        self._high_hash, self._known_hash = hashes[0], hashes[-1] if len(hashes) > 1 else ""
        logs = answers[len(blocks) :]
        self._early_logs = logs_of(logs) if logs else None
        if isinstance(first, OldStateMissing):
            return Opening.without_old_state(low, high, last, bool(code), first)
        return Opening(low, high, first, last, bool(code))

    async def updates(self) -> AsyncGenerator[HistoryUpdate, None]:
        """Yield what is found as it is found; the stored history first."""
        assert self.opening is not None, "prepare() first"
        if self.stored is not None:  # with its tokens' units: amounts read as on the first run
            stored = tuple(sorted(self.stored.entries, key=newest_key))
            units = await self._units({e.asset for e in stored if not e.is_native})
            yield HistoryUpdate(stored, self._progress(), units=units)
        if self.opening.has_code and self.scope.native:
            yield HistoryUpdate(note=CONTRACT_CAVEAT)
        queue: asyncio.Queue[HistoryUpdate | None] = asyncio.Queue()
        self._queue = queue
        parts = []
        with counting(self.spending):  # the parts' tasks count into this run's spending
            if self.scope.native:
                parts.append(asyncio.ensure_future(self._native(queue)))
            if self.scope.tokens:
                parts.append(asyncio.ensure_future(self._tokens(queue)))
        try:
            running = len(parts)
            while running:
                update = await queue.get()
                if update is None:
                    running -= 1
                    continue
                yield update
            for part in parts:
                part.result()  # a part's failure ends the run with its error
            await self._save()
            yield HistoryUpdate(progress=self._progress(done=True))
        finally:
            await cancel_all(parts)

    def _progress(self, done: bool = False) -> HistoryProgress:
        """Return the run's progress (native search and token scan weighed alike)."""
        shares = []
        if self.scope.native:
            search = self.search
            finished = self.opening is not None and self.opening.old_state is not None
            shares.append(
                1.0 if done or finished else search.progress().fraction if search else 0.0
            )
        if self.scope.tokens:
            shares.append(1.0 if done else self._tokens_done)
        fraction = sum(shares) / max(1, len(shares))
        elapsed = time.perf_counter() - self._started
        return HistoryProgress(fraction, self._found, self.requests, elapsed)

    async def _native(self, queue: asyncio.Queue[HistoryUpdate | None]) -> None:
        """Search the native changes and attribute each; say so when old state is missing."""
        try:
            opening = self.opening
            assert opening is not None
            if opening.old_state is not None or opening.first is None:
                queue.put_nowait(HistoryUpdate(old_state=opening.old_state))
                return
            await self._search(opening, opening.first, queue)
        finally:
            queue.put_nowait(None)

    async def _search(
        self, opening: Opening, first: AccountState, queue: asyncio.Queue[HistoryUpdate | None]
    ) -> None:
        """Run the search, attributing each batch of changes as it comes."""
        self.search = BalanceSearch(
            self.probes,
            opening.low,
            opening.high,
            first,
            opening.last,
            express=opening.express_pays,
            limit=self.limit,
        )
        self.search.on_progress = lambda _: queue.put_nowait(
            HistoryUpdate(progress=self._progress())
        )
        explainer = InsideExplainer(self.inside, self.address) if self.inside else None
        attributor = Attributor(self.reader, self.address, opening.has_code, explainer)
        attributing: list[asyncio.Future[None]] = []
        try:
            async for changes in self.search.changes():  # the search goes on meanwhile
                self.changes += changes
                pinned = tuple(provisional(change, self.address) for change in changes)
                queue.put_nowait(HistoryUpdate(pinned, self._progress()))
                attributing.append(
                    asyncio.ensure_future(self._attribute(attributor, changes, queue))
                )
            await asyncio.gather(*attributing)
            reason = await self._stale_opening(first)
            if reason:
                raise OldStateMissing(opening.low, reason)
        except OldStateMissing as missing:
            verdict = OldStateVerdict.of(missing, opening.high - opening.low)
            self.opening = replace(opening, old_state=verdict)
            self.changes, self._native_entries = [], []
            queue.put_nowait(HistoryUpdate(old_state=verdict))
        finally:
            for task in attributing:
                task.cancel()

    async def _attribute(
        self,
        attributor: Attributor,
        changes: Sequence[Change],
        queue: asyncio.Queue[HistoryUpdate | None],
    ) -> None:
        """Attribute a batch of changes and hand their entries over."""
        found = await asyncio.gather(*(attributor.attribute(change) for change in changes))
        await self.limit.attributed(len(changes), sum(change.sent for change in changes))
        if any(attribution.nonce_unexplained for attribution in found):
            raise OldStateMissing(min(change.block for change in changes), NONCE_JUMP)
        for change, attribution in zip(changes, found, strict=True):
            if attribution.impossible:
                raise Contradiction(change.block, attribution.impossible)
        entries = [entry for attribution in found for entry in attribution.entries]
        self._native_entries += entries
        self._found += len(entries)
        for entry in entries:
            if entry.timestamp is not None:
                self.times.known[entry.block] = entry.timestamp
        blocks = tuple(change.block for change in changes)
        ordered = tuple(sorted(entries, key=newest_key))
        queue.put_nowait(HistoryUpdate(ordered, self._progress(), explained=blocks))

    async def _stale_opening(self, first: AccountState) -> str:
        """Return why the oldest change looks like old state the node does not have ('' if not)."""
        if self.stored is not None or not self.changes or first != AccountState(0, 0):
            return ""
        oldest = min(self.changes, key=lambda change: change.block)
        return await stale_state_reason(self.reader, oldest.block, self.counts)

    async def _tokens(self, queue: asyncio.Queue[HistoryUpdate | None]) -> None:
        """Scan the token transfers newest first, with their times and the tokens' units."""
        try:
            opening = self.opening
            assert opening is not None
            transfers = TokenTransfers(self.reader.client, self.address)
            units: dict[str, tuple[int, str]] = {}

            def on_progress(done: int, total: int) -> None:
                self._tokens_done = done / max(1, total)
                queue.put_nowait(HistoryUpdate(progress=self._progress()))

            async for entries in self._transfers(transfers, opening.high, on_progress):
                units |= await self._units({e.asset for e in entries} - set(units))
                timed = await self.timed(entries)
                self._token_entries += timed
                self._found += len(timed)
                queue.put_nowait(HistoryUpdate(tuple(timed), self._progress(), units=dict(units)))
            self.token_requests = transfers.requests
        finally:
            queue.put_nowait(None)

    async def _units(self, tokens: set[str]) -> dict[str, tuple[int, str]]:
        """Return tokens' decimals and symbols (none asked for no token)."""
        if not tokens:
            return {}
        read = await self.reader.token_units.read(tokens, every_kind=True)
        return {token: (u.decimals, u.symbol) for token, u in read.items()}

    def _transfers(
        self, transfers: TokenTransfers, high: int, on_progress: ProgressListener
    ) -> AsyncIterator[list[HistoryEntry]]:
        """Return the transfers' batches: from the opening's answers, or by scanning."""
        if self._early_logs is None:
            return transfers.scan(self._tokens_low + 1, high, on_progress)
        return answered_transfers(self._early_logs, self.address, on_progress)

    async def timed(self, entries: Sequence[HistoryEntry]) -> list[HistoryEntry]:
        """Return entries with their blocks' times (block headers read in batches)."""
        return await self.times.timed(entries)

    async def _save(self) -> None:
        """Store what is settled, if the native search (and the token scan) ran to the end."""
        opening, tokens = self.opening, self.scope.tokens
        if self.store is None or opening is None or not self.scope.native:
            return
        found = self._native_entries + (self._token_entries if tokens else [])
        record = next_record(self.stored, opening, found, tokens, self._high_hash)
        if record is not None:
            await self.store.save(self.chain, self.address, record)
