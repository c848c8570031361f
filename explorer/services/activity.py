"""An address's activity without an indexer: token transfers, emitted events and transactions."""

from __future__ import annotations

import asyncio
import enum
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from eth_utils.abi import event_signature_to_log_topic

from explorer.chain.abi import decode_log
from explorer.chain.hexutil import parse_address
from explorer.chain.records import Block, Log
from explorer.rpc.errors import RpcError
from explorer.services.logquery import LogQuery
from explorer.services.logresults import ScanProgress
from explorer.services.logscan import LogScanner

TRANSFER_TOPIC = "0x" + event_signature_to_log_topic("Transfer(address,address,uint256)").hex()
DEFAULT_RANGE = 2000
BLOCK_CONCURRENCY = 4


class ActivityKind(enum.Enum):
    """The three ways an address's story is read from the chain."""

    TRANSFERS = "Token transfers"
    EVENTS = "Events emitted"
    TRANSACTIONS = "Transactions"


@dataclass(frozen=True)
class ActivityItem:
    """One found item: where it is, which way it goes and what it says."""

    block: int
    tx_hash: str | None
    direction: str  # "in", "out", "self" or "" (events)
    counterparty: str | None
    contract: str | None
    detail: str
    index: int = 0  # log index or transaction index
    amount: int | None = None  # an ERC-20 transfer's value in base units
    value: int | None = None  # a transaction's value in wei


@dataclass(frozen=True)
class ActivityProgress:
    """How far a scan is, over every pass it makes."""

    done: int
    total: int
    found: int
    elapsed: float
    requests: int

    @property
    def fraction(self) -> float:
        """Return the share done, 0..1."""
        return 1.0 if self.total <= 0 else min(1.0, self.done / self.total)

    @property
    def eta(self) -> float | None:
        """Return the estimated seconds left, None until something is done."""
        if self.done <= 0:
            return None
        return max(0.0, self.elapsed / self.done * (self.total - self.done))


ProgressListener = Callable[[ActivityProgress], None]


def topic_of(address: str) -> str:
    """Return an address as a 32-byte topic."""
    return "0x" + parse_address(address)[2:].rjust(64, "0")


def _topic_address(topic: str) -> str:
    """Return the address held in the low 20 bytes of a topic."""
    return "0x" + topic[-40:]


def transfer_item(log: Log, holder: str) -> ActivityItem:
    """Describe a Transfer log from the holder's side (ERC-20 value or ERC-721 token id)."""
    sender, receiver = _topic_address(log.topics[1]), _topic_address(log.topics[2])
    direction = "self" if sender == receiver == holder else "out" if sender == holder else "in"
    other = receiver if direction == "out" else sender
    amount = None
    if len(log.topics) == 4:
        detail = f"token #{int(log.topics[3], 16)}"
    else:
        amount = int.from_bytes(log.data[:32], "big")
        detail = f"{amount:,} (base units)"
    return ActivityItem(
        log.block_number or 0,
        log.transaction_hash,
        direction,
        other,
        log.address,
        detail,
        log.log_index or 0,
        amount,
    )


def event_item(log: Log) -> ActivityItem:
    """Describe a log the contract emitted, decoded when its event is known."""
    decoded = decode_log(log.topics, log.data)
    if decoded is not None:
        args = (f"{p.name}={p.text}" if p.name else p.text for p in decoded.params)
        detail = f"{decoded.name}(" + ", ".join(args) + ")"
    else:
        detail = log.topics[0] if log.topics else "anonymous event"
    return ActivityItem(
        log.block_number or 0,
        log.transaction_hash,
        "",
        None,
        log.address,
        detail,
        log.log_index or 0,
    )


def transaction_items(block: Block, address: str) -> list[ActivityItem]:
    """Return the block's transactions sent from or to address."""
    items = []
    for tx in block.transactions.well_formed() if block.transactions else ():
        sender, receiver = tx.sender, tx.to
        if address not in (sender, receiver):
            continue
        direction = "self" if sender == receiver else "out" if sender == address else "in"
        other = receiver if direction == "out" else sender
        creation = tx.is_contract_creation
        items.append(
            ActivityItem(
                tx.block_number or 0,
                tx.hash,
                direction,
                other,
                None,  # the counterparty says where it went: no contract column of its own
                "contract creation" if creation else "",
                tx.transaction_index or 0,
                value=None if creation else tx.value,
            )
        )
    return items


class ActivityScanner:
    """Scans a block range for one kind of activity; cancel by cancelling the iterating task."""

    def __init__(self, client: Any, concurrency: int = 4) -> None:
        self.client = client
        self.concurrency = concurrency
        self.requests = 0

    async def scan(
        self,
        kind: ActivityKind,
        address: str,
        start: int,
        end: int,
        on_progress: ProgressListener | None = None,
    ) -> AsyncIterator[list[ActivityItem]]:
        """Yield batches of found items as the scan goes."""
        holder = parse_address(address)
        if kind is ActivityKind.TRANSACTIONS:
            async for items in self._blocks(holder, start, end, on_progress):
                yield items
            return
        queries = self._queries(kind, holder, start, end)
        total = (end - start + 1) * len(queries)
        done_before, found, started = 0, 0, time.perf_counter()
        for query in queries:
            scanner = LogScanner(self.client, concurrency=self.concurrency)

            def report(
                progress: ScanProgress, offset: int = done_before, earlier: int = found
            ) -> None:
                """Translate one pass's progress into the whole scan's."""
                if on_progress is not None:
                    done = offset + progress.blocks_done + progress.blocks_failed
                    elapsed = time.perf_counter() - started
                    on_progress(
                        ActivityProgress(
                            done,
                            total,
                            earlier + progress.logs_found,
                            elapsed,
                            self.requests + progress.requests,
                        )
                    )

            async for logs in scanner.scan(query, report):
                items = [
                    transfer_item(log, holder)
                    if kind is ActivityKind.TRANSFERS
                    else event_item(log)
                    for log in logs
                ]
                found += len(items)
                yield items
            self.requests += scanner.requests
            if scanner.failed:
                raise scanner.failed[0].error
            done_before += end - start + 1

    def _queries(self, kind: ActivityKind, holder: str, start: int, end: int) -> list[LogQuery]:
        """Return the log queries of a kind: Transfer out and in, or the address's own logs."""
        if kind is ActivityKind.EVENTS:
            return [LogQuery(addresses=(holder,), from_block=start, to_block=end)]
        topic = (topic_of(holder),)
        return [
            LogQuery(topics=((TRANSFER_TOPIC,), topic), from_block=start, to_block=end),
            LogQuery(topics=((TRANSFER_TOPIC,), None, topic), from_block=start, to_block=end),
        ]

    async def _blocks(
        self, holder: str, start: int, end: int, on_progress: ProgressListener | None
    ) -> AsyncIterator[list[ActivityItem]]:
        """Read full blocks `concurrency` at a time and keep the address's transactions."""
        started, found, total = time.perf_counter(), 0, end - start + 1
        for window in range(start, end + 1, self.concurrency):
            numbers = range(window, min(end, window + self.concurrency - 1) + 1)
            blocks = await asyncio.gather(
                *(self.client.get_block_by_number(n, True) for n in numbers)
            )
            self.requests += len(numbers)
            items = [item for block in blocks if block for item in transaction_items(block, holder)]
            found += len(items)
            if on_progress is not None:
                elapsed = time.perf_counter() - started
                done = numbers[-1] - start + 1
                on_progress(ActivityProgress(done, total, found, elapsed, self.requests))
            if items:
                yield items


class ActivityCache:
    """Finished scans kept in memory by (network, address, kind, start, end)."""

    def __init__(self) -> None:
        self._items: dict[tuple[str, str, ActivityKind, int, int], tuple[ActivityItem, ...]] = {}

    def get(
        self, network: str, address: str, kind: ActivityKind, start: int, end: int
    ) -> tuple[ActivityItem, ...] | None:
        """Return a finished scan's items, or None."""
        return self._items.get((network, address.lower(), kind, start, end))

    def put(
        self,
        network: str,
        address: str,
        kind: ActivityKind,
        start: int,
        end: int,
        items: Sequence[ActivityItem],
    ) -> None:
        """Remember a finished scan."""
        self._items[(network, address.lower(), kind, start, end)] = tuple(items)


ACTIVITY_CACHE = ActivityCache()


@dataclass(frozen=True)
class BalanceSample:
    """The balance at one block, or the node's error when it cannot answer for that state."""

    block: int
    balance: int | None
    error: str = ""


def sample_blocks(start: int, end: int, count: int) -> list[int]:
    """Return up to count block numbers spread evenly from start to end (both included)."""
    if end <= start or count <= 1:
        return [end]
    step = (end - start) / (count - 1)
    return sorted({round(start + i * step) for i in range(count)})


async def balance_history(
    client: Any, address: str, start: int, end: int, count: int = 24
) -> list[BalanceSample]:
    """Read eth_getBalance at evenly spread blocks (old state needs an archive node)."""

    async def one(block: int) -> BalanceSample:
        """Read one sample, keeping the node's error text."""
        try:
            return BalanceSample(block, await client.get_balance(address, block))
        except RpcError as error:
            return BalanceSample(block, None, error.message)

    return list(await asyncio.gather(*(one(b) for b in sample_blocks(start, end, count))))


def histogram(blocks: Sequence[int], start: int, end: int, bins: int = 20) -> list[int]:
    """Count block numbers in `bins` equal ranges of start..end."""
    counts = [0] * max(1, bins)
    width = (end - start + 1) / len(counts)
    for block in blocks:
        if start <= block <= end:
            counts[min(len(counts) - 1, int((block - start) / width))] += 1
    return counts
