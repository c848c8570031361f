"""The devnet's HTTP face: a node served as the JSON-RPC node access service (aiohttp)."""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import json
import logging
import math
import ssl
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.envelope import (
    HTTP_400_CODES,
    PARSE_ERROR,
    Dispatcher,
    Json,
    Node,
    bare_error,
    big_stack_executor,
    error_response,
    parse_body,
    still_building,
)
from explorer.devnet.errors import (
    INTERNAL_ERROR,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    RPC_LIMIT,
    TIMEOUT_TEXT,
    response_too_large,
)
from explorer.devnet.filling import StillBuilding, when_loaded
from explorer.devnet.profile import Profile

log = logging.getLogger(__name__)

LIMIT_EXCEEDED = -32005
UNAUTHORIZED = -32001

JSON_CONTENT_TYPES = frozenset({"application/json", "application/json-rpc"})


@dataclass(frozen=True)
class ServiceConfig:
    """Transport rules of one served network (reference.conf's `rpc` defaults)."""

    keys: frozenset[str]
    daily_quota: int | None = None
    max_batch: int = 50  # rpc.providers.web.max_batch_requests_size
    max_body_bytes: int = 5 * 1024 * 1024  # max_aggregated_frame_size: more is an empty 413
    max_response_bytes: int = 10 * 1024 * 1024  # rpc.maxResponseSize: more is -32011
    rpc_timeout: float = 5.0  # rpc.timeout (seconds): a slower call is -32011; 0 = none
    block_time: float = 0.0
    latency: float = 0.0  # seconds added before every answer, to behave like a remote node
    profile: Profile = Profile.SERVICE

    @property
    def is_rskj(self) -> bool:
        """Tell whether the network is served as a bare rskj node (no key, rskj's HTTP)."""
        return self.profile is Profile.RSKJ


def redact_key(key: str) -> str:
    """Return a form of an API key that is safe to log."""
    return key[:4] + "…" if len(key) > 8 else "…"


def seconds_to_utc_midnight(now: float) -> int:
    """Whole seconds (at least 1) from `now` until the next UTC midnight."""
    today = dt.datetime.fromtimestamp(now, dt.UTC).date()
    midnight = dt.datetime.combine(today + dt.timedelta(days=1), dt.time(), dt.UTC)
    return max(1, math.ceil(midnight.timestamp() - now))


@dataclass
class QuotaBook:
    """Requests spent per key during the current UTC day."""

    limit: int | None
    clock: Callable[[], float] = time.time
    _day: int = -1
    _spent: dict[str, int] = field(default_factory=dict)

    def try_spend(self, key: str, count: int) -> bool:
        """Spend `count` requests of `key` if they fit in today's quota."""
        if self.limit is None:
            return True
        day = int(self.clock() // 86_400)
        if day != self._day:
            self._day, self._spent = day, {}
        spent = self._spent.get(key, 0)
        if spent + count > self.limit:
            return False
        self._spent[key] = spent + count
        return True

    def retry_after(self) -> int:
        """Seconds until the quota resets."""
        return seconds_to_utc_midnight(self.clock())


def json_bytes(payload: Json) -> bytes:
    """Return a response or batch as compact JSON bytes, exactly as json.dumps writes it.

    Pre-encoded log arrays are joined in, not encoded again.
    """
    return b"".join(_chunks(payload))


def _chunks(payload: Json) -> list[bytes]:
    """Return the compact JSON of a batch, a response or a value, in pieces to join."""
    if isinstance(payload, EncodedLogs):
        return payload.json_chunks()
    if isinstance(payload, list):
        return _enclosed(b"[", [_chunks(item) for item in payload], b"]")
    if isinstance(payload, dict) and isinstance(payload.get("result"), EncodedLogs):
        members = [[_compact(str(key)) + b":", *_chunks(value)] for key, value in payload.items()]
        return _enclosed(b"{", members, b"}")
    return [_compact(payload)]


def _enclosed(opening: bytes, members: list[list[bytes]], closing: bytes) -> list[bytes]:
    """Return the members' pieces between an opening and a closing bracket, commas between them."""
    chunks = [opening]
    for at, member in enumerate(members):
        if at:
            chunks.append(b",")
        chunks.extend(member)
    chunks.append(closing)
    return chunks


def _compact(value: Json) -> bytes:
    """Return the compact JSON of a value."""
    return json.dumps(value, separators=(",", ":")).encode()


def _json_response(payload: Json, status: int = 200, **headers: str) -> web.Response:
    """Serialise a payload as an application/json response."""
    return web.Response(
        body=json_bytes(payload),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def _http_error(status: int, code: int, message: str, **headers: str) -> web.Response:
    """Return an HTTP error carrying a JSON-RPC error body."""
    return _json_response(error_response(None, code, message), status, **headers)


def key_from_path(path: str) -> str | None:
    """Return the API key of `/<KEY>` or `/v2/<KEY>` ('' when missing); None for other paths."""
    parts = path.strip("/").split("/")
    if parts and parts[0] == "v2":
        parts = parts[1:]
    if parts in ([], [""]):
        return ""
    return parts[0] if len(parts) == 1 else None


class RpcService:
    """The aiohttp application of one network: auth, quota, envelope, then the node."""

    def __init__(
        self,
        node: Node,
        config: ServiceConfig,
        executor: ThreadPoolExecutor,
        parser: ThreadPoolExecutor,
    ) -> None:
        self._config = config
        self._executor = executor
        self._parser = parser
        self._dispatcher = Dispatcher(node)
        self._node = node
        self.quota = QuotaBook(config.daily_quota)

    def application(self) -> web.Application:
        """Build the aiohttp application."""
        app = web.Application(client_max_size=self._config.max_body_bytes)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        return app

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Answer one HTTP request; never raises, whatever the input."""
        try:
            if self._config.latency > 0:
                await asyncio.sleep(self._config.latency)
            response = await self._handle(request)
        except Exception:
            log.exception("devnet request failed")
            response = _http_error(500, INTERNAL_ERROR, "Internal error")
        if self._config.is_rskj:
            _as_rskj_sends_it(response)
        return response

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        """Check path, key, method, content type and size, then answer the body."""
        if self._config.is_rskj:
            return await self._handle_rskj(request)
        key = key_from_path(request.path)
        if key is None:
            return _http_error(404, METHOD_NOT_FOUND, "Not found: use /<API_KEY> or /v2/<API_KEY>")
        if not key:
            return _http_error(401, UNAUTHORIZED, "Unauthorized: API key missing from the path")
        if key not in self._config.keys:
            return _http_error(403, UNAUTHORIZED, "Forbidden: unknown API key")
        if request.method != "POST":
            return _http_error(405, INVALID_REQUEST, "Method not allowed: use POST", Allow="POST")
        if request.content_type not in JSON_CONTENT_TYPES:
            return _http_error(415, INVALID_REQUEST, "Content-Type must be application/json")
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return _http_error(413, LIMIT_EXCEEDED, "Request body too large")
        return await self._answer(key, body)

    async def _handle_rskj(self, request: web.Request) -> web.StreamResponse:
        """Answer as rskj's netty pipeline does.

        Any path, no key; an oversized body is an empty 413, another method an empty 501, another
        content type an empty 415 (Web3HttpServer.java, JsonRpcWeb3FilterHandler.java).
        """
        try:
            body = await request.read()
        except web.HTTPRequestEntityTooLarge:
            return web.Response(status=413)
        if request.method != "POST":
            return web.Response(status=501)
        if request.content_type not in JSON_CONTENT_TYPES:
            return web.Response(status=415)
        return await self._answer("", body)

    async def _answer(self, key: str, body: bytes) -> web.Response:
        """Parse the envelope, apply the quota and run the calls on the node's thread."""
        loop = asyncio.get_running_loop()
        try:
            payload = await loop.run_in_executor(self._parser, parse_body, body)
        except ValueError:
            payload = None
            parsed = False
        else:
            parsed = True
        count = len(payload) if isinstance(payload, list) and payload else 1
        if not self.quota.try_spend(key, count):
            retry = str(self.quota.retry_after())
            return _http_error(
                429, LIMIT_EXCEEDED, "Daily request quota spent", **{"Retry-After": retry}
            )
        if not parsed:
            return _json_response(error_response(None, PARSE_ERROR, "Parse error"), 400)
        if isinstance(payload, list):
            if len(payload) > self._config.max_batch:
                message = (
                    "Cannot dispatch batch requests. "
                    f"{self._config.max_batch} is the max number of supported batch requests"
                )
                return _json_response(bare_error(INVALID_REQUEST, message), 400)
            return await self._limited(self._dispatcher.run_batch, payload)
        return await self._limited(self._dispatcher.run_one, payload)

    async def _limited(self, run: Callable[[Json], Json], payload: Json) -> web.Response:
        """Run one request or a batch on the node.

        Within rskj's time and size limits (-32011 without `jsonrpc` or `id` past either,
        JsonRpcWeb3ServerHandler.java); a call the older history holds up waits FILL_WAIT.
        """

        def timed(item: Json) -> tuple[Json, float]:
            started = time.perf_counter()
            return run(item), time.perf_counter() - started

        try:
            answer, seconds = await when_loaded(
                self._node, functools.partial(self._on_node_thread, timed, payload)
            )
        except StillBuilding:
            return _json_response(still_building(payload))
        timeout = self._config.rpc_timeout
        if timeout > 0 and seconds > timeout:
            return _json_response(bare_error(RPC_LIMIT, TIMEOUT_TEXT))
        if not answer:  # notifications only; an empty batch is answered `[]`, as jsonrpc4j does
            return _json_response([]) if payload == [] else web.Response(status=204)
        encoded = await asyncio.get_running_loop().run_in_executor(self._parser, json_bytes, answer)
        limit = self._config.max_response_bytes
        if 0 < limit < len(encoded):
            return _json_response(bare_error(RPC_LIMIT, response_too_large(limit)))
        status = 200
        if isinstance(answer, dict) and answer.get("error", {}).get("code") in HTTP_400_CODES:
            status = 400
        return web.Response(body=encoded, status=status, content_type="application/json")

    async def _on_node_thread(self, func: Callable[[Json], Any], arg: Json) -> Any:
        """Run `func(arg)` on the node's own thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, func, arg)

    async def mine_forever(self) -> None:
        """Mine a block every block_time seconds (interval mining), unless mining is stopped."""
        while True:
            await asyncio.sleep(self._config.block_time)
            try:
                number = await self._on_node_thread(lambda _: self._node.mine_scheduled(), None)
            except Exception:
                log.exception("devnet mining failed")
            else:
                log.debug("mined block %s", number)


def _as_rskj_sends_it(response: web.StreamResponse) -> None:
    """Send `Connection: close` on every answer and close the connection, as rskj does.

    Gzip the answer when the request asks for it (Web3ResultHttpResponseHandler.java, netty's
    HttpContentCompressor).
    """
    response.headers["Connection"] = "close"
    response.force_close()
    if isinstance(response, web.Response) and response.body:
        response.enable_compression()


class RedactingAccessLogger(AbstractAccessLogger):
    """Access log lines with the API key in the path redacted."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        """Log method, redacted path, status and duration."""
        key = key_from_path(request.path)
        path = request.path.replace(key, redact_key(key)) if key else request.path
        self.logger.info(
            "%s %s -> %d (%.1f ms)", request.method, path, response.status, time * 1000
        )


@dataclass
class RunningNetwork:
    """One network being served: its runner, bound port, mining task and threads."""

    runner: web.AppRunner
    port: int
    mining: asyncio.Task[None] | None
    threads: tuple[ThreadPoolExecutor, ...]
    scheme: str = "http"

    def base_url(self, host: str = "127.0.0.1") -> str:
        """Return the base address, without key."""
        return f"{self.scheme}://{host}:{self.port}"

    async def close(self) -> None:
        """Stop mining and serving, then the worker threads."""
        if self.mining is not None:
            self.mining.cancel()
            await asyncio.gather(self.mining, return_exceptions=True)
        await self.runner.cleanup()
        for executor in self.threads:
            executor.shutdown(wait=True, cancel_futures=True)


async def serve(
    node: Node,
    config: ServiceConfig,
    host: str = "127.0.0.1",
    port: int = 0,
    tls: ssl.SSLContext | None = None,
) -> RunningNetwork:
    """Serve one network on host:port (0 = a free port) until closed; over https with tls.

    The node runs on a thread of its own, JSON parsing on another: the event loop only
    moves bytes, so a slow call never stalls authentication or other networks.
    """
    executor = big_stack_executor("devnet-node")
    parser = big_stack_executor("devnet-json")
    service = RpcService(node, config, executor, parser)
    runner = web.AppRunner(
        service.application(),
        access_log_class=RedactingAccessLogger,
        access_log=logging.getLogger("explorer.devnet.access"),
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port, ssl_context=tls)
    await site.start()
    bound = runner.addresses[0][1]
    mining = asyncio.create_task(service.mine_forever()) if config.block_time > 0 else None
    scheme = "http" if tls is None else "https"
    return RunningNetwork(runner, int(bound), mining, (executor, parser), scheme)
