"""Reads pages' data through the client, caching what can no longer change."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from explorer.chain.records import Block, Receipt, RecordFormatError, Transaction
from explorer.rpc.client import RpcClient
from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.params import BlockSelector
from explorer.saved.cache import records_of
from explorer.services.token_units import TokenUnits
from explorer.services.verification import Verifier

T = TypeVar("T")

SAFE_CONFIRMATIONS = 12
JUST_READ_SECONDS = 3.0
QUICK_ANSWER_SECONDS = 0.01
PREFETCH_WAIT_CAP_SECONDS = 0.05  # a read ahead never holds navigation up longer
TAGS = ("latest", "pending", "earliest")


def by_hash(selector: BlockSelector | str) -> bool:
    """Tell whether a block selector is a block hash (else a number or a tag)."""
    return isinstance(selector, str) and len(selector) == 66


def block_key(selector: BlockSelector | str, full: bool) -> tuple[str, str, bool]:
    """Return the cache key of a block read."""
    return ("block", str(selector).lower(), full)


def _unreported(done: asyncio.Future[Any]) -> None:
    """Take up the failure of a read nobody awaits any more, so that asyncio reports nothing.

    A gather cancelled while its reads were under way ends with a CancelledError as its
    exception, not cancelled: without this, its collection logs "exception was never retrieved".
    """
    if not done.cancelled():
        done.exception()


class LruCache:
    """A small least-recently-used map."""

    def __init__(self, capacity: int = 2048) -> None:
        self._items: OrderedDict[Any, Any] = OrderedDict()
        self._capacity = capacity

    def get(self, key: Any) -> Any:
        """Return the cached value or None, marking it recently used."""
        if key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Any, value: Any) -> None:
        """Store a value, evicting the least recently used beyond capacity."""
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self._capacity:
            self._items.popitem(last=False)

    def __len__(self) -> int:
        """Return how many entries are cached."""
        return len(self._items)


@dataclass(frozen=True)
class TxBundle:
    """A transaction with its receipt and the time of its block, as the page needs them."""

    tx: Transaction
    receipt: Receipt | None
    block_timestamp: int | None
    revert_reason: str | None
    complete: bool = True


class ChainReader:
    """Page-level reads over the client: concurrent where possible, cached when settled."""

    def __init__(self, client: RpcClient, confirmations: int | None = None) -> None:
        self.client = client
        self.confirmations = SAFE_CONFIRMATIONS if confirmations is None else confirmations
        self.token_units = TokenUnits(client)  # decimals and symbols, read once
        self.head: int | None = None
        self.quick_answer_seconds = QUICK_ANSWER_SECONDS
        self._cache = LruCache()
        self._just_read: dict[tuple[object, ...], tuple[float, Any]] = {}
        self._reading: dict[tuple[str, str, bool], asyncio.Future[Block | None]] = {}
        self._waiters: dict[asyncio.Future[Block | None], int] = {}  # callers of each read
        self.suspect: Callable[[str], None] | None = None  # told when settled history changes
        self.verifier: Verifier | None = None  # verifies what pages read (the session's)

    def _recent(self, key: tuple[object, ...]) -> Any:
        """Return what was read for key in the last JUST_READ_SECONDS (search → page hand-off)."""
        entry = self._just_read.get(key)
        if entry is None or time.monotonic() - entry[0] > JUST_READ_SECONDS:
            return None
        return entry[1]

    def _note_read(self, key: tuple[object, ...], value: Any) -> None:
        """Keep a fresh answer briefly, even when it is not settled yet."""
        now = time.monotonic()
        self._just_read = {k: v for k, v in self._just_read.items() if now - v[0] <= 60}
        self._just_read[key] = (now, value)

    def forget(self) -> None:
        """Forget everything kept in memory (the chain reorganised below what was settled)."""
        self._cache = LruCache()
        self._just_read.clear()

    def note_head(self, number: int) -> None:
        """Record the newest head seen (from the head follower or a read)."""
        if self.head is None or number > self.head:
            self.head = number

    def forget_head(self) -> None:
        """Forget the head seen (it went back, or the chain is being checked again)."""
        self.head = None

    def _settled(self, number: int | None) -> bool:
        """Tell whether a block number is deep enough that a reorganisation is unlikely."""
        return (
            number is not None
            and self.head is not None
            and self.head - number >= self.confirmations
        )

    async def latest_number(self) -> int:
        """Ask the node for the head and remember it."""
        number = await self.client.block_number()
        self.note_head(number)
        return number

    async def head_number(self) -> int:
        """Return the known head, asking the node only when none is known."""
        return self.head if self.head is not None else await self.latest_number()

    async def block(self, selector: BlockSelector | str, *, full: bool = False) -> Block | None:
        """Return a block by number, tag or hash; settled blocks come from the cache.

        Callers asking for the same block while it is being read share that read, up to the
        moment its answer is cached (the client's own joining ends when the answer arrives).
        When the last of them is cancelled (Cancel, Esc, a page closed), so is the read.
        """
        if (known := self._known_block(selector, full)) is not None:
            return known
        reading = self._read(selector, full)
        self._waiters[reading] = self._waiters.get(reading, 0) + 1
        try:
            return await asyncio.shield(reading)
        finally:
            self._waiters[reading] -= 1
            if not self._waiters[reading]:
                del self._waiters[reading]
                self._give_up(reading)

    def known_block(self, selector: BlockSelector | str) -> Block | None:
        """Return a block already read, with its transactions if it was read so (no request)."""
        return self._known_block(selector, True) or self._known_block(selector, False)

    def _known_block(self, selector: BlockSelector | str, full: bool) -> Block | None:
        """Return a block from the cache or just read, else None (a full one serves a header)."""
        for key in {block_key(selector, full), block_key(selector, True)}:
            found = self._cache.get(key) or self._recent(key)
            if found is not None:
                return found  # type: ignore[no-any-return]
        return None

    def seen(self, block_hash: str) -> bool:
        """Tell whether a block with this hash was read here (and is still remembered)."""
        return any(self._cache.get(("block", block_hash, full)) for full in (False, True))

    def _read(self, selector: BlockSelector | str, full: bool) -> asyncio.Future[Block | None]:
        """Return the read of a block in flight, starting it when there is none.

        A header read joins a full read of the same block already under way.
        """
        key = block_key(selector, full)
        reading = self._reading.get(key) or self._reading.get(block_key(selector, True))
        if reading is None:
            reading = self._reading[key] = asyncio.ensure_future(self._read_block(selector, full))
            reading.add_done_callback(lambda done: self._read_done(key, done))
        return reading

    def _give_up(self, reading: asyncio.Future[Block | None]) -> None:
        """Cancel a read its last caller left, so its retries stop; nobody joins it after."""
        if reading.done():
            return
        for key in [key for key, shared in self._reading.items() if shared is reading]:
            self._reading.pop(key)  # nobody joins a read being cancelled
        reading.cancel()  # the last caller stopped waiting: so do its retries

    def _read_done(self, key: tuple[str, str, bool], done: asyncio.Future[Block | None]) -> None:
        """Forget a finished shared read; a failure nobody awaits is not reported."""
        if self._reading.get(key) is done:
            del self._reading[key]
        _unreported(done)

    async def _read_block(self, selector: BlockSelector | str, full: bool) -> Block | None:
        """Ask the node for a block and remember the answer."""
        if by_hash(selector):
            block = await self.client.get_block_by_hash(str(selector), full)
        else:
            block = await self.client.get_block_by_number(selector, full)
        if block is not None and block.number is not None:
            if selector == "latest":
                self.note_head(block.number)
            self._remember_block(block, full)
            if selector not in TAGS:  # a tag's answer changes with every block
                self._note_read(block_key(selector, full), block)
        return block

    async def prefetch_block(
        self,
        selector: BlockSelector | str,
        *,
        full: bool = True,
        beside: Collection[asyncio.Future[Any]] = (),
    ) -> None:
        """Start reading a block for a page about to open; return when its request left.

        The page then shares the read in flight or finds the answer just read, instead of
        asking only after the page is built. Reads started `beside` it (a transaction's
        tokens' units) are waited for too, each until it sent its request or ended: building
        the page holds the loop, and a read still on its way to the socket would wait for it.
        """
        reads = list(beside)
        if self._known_block(selector, full) is None:
            reads.append(self._read(selector, full))
        stats = getattr(self.client, "stats", None)
        sent_before = stats.total if stats is not None else 0
        deadline = asyncio.get_running_loop().time() + PREFETCH_WAIT_CAP_SECONDS
        while asyncio.get_running_loop().time() < deadline:
            waiting = sum(not read.done() for read in reads)
            sent = stats.total - sent_before if stats is not None else 0
            if waiting == 0 or (stats is not None and sent >= waiting):
                return  # each request is on its way, or answered already
            await asyncio.sleep(0)

    def _remember_block(self, block: Block, full: bool) -> None:
        """Cache a mined block by hash, and by number once settled.

        A settled height read again with another hash is not a reorganisation a chain has:
        the node may have changed chain, and `suspect` is told.
        """
        self._cache.put(("block", str(block.hash), full), block)
        if self._settled(block.number):
            known = self._cache.get(("block", str(block.number), False)) or self._cache.get(
                ("block", str(block.number), True)
            )
            if known is not None and known.hash != block.hash and self.suspect is not None:
                depth = (self.head or 0) - (block.number or 0)
                self.suspect(f"block #{block.number:,} changed {depth:,} blocks deep")
            self._cache.put(("block", str(block.number), full), block)
        if full and block.transactions and self._settled(block.number):
            for index, tx_hash in enumerate(block.transaction_hashes):
                self._cache.put(("tx in block", tx_hash), (block.transactions, index))

    def _remember_tx(self, tx: Transaction) -> None:
        """Cache a settled transaction by hash."""
        if self._settled(tx.block_number):
            self._cache.put(("tx", tx.hash), tx)

    async def transaction(self, tx_hash: str) -> Transaction | None:
        """Return a transaction by hash (cached once settled)."""
        if (
            cached := self._cache.get(("tx", tx_hash)) or self._recent(("tx", tx_hash))
        ) is not None:
            return cached  # type: ignore[no-any-return]
        if (in_block := self._cache.get(("tx in block", tx_hash))) is not None:
            transactions, index = in_block
            with contextlib.suppress(RecordFormatError):  # malformed in its block: ask for it
                return transactions[index]  # type: ignore[no-any-return]
        tx = await self.client.get_transaction_by_hash(tx_hash)
        if tx is not None:
            self._remember_tx(tx)
            if not tx.is_pending:  # a pending one is asked again to see it mined
                self._note_read(("tx", tx_hash), tx)
        return tx

    async def transaction_at(self, block: BlockSelector | str, index: int) -> Transaction | None:
        """Return transaction `index` of a block by number, tag or hash (the by-index methods).

        A mined one is kept like a transaction read by hash, so its page does not ask again.
        """
        if by_hash(block):
            tx = await self.client.get_transaction_by_block_hash_and_index(str(block), index)
        else:
            tx = await self.client.get_transaction_by_block_number_and_index(block, index)
        if tx is not None and not tx.is_pending:
            self._remember_tx(tx)
            self._note_read(("tx", tx.hash), tx)
        return tx

    async def receipt(self, tx_hash: str) -> Receipt | None:
        """Return a receipt by transaction hash (cached once settled)."""
        key = ("receipt", tx_hash)
        if (cached := self._cache.get(key) or self._recent(key)) is not None:
            return cached  # type: ignore[no-any-return]
        receipt = await self.client.get_transaction_receipt(tx_hash)
        if receipt is not None:
            self._note_read(key, receipt)
            if self._settled(receipt.block_number):
                self._cache.put(key, receipt)
        return receipt

    def known_receipts(self, tx_hashes: Sequence[str]) -> list[Receipt] | None:
        """Return every receipt of these transactions already read, in order; None if one is not."""
        found = [self._cache.get(("receipt", h)) or self._recent(("receipt", h)) for h in tx_hashes]
        return None if any(receipt is None for receipt in found) else found

    async def tx_bundle(self, tx_hash: str) -> TxBundle | None:
        """Return a transaction with receipt, block time and revert reason; None if unknown."""
        stages = [bundle async for bundle in self.tx_stages(tx_hash)]
        return stages[-1]

    async def tx_stages(self, tx_hash: str) -> AsyncIterator[TxBundle | None]:
        """Yield what is known of a transaction as it arrives, the complete bundle last.

        A mined transaction first comes without its block time and revert reason (complete
        False) while those are read; the page can show status, receipt and logs meanwhile.
        A pending or unknown transaction (None) is yielded once.
        """
        tx, receipt = await asyncio.gather(self.transaction(tx_hash), self.receipt(tx_hash))
        if tx is None or tx.is_pending or tx.block_number is None:
            yield None if tx is None else TxBundle(tx, None, None, None)
            return
        where = tx.block_hash or tx.block_number
        rest = asyncio.ensure_future(
            asyncio.gather(self.block(where), self._revert_reason(tx, receipt))
        )
        try:
            # A quick answer (a cached block, a node close by) makes one complete stage; a slow
            # one shows the partial stage meanwhile, after the requests have left.
            await asyncio.wait([rest], timeout=self.quick_answer_seconds)
            if not rest.done():
                yield TxBundle(tx, receipt, None, None, complete=False)
            block, reason = await rest
        finally:
            rest.add_done_callback(_unreported)  # it fails or is cancelled with its page closed
            rest.cancel()
        yield TxBundle(tx, receipt, block.timestamp if block else None, reason)

    async def _revert_reason(self, tx: Transaction, receipt: Receipt | None) -> str | None:
        """Replay a failed transaction with eth_call at its parent block to learn why it failed."""
        if receipt is None or receipt.succeeded is not False or tx.block_number is None:
            return None
        call: dict[str, Any] = {"from": tx.sender, "gas": hex(tx.gas), "value": hex(tx.value)}
        call["gasPrice"] = hex(tx.gas_price)
        call["data"] = "0x" + tx.input.hex()
        if tx.to is None:
            return None
        call["to"] = tx.to
        key = ("revert", tx.hash)
        if (cached := self._cache.get(key)) is not None:
            return str(cached)
        saved = records_of(self.client)
        kept = await saved.get("revert", tx.hash) if saved is not None else None
        if isinstance(kept, str):
            self._cache.put(key, kept)
            return kept
        try:
            await self.client.eth_call(call, hex(max(tx.block_number - 1, 0)))
        except NodeError as error:
            reason = error.revert_reason or error.message
        except RpcError:
            return None
        else:
            reason = "out of gas or an error that does not repeat in a replay"
        self._cache.put(key, reason)
        if saved is not None:  # a replay at a settled block answers the same
            saved.keep("revert", tx.hash, reason, tx.block_number)
        return reason
