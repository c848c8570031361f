"""A peg-out's progress from its RSK transaction, found with bounded forward log scans.

The receipt holds the request (release_request_received, or release_request_rejected). The
batch that takes it comes at the next peg-out height (every `pegout_interval` blocks); one
search over the blocks after the request finds batch_pegout_created listing it, with the
release_requested and pegout_transaction_created of the same transaction. The confirmation
comes `pegout_confirmations` blocks after the batch; one search from there finds
pegout_confirmed, the federators' add_signature and the release_btc with the signed Bitcoin
transaction, whose txid is the one on Bitcoin. Each search asks at most SCAN_SPAN blocks at a
time (the service's block-range rule) and reports its progress.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace

from explorer.chain.bridge_abi import bridge_topic
from explorer.chain.bridge_events import (
    AddSignature,
    BatchPegoutCreated,
    PegoutConfirmed,
    PegoutTransactionCreated,
    ReleaseBtc,
    ReleaseRequested,
    ReleaseRequestReceived,
    ReleaseRequestRejected,
    pegout_amount_sat,
)
from explorer.chain.btc_address import script_address
from explorer.chain.known import BRIDGE
from explorer.chain.peg import PegNetwork
from explorer.chain.records import Receipt, Transaction
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.params import LogFilter, Topic
from explorer.services.bridge import Found, decoded_logs, read_method
from explorer.services.reader import ChainReader

SCAN_SPAN = 2_000  # blocks per eth_getLogs: the hosted service's range that any count passes
BATCH_WINDOWS = 3  # peg-out intervals searched for the batch before saying it is late
RELEASE_SPAN = 6_000  # blocks after the confirmation height searched for the release


@dataclass(frozen=True)
class Scan:
    """A search in progress: what it looks for and how far it got."""

    what: str
    first: int
    last: int
    at: int

    @property
    def text(self) -> str:
        """Return the progress in words."""
        done = max(self.at - self.first, 0)
        total = max(self.last - self.first + 1, 1)
        return (
            f"looking for the {self.what} in blocks {self.first:,}–{self.last:,}: "
            f"{min(done, total):,} of {total:,} read"
        )


@dataclass(frozen=True)
class PegoutStatus:
    """Everything known of a peg-out so far; later stages stay None until found."""

    tx: Transaction
    receipt: Receipt | None  # None for a refund, created by a peg-in's registration
    head: int
    request: Found | None = None  # release_request_received or release_request_rejected
    requested_sat: int | None = None
    batch: Found | None = None  # batch_pegout_created (or release_requested before RSKIP271)
    creation: tuple[Found, ...] = ()  # release_requested, pegout_transaction_created
    confirmed: Found | None = None
    signatures: tuple[Found, ...] = ()
    release: Found | None = None
    scanning: Scan | None = None
    searched_batch: tuple[int, int] | None = None  # where the batch was looked for in vain
    searched_release: tuple[int, int] | None = None
    queue: tuple[int | None, int | None] | None = None  # next peg-out height, queued count
    notes: tuple[str, ...] = field(default=())

    @property
    def rejected(self) -> ReleaseRequestRejected | None:
        """Return the refusal, if the Bridge refused the request."""
        event = self.request.decoded.event if self.request else None
        return event if isinstance(event, ReleaseRequestRejected) else None

    @property
    def destination(self) -> str | bytes | None:
        """Return the Bitcoin destination the request names."""
        event = self.request.decoded.event if self.request else None
        return event.destination if isinstance(event, ReleaseRequestReceived) else None

    @property
    def unsigned_txid(self) -> str | None:
        """Return the batch's Bitcoin txid (of the unsigned transaction)."""
        event = self.batch.decoded.event if self.batch else None
        return event.btc_txid if isinstance(event, BatchPegoutCreated | ReleaseRequested) else None

    @property
    def creation_tx(self) -> str | None:
        """Return the RSK transaction that created the batch (signatures and release name it)."""
        return self.batch.log.transaction_hash if self.batch else None

    @property
    def input_values(self) -> tuple[int, ...] | None:
        """Return the Bitcoin inputs' values (pegout_transaction_created, RSKIP428)."""
        for found in self.creation:
            if isinstance(found.decoded.event, PegoutTransactionCreated):
                return found.decoded.event.input_values
        return None

    @property
    def released(self) -> ReleaseBtc | None:
        """Return the release with the signed Bitcoin transaction."""
        event = self.release.decoded.event if self.release else None
        return event if isinstance(event, ReleaseBtc) else None

    def received_sat(self, peg: PegNetwork) -> int | None:
        """Return what the destination received on Bitcoin (the output paying it)."""
        released, destination = self.released, self.destination
        if released is None or released.tx is None or not isinstance(destination, str):
            return None
        paid = [
            o.value for o in released.tx.outputs if script_address(o.script, peg.btc) == destination
        ]
        return sum(paid) if paid else None


def request_of(tx: Transaction, receipt: Receipt) -> Found | None:
    """Return the peg-out request (or refusal) in a receipt, if it is one."""
    for found in decoded_logs(receipt.logs):
        if isinstance(found.decoded.event, ReleaseRequestReceived | ReleaseRequestRejected):
            return found
    return None


def is_pegout(tx: Transaction, receipt: Receipt | None) -> bool:
    """Tell whether a mined transaction asked the Bridge for a peg-out."""
    if receipt is None:
        return False
    return request_of(tx, receipt) is not None or (tx.to == BRIDGE and tx.value > 0)


async def scan(
    reader: ChainReader,
    what: str,
    first: int,
    last: int,
    topics: list[Topic],
    done: Callable[[list[Found]], bool],
) -> AsyncIterator[Scan | list[Found]]:
    """Search Bridge logs first..last in spans, yielding progress, then what matched.

    It stops after the span where `done` says the sought event is among what was found.
    """
    found: list[Found] = []
    at, span = first, SCAN_SPAN
    while at <= last and not done(found):
        yield Scan(what, first, last, at)
        end = min(at + span - 1, last)
        log_filter = LogFilter(from_block=at, to_block=end, address=BRIDGE, topics=topics)
        try:
            logs = await reader.client.get_logs(log_filter)
        except RpcError as error:
            if error.kind is not ErrorKind.NODE or span <= 100:
                raise
            span //= 2  # the node limits ranges more tightly than the service
            continue
        found += decoded_logs(logs)
        at = end + 1
    yield found


async def pegout_stages(
    reader: ChainReader, tx: Transaction, receipt: Receipt, peg: PegNetwork
) -> AsyncIterator[PegoutStatus]:
    """Yield a peg-out's status as each stage is found (the last one is complete)."""
    head = reader.head if reader.head is not None else await reader.latest_number()
    request = request_of(tx, receipt)
    status = PegoutStatus(tx, receipt, head, request)
    if request is not None:
        event = request.decoded.event
        assert isinstance(event, ReleaseRequestReceived | ReleaseRequestRejected)
        amount = pegout_amount_sat(event, receipt.block_number, peg, tx.value)
        status = replace(status, requested_sat=amount)
    yield status
    if status.rejected is not None or receipt.block_number is None or not receipt.succeeded:
        return
    async for batched in _batch_stage(reader, status, peg):
        yield batched
    if batched.batch is None:
        return
    async for released in follow_release(reader, batched, peg):
        yield released


async def _batch_stage(
    reader: ChainReader, status: PegoutStatus, peg: PegNetwork
) -> AsyncIterator[PegoutStatus]:
    """Find the batch that lists the request (and its creation events)."""
    start = (status.receipt.block_number if status.receipt else status.head) + 1
    last = min(status.head, start + BATCH_WINDOWS * peg.pegout_interval)
    names = ("batch_pegout_created", "release_requested", "pegout_transaction_created")
    topics: list[Topic] = [[bridge_topic(name) for name in names]]
    found: list[Found] = []
    tx_hash = status.tx.hash
    sought = "batch that takes the request"
    async for step in scan(
        reader, sought, start, last, topics, lambda found: _batch_of(found, tx_hash) is not None
    ):
        if isinstance(step, Scan):
            yield replace(status, scanning=step)
        else:
            found = step
    batch = _batch_of(found, status.tx.hash)
    if batch is None:
        queue = await _queue(reader)
        yield replace(status, scanning=None, searched_batch=(start, last), queue=queue)
        return
    txid = str(getattr(batch.decoded.event, "btc_txid", ""))
    creation = tuple(
        f
        for f in found
        if f.log.transaction_hash == batch.log.transaction_hash
        and isinstance(f.decoded.event, ReleaseRequested | PegoutTransactionCreated)
        and f.decoded.event.btc_txid == txid
    )
    yield replace(status, scanning=None, batch=batch, creation=creation)


def _batch_of(found: list[Found], tx_hash: str) -> Found | None:
    """Return the batch listing tx_hash, or the release_requested naming it (before RSKIP271)."""
    for item in found:
        event = item.decoded.event
        if isinstance(event, BatchPegoutCreated) and tx_hash in event.rsk_tx_hashes:
            return item
        if isinstance(event, ReleaseRequested) and event.rsk_tx_hash == tx_hash:
            return item
    return None


async def _queue(reader: ChainReader) -> tuple[int | None, int | None]:
    """Return the Bridge's next peg-out height and queued count (None where refused)."""
    height, count = await asyncio.gather(
        read_method(reader, "getNextPegoutCreationBlockNumber"),
        read_method(reader, "getQueuedPegoutsCount"),
    )
    return (
        None if height.refused else int(height.value),
        None if count.refused else int(count.value),
    )


async def follow_release(
    reader: ChainReader, status: PegoutStatus, peg: PegNetwork
) -> AsyncIterator[PegoutStatus]:
    """Find the confirmation, the signatures and the release of a created peg-out."""
    txid, creation = status.unsigned_txid, status.creation_tx
    if txid is None or creation is None or status.batch is None:
        return
    start = status.batch.block + peg.pegout_confirmations
    last = min(status.head, start + RELEASE_SPAN)
    if start > status.head:
        yield status  # not confirmed yet: nothing to search
        return
    names = [
        bridge_topic("pegout_confirmed"),
        bridge_topic("add_signature"),
        bridge_topic("release_btc"),
    ]
    topics: list[Topic] = [names, ["0x" + txid, creation]]
    found: list[Found] = []
    released = lambda found: any(_names(f, ReleaseBtc, creation) for f in found)  # noqa: E731
    async for step in scan(reader, "confirmation and release", start, last, topics, released):
        if isinstance(step, Scan):
            yield replace(status, scanning=step)
        else:
            found = step
    yield replace(
        status,
        scanning=None,
        confirmed=_first(found, PegoutConfirmed, txid),
        signatures=tuple(f for f in found if _names(f, AddSignature, creation)),
        release=next((f for f in found if _names(f, ReleaseBtc, creation)), None),
        searched_release=(start, last),
    )


def _first(found: list[Found], kind: type, txid: str) -> Found | None:
    """Return the first event of a kind about a Bitcoin txid."""
    return next(
        (
            f
            for f in found
            if isinstance(f.decoded.event, kind)
            and getattr(f.decoded.event, "btc_txid", "") == txid
        ),
        None,
    )


def _names(found: Found, kind: type, creation: str) -> bool:
    """Tell whether an event of a kind names the peg-out's creation transaction."""
    event = found.decoded.event
    return isinstance(event, kind) and getattr(event, "release_rsk_tx_hash", None) == creation
