"""A block page in stages: its counts first when the full block is slow, then the block."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass

from explorer.chain.records import Block
from explorer.presentation import format as fmt
from explorer.presentation.document import Document, Section, Tone
from explorer.presentation.loaders import block_selector, read_block, verified_block
from explorer.rpc.errors import RpcError
from explorer.rpc.wrappers import TypedCalls
from explorer.services.networks import Network
from explorer.services.reader import ChainReader, by_hash

#: A full block not read by then (thousands of transactions, a slow node) shows its counts
#: first: two small requests, answered long before megabytes of transactions.
COUNTS_AFTER_SECONDS = 0.25


@dataclass(frozen=True)
class BlockCounts:
    """What the count methods say of a block not read yet."""

    transactions: int
    uncles: int


async def read_counts(client: TypedCalls, selector: str | int) -> BlockCounts | None:
    """Ask for a block's transaction and uncle counts (by hash or by number); None: unknown."""
    if by_hash(selector):
        transactions, uncles = await asyncio.gather(
            client.get_block_transaction_count_by_hash(str(selector)),
            client.get_uncle_count_by_block_hash(str(selector)),
        )
    else:
        transactions, uncles = await asyncio.gather(
            client.get_block_transaction_count_by_number(selector),
            client.get_uncle_count_by_block_number(selector),
        )
    if transactions is None or uncles is None:
        return None
    return BlockCounts(transactions, uncles)


def counts_document(target: str, counts: BlockCounts) -> Document:
    """Return the block page while its transactions are on their way."""
    title = f"Block {int(target):,}" if target.isdigit() else f"Block {target}"
    return Document(
        title=title,
        headline=fmt.status_field(
            "Status",
            "reading",
            f"Reading the block's {counts.transactions:,} transactions…",
            Tone.WAITING,
        ),
        sections=(
            Section(
                "Overview",
                (
                    fmt.quantity_field("Transactions", counts.transactions),
                    fmt.quantity_field("Uncles", counts.uncles),
                ),
                note="From the count methods; the rest follows with the block.",
            ),
        ),
        page="block",
    )


async def load_block_stages(
    reader: ChainReader,
    network: Network,
    target: str,
    counts_after: float = COUNTS_AFTER_SECONDS,
) -> AsyncIterator[tuple[Document, Block] | tuple[Document, None] | None]:
    """Yield the block's counts (only if the block is slow), then (document, block) or None.

    The block comes first with its verification under way, then again with the verdict: a
    thousand transactions take a while to hash, and the table need not wait for it.
    """
    full = asyncio.ensure_future(read_block(reader, network, target))
    counts: asyncio.Future[BlockCounts | None] | None = None
    try:
        await asyncio.wait([full], timeout=counts_after)
        if not full.done():
            counts = asyncio.ensure_future(read_counts(reader.client, block_selector(target)))
            await asyncio.wait([full, counts], return_when=asyncio.FIRST_COMPLETED)
            if not full.done():
                with contextlib.suppress(RpcError):
                    if (found := await counts) is not None and not full.done():
                        yield counts_document(target, found), None
        read = await full
        yield read
        if read is not None and reader.verifier is not None:
            yield await verified_block(reader, *read), read[1]
    finally:
        for task in (full, counts):
            if task is not None:
                task.cancel()
