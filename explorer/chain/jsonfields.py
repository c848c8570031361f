"""Reading a node's JSON objects field by field: required, optional, hashes, one error type."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from explorer.chain.hexutil import HexFormatError, parse_hash

JsonObject = Mapping[str, Any]
T = TypeVar("T")


class RecordFormatError(ValueError):
    """A node's JSON object lacks a required field or has one of the wrong form."""


def required(obj: JsonObject, key: str, parse: Callable[[object, str], T]) -> T:
    """Parse a field that must be present and non-null."""
    if key not in obj or obj[key] is None:
        raise RecordFormatError(f"missing field {key!r}")
    try:
        return parse(obj[key], key)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc


def optional(obj: JsonObject, key: str, parse: Callable[[object, str], T | None]) -> T | None:
    """Parse a field that may be absent or null."""
    try:
        return parse(obj.get(key), key)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc


def json_object(value: object, what: str) -> JsonObject:
    """Return value as a JSON object; unwrap a one-element array (docs/service.md §10)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, Mapping):
        raise RecordFormatError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


def hash_list(obj: JsonObject, key: str) -> tuple[str, ...]:
    """Parse an optional array of 32-byte hashes."""
    items = obj.get(key) or []
    if not isinstance(items, list):
        raise RecordFormatError(f"{key!r} must be an array")
    try:
        return tuple(parse_hash(item, key) for item in items)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc
