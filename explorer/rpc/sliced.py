"""Decode a big JSON answer in slices: an array member is read a few items per event-loop turn."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable
from typing import Any

from explorer.rpc.envelope import parse_json
from explorer.rpc.errors import MalformedResponse

ITEMS_PER_SLICE = 500  # about 2 ms of decoding a turn
WHITESPACE = " \t\n\r"  # JSON's four whitespace characters
_value_at = json.JSONDecoder().raw_decode
_ItemScanner = Callable[[str, int], tuple[Any, int]]  # raises StopIteration where no value starts
_scan_item: _ItemScanner = json.JSONDecoder().scan_once  # type: ignore[attr-defined]
_ITEM_END = re.compile(r"[ \t\n\r]*([,\]])[ \t\n\r]*")  # after an item: the next, or the end


def _skip(text: str, at: int) -> int:
    """Return the index of the first non-whitespace character from `at`."""
    while at < len(text) and text[at] in WHITESPACE:
        at += 1
    return at


def _expect(text: str, at: int, chars: str) -> str:
    """Return the character at `at` when it is one of chars; ValueError otherwise."""
    if at >= len(text) or text[at] not in chars:
        raise ValueError(f"expected one of {chars!r} at {at}")
    return text[at]


async def _array(text: str, at: int, per_slice: int) -> tuple[list[Any], int]:
    """Decode the array whose `[` is at `at`; yield to the loop every per_slice items."""
    items: list[Any] = []
    at = _skip(text, at + 1)
    if at < len(text) and text[at] == "]":
        return items, at + 1
    while True:
        try:
            item, at = _scan_item(text, at)  # raw_decode's own C scanner, minus its frame
        except StopIteration:
            raise ValueError(f"expected a value at {at}") from None
        items.append(item)
        if len(items) % per_slice == 0:
            await asyncio.sleep(0)
        separator = _ITEM_END.match(text, at)
        if separator is None:
            raise ValueError(f"expected ',' or ']' at {at}")
        at = separator.end()
        if separator.group(1) == "]":
            return items, at


async def _object(text: str, at: int, per_slice: int) -> dict[str, Any]:
    """Decode the top-level object whose `{` is at `at`, its array members in slices."""
    members: dict[str, Any] = {}
    at = _skip(text, at + 1)
    while _expect(text, at, '}"') == '"':
        key, at = _value_at(text, at)
        at = _skip(text, at)
        _expect(text, at, ":")
        at = _skip(text, at + 1)
        if at < len(text) and text[at] == "[":
            members[key], at = await _array(text, at, per_slice)
        else:
            members[key], at = _value_at(text, at)
        at = _skip(text, at)
        if _expect(text, at, ",}") == "}":
            break
        at = _skip(text, at + 1)
        _expect(text, at, '"')
    if _skip(text, at + 1) != len(text):
        raise ValueError("extra data after the answer")
    return members


async def parse_json_sliced(body: bytes, per_slice: int = ITEMS_PER_SLICE) -> Any:
    """Parse a body as parse_json does, yielding to the event loop between slices of items.

    The answer is the same as parse_json's; only an object's array members are decoded item by
    item (json's own decoder reads every value), so no single step handles the whole body.
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedResponse("the node's answer is not JSON") from None
    start = _skip(text, 0)
    if start >= len(text) or text[start] != "{":
        return parse_json(body)
    try:
        return await _object(text, start, per_slice)
    except (ValueError, IndexError, RecursionError):
        raise MalformedResponse("the node's answer is not JSON") from None
