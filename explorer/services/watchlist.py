"""Watched addresses: each new head checked for all of them at once, in one request.

Per new head: every watched address's balance and nonce at the head, and one `eth_getLogs` of
the new blocks' `Transfer` events, all in one batch (or, without batches, concurrent calls).
A filter's topic positions are ANDed, so one query naming the watched addresses as sender or
as receiver would take two: the one query asks for the blocks' Transfer events and they are
matched here. What changed is told with the history search from the last block known
(services/address_history.py), which is also how a restart catches up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.history import HistoryEntry
from explorer.chain.records import Log
from explorer.rpc.client import RpcClient
from explorer.services.probes import (
    AccountState,
    ReadCounts,
    quantity,
    read_together,
    state_calls,
)
from explorer.services.token_history import TRANSFER_TOPIC, logs_of

MAX_LOG_WINDOW = 2_000  # blocks one check's eth_getLogs may cover; older gaps: the history search


@dataclass(frozen=True)
class Watched:
    """A watched address: its name, what was last seen and whether it is new to the user."""

    address: str
    name: str = ""
    balance: int | None = None
    nonce: int | None = None
    checked: int | None = None  # the last block checked
    last_activity: int | None = None  # the block of the newest activity seen
    last_activity_time: int | None = None
    unseen: bool = False  # activity the user has not looked at yet
    note: str = ""  # what the newest activity was, in words

    def to_json(self) -> str:
        """Return the entry as one JSON object (amounts as decimal strings)."""
        data = asdict(self)
        for key in ("balance",):
            data[key] = None if data[key] is None else str(data[key])
        return json.dumps(data)

    @classmethod
    def from_json(cls, text: str) -> Watched | None:
        """Read an entry written by to_json (None when it is not one)."""
        try:
            data: dict[str, Any] = json.loads(text)
            address = parse_address(str(data["address"]))
            balance = data.get("balance")
            return cls(
                address=address,
                name=str(data.get("name") or ""),
                balance=None if balance is None else int(balance),
                nonce=_optional_int(data.get("nonce")),
                checked=_optional_int(data.get("checked")),
                last_activity=_optional_int(data.get("last_activity")),
                last_activity_time=_optional_int(data.get("last_activity_time")),
                unseen=bool(data.get("unseen")),
                note=str(data.get("note") or ""),
            )
        except (KeyError, TypeError, ValueError, HexFormatError):
            return None


def _optional_int(value: object) -> int | None:
    """Return an int, or None for none."""
    return None if value is None else int(str(value))


@dataclass(frozen=True)
class CheckResult:
    """One head's check: the entries updated, who moved, what it cost."""

    watched: tuple[Watched, ...]
    moved: tuple[str, ...]  # addresses whose balance, nonce or tokens moved
    reads: int
    requests: int


def check_calls(watched: Sequence[Watched], head: int, since: int) -> list[tuple[str, Any]]:
    """Return one check's calls: balance and nonce of each address at head, then the logs."""
    calls: list[tuple[str, Any]] = []
    for entry in watched:
        calls += state_calls(entry.address, head)
    window = {"fromBlock": hex(since), "toBlock": hex(head), "topics": [TRANSFER_TOPIC]}
    calls.append(("eth_getLogs", (window,)))
    return calls


def cost_per_block(count: int, batches: bool) -> tuple[int, int]:
    """Return (requests, reads) one new head costs for count watched addresses."""
    reads = 2 * count + 1 if count else 0
    return (1 if batches and count else reads), reads


def movers(logs: Sequence[Log], addresses: set[str]) -> set[str]:
    """Return the watched addresses that sent or received a token in the logs."""
    found: set[str] = set()
    for log in logs:
        for topic in log.topics[1:3]:
            address = "0x" + topic[-40:]
            if address in addresses:
                found.add(address)
    return found


async def check_head(client: RpcClient, watched: Sequence[Watched], head: int) -> CheckResult:
    """Check every watched address at a new head (one batch); return who moved."""
    if not watched:
        return CheckResult((), (), 0, 0)
    checked = [entry.checked for entry in watched if entry.checked is not None]
    since = max(min(checked, default=head - 1) + 1, head - MAX_LOG_WINDOW + 1, 0)
    if since > head:  # every address was checked at this head already
        return CheckResult(tuple(watched), (), 0, 0)
    counts = ReadCounts()
    results = await read_together(client, check_calls(watched, head, since), counts)
    logs = logs_of(results[-1:])
    tokens = movers(logs, {entry.address for entry in watched})
    updated, moved = [], []
    for index, entry in enumerate(watched):
        balance, nonce = results[2 * index], results[2 * index + 1]
        if isinstance(balance, Exception) or isinstance(nonce, Exception):
            raise balance if isinstance(balance, Exception) else nonce
        state = AccountState(quantity(balance, "a balance"), quantity(nonce, "a nonce"))
        known = entry.balance is not None and entry.nonce is not None
        was = AccountState(entry.balance or 0, entry.nonce or 0) if known else None
        if (was is not None and state != was) or entry.address in tokens:
            moved.append(entry.address)
        updated.append(replace(entry, balance=state.balance, nonce=state.nonce, checked=head))
    return CheckResult(tuple(updated), tuple(moved), counts.reads, counts.requests)


def with_activity(entry: Watched, news: Sequence[HistoryEntry], text: str) -> Watched:
    """Return the entry marked with its newest activity."""
    newest = max(news, key=lambda e: e.sort_key)
    return replace(
        entry,
        last_activity=newest.block,
        last_activity_time=newest.timestamp,
        unseen=True,
        note=text,
    )
