"""Log records, parsed in bulk (a scan's answers hold thousands) or carefully field by field."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, TypeVar, dataclass_transform

from explorer.chain import bounds
from explorer.chain.hexutil import (
    parse_address,
    parse_optional_data,
    parse_optional_hash,
)
from explorer.chain.jsonfields import (
    JsonObject,
    hash_list,
    json_object,
    optional,
    required,
)

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def _bulk_record(cls: type[T]) -> type[T]:
    """Make a slotted, hashable dataclass that the type checker holds frozen.

    At run time it is not, because a frozen init sets each field through object.__setattr__, a
    third of the time of parsing a scan's logs (~1.5 us a log, 20 ms for a 13k-log answer).
    """
    return dataclass(slots=True, unsafe_hash=True)(cls)


@_bulk_record
class Log:
    """An event log (docs/service.md §2.6), keyed by (transaction_hash, log_index).

    Slotted: scans hold thousands at a time, and the collector then has one object less to walk
    for each.
    """

    address: str
    topics: tuple[str, ...]
    data: bytes
    log_index: int | None
    transaction_index: int | None
    transaction_hash: str | None
    block_hash: str | None
    block_number: int | None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, value: object) -> Log:
        """Parse a log object as any node sends it."""
        obj = json_object(value, "log")
        return _plain_log(obj) or _careful_log(obj)

    @classmethod
    def many_from_json(cls, values: Sequence[object]) -> list[Log]:
        """Parse many logs as from_json does (same logs, same errors).

        The plain form is checked for all of them together.
        """
        plain = _plain_logs(values)
        return plain if plain is not None else [cls.from_json(value) for value in values]


_LOG_NUMBERS = ("logIndex", "transactionIndex", "blockNumber")  # in Log's order
_LOG_BOUNDS = (bounds.INDEX.maximum, bounds.INDEX.maximum, bounds.BLOCK_NUMBER.maximum)
_LOG_FIELDS = ("address", "data", *_LOG_NUMBERS)


def _plain_log(obj: JsonObject) -> Log | None:
    """Parse one log in the plain form nodes send; None when anything differs.

    The form is judged as _plain_logs judges it, without its per-list overhead (rows are
    formatted one at a time).
    """
    try:
        address, data, *numbers = [obj[key] for key in _LOG_FIELDS]
        hashes = [obj["transactionHash"], obj["blockHash"], *obj["topics"]]
        if not (_plain_hex([address], 42) and _plain_hex(hashes, 66) and _only_hex([data])):
            return None
        parsed = _hex_numbers(numbers)
        if parsed is None or not all(map(int.__le__, parsed, _LOG_BOUNDS)):
            return None  # the careful parse names what is wrong
        payload = bytes.fromhex(data[2:])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    log_index, tx_index, block = parsed
    tx_hash, block_hash, *topics = hashes
    return Log(
        address, tuple(topics), payload, log_index, tx_index, tx_hash, block_hash, block, obj
    )


_HEX_DIGITS = b"0123456789abcdef"


def _only_hex(texts: list[Any]) -> bool:
    """Tell whether every text is 0x then lowercase hex digits only (one C pass over them all)."""
    if not all(map(str.startswith, texts, repeat("0x"))):
        return False  # also no sign or space: int() and bytes.fromhex() would take some
    joined = "".join(texts)
    return joined.isascii() and joined.encode().translate(None, _HEX_DIGITS) == b"x" * len(texts)


def _plain_hex(texts: list[Any], width: int) -> bool:
    """Tell whether every text is 0x and lowercase hex, `width` characters in all."""
    return not set(map(len, texts)) - {width} and _only_hex(texts)


def _hex_numbers(texts: list[Any]) -> list[int] | None:
    """Return the numbers of 0x-hex texts, each distinct text read once.

    None when one is not 0x and lowercase hex digits (leading zeros are fine, as for
    parse_quantity).
    """
    if not _only_hex(texts):
        return None
    values = {text: int(text, 16) for text in set(texts)}
    return list(map(values.__getitem__, texts))


def _within_bounds(parsed: list[int], count: int) -> bool:
    """Tell whether the numbers of count logs (each field's run in turn) are within bounds."""
    return all(
        max(parsed[start : start + count], default=0) <= limit
        for start, limit in zip(range(0, 3 * count, count), _LOG_BOUNDS, strict=True)
    )


def _plain_logs(values: Sequence[object]) -> list[Log] | None:
    """Parse logs that are all in the plain form nodes send, checked together.

    None when any differs (they are then parsed one by one).
    """
    try:
        objs: list[dict[str, Any]] = [value for value in values if type(value) is dict]
        topic_lists = [obj["topics"] for obj in objs]
        if len(objs) != len(values) or not all(type(item) is list for item in topic_lists):
            return None
        addresses = [obj["address"] for obj in objs]
        tx_hashes = [obj["transactionHash"] for obj in objs]
        block_hashes = [obj["blockHash"] for obj in objs]
        hashes = tx_hashes + block_hashes + [topic for item in topic_lists for topic in item]
        data = [obj["data"] for obj in objs]
        if not (_plain_hex(addresses, 42) and _plain_hex(hashes, 66) and _only_hex(data)):
            return None
        parsed = _hex_numbers([obj[key] for key in _LOG_NUMBERS for obj in objs])
        if parsed is None or not _within_bounds(parsed, len(objs)):
            return None
        payloads = [bytes.fromhex(text[2:]) for text in data]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    count = len(objs)
    return [
        Log(
            addresses[i],
            tuple(topic_lists[i]),
            payloads[i],
            parsed[i],
            parsed[count + i],
            tx_hashes[i],
            block_hashes[i],
            parsed[2 * count + i],
            objs[i],
        )
        for i in range(count)
    ]


def _careful_log(obj: JsonObject) -> Log:
    """Parse a log field by field, leniently, naming the field that is wrong."""
    return Log(
        address=required(obj, "address", parse_address),
        topics=hash_list(obj, "topics"),
        data=optional(obj, "data", parse_optional_data) or b"",
        log_index=optional(obj, "logIndex", bounds.INDEX.parse_optional),
        transaction_index=optional(obj, "transactionIndex", bounds.INDEX.parse_optional),
        transaction_hash=optional(obj, "transactionHash", parse_optional_hash),
        block_hash=optional(obj, "blockHash", parse_optional_hash),
        block_number=optional(obj, "blockNumber", bounds.BLOCK_NUMBER.parse_optional),
        raw=obj,
    )
