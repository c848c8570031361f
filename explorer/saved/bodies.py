"""Kept bodies: answers saved as the node sent them (JSON-RPC envelopes), and read back."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from explorer.rpc.answers import SLICED_BYTES
from explorer.rpc.envelope import parse_json
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.sliced import parse_json_sliced

_compact = json.JSONEncoder(separators=(",", ":"), sort_keys=True).encode
ITEMS_PER_DUMP = 500  # logs serialised per call (the worker thread lets the GIL go between)


async def result_of_body(body: bytes) -> Any:
    """Return the `result` of a kept body (a big one decoded a slice per loop turn)."""
    value = await parse_json_sliced(body) if len(body) > SLICED_BYTES else parse_json(body)
    if not isinstance(value, dict) or "result" not in value:
        raise MalformedResponse("a saved answer has no result")
    return value["result"]


def dump_result(logs: Sequence[Any]) -> bytes:
    """Return `{"result": [...]}` for logs, serialised a slice at a time (worker thread)."""
    parts = [
        _compact(list(logs[start : start + ITEMS_PER_DUMP]))[1:-1]
        for start in range(0, len(logs), ITEMS_PER_DUMP)
    ]
    return ('{"result":[' + ",".join(part for part in parts if part) + "]}").encode()


def compact(value: Any) -> str:
    """Return value as compact JSON with sorted keys (a stable key)."""
    return _compact(value)
