"""Async loaders that turn a route into a page document; shared by the window and `report`."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

from explorer.chain.records import Block
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.services.routes import Page, Route
from explorer.viewmodels.address_document import address_document, load_address_facts
from explorer.viewmodels.block_document import block_document
from explorer.viewmodels.document import Document
from explorer.viewmodels.tx_document import TxFacts, tx_document


def block_selector(target: str) -> str | int:
    """Return a block route's target as a number, a tag or a hash."""
    if target.isdigit():
        return int(target)
    return target


async def load_block(
    reader: ChainReader, network: Network, target: str
) -> tuple[Document, Block] | None:
    """Load a block with full transactions and build its document; None when not found."""
    block = await reader.block(block_selector(target), full=True)
    if block is None:
        return None
    head = reader.head if reader.head is not None else None
    if head is None and not block.is_pending:
        head = await reader.head_number()
    document = block_document(
        block, chain_id=network.chain_id, currency=network.currency, head=head, now=time.time()
    )
    return document, block


async def load_tx(reader: ChainReader, network: Network, tx_hash: str) -> TxFacts | None:
    """Load a transaction with its receipt, block time and revert reason; None when not found."""
    stages = [facts async for facts in load_tx_stages(reader, network, tx_hash)]
    return stages[-1]


async def load_tx_stages(
    reader: ChainReader, network: Network, tx_hash: str
) -> AsyncIterator[TxFacts | None]:
    """Yield a transaction's facts as they arrive (see ChainReader.tx_stages), complete last."""
    async for bundle in reader.tx_stages(tx_hash):
        if bundle is None:
            yield None
            return
        head = reader.head
        if head is None and not bundle.tx.is_pending:
            head = await reader.head_number()
        yield TxFacts(
            bundle.tx,
            bundle.receipt,
            bundle.block_timestamp,
            head,
            bundle.revert_reason,
            bundle.complete,
        )


async def load_document(reader: ChainReader, network: Network, route: Route) -> Document | None:
    """Load any page's document (the `report` command's entry point)."""
    if route.page is Page.BLOCK:
        loaded = await load_block(reader, network, route.target)
        return None if loaded is None else loaded[0]
    if route.page is Page.TX:
        facts = await load_tx(reader, network, route.target)
        if facts is None:
            return None
        return tx_document(
            facts, chain_id=network.chain_id, currency=network.currency, now=time.time()
        )
    if route.page is Page.ADDRESS:
        return address_document(await load_address_facts(reader, route.target), network)
    raise ValueError(f"no page loader for {route}")
