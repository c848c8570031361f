"""JSON-RPC 2.0 envelopes: encode a request, check a response and take out its result."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from explorer.rpc.errors import InvalidInput, MalformedResponse, NodeError

_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True)
_decode = json.JSONDecoder().decode


def encode_params(method: str, params: Sequence[Any]) -> str:
    """Return a call's params as compact JSON, or raise InvalidInput."""
    try:
        return _encoder.encode(list(params))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{method}: params must be JSON values ({exc})") from None


def encode_request(request_id: int, method: str, params_json: str) -> bytes:
    """Return the request body for one call, given its params already encoded as JSON."""
    method_json = _encoder.encode(method)
    text = f'{{"jsonrpc":"2.0","id":{request_id},"method":{method_json},"params":{params_json}}}'
    return text.encode("ascii")


def parse_json(body: bytes) -> Any:
    """Parse a response body as JSON, or raise MalformedResponse."""
    try:
        return _decode(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise MalformedResponse("the node's answer is not JSON") from None
    except RecursionError:  # the C decoder stops at the interpreter's recursion limit
        raise MalformedResponse("the node's answer nests deeper than JSON is read") from None


def node_error(obj: Mapping[str, Any]) -> NodeError:
    """Turn an envelope's `error` object into a NodeError, or raise MalformedResponse."""
    error = obj["error"]
    if not isinstance(error, Mapping):
        raise MalformedResponse("the node's error is not an object")
    code, message = error.get("code"), error.get("message")
    if not isinstance(code, int) or isinstance(code, bool) or not isinstance(message, str):
        raise MalformedResponse("the node's error lacks an integer code or a message")
    return NodeError(code, message, error.get("data"))


def is_error_envelope(value: object) -> bool:
    """Tell whether value looks like a JSON-RPC error answer (with or without jsonrpc/id)."""
    return isinstance(value, Mapping) and value.get("error") is not None


def take_result(value: object, request_id: int) -> Any:
    """Return the result of a decoded response, raising NodeError or MalformedResponse."""
    if not isinstance(value, Mapping):
        raise MalformedResponse("the node's answer is not a JSON-RPC object")
    answer_id = value.get("id")
    if value.get("error") is not None:
        if answer_id is not None and answer_id != request_id:
            raise MalformedResponse("the node answered an error for another request id")
        raise node_error(value)
    if answer_id != request_id or isinstance(answer_id, bool):
        raise MalformedResponse(f"the node answered request id {answer_id!r}, not {request_id}")
    if "result" not in value:
        raise MalformedResponse("the node's answer has neither result nor error")
    return value["result"]
