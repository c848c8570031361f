"""The devnet's HTTP face: a node served as the JSON-RPC node access service (aiohttp)."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import math
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from explorer.devnet.errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    RpcFailure,
)

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
LIMIT_EXCEEDED = -32005
UNAUTHORIZED = -32001

#: Error codes rskj answers with HTTP 400 when the request is not a batch.
HTTP_400_CODES = frozenset({PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS})
JSON_CONTENT_TYPES = frozenset({"application/json", "application/json-rpc"})
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


@dataclass(frozen=True)
class ServiceConfig:
    """Transport rules of one served network."""

    keys: frozenset[str]
    daily_quota: int | None = None
    max_batch: int = 50
    max_body_bytes: int = 10 * 1024 * 1024
    block_time: float = 0.0


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


def error_response(request_id: Json, code: int, message: str, data: Json = None) -> Response:
    """Build a JSON-RPC error envelope."""
    error: dict[str, Json] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def big_stack_executor(name: str) -> ThreadPoolExecutor:
    """A one-thread executor whose thread has a large stack (deep JSON, deep EVM calls).

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
        except Exception:
            log.exception("devnet method %.64s failed", method)
            return error_response(request_id, INTERNAL_ERROR, "Internal error")
        return {"jsonrpc": "2.0", "id": request_id, "result": result}

    def run_batch(self, items: list[Json]) -> list[Response]:
        """Answer a batch; notifications get no entry."""
        answers = (self.run_one(item) for item in items)
        return [answer for answer in answers if answer is not None]


def _json_response(payload: Json, status: int = 200, **headers: str) -> web.Response:
    """Serialise a payload as an application/json response."""
    return web.Response(
        body=json.dumps(payload, separators=(",", ":")).encode(),
        status=status,
        content_type="application/json",
        headers=headers,
    )


def _http_error(status: int, code: int, message: str, **headers: str) -> web.Response:
    """An HTTP error carrying a JSON-RPC error body."""
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
        """Answer one HTTP request; never raises for bad input."""
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
            return await self._answer_batch(payload)
        answer = await self._on_node_thread(self._dispatcher.run_one, payload)
        if answer is None:
            return web.Response(status=204)
        status = 400 if answer.get("error", {}).get("code") in HTTP_400_CODES else 200
        return _json_response(answer, status)

    async def _answer_batch(self, items: list[Json]) -> web.Response:
        """Answer a batch of 1..max_batch requests."""
        if not items:
            return _json_response(error_response(None, INVALID_REQUEST, "Empty batch"), 400)
        if len(items) > self._config.max_batch:
            message = (
                f"Cannot dispatch batch requests. {len(items)} requests exceed "
                f"the maximum of {self._config.max_batch}"
            )
            return _json_response(error_response(None, INVALID_REQUEST, message), 400)
        answers = await self._on_node_thread(self._dispatcher.run_batch, items)
        return _json_response(answers) if answers else web.Response(status=204)

    async def _on_node_thread(self, func: Callable[[Json], Any], arg: Json) -> Any:
        """Run `func(arg)` on the node's own thread."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, func, arg)

    async def mine_forever(self) -> None:
        """Mine a block every block_time seconds (interval mining mode)."""
        while True:
            await asyncio.sleep(self._config.block_time)
            try:
                number = await self._on_node_thread(lambda _: self._node.mine_block(), None)
            except Exception:
                log.exception("devnet mining failed")
            else:
                log.debug("mined block %d", number)


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
    """One network being served: its runner, bound port and mining task."""

    runner: web.AppRunner
    port: int
    mining: asyncio.Task[None] | None
    parser: ThreadPoolExecutor

    def base_url(self, host: str = "127.0.0.1") -> str:
        """The base address, without key."""
        return f"http://{host}:{self.port}"

    async def close(self) -> None:
        """Stop mining and serving."""
        if self.mining is not None:
            self.mining.cancel()
            await asyncio.gather(self.mining, return_exceptions=True)
        await self.runner.cleanup()
        self.parser.shutdown(wait=False, cancel_futures=True)


async def serve(
    node: Node,
    config: ServiceConfig,
    executor: ThreadPoolExecutor,
    host: str = "127.0.0.1",
    port: int = 0,
) -> RunningNetwork:
    """Serve one network on host:port (0 = a free port) until closed."""
    parser = big_stack_executor("devnet-json")
    service = RpcService(node, config, executor, parser)
    runner = web.AppRunner(
        service.application(),
        access_log_class=RedactingAccessLogger,
        access_log=logging.getLogger("explorer.devnet.access"),
    )
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1]
    mining = asyncio.create_task(service.mine_forever()) if config.block_time > 0 else None
    return RunningNetwork(runner, int(bound), mining, parser)
