"""Loaders of the peg's pages: the Bridge, a peg-in, a transaction's peg-out stages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

from explorer.chain.peg import PegNetwork, peg_network
from explorer.chain.records import Receipt, Transaction
from explorer.presentation.bridge_document import bridge_document
from explorer.presentation.document import Document
from explorer.presentation.pegin_document import pegin_document
from explorer.presentation.pegout_document import with_pegout
from explorer.services.bridge import Found, read_bridge
from explorer.services.networks import Network, NetworkKind
from explorer.services.pegin import pegin_status
from explorer.services.pegout import (
    PegoutStatus,
    follow_release,
    is_pegout,
    pegout_stages,
)
from explorer.services.reader import ChainReader


def network_peg(network: Network) -> PegNetwork:
    """Return the peg's constants of a network (the local devnet has its own upgrades)."""
    return peg_network(network.chain_id, devnet=network.kind is NetworkKind.DEVNET)


async def load_bridge(reader: ChainReader, network: Network) -> Document:
    """Read the Bridge (one round trip) and build its page."""
    overview = await read_bridge(reader)
    head = overview.block if isinstance(overview.block, int) else reader.head
    return bridge_document(
        overview,
        network_peg(network),
        chain_id=network.chain_id,
        currency=network.currency,
        head=head,
    )


async def pegin_documents(
    reader: ChainReader, network: Network, txid: str
) -> AsyncIterator[Document]:
    """Yield a peg-in's page; for a refund, again as the refund's peg-out is followed."""
    peg = network_peg(network)
    status = await pegin_status(reader, txid, network.chain_id)
    chain, currency = network.chain_id, network.currency
    yield pegin_document(status, peg, chain_id=chain, currency=currency)
    request = status.refund
    tx, block = status.registering_tx, status.block
    if request is None or tx is None or block is None or block.number is None:
        return
    head = reader.head if reader.head is not None else await reader.latest_number()
    events = [e for e in status.events if e.log.transaction_hash == tx.hash]
    creation = next((e for e in events if e.decoded.event == request), None)
    if creation is None:
        return
    created = tuple(Found(e.log, e.decoded) for e in events)
    batch = Found(creation.log, creation.decoded)
    refund = PegoutStatus(tx, None, head, batch=batch, creation=created)

    async for stage in follow_release(reader, refund, peg):
        yield pegin_document(status, peg, chain_id=chain, currency=currency, refund=stage)


async def pegout_documents(
    reader: ChainReader,
    network: Network,
    document: Document,
    tx: Transaction,
    receipt: Receipt | None,
) -> AsyncIterator[Document]:
    """Yield a mined transaction's document with its peg-out stages as they are found."""
    if receipt is None or not is_pegout(tx, receipt):
        return
    peg = network_peg(network)
    async for status in pegout_stages(reader, tx, receipt, peg):
        yield with_pegout(document, status, peg, network.currency)


def without_progress(status: PegoutStatus) -> PegoutStatus:
    """Return a status without its search progress (for a final text report)."""
    return replace(status, scanning=None)
