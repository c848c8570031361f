"""The JSON-RPC 2.0 envelope of the devnet service: strict parsing, validation, dispatch."""

from __future__ import annotations

import json
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from explorer.devnet.errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    SERVER_ERROR,
    STILL_BUILDING_TEXT,
    RpcFailure,
)
from explorer.devnet.filling import NotYetLoaded

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
#: Error codes rskj answers with HTTP 400 when the request is not a batch.
HTTP_400_CODES = frozenset({PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS})
THREAD_STACK_BYTES = 256 * 1024 * 1024
MAX_JSON_DEPTH = 64

Json = Any
Response = dict[str, Json]


class Node(Protocol):
    """What the server needs of a devnet node."""

    def handle(self, method: str, params: list[Json]) -> Json:
        """Answer one JSON-RPC call or raise RpcFailure."""

    def mine_block(self) -> int:
        """Mine the pool into a new block; return its number."""

    def mine_scheduled(self) -> int | None:
        """Mine a block on the interval timer unless mining is stopped; its number or None."""


def error_response(request_id: Json, code: int, message: str, data: Json = None) -> Response:
    """Build a JSON-RPC error envelope."""
    error: dict[str, Json] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def big_stack_executor(name: str) -> ThreadPoolExecutor:
    """Return a one-thread executor whose thread has a large stack (deep JSON, deep EVM calls).

    py-evm and py_ecc raise the recursion limit to 100,000, so recursion can overflow
    a default-size C stack (a crash) long before Python raises RecursionError.
    """
    previous = threading.stack_size(THREAD_STACK_BYTES)
    try:
        executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        executor.submit(int).result()
    finally:
        threading.stack_size(previous)
    return executor


def nesting_depth(value: Json) -> int:
    """How deeply arrays and objects nest in a parsed JSON value (iteratively)."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _reject_constant(name: str) -> float:
    """Refuse NaN and Infinity, which are not JSON."""
    raise ValueError(f"{name} is not valid JSON")


def parse_body(body: bytes) -> Json:
    """Decode a request body as strict JSON; raise ValueError when it is not.

    Run it on a big_stack_executor thread: the C parser recurses once per nesting level.
    """
    try:
        payload = json.loads(body.decode("utf-8"), parse_constant=_reject_constant)
    except RecursionError as exc:
        raise ValueError("JSON nested too deeply") from exc
    if nesting_depth(payload) > MAX_JSON_DEPTH:
        raise ValueError("JSON nested too deeply")
    return payload


def _valid_id(value: Json) -> bool:
    """Tell whether a request id has a type JSON-RPC allows."""
    return value is None or (isinstance(value, int | float | str) and not isinstance(value, bool))


class Dispatcher:
    """Validates JSON-RPC request objects and runs them on a node (sync; one thread)."""

    def __init__(self, node: Node) -> None:
        self._node = node

    def run_one(self, item: Json) -> Response | None:
        """Answer one request object; None for a notification."""
        if not isinstance(item, dict):
            return error_response(None, INVALID_REQUEST, "Invalid request")
        request_id = item.get("id")
        if not _valid_id(request_id):
            return error_response(None, INVALID_REQUEST, "Invalid request: bad id")
        problem = self._envelope_problem(item)
        if problem is not None:
            return error_response(request_id, INVALID_REQUEST, f"Invalid request: {problem}")
        params = item.get("params", [])
        if isinstance(params, dict):
            response = error_response(request_id, INVALID_PARAMS, "Invalid params: use an array")
        else:
            response = self._call(request_id, item["method"], params)
        return response if "id" in item else None

    @staticmethod
    def _envelope_problem(item: dict[str, Json]) -> str | None:
        """Say what is wrong with a request object's envelope, if anything."""
        if item.get("jsonrpc") != "2.0":
            return 'jsonrpc must be "2.0"'
        if not isinstance(item.get("method"), str):
            return "method must be a string"
        if not isinstance(item.get("params", []), list | dict):
            return "params must be an array"
        return None

    def _call(self, request_id: Json, method: str, params: list[Json]) -> Response:
        """Run a method on the node, turning every failure into an error envelope."""
        try:
            result = self._node.handle(method, params)
        except RpcFailure as failure:
            return error_response(request_id, failure.code, failure.message, failure.data)
        except NotYetLoaded:
            raise  # answered once the older history is built (server.py)
        except Exception:
            log.exception("devnet method %.64s failed", method)
            return error_response(request_id, INTERNAL_ERROR, "Internal error")
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def run_batch(self, items: list[Json]) -> list[Response]:
        """Answer a batch; notifications get no entry."""
        answers = (self.run_one(item) for item in items)
        return [answer for answer in answers if answer is not None]


def still_building(payload: Json) -> Json:
    """Answer each request of a payload: the history it needs is still being built."""

    def answer(item: Json) -> Json:
        request_id = item.get("id") if isinstance(item, dict) else None
        return error_response(request_id, SERVER_ERROR, STILL_BUILDING_TEXT)

    return [answer(item) for item in payload] if isinstance(payload, list) else answer(payload)


def bare_error(code: int, message: str) -> Json:
    """Return rskj's error body for its own limits.

    No `jsonrpc`, no `id` (JsonRpcWeb3ServerHandler).
    """
    return {"error": {"code": code, "message": message}}
