"""The fallback without old state: read every block, newest first, for the address's transactions.

It costs one request per block (and one per receipt of what the address sent, for the fee)
and finds only transactions: value moved by contracts, REMASC payments and peg-ins leave no
trace there, and no balance after each entry can be told.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, Callable

from explorer.chain.history import HistoryEntry
from explorer.services.attribution import own_transactions, tx_entry
from explorer.services.reader import ChainReader

BLOCKS_AT_ONCE = 8
ProgressListener = Callable[[int, int], None]  # blocks read, blocks in all


async def scan_blocks(
    reader: ChainReader,
    address: str,
    first: int,
    last: int,
    on_progress: ProgressListener | None = None,
) -> AsyncGenerator[list[HistoryEntry], None]:
    """Yield the address's transactions in blocks last..first, newest first."""
    total = last - first + 1
    for top in range(last, first - 1, -BLOCKS_AT_ONCE):
        numbers = range(top, max(first, top - BLOCKS_AT_ONCE + 1) - 1, -1)
        blocks = await asyncio.gather(*(reader.block(n, full=True) for n in numbers))
        entries: list[HistoryEntry] = []
        for block in blocks:
            if block is None:
                continue
            own = own_transactions(block, address)
            sent = [tx for tx in own if tx.sender == address]
            receipts = await asyncio.gather(*(reader.receipt(tx.hash) for tx in sent))
            by_hash = {tx.hash: r for tx, r in zip(sent, receipts, strict=True)}
            entries += [tx_entry(tx, address, by_hash.get(tx.hash), block.timestamp) for tx in own]
        if on_progress is not None:
            on_progress(last - numbers[-1] + 1, total)
        if entries:
            yield sorted(entries, key=lambda e: e.sort_key, reverse=True)
