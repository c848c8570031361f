"""Find the transaction that used a sender's nonce, in the blocks since a given one (bounded).

The sender's mined nonce only grows, so the block that mined nonce N is the first block at
which eth_getTransactionCount(sender, block) exceeds N: a binary search finds it in about
log2(blocks) requests, then one read of that block (full transactions) names the
transaction. A node that cannot answer nonces at past blocks gets a scan of the newest
blocks instead, at most SCAN_LIMIT of them. Each step reports its progress.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from explorer.chain.records import Transaction
from explorer.rpc.errors import NodeError
from explorer.services.reader import ChainReader

SCAN_LIMIT = 64  # blocks read one by one when the node cannot tell past nonces
SEARCH_LIMIT = 1_000_000  # blocks a binary search may span (20 steps)


@dataclass(frozen=True)
class SearchProgress:
    """Where the search is: the blocks it spans, the steps done and of about how many."""

    first: int
    last: int
    step: int
    steps: int
    block: int | None = None  # the block being looked at


@dataclass(frozen=True)
class SearchResult:
    """The transaction that used the nonce (None when not found) and the blocks searched."""

    transaction: Transaction | None
    first: int
    last: int
    requests: int


Progress = Callable[[SearchProgress], None]


async def find_nonce_user(
    reader: ChainReader,
    sender: str,
    nonce: int,
    first: int,
    last: int,
    progress: Progress | None = None,
) -> SearchResult:
    """Return the transaction of sender with this nonce mined in blocks first..last."""
    first = max(0, min(first, last), last - SEARCH_LIMIT)
    report = progress or (lambda _: None)
    try:
        return await _bisect(reader, sender, nonce, first, last, report)
    except NodeError:  # no state at past blocks: scan the newest blocks instead
        return await _scan(reader, sender, nonce, max(first, last - SCAN_LIMIT + 1), last, report)


async def _bisect(
    reader: ChainReader, sender: str, nonce: int, first: int, last: int, report: Progress
) -> SearchResult:
    """Binary-search the first block whose nonce count passes nonce, then read that block."""
    steps = math.ceil(math.log2(last - first + 1)) + 1 if last > first else 1
    low, high, step = first, last, 0
    while low < high:
        middle = (low + high) // 2
        step += 1
        report(SearchProgress(first, last, step, steps, middle))
        if await reader.client.get_transaction_count(sender, middle) > nonce:
            high = middle
        else:
            low = middle + 1
    report(SearchProgress(first, last, step + 1, steps, low))
    found = await _in_block(reader, low, sender, nonce)
    return SearchResult(found, first, last, step + 1)


async def _scan(
    reader: ChainReader, sender: str, nonce: int, first: int, last: int, report: Progress
) -> SearchResult:
    """Read blocks newest first until one holds the sender's transaction with that nonce."""
    total = last - first + 1
    for step, number in enumerate(range(last, first - 1, -1), start=1):
        report(SearchProgress(first, last, step, total, number))
        found = await _in_block(reader, number, sender, nonce)
        if found is not None:
            return SearchResult(found, first, last, step)
    return SearchResult(None, first, last, total)


async def _in_block(
    reader: ChainReader, number: int, sender: str, nonce: int
) -> Transaction | None:
    """Return the sender's transaction with that nonce in a block, if it is there."""
    block = await reader.block(number, full=True)
    if block is None or block.transactions is None:
        return None
    return next(
        (
            tx
            for tx in block.transactions.well_formed()
            if tx.sender == sender and tx.nonce == nonce
        ),
        None,
    )
