"""A peg-in's status from its Bitcoin txid: what the Bridge did with it, in two round trips.

First `getBtcTxHashProcessedHeight` (and, with the head known, one log search of the recent
blocks for refusals the Bridge no longer marks as processed, RSKIP551); then, at the block it
names, that block's Bridge logs and the block itself, whose transactions say who registered
it (a federator, or Flyover's fast path).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TypeVar

from explorer.chain.bridge_abi import bridge_function, bridge_topic
from explorer.chain.bridge_events import (
    DecodedBridgeLog,
    LockBtc,
    PeginBtc,
    RejectedPegin,
    ReleaseRequested,
    UnrefundablePegin,
)
from explorer.chain.known import BRIDGE
from explorer.chain.logrecords import Log
from explorer.chain.records import Block, Transaction
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.params import LogFilter, Topic
from explorer.services.bridge import Found, decoded_logs, read_method
from explorer.services.pegout import Scan, scan
from explorer.services.reader import ChainReader

E = TypeVar("E")
LOOKBACK_BLOCKS = 20_160  # a week of RSK blocks: where a refusal without a mark is looked for

FLYOVER_LBC = {30: "0xaa9caf1e3967600578727f975f283446a3da6612"}  # Liquidity Bridge Contract
PEGIN_EVENTS = ("pegin_btc", "lock_btc", "rejected_pegin", "unrefundable_pegin")


@dataclass(frozen=True)
class PeginStatus:
    """What the Bridge says of a Bitcoin transaction."""

    btc_txid: str  # 64 hex digits, display order
    processed_height: int | None  # where getBtcTxHashProcessedHeight says it was processed
    events: tuple[Found, ...]  # the peg-in's events and, for a refund, its release
    registering_tx: Transaction | None
    block: Block | None
    btc_tip: int | None  # the Bridge's Bitcoin best height (asked when it is not processed)
    searched: tuple[int, int] | None = None  # blocks searched for unmarked refusals
    flyover: bool = False

    @property
    def found(self) -> bool:
        """Tell whether the Bridge did anything with it."""
        return bool(self.events) or self.processed_height is not None

    def first(self, kind: type[E]) -> E | None:
        """Return the first event of a kind (PeginBtc, RejectedPegin…), or None."""
        found = (e.decoded.event for e in self.events if isinstance(e.decoded.event, kind))
        return next(found, None)

    @property
    def refund(self) -> ReleaseRequested | None:
        """Return the refund's creation (release_requested by the registering transaction)."""
        registering = self.registering_tx.hash if self.registering_tx else None
        for event in self.events:
            decoded = event.decoded.event
            if isinstance(decoded, ReleaseRequested) and decoded.rsk_tx_hash == registering:
                return decoded
        return None


def normalize_txid(text: str) -> str:
    """Return a Bitcoin txid as 64 lowercase hex digits (ValueError when it is not one)."""
    digits = text.strip().lower().removeprefix("0x")
    if len(digits) != 64 or any(c not in "0123456789abcdef" for c in digits):
        raise ValueError(f"not a Bitcoin transaction id: {text!r}")
    return digits


def _mentions(decoded: DecodedBridgeLog, txid: str) -> bool:
    """Tell whether a peg-in event is about txid."""
    event = decoded.event
    return isinstance(event, PeginBtc | LockBtc | RejectedPegin | UnrefundablePegin) and (
        event.btc_txid == txid
    )


def _about(logs: list[Log], txid: str) -> list[Found]:
    """Return the events of logs about txid and what its registering transaction did too."""
    found = decoded_logs(logs)
    tx_hashes = {f.log.transaction_hash for f in found if _mentions(f.decoded, txid)}
    return [f for f in found if f.log.transaction_hash in tx_hashes]


async def processed_height(reader: ChainReader, txid: str) -> int | None:
    """Return where the Bridge processed a txid, None when it has not (or cannot say)."""
    read = await read_method(reader, "getBtcTxHashProcessedHeight", normalize_txid(txid))

    if read.refused or not isinstance(read.value, int) or read.value < 0:
        return None
    return read.value


async def _unmarked(reader: ChainReader, txid: str, head: int) -> tuple[list[Log], tuple[int, int]]:
    """Search the recent blocks for a refusal the Bridge did not mark as processed."""
    topics: list[Topic] = [
        [bridge_topic("rejected_pegin"), bridge_topic("unrefundable_pegin")],
        "0x" + txid,
    ]
    first = max(head - LOOKBACK_BLOCKS, 0)
    log_filter = LogFilter(from_block=first, to_block=head, address=BRIDGE, topics=topics)
    try:
        return await reader.client.get_logs(log_filter), (first, head)
    except RpcError as error:
        if error.kind is not ErrorKind.NODE:
            raise
    found: list[Found] = []  # a node that limits ranges (rskj: 5,000 blocks) is asked in spans
    async for step in scan(reader, "refusals", first, head, topics, lambda _: False):
        if not isinstance(step, Scan):
            found = step
    return [f.log for f in found], (first, head)


async def _block_logs(reader: ChainReader, number: int) -> tuple[list[Log], Block | None]:
    """Read the Bridge's logs of one block and the block with its transactions, at once."""
    log_filter = LogFilter(from_block=number, to_block=number, address=BRIDGE)
    logs, block = await asyncio.gather(
        reader.client.get_logs(log_filter), reader.block(number, full=True)
    )
    return logs, block


def _registering(block: Block | None, events: list[Found]) -> Transaction | None:
    """Return the transaction of the block that emitted the peg-in's events."""
    if block is None or not events:
        return None
    tx_hash = events[0].log.transaction_hash
    return next((tx for tx in block.transactions or () if tx.hash == tx_hash), None)


def is_flyover(tx: Transaction | None, chain_id: int) -> bool:
    """Tell whether the registering call is Flyover's (registerFastBridgeBtcTransaction)."""
    if tx is None:
        return False
    selector = bridge_function("registerFastBridgeBtcTransaction").key
    return tx.input[:4] == selector or tx.to == FLYOVER_LBC.get(chain_id)


async def _first_round(
    reader: ChainReader, txid: str
) -> tuple[int | None, int, tuple[list[Log], tuple[int, int]] | None]:
    """Ask the processed height and, with the head known, search for refusals (one round trip).

    Return the height, the head, and the search (None when the head had to be asked first).
    """
    known = reader.head
    if known is None:
        height, head = await asyncio.gather(processed_height(reader, txid), reader.latest_number())
        return height, head, None
    height, unmarked = await asyncio.gather(
        processed_height(reader, txid), _unmarked(reader, txid, known)
    )
    return height, known, unmarked


async def is_pegin(reader: ChainReader, text: str) -> bool:
    """Tell whether the Bridge took or refused a Bitcoin txid: by its mark, else by its events.

    Since RSKIP551 a peg-in refused for good is not marked as processed: only its
    `rejected_pegin` and `unrefundable_pegin` events name it.
    """
    txid = normalize_txid(text)
    height, head, unmarked = await _first_round(reader, txid)
    if height is not None:
        return True
    logs, _searched = unmarked if unmarked is not None else await _unmarked(reader, txid, head)
    return bool(_about(logs, txid))


async def pegin_status(reader: ChainReader, text: str, chain_id: int) -> PeginStatus:
    """Return what the Bridge did with a Bitcoin transaction (two round trips)."""
    txid = normalize_txid(text)
    height, head, unmarked = await _first_round(reader, txid)
    if height is not None:
        logs, block = await _block_logs(reader, height)
        return _status(txid, height, _about(logs, txid), block, None, None, chain_id)
    tip = None
    if unmarked is None:  # the head was not known: search now, and ask the tip meanwhile
        search, tip = await asyncio.gather(_unmarked(reader, txid, head), _tip(reader))
    else:
        search = unmarked
    logs, searched = search

    events = _about(logs, txid)
    if events:  # the search found the refusal's events: they say all the page needs
        return _status(txid, None, events, None, tip, searched, chain_id)

    if tip is None:
        tip = await _tip(reader)
    return PeginStatus(txid, None, (), None, None, tip, searched)


async def _tip(reader: ChainReader) -> int | None:
    """Return the Bridge's Bitcoin best-chain height, None when it will not say."""
    read = await read_method(reader, "getBtcBlockchainBestChainHeight")
    return read.value if isinstance(read.value, int) and not read.refused else None


def _status(
    txid: str,
    height: int | None,
    events: list[Found],
    block: Block | None,
    btc_tip: int | None,
    searched: tuple[int, int] | None,
    chain_id: int,
) -> PeginStatus:
    """Return a found peg-in's status with its registering transaction."""
    registering = _registering(block, events)
    flyover = is_flyover(registering, chain_id)
    return PeginStatus(txid, height, tuple(events), registering, block, btc_tip, searched, flyover)
