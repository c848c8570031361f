"""Turn an HTTP answer into the call's result or the right kind of error."""

from __future__ import annotations

import email.utils
import math
import time
from typing import Any

import httpx

from explorer.rpc.envelope import is_error_envelope, node_error, parse_json, take_result
from explorer.rpc.errors import AuthError, MalformedResponse, RateLimited, RpcError, ServerError
from explorer.rpc.sliced import parse_json_sliced
from explorer.rpc.transport import HttpAnswer

SLICED_BYTES = 256 * 1024  # bigger answers are decoded in slices, a few items per loop turn


def parse_retry_after(value: str | None, now: float | None = None) -> float | None:
    """Return Retry-After (delta seconds or an HTTP date) in seconds from now, or None."""
    if not value:
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        moment = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if moment.tzinfo is None:
        return None
    delta = moment.timestamp() - (time.time() if now is None else now)
    return max(0.0, math.ceil(delta))


def _body_kind(answer: HttpAnswer) -> str:
    """Name what the body looks like, for messages."""
    content_type = answer.headers.get("content-type", "")
    if "html" in content_type or answer.body.lstrip()[:1] == b"<":
        return "an HTML page"
    return "an empty body" if not answer.body.strip() else "a non-JSON-RPC body"


def _redirect_error(answer: HttpAnswer, url: httpx.URL) -> ServerError:
    """Refuse a redirect: following it could carry the key elsewhere."""
    location = answer.headers.get("location", "")
    try:
        target = url.join(location)
    except httpx.InvalidURL:
        target = url
    where = "the same host" if target.host == url.host else f"host {target.host or '?'}"
    return ServerError(
        f"{url.host} redirected the request (HTTP {answer.status}) to {where}; "
        "redirects are not followed, so the API key stays with the configured host",
        status=answer.status,
    )


def http_error(answer: HttpAnswer, url: httpx.URL) -> RpcError:
    """Return the error for a non-2xx answer that carries no JSON-RPC error object."""
    status, host = answer.status, url.host
    if 300 <= status < 400:
        return _redirect_error(answer, url)
    if status in (401, 403):
        return AuthError(
            f"{host} refused the API key (HTTP {status} {answer.reason})", status=status
        )
    if status == 429:
        retry_after = parse_retry_after(answer.headers.get("retry-after"))
        hint = f"; retry after {retry_after:.0f} s" if retry_after is not None else ""
        return RateLimited(
            f"{host} is rate limiting requests (HTTP 429){hint}", retry_after=retry_after
        )
    return ServerError(
        f"{host} answered HTTP {status} {answer.reason} with {_body_kind(answer)}", status=status
    )


def _error_envelope(body: bytes) -> Any:
    """Return body as a JSON-RPC error envelope, or None when it is not one."""
    if body.lstrip()[:1] != b"{":
        return None
    try:
        value = parse_json(body)
    except MalformedResponse:
        return None
    return value if is_error_envelope(value) else None


def result_of(answer: HttpAnswer, url: httpx.URL, request_id: int) -> Any:
    """Return the JSON-RPC result of an answer, or raise the error it stands for."""
    status = answer.status
    if 200 <= status < 300:
        return take_result(parse_json(answer.body), request_id)
    if status not in (401, 403, 429) and not 300 <= status < 400:
        envelope = _error_envelope(answer.body)
        if envelope is not None:
            raise node_error(envelope)
    raise http_error(answer, url)


async def result_of_sliced(answer: HttpAnswer, url: httpx.URL, request_id: int) -> Any:
    """Return what result_of does; a big answer's arrays are decoded a slice per loop turn."""
    if 200 <= answer.status < 300 and len(answer.body) > SLICED_BYTES:
        return take_result(await parse_json_sliced(answer.body), request_id)
    return result_of(answer, url, request_id)
