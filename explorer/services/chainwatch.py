"""Chain identity watched, not checked once: the chain id each poll carries, each head's link.

A session's chain is checked when it opens (chaincheck.py), but a node may change chain later
behind the same URL, or its chain may reorganise under what was saved. So the head poll asks
`eth_chainId` beside `eth_blockNumber` (one JSON-RPC batch; two concurrent calls where the
node takes none) at least every CHAIN_ID_SECONDS: a node that starts reporting another chain
id is caught within that and one poll, before its head is shown. And every new head's parent
link is checked against the head seen before, whatever page is open (the home page, block
pages, the watchlist, or none): one header read per new head, none when a page has just read
it, one more when the head moved by more than a block. A broken link is a reorganisation:
blocks are read back from the node itself (never the saved data) until one is a block seen
before, at most WALK_LIMIT, each shown to the saved data, which drops what it holds of a
replaced block; one deeper than REORG_RECHECK_DEPTH checks the chain again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from explorer.chain import bounds
from explorer.chain.hexutil import HexFormatError
from explorer.chain.records import Block, RecordFormatError
from explorer.rpc.errors import ChainMismatch, MalformedResponse, RpcError
from explorer.rpc.node_answers import TO_THE_NODE
from explorer.saved.cache import SessionCache
from explorer.services.chaincheck import ChainChecker
from explorer.services.live import REORG_RECHECK_DEPTH
from explorer.services.probes import ReadCounts, read_together
from explorer.services.reader import ChainReader

#: The chain id rides with a poll at least this often: a relabelled chain is seen within it.
CHAIN_ID_SECONDS = 30.0
#: Blocks read back at most to find where a reorganisation began (one request each).
WALK_LIMIT = 64
BOOK_SIZE = 4 * WALK_LIMIT  # heights whose hash the watch remembers


class ChainWatch:
    """Watches one session's node: its chain id at the polls, its new heads' parent links."""

    def __init__(
        self,
        reader: ChainReader,
        checker: ChainChecker,
        cache: SessionCache | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.reader = reader
        self.checker = checker
        self.cache = cache
        self.clock = clock
        self.counts = ReadCounts()
        self.tip: tuple[int, str] | None = None  # the newest head whose link was checked
        self.book: dict[int, str] = {}  # heights' hashes seen by the watch
        self.reorganised = 0  # reorganisations found
        self._chain_id_at = float("-inf")  # when the chain id last rode with a poll
        self._target: int | None = None
        self._task: asyncio.Task[None] | None = None

    # --- the poll: the head, and the chain id when due ------------------------------------

    def chain_id_due(self) -> bool:
        """Tell whether the next poll carries the chain id."""
        return self.clock() - self._chain_id_at >= CHAIN_ID_SECONDS

    async def poll(self) -> int:
        """Return the node's head; first raise ChainMismatch if it reports another chain id."""
        if not self.chain_id_due():
            return await self.reader.latest_number()
        calls = [("eth_blockNumber", ()), ("eth_chainId", ())]
        head, chain_id = await read_together(self.reader.client, calls, self.counts)
        for answer in (head, chain_id):
            if isinstance(answer, RpcError):
                raise answer
        self._chain_id_at = self.clock()
        node = self.reader.client.node_name
        self._compare(_number(chain_id, "eth_chainId", node))
        number = _number(head, "eth_blockNumber", node)
        self.reader.note_head(number)
        return number

    def _compare(self, chain_id: int) -> None:
        """Check the chain again (and show nothing of this poll) when the chain id changed."""
        verified = self.checker.check.chain_id
        if verified is None or chain_id == verified:
            return
        reason = f"the node now reports chain id {chain_id}, not {verified}"
        self.checker.suspect(reason)
        raise ChainMismatch(reason, expected=verified, actual=chain_id)

    def verified(self) -> None:
        """Note that the chain check has just read the chain id (the next poll needs none)."""
        self._chain_id_at = self.clock()

    # --- new heads: the parent link -------------------------------------------------------

    def follow(self, head: int) -> None:
        """Check a new head's link to the one before (in the background, the newest wins)."""
        self._target = head if self._target is None else max(self._target, head)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._follow())

    async def _follow(self) -> None:
        """Check the heads heard, one at a time; a failed read leaves it to the next head."""
        while self._target is not None:
            head, self._target = self._target, None
            try:
                await self.check_link(head)
            except RpcError:
                return

    async def check_link(self, head: int) -> None:
        """Read the head (after the pages' own reads: shared) and check its parent link."""
        quiet = getattr(self.reader.client, "quiet", None)
        if quiet is not None:
            await quiet()
        block = await self.reader.block(head)
        if block is None or block.hash is None or block.number is None:
            return
        tip = self.tip
        if tip is not None and head > tip[0]:
            child = block if head == tip[0] + 1 else await self._read_child(tip[0] + 1)
            if child is None or child.parent_hash != tip[1]:
                await self._walk(tip[0])
        if tip is None or head > tip[0]:
            self._note(block)
            self.tip = (block.number, block.hash)

    async def _read_child(self, number: int) -> Block | None:
        """Return the block after the tip: as a page has just read it, else from the node."""
        return self.reader.known_block(number) or await self._fresh(number)

    def _note(self, block: Block) -> None:
        """Remember a block's hash and its parent's."""
        if block.number is None or block.hash is None:
            return
        self.book[block.number] = block.hash
        if block.number > 0:
            self.book.setdefault(block.number - 1, block.parent_hash)
        for number in sorted(self.book)[:-BOOK_SIZE]:
            del self.book[number]

    def _seen(self, number: int, block_hash: str) -> bool:
        """Tell whether a block is one seen before at its height (the chain known here)."""
        known = self.book.get(number)
        if known is not None:
            return known == block_hash
        saved = self.cache.reorgs.known.get(number) if self.cache is not None else None
        return saved == block_hash or self.reader.seen(block_hash)

    async def _walk(self, start: int) -> None:
        """Read back from start until a block seen before; the saved data drops what changed."""
        self.reorganised += 1
        try:
            await self._read_back(start)
        finally:
            self.reader.forget()  # what it holds of settled blocks may be of the other branch

    async def _read_back(self, start: int) -> None:
        """Read blocks from start down to one seen before; check the chain if it is deep."""
        replaced = 0
        for number in range(start, max(start - WALK_LIMIT, -1), -1):
            block = await self._fresh(number)
            if block is None or block.hash is None:
                break
            if self._seen(number, block.hash):
                break
            replaced += 1
            self.book[number] = block.hash
        else:
            self.checker.suspect(f"the chain reorganised below the {WALK_LIMIT} blocks read back")
            return
        if replaced > REORG_RECHECK_DEPTH:
            self.checker.suspect(f"a reorganisation {replaced} blocks deep")

    async def _fresh(self, number: int) -> Block | None:
        """Read a block from the node itself; the saved data compares it with what it holds."""
        direct = TO_THE_NODE.set(True)
        try:
            raw: Any = await self.reader.client.request("eth_getBlockByNumber", hex(number), False)
        finally:
            TO_THE_NODE.reset(direct)
        self.counts.add(1, 1)
        if raw is None:
            return None
        try:
            block = Block.from_json(raw)
        except (RecordFormatError, HexFormatError) as error:
            message = f"eth_getBlockByNumber returned an unexpected shape: {error}"
            raise MalformedResponse(message) from None
        if self.cache is not None:
            self.cache.reorgs.watch(raw)
        return block

    def stop(self) -> None:
        """Stop checking links (the session closes)."""
        self._target = None
        if self._task is not None:
            self._task.cancel()
            self._task = None


def _number(value: Any, method: str, node: str) -> int:
    """Parse a quantity a poll read, or raise MalformedResponse naming the node, as calls do."""
    try:
        return bounds.BLOCK_NUMBER.parse(value)
    except (HexFormatError, TypeError) as error:
        raise MalformedResponse(f"{node} sent an impossible {method} answer: {error}") from None
