"""eth_getLogs: the filter object of §4.3 and the limits of §8."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from eth_bloom.bloom import BloomFilter

from explorer.devnet import params
from explorer.devnet.blockdata import LogRecord
from explorer.devnet.errors import invalid_params
from explorer.devnet.limits import LogLimits, LogRule

__all__ = ["LogFilter", "LogLimits", "LogRule", "parse_filter"]

FILTER_FIELDS = {"fromBlock", "toBlock", "blockHash", "address", "topics"}
MAX_TOPICS = 4


@dataclass(frozen=True)
class LogFilter:
    """A parsed filter: a block range or hash, addresses and topic alternatives."""

    from_block: params.BlockRef | None
    to_block: params.BlockRef | None
    block_hash: bytes | None
    addresses: frozenset[bytes]
    topics: tuple[frozenset[bytes] | None, ...]

    @cached_property
    def _conditions(self) -> tuple[tuple[int, frozenset[bytes]], ...]:
        """The topic positions that are not null, with their alternatives."""
        return tuple((i, wanted) for i, wanted in enumerate(self.topics) if wanted is not None)

    def matches(self, log: LogRecord) -> bool:
        """Tell whether a log passes the address and topic conditions."""
        if self.addresses and log.address not in self.addresses:
            return False
        topics = log.topics
        for position, wanted in self._conditions:
            if position >= len(topics) or topics[position] not in wanted:
                return False
        return True

    def matches_all(self, summary: LogSummary) -> bool:
        """Tell whether every log of a block passes, judged by the block's summary."""
        if self.addresses and not summary.addresses <= self.addresses:
            return False
        for position, wanted in self._conditions:
            if position >= summary.fewest_topics or not summary.topics[position] <= wanted:
                return False
        return True

    def pick(self, logs: Sequence[LogRecord], summary: LogSummary) -> Sequence[int]:
        """Return the positions of a block's matching logs, ascending (a range when all match)."""
        if self.matches_all(summary):
            return range(len(logs))
        return [i for i, log in enumerate(logs) if self.matches(log)]


@dataclass(frozen=True)
class LogSummary:
    """What a block's logs hold: enough to tell at once whether a filter passes all of them."""

    addresses: frozenset[bytes]
    topics: tuple[frozenset[bytes], ...]  # position i: the topics at i of the logs reaching i
    fewest_topics: int

    @classmethod
    def of(cls, logs: Sequence[LogRecord]) -> LogSummary:
        """Summarise a block's logs."""
        longest = max((len(log.topics) for log in logs), default=0)
        return cls(
            addresses=frozenset(log.address for log in logs),
            topics=tuple(
                frozenset(log.topics[i] for log in logs if i < len(log.topics))
                for i in range(longest)
            ),
            fewest_topics=min((len(log.topics) for log in logs), default=0),
        )


@dataclass(frozen=True)
class BloomQuery:
    """The bloom bits a block needs before any of its logs can match a filter.

    Each group holds alternatives (the addresses, or one topic position's topics);
    a block can hold a match only when its bloom has all bits of one of each group.
    Groups of one alternative are merged into `required`, tested at once.
    """

    required: int
    choices: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, log_filter: LogFilter) -> BloomQuery:
        """Return a filter's groups: its addresses, then each topic position that is not null."""
        wanted = [log_filter.addresses] if log_filter.addresses else []
        wanted += [topics for topics in log_filter.topics if topics is not None]
        groups = [tuple(int(BloomFilter.from_iterable([v])) for v in w) for w in wanted]
        required = 0
        for group in groups:
            required |= group[0] if len(group) == 1 else 0
        return cls(required, tuple(group for group in groups if len(group) != 1))

    def admits(self, bloom: int) -> bool:
        """Tell whether a block with this bloom may hold a matching log (never if it has none)."""
        if not bloom or bloom & self.required != self.required:
            return False
        return not self.choices or all(
            any(bloom & bits == bits for bits in group) for group in self.choices
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
    """Return a block number or tag, or None when absent."""
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
