"""Async loaders that turn a route into a page document; shared by the window and `report`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace

from explorer.chain.abi import decode_call
from explorer.chain.pooled import PooledTx
from explorer.chain.records import Block, Transaction
from explorer.presentation.address_document import address_document, load_address_facts
from explorer.presentation.arguments import token_contracts
from explorer.presentation.block_document import block_document
from explorer.presentation.bridge_loaders import load_bridge, pegin_documents
from explorer.presentation.callee import Callee, read_callee, wants_callee
from explorer.presentation.document import Document
from explorer.presentation.missing import Missing, TxSupport, missing_stages
from explorer.presentation.tx_document import TxFacts, tx_document
from explorer.presentation.verification import with_verdict
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenStore, SeenTx, seen_by
from explorer.services.diagnosis import PendingDiagnosis, diagnose_pending, wait_since
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.services.routes import Page, Route, tx_position
from explorer.services.token_units import TokenUnit


def block_selector(target: str) -> str | int:
    """Return a block route's target as a number, a tag or a hash."""
    if target.isdigit():
        return int(target)
    return target


async def load_block(
    reader: ChainReader, network: Network, target: str
) -> tuple[Document, Block] | None:
    """Load a block with full transactions and build its verified document; None: not found."""
    read = await read_block(reader, network, target)
    return None if read is None else (await verified_block(reader, *read), read[1])


async def read_block(
    reader: ChainReader, network: Network, target: str
) -> tuple[Document, Block] | None:
    """Read a block with full transactions; its document says it is being checked."""
    block = await reader.block(block_selector(target), full=True)
    if block is None:
        return None
    head = reader.head if reader.head is not None else None
    if head is None and not block.is_pending:
        head = await reader.head_number()
    document = block_document(
        block, chain_id=network.chain_id, currency=network.currency, head=head, now=time.time()
    )
    return (document if reader.verifier is None else with_verdict(document, None)), block


async def verified_block(reader: ChainReader, document: Document, block: Block) -> Document:
    """Return a block's document with its verdict (the receipts already read, asking for none)."""
    if reader.verifier is None:
        return document
    receipts = reader.known_receipts(block.transaction_hashes)
    return with_verdict(document, await reader.verifier.block_off_thread(block, receipts))


@dataclass
class TxMemory:
    """What a transaction page read last time, reused while the head stays where it was."""

    pending: PendingDiagnosis | None = None
    missing: Missing | None = None


async def load_tx(
    reader: ChainReader,
    network: Network,
    target: str,
    support: TxSupport | None = None,
    endpoint: Endpoint | None = None,
) -> TxFacts | Missing:
    """Load a transaction (by hash or `B/N`) completely; Missing when the node lacks it."""
    stages = load_tx_stages(reader, network, target, support, endpoint)
    return [stage async for stage in stages][-1]


async def load_tx_stages(
    reader: ChainReader,
    network: Network,
    target: str,
    support: TxSupport | None = None,
    endpoint: Endpoint | None = None,
    memory: TxMemory | None = None,
) -> AsyncIterator[TxFacts | Missing]:
    """Yield what is known of a transaction as it arrives (see ChainReader.tx_stages).

    The target is a hash, or `B/N` for transaction N of block B (read with the by-index
    methods). A pending transaction is noted locally and diagnosed; a missing one is
    explained (presentation/missing.py). The complete stage comes last.
    """
    support = support or TxSupport()
    memory = memory if memory is not None else TxMemory()
    tx_hash, asked_for = target, ""
    if (position := tx_position(Route(Page.TX, target))) is not None:
        block, index = position
        shown = f"{block:,}" if isinstance(block, int) else block
        asked_for = f"transaction {index} of block {shown}"
        tx = await reader.transaction_at(block, index)
        if tx is None:
            yield Missing(target, complete=True, asked_for=asked_for)
            return
        tx_hash = tx.hash
    units: asyncio.Future[dict[str, TokenUnit]] | None = None
    try:
        async for bundle in reader.tx_stages(tx_hash):
            if bundle is None:
                async for missing in missing_stages(
                    reader, network, tx_hash, support, endpoint, memory.missing
                ):
                    memory.missing = missing if missing.complete else memory.missing
                    yield replace(missing, asked_for=asked_for)
                return
            tokens = token_contracts(bundle.tx, bundle.receipt)
            if units is None and tokens and not bundle.tx.is_pending:  # beside the block's read
                units = asyncio.ensure_future(reader.token_units.read(tokens))
            head = reader.head
            if head is None and not bundle.tx.is_pending:
                head = await reader.head_number()
            facts = TxFacts(
                bundle.tx,
                bundle.receipt,
                bundle.block_timestamp,
                head,
                bundle.revert_reason,
                bundle.complete,
                units=reader.token_units.known(tokens),  # read so far; the rest comes complete
            )
            if bundle.tx.is_pending:
                store = support.store
                pending = _pending_stages(reader, network, endpoint, facts, store, memory)
                async for stage in pending:
                    yield stage
                return
            if bundle.complete:
                facts = await _completed(reader, facts, units)
            yield facts
    finally:
        if units is not None:
            units.cancel()  # a page closed meanwhile: the read is not wanted


async def _completed(
    reader: ChainReader, facts: TxFacts, units: asyncio.Future[dict[str, TokenUnit]] | None
) -> TxFacts:
    """Add what the complete stage shows: the size of its block, and its tokens' units.

    The units were asked as soon as the transaction and its receipt named the tokens, beside
    the block's read, so the complete stage waits for no further round trip.
    """
    block_hash = facts.tx.block_hash
    mined_in, read_units, callee = await asyncio.gather(
        reader.block(block_hash) if block_hash is not None else _nothing(),  # cached: its time
        units if units is not None else _no_units(),
        _callee(reader, facts.tx),
    )
    block = mined_in if isinstance(mined_in, Block) else None
    size = len(block.transaction_hashes) if block is not None else None
    verdict = None
    if reader.verifier is not None and block is not None:  # its transactions, if read already
        known = reader.known_block(block.hash or "") or block
        receipts = reader.known_receipts(known.transaction_hashes)
        verdict = await reader.verifier.transaction_off_thread(
            facts.tx, facts.receipt, known, receipts
        )
    return replace(facts, block_size=size, units=read_units, callee=callee, verdict=verdict)


NATIVE_CONTRACTS = 0x01000100  # precompiles and Rootstock's native contracts (the Bridge…)


async def _callee(reader: ChainReader, tx: Transaction) -> Callee | None:
    """Read the code an undecoded call (or a call to a proxy) ran against, to decode it."""
    if tx.block_number is None or tx.to is None or int(tx.to, 16) <= NATIVE_CONTRACTS:
        return None
    if not await wants_callee(reader.client, tx.to, tx.input, decode_call(tx.input)):
        return None
    return await read_callee(reader.client, tx.to, max(tx.block_number - 1, 0), tx.input)


async def _no_units() -> dict[str, TokenUnit]:
    """Return no units (an awaitable for a transaction without tokens)."""
    return {}


async def _pending_stages(
    reader: ChainReader,
    network: Network,
    endpoint: Endpoint | None,
    facts: TxFacts,
    store: SeenStore | None,
    memory: TxMemory,
) -> AsyncIterator[TxFacts]:
    """Yield a pending transaction, then why it waits (read again only when the head moved)."""
    now = time.time()
    candidate = PooledTx.of_tx(facts.tx)
    seen_at, by = reader.head, seen_by(endpoint)
    noting = (
        store.note(SeenTx(network.chain_id, candidate, now, seen_at, now, seen_at, False, by))
        if store is not None
        else None
    )
    previous = memory.pending
    if previous is not None and previous.candidate == candidate and previous.state.head == seen_at:
        seen = await noting if noting is not None else None
        wait = wait_since(seen, previous.state.head, now)
        yield replace(facts, diagnosis=replace(previous, wait=wait))
        return
    yield replace(facts, complete=False, diagnosis=previous)
    seen, diagnosis = await asyncio.gather(
        noting if noting is not None else _nothing(), diagnose_pending(reader, candidate, None, now)
    )
    diagnosis = replace(diagnosis, wait=wait_since(seen, diagnosis.state.head, now))
    memory.pending = diagnosis
    yield replace(facts, diagnosis=diagnosis)


async def _nothing() -> None:
    """Return None (an awaitable for a store that is not there)."""
    return None


async def load_document(reader: ChainReader, network: Network, route: Route) -> Document | None:
    """Load any page's document (the `report` command's entry point)."""
    if route.page is Page.BLOCK:
        loaded = await load_block(reader, network, route.target)
        return None if loaded is None else loaded[0]
    if route.page is Page.TX:
        facts = await load_tx(reader, network, route.target)
        if isinstance(facts, Missing):
            return None
        return tx_document(
            facts, chain_id=network.chain_id, currency=network.currency, now=time.time()
        )
    if route.page is Page.ADDRESS:
        return address_document(await load_address_facts(reader, route.target), network)
    if route.page is Page.BRIDGE:
        return await load_bridge(reader, network)
    if route.page is Page.PEGIN:
        return [document async for document in pegin_documents(reader, network, route.target)][-1]
    raise ValueError(f"no page loader for {route}")
