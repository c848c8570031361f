"""Turns a parsed search query into a route, asking the node only what it must."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.chain import query as q
from explorer.chain.records import Block, Receipt, Transaction
from explorer.saved.cache import NotSaved
from explorer.services.pegin import is_pegin
from explorer.services.reader import ChainReader
from explorer.services.rns import RnsError, resolve_name
from explorer.services.routes import (
    BRIDGE_PAGE,
    Route,
    address_route,
    block_route,
    pegin_route,
    tx_route,
)

NOT_SAVED = (
    "not in the saved data: no transaction or block with this hash was saved "
    "(the node cannot be reached)"
)


@dataclass(frozen=True)
class Resolution:
    """Where a search leads (route), or why it leads nowhere (message).

    A warning (a doubtful checksum) and a note (the address a name resolved to) travel along.
    """

    route: Route | None
    message: str = ""
    warning: str = ""
    note: str = ""


#: Hears a mined transaction found, before its page is built; returns the read it started.
TxFound = Callable[[Transaction, Receipt | None], asyncio.Future[Any] | None]


async def resolve(
    query: q.Query,
    reader: ChainReader,
    rns_registry: str | None,
    on_transaction: TxFound | None = None,
) -> Resolution:
    """Resolve a parsed query; not found is a message, RPC failures raise RpcError.

    on_transaction hears a transaction found by hash (with its receipt) before its page is
    built, so what the page reads next (its tokens' units) can go out with its block's read.
    """
    match query:
        case q.Invalid(message=message):
            return Resolution(None, message)
        case q.BlockNumberQuery(number=number):
            await reader.prefetch_block(number)
            return Resolution(block_route(number))
        case q.BlockTagQuery(tag=tag):
            return Resolution(block_route(tag))
        case q.BridgeQuery():
            return Resolution(BRIDGE_PAGE)
        case q.AddressQuery(address=address, warning=warning):
            return Resolution(address_route(address), warning=warning or "")
        case q.HashQuery(hash=value):
            return await _resolve_hash(value, reader, on_transaction)
        case q.RnsQuery(name=name):
            try:
                address = await resolve_name(reader.client, rns_registry, name)
            except RnsError as error:
                return Resolution(None, str(error))
            return Resolution(address_route(address), note=f"{name} → {address}")
    return Resolution(None, "This search is not recognised.")


async def _resolve_hash(
    value: str, reader: ChainReader, on_transaction: TxFound | None = None
) -> Resolution:
    """Ask for a transaction and its receipt at once; a block with this hash only when neither.

    The receipt is asked speculatively: when the hash is a transaction, its page needs it next
    (the reader keeps it briefly), which saves a round trip. A block's hash is looked up after
    (a second round trip for block searches, one request fewer for every transaction's page).
    A mined transaction's block (for its time) is asked before the page is built.
    """
    answers: list[object] = list(
        await asyncio.gather(
            reader.transaction(value), reader.receipt(value), return_exceptions=True
        )
    )
    for answer in answers:
        if isinstance(answer, BaseException) and not isinstance(answer, NotSaved):
            raise answer
    if not isinstance(answers[0], Transaction):
        try:
            answers.append(await reader.block(value))
        except NotSaved as missing:  # offline: not in the saved data either
            answers.append(missing)
    tx = answers[0] if isinstance(answers[0], Transaction) else None
    block = answers[2] if len(answers) > 2 and isinstance(answers[2], Block) else None
    if tx is None and block is None and any(isinstance(a, NotSaved) for a in answers):
        raise NotSaved(NOT_SAVED)
    if tx is not None:
        if tx.block_hash is not None:  # the page shows its block's time, and its tokens' units
            receipt = answers[1] if isinstance(answers[1], Receipt) else None
            ahead = on_transaction(tx, receipt) if on_transaction is not None else None
            beside = () if ahead is None else (ahead,)
            await reader.prefetch_block(tx.block_hash, full=False, beside=beside)
        return Resolution(tx_route(value))
    if block is not None:
        return Resolution(block_route(value))
    # Neither: a Bitcoin txid the Bridge took or refused (its mark, else its events) leads to
    # the peg-in's status; else the transaction page says what "not found" can mean.
    if await is_pegin(reader, value):
        return Resolution(pegin_route(value))
    note = "Nor is it the Bitcoin transaction of a peg-in the Bridge has registered."
    return Resolution(tx_route(value), warning=note)
