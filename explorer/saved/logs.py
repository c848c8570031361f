"""Logs of settled ranges per filter: what part of a range is saved, and the holes to ask for."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from explorer.chain.hexutil import HexFormatError, parse_quantity
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.node_answers import Ask, NodeAnswer
from explorer.saved.schema import Segment

if TYPE_CHECKING:
    from explorer.saved.cache import SessionCache
    from explorer.saved.store import ChainStore

_compact = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode
Range = tuple[int, int]
ITEMS_PER_DUMP = 500  # logs serialised per call (the worker thread lets the GIL go between)


def _lower(value: object) -> object:
    """Return a hex string lowercase, a list of them sorted, anything else as it is."""
    if isinstance(value, str):
        return value.lower()
    if isinstance(value, list):
        return sorted({str(item).lower() for item in value})
    return value


def filter_key(log_filter: Mapping[str, Any]) -> str | None:
    """Return what a filter matches apart from its range (address and topics), as a key.

    None for a filter that names a block hash (kept as an ordinary read) or carries fields
    this cache does not understand.
    """
    if "blockHash" in log_filter or set(log_filter) - {"fromBlock", "toBlock", "address", "topics"}:
        return None
    address = log_filter.get("address")
    addresses = _lower([address] if isinstance(address, str) else address or [])
    topics = [_lower(topic) for topic in log_filter.get("topics") or []]
    while topics and topics[-1] is None:
        topics.pop()  # a trailing wildcard matches what no topic matches
    return _compact({"address": addresses, "topics": topics})


def log_range(log_filter: Mapping[str, Any]) -> Range | None:
    """Return a filter's range as numbers, or None when either end is a tag (but earliest)."""
    ends: list[int] = []
    for name in ("fromBlock", "toBlock"):
        value = log_filter.get(name)
        if value == "earliest" and name == "fromBlock":
            ends.append(0)
            continue
        if not isinstance(value, str) or not value.startswith("0x"):
            return None
        try:
            ends.append(parse_quantity(value, name))
        except HexFormatError:
            return None
    first, last = ends
    return (first, last) if first <= last else None


def holes(first: int, last: int, covered: Iterable[Range]) -> list[Range]:
    """Return the parts of first..last that no covered range covers, in order."""
    missing: list[Range] = []
    at = first
    for start, end in sorted(covered):
        if end < at:
            continue
        if start > last:
            break
        if start > at:
            missing.append((at, start - 1))
        at = max(at, end + 1)
        if at > last:
            break
    if at <= last:
        missing.append((at, last))
    return missing


def log_number(log: Any) -> int | None:
    """Return a log's block number, or None when it carries none that reads."""
    if not isinstance(log, Mapping):
        return None
    try:
        return parse_quantity(log.get("blockNumber"), "log block number")
    except HexFormatError:
        return None


def within(logs: Sequence[Any], first: int, last: int) -> list[Any]:
    """Return the logs of blocks first..last (in their order)."""
    kept = []
    for log in logs:
        number = log_number(log)
        if number is not None and first <= number <= last:
            kept.append(log)
    return kept


def with_range(log_filter: Mapping[str, Any], first: int, last: int) -> dict[str, Any]:
    """Return the filter over another range."""
    return {**log_filter, "fromBlock": hex(first), "toBlock": hex(last)}


def dump_result(logs: Sequence[Any]) -> bytes:
    """Return `{"result": [...]}` for logs, serialised a slice at a time (worker thread)."""
    parts = [
        _compact(list(logs[start : start + ITEMS_PER_DUMP]))[1:-1]
        for start in range(0, len(logs), ITEMS_PER_DUMP)
    ]
    return ('{"result":[' + ",".join(part for part in parts if part) + "]}").encode()


TAIL_SECONDS = 30.0  # an unsettled tail read ahead answers the next range this long


@dataclass(frozen=True)
class Tail:
    """A filter's logs of the blocks up to the head, read ahead with the range before them."""

    first: int
    last: int
    head: int
    logs: list[Any]
    at: float


class LogCoverage:
    """eth_getLogs through the saved settled ranges of a filter: the node is asked for holes only.

    A range is saved per filter once it is N blocks deep; a later scan over it reads the saved
    logs and asks the node only for the blocks no saved range covers. A small hole just under
    the head is asked up to the head at once, and the blocks past the range kept a little
    while: a scan whose chunks cut the unsettled tail in two asks the node for it once.
    """

    def __init__(self, cache: SessionCache) -> None:
        self.cache = cache
        self._tails: dict[str, Tail] = {}

    async def answer(self, params: Sequence[Any], params_json: str, ask: Ask) -> Any:
        """Return the logs a filter matches, the saved ranges from the file."""
        cache = self.cache
        log_filter = params[0] if params and isinstance(params[0], Mapping) else None
        key = filter_key(log_filter) if log_filter is not None else None
        span = log_range(log_filter) if log_filter is not None and key is not None else None
        store = await cache.usable() if span is not None else None
        if log_filter is None or key is None or span is None or store is None:
            if cache.offline:
                raise cache.not_saved("eth_getLogs")
            fresh = await ask("eth_getLogs", params)
            cache.observe("eth_getLogs", params, params_json, fresh)
            return fresh.result
        first, last = span
        started = time.perf_counter()
        segments = [
            s for s in await store.segments(key, first, last) if not cache.reorgs.stale(s.last)
        ]
        missing = holes(first, last, [(segment.first, segment.last) for segment in segments])
        if missing and cache.offline:
            raise cache.not_saved("eth_getLogs")
        pieces: list[tuple[int, list[Any]]] = []
        for segment in segments:
            logs = await self.cache.result_of_body(segment.body)
            if not isinstance(logs, list):
                raise MalformedResponse("saved logs are not an array")
            inside = segment.first >= first and segment.last <= last
            pieces.append(
                (max(segment.first, first), logs if inside else within(logs, first, last))
            )
        if segments:
            size = sum(len(segment.body) for segment in segments)
            cache.client.record_cached(
                "eth_getLogs", params_json, size, time.perf_counter() - started
            )
        asked = []
        for start, end in missing:
            ahead = self._tail(key, start, end)
            if ahead is not None:
                pieces.append((start, ahead))
            else:
                asked.append((start, self._reach(start, end)))
        answers = await asyncio.gather(
            *(ask("eth_getLogs", [with_range(log_filter, start, end)]) for start, end in asked)
        )
        for (start, end), fresh in zip(asked, answers, strict=True):
            if not isinstance(fresh.result, list):
                raise MalformedResponse(f"eth_getLogs returned {type(fresh.result).__name__}")
            cache.watch(fresh.result)
            if end > last:  # read ahead to the head: the rest answers the next range
                head = cache.head or end
                rest = within(fresh.result, last + 1, end)
                self._tails[key] = Tail(last + 1, end, head, rest, time.monotonic())
            pieces.append(
                (start, within(fresh.result, start, last) if end > last else fresh.result)
            )
            self._keep(store, key, start, end, fresh)
        pieces.sort(key=lambda piece: piece[0])
        return [log for _start, logs in pieces for log in logs]

    def _reach(self, start: int, end: int) -> int:
        """Return how far to ask a hole: up to the head when it is a small one just under it."""
        head, near = self.cache.head, 2 * self.cache.confirmations
        if head is not None and end < head <= end + near and end - start < near:
            return head
        return end

    def _tail(self, key: str, start: int, end: int) -> list[Any] | None:
        """Return a hole's logs from a tail read ahead (fresh, the head unchanged), or None."""
        tail = self._tails.get(key)
        fresh = tail is not None and time.monotonic() - tail.at < TAIL_SECONDS
        if tail is None or not fresh or tail.head != self.cache.head:
            return None
        if start < tail.first or end > tail.last:
            return None
        return within(tail.logs, start, end)

    def _keep(self, store: ChainStore, key: str, start: int, end: int, fresh: NodeAnswer) -> None:
        """Save the settled part of a range the node answered."""
        cache = self.cache
        if cache.head is None or not cache.writable:
            return
        settled_last = min(end, cache.head - cache.confirmations)
        if settled_last < start:
            return
        if settled_last == end:
            store.put_segment(Segment(key, start, end, fresh.body))
        else:
            logs = within(fresh.result, start, settled_last)
            store.put_segment_logs(key, start, settled_last, logs)
