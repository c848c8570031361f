"""The pieces of an address's history run: its updates, provisional entries, stored records."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from explorer.chain.hexutil import HexFormatError
from explorer.chain.history import NATIVE, Direction, EntryKind, HistoryEntry
from explorer.chain.records import Block, RecordFormatError
from explorer.rpc.client import RpcClient
from explorer.services.balance_search import Change
from explorer.services.history_plan import OldStateVerdict, Opening
from explorer.services.history_store import StoredHistory
from explorer.services.probes import ReadCounts, read_together

TIMES_PER_BATCH = 20  # block headers read for their time in one request
TIMED_PER_TURN = 100  # entries given their time per event-loop turn (a GUI thread runs this)


@dataclass(frozen=True)
class HistoryProgress:
    """How far a history is: share done, entries found, requests spent, seconds."""

    fraction: float
    entries: int
    requests: int
    elapsed: float


@dataclass(frozen=True)
class HistoryUpdate:
    """What a run found since the last update (entries newest first), and what it says.

    An update with `old_state` voids every native entry shown before it: the node's answers
    for old blocks were not state (the block scan is the way left). A provisional entry (a
    change pinned, not explained yet) is replaced by its block's entries: `explained` names
    the blocks whose provisional entries go.
    """

    entries: tuple[HistoryEntry, ...] = ()
    progress: HistoryProgress | None = None
    note: str = ""
    old_state: OldStateVerdict | None = None
    units: dict[str, tuple[int, str]] = field(default_factory=dict)  # token: (decimals, symbol)
    explained: tuple[int, ...] = ()
    over_limit: str = ""  # the run paused at its limit: what going on would cost


class BlockTimes:
    """Blocks' times: known from blocks read already, else read in batches of headers."""

    def __init__(self, client: RpcClient, counts: ReadCounts) -> None:
        self.client = client
        self.counts = counts
        self.known: dict[int, int] = {}

    async def timed(self, entries: Sequence[HistoryEntry]) -> list[HistoryEntry]:
        """Return entries with their blocks' times."""
        missing = sorted({e.block for e in entries if e.block not in self.known})
        for start in range(0, len(missing), TIMES_PER_BATCH):
            chunk = missing[start : start + TIMES_PER_BATCH]
            calls = [("eth_getBlockByNumber", (hex(n), False)) for n in chunk]
            results = await read_together(self.client, calls, self.counts)
            for number, result in zip(chunk, results, strict=True):
                if isinstance(result, dict):
                    self.known[number] = Block.from_json(result).timestamp
        timed: list[HistoryEntry] = []
        for start in range(0, len(entries), TIMED_PER_TURN):
            if start:
                await asyncio.sleep(0)  # a thousand transfers at once would stall the window
            part = entries[start : start + TIMED_PER_TURN]
            timed += [e.timed(self.known.get(e.block)) for e in part]
        return timed


CONTRACT_CAVEAT = (
    "This address has code: its balance can fall without a transaction of its own, so the "
    "search compares balances alone and can miss a rise and fall between two probed blocks. "
    "The transaction scan reads every block and misses nothing the address sent or received."
)
NONCE_JUMP = "its nonce rose by more than the transactions it sent in that block"


def hash_of(answer: object) -> str:
    """Return the hash of a block read in a batch ('' for an error or no block)."""
    if not isinstance(answer, dict):
        return ""
    try:
        return Block.from_json(answer).hash or ""
    except (RecordFormatError, HexFormatError, TypeError):
        return ""


def provisional(change: Change, address: str) -> HistoryEntry:
    """Return a pinned change as a provisional entry: its amount and the balance after."""
    delta = change.delta
    direction = Direction.IN if delta > 0 else Direction.OUT if delta < 0 else Direction.SELF
    return HistoryEntry(
        block=change.block,
        timestamp=None,
        tx_hash=None,
        kind=EntryKind.CONTRACT,
        asset=NATIVE,
        counterparty=None,
        amount=abs(delta),
        direction=direction,
        balance_after=change.after.balance,
        order=-1,
        provisional=True,
    )


def usable(stored: StoredHistory | None, low: int, high: int) -> StoredHistory | None:
    """Return a stored history that covers the start of low..high and ends within it."""
    if stored is None or stored.first - 1 > low or stored.until > high:
        return None
    return stored


def newest_key(entry: HistoryEntry) -> tuple[int, int, int]:
    """Sort key: newest first."""
    block, order, log_index = entry.sort_key
    return (-block, -order, -log_index)


def merged(earlier: Iterable[HistoryEntry], newer: Iterable[HistoryEntry]) -> list[HistoryEntry]:
    """Return the entries of both, each once (a newer one wins), newest first."""
    merged = {entry.identity: entry for entry in earlier}
    merged.update({entry.identity: entry for entry in newer})
    return sorted(merged.values(), key=newest_key)


def next_record(
    stored: StoredHistory | None,
    opening: Opening,
    found: list[HistoryEntry],
    tokens: bool,
    until_hash: str,
) -> StoredHistory | None:
    """Return the history to store after a complete run: the stored one and what was found.

    None when nothing can be stored: the search did not run (no old state, no first state).
    """
    if opening.old_state is not None or opening.first is None or not until_hash:
        return None
    earlier = list(stored.entries) if stored else []
    if not tokens:
        earlier = [entry for entry in earlier if entry.is_native]
    return StoredHistory(
        first=stored.first if stored else opening.low + 1,
        until=opening.high,
        opening=stored.opening if stored else opening.first,
        state=opening.last,
        has_code=opening.has_code,
        entries=tuple(merged(earlier, found)),
        tokens_until=opening.high if tokens else -1,
        until_hash=until_hash,
    )
