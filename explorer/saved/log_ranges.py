"""Log filters as the saved data keys them: what a filter matches, its range, and the holes."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_quantity
from explorer.saved.bodies import compact

Range = tuple[int, int]


@dataclass(frozen=True)
class LogRead:
    """An eth_getLogs the saved data can answer: the filter, its key, and its numeric range."""

    log_filter: Mapping[str, Any]
    key: str
    first: int
    last: int


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
    return compact({"address": addresses, "topics": topics})


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


def log_read(params: Sequence[Any]) -> LogRead | None:
    """Return an eth_getLogs call's filter as the saved data keys it, or None when it cannot."""
    log_filter = params[0] if params and isinstance(params[0], Mapping) else None
    key = filter_key(log_filter) if log_filter is not None else None
    span = log_range(log_filter) if log_filter is not None and key is not None else None
    if log_filter is None or key is None or span is None:
        return None
    return LogRead(log_filter, key, *span)


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
