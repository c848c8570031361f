"""The async JSON-RPC client: one endpoint, retries, a concurrency cap, shared in-flight calls."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import httpx

from explorer.rpc.answers import result_of_sliced
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.envelope import encode_request
from explorer.rpc.errors import (
    AuthError,
    ChainMismatch,
    InvalidInput,
    NodeError,
    RpcError,
    TransportError,
)
from explorer.rpc.methods import METHODS, method_spec
from explorer.rpc.retry import Attempt, RetryPolicy
from explorer.rpc.stats import RequestStats
from explorer.rpc.transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    make_http_client,
    post,
)
from explorer.rpc.wrappers import TypedCalls

DEFAULT_MAX_IN_FLIGHT = 8
_params_json = json.JSONEncoder(separators=(",", ":"), ensure_ascii=True).encode


@dataclass
class _SharedCall:
    """A call in flight and the number of callers waiting for it."""

    task: asyncio.Future[Any]
    waiters: int = 0


@dataclass(frozen=True)
class ProbeResult:
    """What a node says about itself: chain id, network id, client, latency."""

    chain_id: int
    net_version: str
    client_version: str | None
    latency: float
    expected_chain_id: int | None

    @property
    def matches(self) -> bool:
        """Tell whether chain id and network id both match the expected chain id."""
        expected = self.expected_chain_id
        return expected is None or (
            self.chain_id == expected and self.net_version.strip() == str(expected)
        )

    def mismatch(self) -> ChainMismatch | None:
        """Return the error to show when the node serves another chain, else None."""
        if self.matches or self.expected_chain_id is None:
            return None
        return ChainMismatch(
            f"the node serves chain {self.chain_id} (network {self.net_version}), "
            f"not chain {self.expected_chain_id}",
            expected=self.expected_chain_id,
            actual=self.chain_id,
        )


class RpcClient(TypedCalls):
    """A client for one endpoint; share one instance (and one httpx client) per endpoint.

    Reads are retried per `retry` on transport failures, 429 (Retry-After honoured up to
    its cap) and 5xx; eth_sendRawTransaction only when the request never left. At most
    `max_in_flight` requests run at once; identical reads in flight share one request.
    Redirects are never followed, not even to the same host: they are ServerErrors.
    Answers over `max_response_bytes` are MalformedResponse. `stats` counts requests.

    `waits` holds the Attempt of every call being sent (by call serial), so a screen can say
    what it waits for; `attempt_listeners` hear each retry as it starts and
    `failure_listeners` each call that gave up.
    """

    def __init__(
        self,
        endpoint: Endpoint,
        *,
        http: httpx.AsyncClient | None = None,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        retry: RetryPolicy | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT,
        max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """Use http if given (the caller closes it), else create and own one."""
        self.endpoint = endpoint
        self.retry = retry or RetryPolicy()
        self.stats = RequestStats()
        self._owns_http = http is None
        self._http = (
            http
            if http is not None
            else make_http_client(timeout, max_in_flight * 2, connect_timeout)
        )
        self._url = httpx.URL(endpoint.url)
        self._timeout = timeout
        self._connect_timeout = connect_timeout
        self._max_bytes = max_response_bytes
        self._slots = asyncio.Semaphore(max_in_flight)
        self._ids = itertools.count(1)
        self._in_flight: dict[tuple[str, str], _SharedCall] = {}
        self._sleep = sleep
        self._serials = itertools.count(1)
        self.waits: dict[int, Attempt] = {}  # the calls being sent, by serial
        self.attempt_listeners: list[Callable[[Attempt], None]] = []  # a retry starts
        self.failure_listeners: list[Callable[[RpcError], None]] = []  # a call gave up

    def __repr__(self) -> str:
        """Show the redacted endpoint only."""
        return f"RpcClient({self.endpoint.redacted})"

    async def request(self, method: str, *args: Any) -> Any:
        """Validate args against the method's spec (InvalidInput), send, return the raw result."""
        return await self.call(method, method_spec(method).check(args))

    async def call(self, method: str, params: Sequence[Any] = ()) -> Any:
        """Send one call with JSON params as given and return the raw result."""
        spec = METHODS.get(method)
        resendable = spec is not None and spec.resendable
        try:
            params_json = _params_json(list(params))
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"{method}: params must be JSON values ({exc})") from None
        if not resendable:
            return await self._send(method, params_json, resendable)
        key = (method, params_json)
        shared = self._in_flight.get(key)
        if shared is None:
            shared = _SharedCall(asyncio.ensure_future(self._send(method, params_json, True)))
            self._in_flight[key] = shared
            shared.task.add_done_callback(lambda _: self._forget(key, shared))
        shared.waiters += 1
        try:
            return await asyncio.shield(shared.task)
        finally:
            shared.waiters -= 1
            if shared.waiters == 0 and not shared.task.done():
                self._forget(key, shared)
                shared.task.cancel()

    def _forget(self, key: tuple[str, str], shared: _SharedCall) -> None:
        """Drop a finished shared call from the in-flight table."""
        if self._in_flight.get(key) is shared:
            del self._in_flight[key]

    async def _send(self, method: str, params_json: str, resendable: bool) -> Any:
        """Send with retries; count requests and failures; keep the key out of messages."""
        serial = next(self._serials)
        attempt = Attempt(method, 1, self.retry.attempts, time.monotonic())
        self.waits[serial] = attempt
        try:
            for retry in itertools.count():
                try:
                    async with self._slots:
                        return await self._attempt(method, params_json)
                except RpcError as error:
                    error.redact(self.endpoint.api_key)
                    self.stats.record_failure(error.kind.value)
                    delay = self.retry.delay(retry, error, resendable)
                    if delay is None:
                        for listener in self.failure_listeners:
                            listener(error)
                        raise
                    attempt = Attempt(method, retry + 2, attempt.of, attempt.started, error.kind)
                    self.waits[serial] = attempt
                await self._sleep(delay)
                for attempt_listener in self.attempt_listeners:
                    attempt_listener(attempt)
            raise AssertionError("unreachable")
        finally:
            self.waits.pop(serial, None)

    def longest_wait(self) -> Attempt | None:
        """Return the attempt of the call waiting longest for the node, if any is sent."""
        return min(self.waits.values(), key=lambda a: a.started, default=None)

    async def _attempt(self, method: str, params_json: str) -> Any:
        """Send one HTTP request and return the result; one that never left costs no quota."""
        request_id = next(self._ids)
        body = encode_request(request_id, method, params_json)
        day = self.stats.record(method)
        try:
            answer = await post(
                self._http,
                self._url,
                body,
                timeout=self._timeout,
                connect_timeout=self._connect_timeout,
                max_bytes=self._max_bytes,
            )
        except TransportError as error:
            if not error.maybe_sent:
                self.stats.record_unsent(day)
            raise
        try:
            return await result_of_sliced(answer, self._url, request_id)
        except AuthError as error:
            if error.status != 401 or self.endpoint.api_key:
                raise
            raise AuthError(
                f"{self._url.host} asks for an API key (HTTP 401) and none was given",
                status=401,
            ) from None

    async def probe(self, expected_chain_id: int | None = None) -> ProbeResult:
        """Read eth_chainId, net_version and web3_clientVersion; report whether they match."""
        started = time.perf_counter()
        chain_id, net_version, client_version = await asyncio.gather(
            self.chain_id(), self.net_version(), self._client_version_if_told()
        )  # all three at once: one round trip
        latency = time.perf_counter() - started
        return ProbeResult(chain_id, net_version, client_version, latency, expected_chain_id)

    async def _client_version_if_told(self) -> str | None:
        """Return web3_clientVersion, or None for a node that refuses to say."""
        try:
            return await self.client_version()
        except NodeError:
            return None

    async def aclose(self) -> None:
        """Close the HTTP client if this client created it."""
        if self._owns_http:
            await self._http.aclose()
