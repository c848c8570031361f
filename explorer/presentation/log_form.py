"""The Logs screen's query form: its fields, the spec's rules checked as you type, the query."""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping

from explorer.chain.hexutil import is_address, is_hash
from explorer.services.logquery import TAGS, LogQuery

_SEPARATORS = re.compile(r"[\s,;|]+")


class Field(enum.StrEnum):
    """The form's fields (their values are the names used by views and messages)."""

    ADDRESSES = "addresses"
    TOPIC0 = "topic0"
    TOPIC1 = "topic1"
    TOPIC2 = "topic2"
    TOPIC3 = "topic3"
    BLOCK_HASH = "block_hash"
    FROM_BLOCK = "from_block"
    TO_BLOCK = "to_block"


TOPICS = (Field.TOPIC0, Field.TOPIC1, Field.TOPIC2, Field.TOPIC3)
FieldTexts = Mapping[str, str]  # a text per Field (a Field is its name)


def split_list(text: str) -> list[str]:
    """Split a field's text at commas, spaces or new lines."""
    return [part for part in _SEPARATORS.split(text.strip()) if part]


def parse_bound(text: str) -> int | str | None:
    """Read a block bound: decimal or 0x hex number, or a tag; None when not one."""
    text = text.strip().lower()
    if text in TAGS:
        return text
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    if re.fullmatch(r"0x[0-9a-f]+", text):
        return int(text, 16)
    return None


def check_fields(texts: FieldTexts) -> dict[Field, str]:
    """Return a message per field that breaks the spec's rules (empty when all is well)."""
    errors: dict[Field, str] = {}
    bad = [a for a in split_list(texts[Field.ADDRESSES]) if not is_address(a)]
    if bad:
        errors[Field.ADDRESSES] = f"not a 20-byte address (0x and 40 hex digits): {bad[0]}"
    for field in TOPICS:
        bad = [t for t in split_list(texts[field]) if not is_hash(t)]
        if bad:
            errors[field] = f"not a 32-byte topic (0x and 64 hex digits): {bad[0]}"
    block_hash = texts[Field.BLOCK_HASH].strip()
    if block_hash and not is_hash(block_hash):
        errors[Field.BLOCK_HASH] = "a block hash is 0x and 64 hex digits"
    elif block_hash and (texts[Field.FROM_BLOCK].strip() or texts[Field.TO_BLOCK].strip()):
        errors[Field.BLOCK_HASH] = "a block hash excludes From and To: clear one or the other"
    bounds = {}
    for field in (Field.FROM_BLOCK, Field.TO_BLOCK):
        text = texts[field].strip()
        bounds[field] = parse_bound(text) if text else None
        if text and bounds[field] is None:
            errors[field] = "a block number (decimal or 0x hex) or latest, earliest, pending"
    start, end = bounds[Field.FROM_BLOCK], bounds[Field.TO_BLOCK]
    if isinstance(start, int) and isinstance(end, int) and start > end:
        errors[Field.TO_BLOCK] = f"To ({end}) is before From ({start})"
    return errors


def _bound(text: str, default: int | str) -> int | str:
    """Read a bound field, or the default when it is empty."""
    value = parse_bound(text)
    return default if value is None else value


def query_of(texts: FieldTexts) -> LogQuery:
    """Build the query of fields that passed check_fields."""
    topics = [tuple(split_list(texts[field])) or None for field in TOPICS]
    while topics and topics[-1] is None:
        topics.pop()
    block_hash = texts[Field.BLOCK_HASH].strip() or None
    return LogQuery(
        addresses=tuple(split_list(texts[Field.ADDRESSES])),
        topics=tuple(topics),
        from_block=_bound(texts[Field.FROM_BLOCK], 0),
        to_block=_bound(texts[Field.TO_BLOCK], "latest"),
        block_hash=block_hash,
    ).checked()
