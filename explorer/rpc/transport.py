"""HTTP for the client: the shared httpx client (aiohttp transport), one capped POST, failures."""

from __future__ import annotations

import functools
import ssl
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass

import aiohttp
import httpx
from httpx_aiohttp import AiohttpTransport

from explorer.rpc.errors import AnswerTooLarge, TransportError
from explorer.rpc.tlsresume import resume_sessions

DEFAULT_TIMEOUT = 30.0  # seconds a connected node may take to answer one request
DEFAULT_CONNECT_TIMEOUT = 5.0  # seconds to connect: a node that cannot be reached fails fast
DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024
REQUEST_HEADERS = {"content-type": "application/json", "accept": "application/json"}


@dataclass(frozen=True)
class HttpAnswer:
    """What the server sent back: status, headers and the whole body."""

    status: int
    reason: str
    headers: Mapping[str, str]
    body: bytes


@functools.cache
def shared_tls_context() -> ssl.SSLContext:
    """Return the one TLS context every client verifies with.

    Making one reads the CA bundle, about 45 ms on the GUI thread, so a network switch would
    stall on it. It resumes each host's last TLS session, for nodes that close every
    connection (rskj).
    """
    return resume_sessions(httpx.create_ssl_context())


def make_http_client(
    timeout: float = DEFAULT_TIMEOUT,
    max_connections: int = 64,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
) -> httpx.AsyncClient:
    """Return an httpx client on the aiohttp transport (fast under concurrency), no redirects."""
    limits = httpx.Limits(
        max_connections=max_connections, max_keepalive_connections=max_connections
    )
    return httpx.AsyncClient(
        transport=AiohttpTransport(limits=limits, verify=shared_tls_context()),
        timeout=httpx.Timeout(timeout, connect=min(connect_timeout, timeout)),
        follow_redirects=False,
    )


_NOT_SENT = (aiohttp.ClientConnectorError, aiohttp.ConnectionTimeoutError, ssl.SSLError)


def host_and_port(url: httpx.URL) -> str:
    """Return the host of a URL, with its port when the URL names one (`127.0.0.1:8031`)."""
    return f"{url.host}:{url.port}" if url.port is not None else url.host


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


def aiohttp_session(http: httpx.AsyncClient, url: httpx.URL) -> aiohttp.ClientSession | None:
    """Return the aiohttp session behind http for url (no proxy), creating it on first use."""
    transport = http._transport_for_url(url)
    if not isinstance(transport, AiohttpTransport) or transport.proxy is not None:
        return None
    if not isinstance(transport.client, aiohttp.ClientSession):
        transport.client = transport.get_client()
    return transport.client


async def post(
    http: httpx.AsyncClient,
    url: httpx.URL,
    body: bytes,
    *,
    timeout: float,
    max_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
) -> HttpAnswer:
    """POST body to url and read at most max_bytes of the answer; never follow redirects.

    Connecting may take connect_timeout seconds, each read of the answer timeout seconds.
    """
    # With the aiohttp transport, go straight to its aiohttp session: the same connection
    # pool at half httpx's per-request overhead. Any other transport is used through httpx.
    session = aiohttp_session(http, url)
    limits = httpx.Timeout(timeout, connect=min(connect_timeout, timeout))
    try:
        if session is not None:
            return await _post_aiohttp(session, url, body, limits, max_bytes)
        return await _post_httpx(http, url, body, limits, max_bytes)
    except _FAILURES as exc:
        raise transport_error(exc, host_and_port(url)) from None


async def _post_aiohttp(
    session: aiohttp.ClientSession,
    url: httpx.URL,
    body: bytes,
    timeout: httpx.Timeout,
    max_bytes: int,
) -> HttpAnswer:
    """POST through aiohttp."""
    async with session.post(
        str(url),
        data=body,
        headers=REQUEST_HEADERS,
        allow_redirects=False,
        timeout=aiohttp.ClientTimeout(
            total=None, sock_connect=timeout.connect, sock_read=timeout.read
        ),
    ) as response:
        declared = response.content_length
        if declared is not None and declared > max_bytes:
            raise _too_big(max_bytes)
        if declared is not None and "content-encoding" not in response.headers:
            data = await response.read()
        else:
            data = await _read_capped(response.content.iter_chunked(65536), max_bytes)
        return HttpAnswer(response.status, response.reason or "", response.headers, data)


async def _post_httpx(
    http: httpx.AsyncClient, url: httpx.URL, body: bytes, timeout: httpx.Timeout, max_bytes: int
) -> HttpAnswer:
    """POST through httpx, streaming the answer."""
    request = http.build_request(
        "POST", url, content=body, headers=REQUEST_HEADERS, timeout=timeout
    )
    response = await http.send(request, stream=True, follow_redirects=False)
    try:
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > max_bytes:
            raise _too_big(max_bytes)
        data = await _read_capped(response.aiter_bytes(), max_bytes)
    finally:
        await response.aclose()
    return HttpAnswer(response.status_code, response.reason_phrase, response.headers, data)


async def _read_capped(chunks: AsyncIterator[bytes], max_bytes: int) -> bytes:
    """Join chunks, raising MalformedResponse once they pass max_bytes."""
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > max_bytes:
            raise _too_big(max_bytes)
        parts.append(chunk)
    return b"".join(parts)


def _too_big(max_bytes: int) -> AnswerTooLarge:
    """Return the error for an answer over the size cap."""
    return AnswerTooLarge(f"the node's answer is larger than {max_bytes / 1048576:g} MiB")
