"""eth_getLogs: the filter object of §4.3 and the limits of §8."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eth_bloom.bloom import BloomFilter

from explorer.devnet import params
from explorer.devnet.blockdata import DevBlock, LogRecord
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import LOG_LIMIT_EXCEEDED, RpcFailure, invalid_params
from explorer.devnet.shapes import Json, log_json

FILTER_FIELDS = {"fromBlock", "toBlock", "blockHash", "address", "topics"}
MAX_TOPICS = 4


@dataclass(frozen=True)
class LogLimits:
    """§8: a range longer than max_blocks may return at most max_logs logs."""

    max_blocks: int = 2000
    max_logs: int = 10000


@dataclass(frozen=True)
class LogFilter:
    """A parsed filter: a block range or hash, addresses and topic alternatives."""

    from_block: params.BlockRef | None
    to_block: params.BlockRef | None
    block_hash: bytes | None
    addresses: frozenset[bytes]
    topics: tuple[frozenset[bytes] | None, ...]

    def matches(self, log: LogRecord) -> bool:
        """Tell whether a log passes the address and topic conditions."""
        if self.addresses and log.address not in self.addresses:
            return False
        return all(
            wanted is None or (i < len(log.topics) and log.topics[i] in wanted)
            for i, wanted in enumerate(self.topics)
        )


@dataclass(frozen=True)
class BloomQuery:
    """The bloom bits a block needs before any of its logs can match a filter.

    Each group holds alternatives (the addresses, or one topic position's topics);
    a block can hold a match only when its bloom has all bits of one of each group.
    """

    groups: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, log_filter: LogFilter) -> BloomQuery:
        """The groups of a filter: its addresses, then each topic position that is not null."""
        wanted = [log_filter.addresses] if log_filter.addresses else []
        wanted += [topics for topics in log_filter.topics if topics is not None]
        return cls(tuple(tuple(int(BloomFilter.from_iterable([v])) for v in w) for w in wanted))

    def admits(self, bloom: int) -> bool:
        """Tell whether a block with this bloom may hold a matching log (never if it has none)."""
        return bloom != 0 and all(
            any(bloom & bits == bits for bits in group) for group in self.groups
        )


def parse_filter(value: object) -> LogFilter:
    """Parse the filter object, enforcing blockHash XOR a range."""
    if not isinstance(value, dict) or not set(value) <= FILTER_FIELDS:
        raise invalid_params("filter must be an object with the fields of §4.3")
    has_range = value.get("fromBlock") is not None or value.get("toBlock") is not None
    if value.get("blockHash") is not None and has_range:
        raise invalid_params("blockHash cannot be combined with fromBlock or toBlock")
    return LogFilter(
        from_block=_optional_ref(value.get("fromBlock")),
        to_block=_optional_ref(value.get("toBlock")),
        block_hash=params.block_hash(value["blockHash"]) if value.get("blockHash") else None,
        addresses=_addresses(value.get("address")),
        topics=_topics(value.get("topics")),
    )


def _optional_ref(value: object) -> params.BlockRef | None:
    """A block number or tag, or None when absent."""
    return None if value is None else params.block_ref(value, allow_hash=False)


def _addresses(value: object) -> frozenset[bytes]:
    """One address or a list of them (empty means any)."""
    if value is None:
        return frozenset()
    if isinstance(value, list):
        return frozenset(params.address(item) for item in value)
    return frozenset({params.address(value)})


def _topics(value: object) -> tuple[frozenset[bytes] | None, ...]:
    """Up to four positions, each null (any), a topic or a list of topics (any of them)."""
    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_TOPICS:
        raise invalid_params(f"topics must be a list of at most {MAX_TOPICS} entries")
    return tuple(_topic_position(entry) for entry in value)


def _topic_position(entry: Any) -> frozenset[bytes] | None:
    """One topic position: null, a topic, or a list of alternatives."""
    if entry is None:
        return None
    if isinstance(entry, list):
        if any(item is None for item in entry):
            return None
        return frozenset(params.block_hash(item, "topic") for item in entry)
    return frozenset({params.block_hash(entry, "topic")})


def limit_message(limits: LogLimits) -> str:
    """rskj's words for a query over both limits."""
    return (
        f"Cannot query more than {limits.max_blocks} blocks at once. "
        f"Filter returned more than {limits.max_logs} logs."
    )


class LogJsonCache:
    """The JSON of mined blocks' logs, made once: a mined block never changes."""

    def __init__(self) -> None:
        self._by_block: dict[bytes, dict[int, tuple[Json, str]]] = {}

    def log(
        self, log: LogRecord, block: DevBlock, tx_index: int, log_index: int
    ) -> tuple[Json, str]:
        """Return the log's JSON object (shared between answers: never mutate it) and text."""
        logs = self._by_block.setdefault(block.hash, {})
        made = logs.get(log_index)
        if made is None:
            obj = log_json(log, block, tx_index, log_index)
            made = logs[log_index] = (obj, json.dumps(obj, separators=(",", ":")))
        return made


def collect_logs(
    blocks: Sequence[DevBlock],
    log_filter: LogFilter,
    limits: LogLimits,
    cache: LogJsonCache | None = None,
) -> list[Json]:
    """The matching logs of consecutive blocks; -32012 when over both limits."""
    # Blocks whose bloom rules out a match are skipped unread: long quiet ranges cost little;
    # JSON is made once the limits are known to hold, so a refusal costs only the matching.
    capped = len(blocks) > limits.max_blocks
    query = BloomQuery.of(log_filter)
    found: list[tuple[LogRecord, DevBlock, int, int]] = []
    for block in blocks:
        if not query.admits(block.logs_bloom):
            continue
        log_index = 0
        for tx_index, receipt in enumerate(block.receipts):
            for log in receipt.logs:
                if log_filter.matches(log):
                    found.append((log, block, tx_index, log_index))
                    if capped and len(found) > limits.max_logs:
                        raise RpcFailure(LOG_LIMIT_EXCEEDED, limit_message(limits))
                log_index += 1
    if cache is None:
        return [log_json(*match) for match in found]
    return EncodedLogs([cache.log(*match) for match in found])
