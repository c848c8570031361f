"""HTTP for the client: the shared httpx client (aiohttp transport), one capped POST, failures."""

from __future__ import annotations

import ssl
from dataclasses import dataclass

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

from explorer.rpc.errors import MalformedResponse, TransportError

DEFAULT_TIMEOUT = 30.0
DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024
REQUEST_HEADERS = {"content-type": "application/json", "accept": "application/json"}


@dataclass(frozen=True)
class HttpAnswer:
    """What the server sent back: status, headers and the whole body."""

    status: int
    reason: str
    headers: httpx.Headers
    body: bytes


def make_http_client(
    timeout: float = DEFAULT_TIMEOUT, max_connections: int = 64
) -> httpx.AsyncClient:
    """Return an httpx client on the aiohttp transport (fast under concurrency), no redirects."""
    limits = httpx.Limits(
        max_connections=max_connections, max_keepalive_connections=max_connections
    )
    return httpx.AsyncClient(
        transport=AiohttpTransport(limits=limits),
        timeout=timeout,
        follow_redirects=False,
    )


_NOT_SENT = (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError, ssl.SSLError)


def transport_error(exc: BaseException, host: str) -> TransportError:
    """Describe a transport failure in one line, and whether the request may have been sent."""
    cause = exc.__cause__ if isinstance(exc, httpx.HTTPError) and exc.__cause__ else exc
    if isinstance(cause, aiohttp.ClientSSLError | ssl.SSLError):
        return TransportError(f"TLS handshake with {host} failed", maybe_sent=False)
    if isinstance(cause, _NOT_SENT) or (
        cause is exc
        and isinstance(exc, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout)
    ):
        return TransportError(f"cannot connect to {host}", maybe_sent=False)
    if isinstance(cause, TimeoutError | httpx.TimeoutException):
        return TransportError(f"timed out waiting for {host}")
    return TransportError(f"the connection to {host} broke off ({type(cause).__name__})")


_FAILURES = (httpx.HTTPError, aiohttp.ClientError, OSError, TimeoutError)


async def post(
    http: httpx.AsyncClient,
    url: httpx.URL,
    body: bytes,
    *,
    timeout: httpx.Timeout,
    max_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
) -> HttpAnswer:
    """POST body to url and read the answer, at most max_bytes of it."""
    request = http.build_request(
        "POST", url, content=body, headers=REQUEST_HEADERS, timeout=timeout
    )
    try:
        response = await http.send(request, stream=True, follow_redirects=False)
    except _FAILURES as exc:
        raise transport_error(exc, url.host) from None
    try:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise _too_big(max_bytes)
        chunks: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > max_bytes:
                raise _too_big(max_bytes)
            chunks.append(chunk)
    except _FAILURES as exc:
        raise transport_error(exc, url.host) from None
    finally:
        await response.aclose()
    return HttpAnswer(
        response.status_code, response.reason_phrase, response.headers, b"".join(chunks)
    )


def _too_big(max_bytes: int) -> MalformedResponse:
    """Return the error for an answer over the size cap."""
    return MalformedResponse(f"the node's answer is larger than {max_bytes // (1024 * 1024)} MiB")
