"""JSON-RPC batches: several calls in one HTTP request, each answered on its own (JSON-RPC 2.0 §6).

The service's description does not say whether it takes batches (§4.1: "not shown"); rskj does,
up to `rpc.providers.web.max_batch_requests_size` (50) calls. A node that refuses one answers a
single error object or an HTTP error instead of an array: `BatchRefused`, so the caller can
send the calls one by one instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import httpx

from explorer.rpc.answers import http_error
from explorer.rpc.envelope import encode_request, is_error_envelope, node_error, parse_json
from explorer.rpc.errors import MalformedResponse, RpcError
from explorer.rpc.transport import HttpAnswer

MAX_BATCH = 50  # rskj's default limit on calls in one batch


class BatchRefused(MalformedResponse):
    """The node answered a batch with something other than an array of answers."""


def encode_batch(ids: Sequence[int], calls: Sequence[tuple[str, str]]) -> bytes:
    """Return the body of a batch: (method, params as JSON) calls under the given ids."""
    parts = [encode_request(i, name, params) for i, (name, params) in zip(ids, calls, strict=True)]
    return b"[" + b",".join(parts) + b"]"


def _answer_of(item: Mapping[str, Any]) -> Any:
    """Return one answer's result, or the NodeError it carries."""
    if item.get("error") is not None:
        return node_error(item)
    if "result" not in item:
        raise MalformedResponse("an answer in the batch has neither result nor error")
    return item["result"]


def results_of_batch(answer: HttpAnswer, url: httpx.URL, ids: Sequence[int]) -> list[Any]:
    """Return each call's result (or NodeError) in the order of ids; BatchRefused otherwise."""
    status = answer.status
    if not 200 <= status < 300:
        if not 400 <= status < 500 or status in (401, 403, 429):
            raise http_error(answer, url)  # not about batches: auth, rate limit, server, redirect
        value: Any = None
        if answer.body.lstrip()[:1] == b"{":
            try:
                value = parse_json(answer.body)
            except MalformedResponse:
                value = None
        error: RpcError = node_error(value) if is_error_envelope(value) else http_error(answer, url)
        raise BatchRefused(f"the node refused a batch: {error.message}")
    value = parse_json(answer.body)
    if not isinstance(value, list):
        reason = node_error(value).message if is_error_envelope(value) else "no array"
        raise BatchRefused(f"the node answered a batch with {reason}")
    by_id: dict[Any, Any] = {}
    for item in value:
        if not isinstance(item, Mapping) or "id" not in item:
            raise MalformedResponse("an answer in the batch is not a JSON-RPC object")
        by_id[item["id"]] = item
    missing = [i for i in ids if i not in by_id]
    if missing:
        raise MalformedResponse(f"the batch's answer lacks request id {missing[0]}")
    return [_answer_of(by_id[i]) for i in ids]


def raise_first(results: Sequence[Any]) -> list[Any]:
    """Return the results when none is an error, else raise the first error."""
    for result in results:
        if isinstance(result, RpcError):
            raise result
    return list(results)
