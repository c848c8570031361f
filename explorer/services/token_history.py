"""Every token transfer of an address: ERC-20 and ERC-721 `Transfer` logs, newest ranges first.

Two queries per range, the address as sender (topic 1) and as receiver (topic 2); ERC-721's
has four topics (the token id in topic 3). The whole chain is covered by default: newest
segment first, each scanned by the log scanner within the node's limits (docs/service.md §8).
Amounts are in the token's base units; `TokenUnits` reads each token's symbol and decimals.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field

from eth_utils.abi import event_signature_to_log_topic

from explorer.chain.hexutil import HexFormatError
from explorer.chain.history import Direction, EntryKind, HistoryEntry
from explorer.chain.records import Log, RecordFormatError
from explorer.rpc.errors import MalformedResponse
from explorer.services.attribution import topic_of
from explorer.services.logplan import MAX_SPAN
from explorer.services.logquery import LogQuery
from explorer.services.logscan import LogScanner

TRANSFER_TOPIC = "0x" + event_signature_to_log_topic("Transfer(address,address,uint256)").hex()
FIRST_SEGMENT = 2_000  # the newest blocks, answered first
SEGMENT_GROWTH = 8
ProgressListener = Callable[[int, int], None]  # blocks scanned, blocks in all


def transfer_entry(log: Log, holder: str) -> HistoryEntry | None:
    """Return a Transfer log as the holder's entry (None: not a transfer of the holder)."""
    if len(log.topics) < 3 or log.topics[0] != TRANSFER_TOPIC:
        return None
    sender, receiver = "0x" + log.topics[1][-40:], "0x" + log.topics[2][-40:]
    if holder not in (sender, receiver):
        return None
    direction = (
        Direction.SELF
        if sender == receiver
        else Direction.OUT
        if sender == holder
        else Direction.IN
    )
    token_id = int(log.topics[3], 16) if len(log.topics) == 4 else None
    amount = 1 if token_id is not None else int.from_bytes(log.data[:32], "big")
    return HistoryEntry(
        block=log.block_number or 0,
        timestamp=None,
        tx_hash=log.transaction_hash,
        kind=EntryKind.TOKEN,
        asset=log.address,
        counterparty=receiver if direction is Direction.OUT else sender,
        amount=amount,
        direction=direction,
        log_index=log.log_index,
        token_id=token_id,
        order=log.transaction_index or 0,
    )


def logs_of(answers: Iterable[object]) -> list[Log]:
    """Return the logs of eth_getLogs answers read in a batch; an error answer is raised."""
    logs: list[Log] = []
    for answer in answers:
        if isinstance(answer, Exception):
            raise answer
        if not isinstance(answer, list):
            raise MalformedResponse("eth_getLogs answered no array")
        try:
            logs += Log.many_from_json(answer)
        except (RecordFormatError, HexFormatError, TypeError) as exc:
            raise MalformedResponse(f"eth_getLogs answered an unexpected log: {exc}") from None
    return logs


async def answered_transfers(
    logs: Iterable[Log], holder: str, on_progress: ProgressListener
) -> AsyncIterator[list[HistoryEntry]]:
    """Yield the holder's transfers among logs already answered (one batch, newest first)."""
    on_progress(1, 1)
    entries = [entry for log in logs if (entry := transfer_entry(log, holder))]
    if entries:
        yield sorted(entries, key=lambda entry: entry.sort_key, reverse=True)


def segments(first: int, last: int) -> list[tuple[int, int]]:
    """Return first..last cut into growing segments, newest first."""
    result, size, end = [], FIRST_SEGMENT, last
    while end >= first:
        start = max(first, end - size + 1)
        result.append((start, end))
        end, size = start - 1, size * SEGMENT_GROWTH
    return result


@dataclass
class TokenTransfers:
    """Scans first..last for the address's transfers; counts requests; failed ranges kept."""

    client: object
    address: str
    concurrency: int = 1
    requests: int = 0
    failed: list[tuple[int, int, str]] = field(default_factory=list)

    def queries(self, start: int, end: int) -> list[LogQuery]:
        """Return the two queries of a range: the address as sender, then as receiver."""
        topic = (topic_of(self.address),)
        return [
            LogQuery(topics=((TRANSFER_TOPIC,), topic), from_block=start, to_block=end),
            LogQuery(topics=((TRANSFER_TOPIC,), None, topic), from_block=start, to_block=end),
        ]

    async def scan(
        self, first: int, last: int, on_progress: ProgressListener | None = None
    ) -> AsyncGenerator[list[HistoryEntry], None]:
        """Yield entries newest segment first (each segment's entries newest first)."""
        seen: set[tuple[str | None, int | None]] = set()
        done, total = 0, max(0, last - first + 1)
        for start, end in segments(first, last):
            queries = self.queries(start, end)
            found = await asyncio.gather(*(self._scan(q, end - start + 1) for q in queries))
            entries = []
            for log in (log for logs in found for log in logs):
                key = (log.transaction_hash, log.log_index)
                entry = transfer_entry(log, self.address)
                if entry is not None and key not in seen:
                    seen.add(key)
                    entries.append(entry)
            done += end - start + 1
            if on_progress is not None:
                on_progress(done, total)
            if entries:
                yield sorted(entries, key=lambda e: e.sort_key, reverse=True)

    async def _scan(self, query: LogQuery, blocks: int) -> list[Log]:
        """Run one query over its range; a range that keeps failing is noted, not fatal.

        The whole segment is asked at once (an address's transfers are few); a node that
        refuses so long a range teaches the scanner its limit and the range is split.
        """
        size = min(blocks, MAX_SPAN)
        scanner = LogScanner(self.client, concurrency=self.concurrency, max_blocks=size)
        logs = [log async for batch in scanner.scan(query) for log in batch]
        self.requests += scanner.requests
        self.failed += [(c.start, c.end, c.error.message) for c in scanner.failed]
        return logs
