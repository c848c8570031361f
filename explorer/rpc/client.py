"""The async JSON-RPC client: one endpoint, retries, a concurrency cap, shared in-flight calls."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any, TypeVar

import httpx

from explorer.chain.secrets import scrub
from explorer.rpc.answers import result_of_sliced
from explorer.rpc.batch import BatchGathering, BatchRefused, Checked, encode_batch, results_of_batch
from explorer.rpc.calltime import DEFAULT_CALL_TIMEOUT
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.envelope import encode_params, encode_request
from explorer.rpc.errors import AuthError, RpcError, TransportError
from explorer.rpc.failure_log import log_unreached
from explorer.rpc.journal import JournalEntry, RequestJournal, note_cached, note_sent, redact
from explorer.rpc.methods import METHODS, method_spec
from explorer.rpc.node_answers import (
    TO_THE_NODE,
    AnswerSource,
    NodeAnswer,
    ProbeResult,
    Read,
    SharedCall,
    as_node_ask,
    probe_node,
)
from explorer.rpc.pause import Pause
from explorer.rpc.retry import Attempt, RetryPolicy
from explorer.rpc.stats import RequestStats
from explorer.rpc.transport import (
    DEFAULT_CONNECT_TIMEOUT,
    DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT,
    HttpAnswer,
    make_http_client,
    post,
)
from explorer.rpc.wrappers import TypedCalls

DEFAULT_MAX_IN_FLIGHT = 8
T = TypeVar("T")
QUIET_SECONDS = 0.05  # background reads start after this long without a request in flight
NODE_WORDS = frozenset({"web3_clientVersion", "net_version", "eth_protocolVersion"})  # shown


def _ignore(_count: int) -> None:
    """Hear nothing."""


class RpcClient(TypedCalls):
    """A client for one endpoint; share one instance (and one httpx client) per endpoint.

    Reads are retried per `retry` on transport failures, 429 (Retry-After honoured up to its
    cap, by every call: rpc/pause.py) and 5xx; eth_sendRawTransaction only when the request
    never left. At most `max_in_flight` requests run at once; identical reads in flight share.
    Redirects are never followed, not even to the same host: they are ServerErrors.
    Answers over `max_response_bytes` are MalformedResponse. `stats` counts requests.

    `waits` holds the Attempt of every call being sent (by call serial), so a screen can say
    what it waits for; `attempt_listeners` hear each retry as it starts and
    `failure_listeners` each call that gave up. `answers`, when set, answers reads first
    (the saved data, an `AnswerSource`); `journal` lists the last requests, sent or answered
    from it. `takes_batches` turns False once the node refuses a batch.
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
        call_timeout: float = DEFAULT_CALL_TIMEOUT,
        journal: RequestJournal | None = None,
    ) -> None:
        """Use http if given (the caller closes it), else create and own one."""
        self.endpoint = endpoint
        self.node_name = endpoint.host
        self.journal = journal or RequestJournal()
        self.answers: AnswerSource | None = None
        self.takes_batches = True  # until the node refuses a batch
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
        self._in_flight: dict[tuple[str, str], SharedCall] = {}
        self._sleep = sleep
        self.call_timeout = call_timeout  # seconds a call may take, retries included
        self._serials = itertools.count(1)
        self.waits: dict[int, Attempt] = {}  # the calls being sent, by serial
        self._foreground = 0  # searches and page loads under way (background reads wait)
        self.stopped: tuple[Attempt, float] | None = None  # the last call given up, and when
        self.pause = Pause(endpoint.host, self.retry.max_retry_after)  # Retry-After's
        self.attempt_listeners: list[Callable[[Attempt], None]] = []  # a retry starts
        self.failure_listeners: list[Callable[[RpcError], None]] = []  # a call gave up

    def __repr__(self) -> str:
        """Show the redacted endpoint only."""
        return f"RpcClient({self.endpoint.redacted})"

    async def request(self, method: str, *args: Any) -> Any:
        """Validate args against the method's spec (InvalidInput), send, return the raw result.

        A node's own words (its client, protocol and network ids) never carry the key back:
        a key echoed there is replaced, as in error messages.
        """
        result = await self.call(method, method_spec(method).check(args))
        if method in NODE_WORDS and isinstance(result, str):
            return scrub(result, [self.endpoint.api_key])
        return result

    async def call(self, method: str, params: Sequence[Any] = ()) -> Any:
        """Send one call with JSON params as given and return the raw result.

        A read goes to `answers` first when set, which asks the node only for what it lacks.
        """
        params_json = encode_params(method, params)
        spec = METHODS.get(method)
        saved = self.answers is not None and not TO_THE_NODE.get()
        if self.answers is not None and saved and spec is not None and spec.resendable:
            read = Read(method, list(params), params_json)
            return await self.answers.answer(read, self.ask, partial(self._note_saved, read))
        return (await self._shared(method, params_json)).result

    async def batch(
        self, calls: Sequence[tuple[str, Sequence[Any]]], sent: Callable[[int], None] = _ignore
    ) -> list[Any]:
        """Send read calls as one JSON-RPC batch; return each result or its NodeError, in order.

        Each call is checked as `request` checks it. With `answers` (the saved data), what it
        keeps is answered from it and only the rest is sent, together; `sent` hears how many
        calls went to the node in the batch. Each call sent counts as a request of its method
        (a quota counts calls). A node that does not take batches raises BatchRefused.
        """
        checked: list[Checked] = [(name, method_spec(name).check(args)) for name, args in calls]
        answers = None if TO_THE_NODE.get() else self.answers
        if answers is None:
            sent(len(checked))
            answered = await self._send_batch(checked)
            return [answer if isinstance(answer, RpcError) else answer[0] for answer in answered]
        gathering = BatchGathering(len(checked), self._send_batch, self.ask, sent)

        def through_saved(method: str, params: list[Any]) -> Any:
            read = Read(method, params, encode_params(method, params))
            return lambda ask: answers.answer(
                read, as_node_ask(ask), partial(self._note_saved, read)
            )

        return await gathering.run([through_saved(method, params) for method, params in checked])

    async def _send_batch(self, calls: Sequence[Checked]) -> list[Any]:
        """Send calls in one request (with retries); return (result, envelope) or NodeError each."""
        encoded = [(method, encode_params(method, params)) for method, params in calls]
        label = " + ".join(dict.fromkeys(method for method, _params in encoded))  # status bar
        try:
            return list(await self._send(label, "", True, lambda: self._attempt_batch(encoded)))
        except BatchRefused:
            self.takes_batches = False  # this node answers calls one by one from now on
            raise

    async def _attempt_batch(self, calls: Sequence[tuple[str, str]]) -> list[Any]:
        """Send one batch request; calls that never left cost no quota."""
        ids = [next(self._ids) for _ in calls]

        async def read(answer: HttpAnswer) -> list[Any]:
            return results_of_batch(answer, self._url, ids)

        return await self._exchange(calls, encode_batch(ids, calls), read)

    async def ask(self, method: str, params: Sequence[Any]) -> NodeAnswer:
        """Send one call to the node (never to `answers`); return its result and body."""
        return await self._shared(method, encode_params(method, params))

    async def _shared(self, method: str, params_json: str) -> NodeAnswer:
        """Send a call, sharing one request among identical reads in flight."""
        spec = METHODS.get(method)
        if spec is None or not spec.resendable:
            sent: NodeAnswer = await self._send(method, params_json, resendable=False)
            return sent
        key = (method, params_json)
        shared = self._in_flight.get(key)
        if shared is None:
            shared = SharedCall(asyncio.ensure_future(self._send(method, params_json, True)))
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

    def _note_saved(self, read: Read, size: int, seconds: float) -> None:
        """Note a read answered from saved data: in the journal and the work's spending."""
        self.stats.record_cached(read.method)
        note_cached()
        self._journal(read.method, read.params_json, size, seconds, from_cache=True)

    def _journal(
        self, method: str, params_json: str, size: int, seconds: float, **more: Any
    ) -> None:
        """Add an entry to the journal, the API key redacted."""
        params = redact(params_json, self.endpoint.api_key)
        self.journal.record(JournalEntry(time.time(), self.endpoint.redacted, method, params,
                                         size, seconds=seconds, **more))  # fmt: skip

    def _forget(self, key: tuple[str, str], shared: SharedCall) -> None:
        """Drop a finished shared call from the in-flight table."""
        if self._in_flight.get(key) is shared:
            del self._in_flight[key]

    async def _send(
        self,
        method: str,
        params_json: str,
        resendable: bool,
        attempt_once: Callable[[], Awaitable[Any]] | None = None,
    ) -> Any:
        """Send with retries within the call timeout; count requests and failures.

        The key stays out of every message; a call given up (cancelled) is remembered in
        `stopped`, when it had waited long enough to be shown as waiting.
        """
        once = attempt_once or (lambda: self._attempt(method, params_json))
        serial = next(self._serials)
        attempt = Attempt(method, 1, self.retry.attempts, time.monotonic())
        self.waits[serial] = attempt
        try:
            async with asyncio.timeout(self.call_timeout):
                return await self._send_retrying(method, once, resendable, serial)
        except TimeoutError:
            error = TransportError(
                f"{self.endpoint.host} did not answer within {self.call_timeout:g} s"
            )
            waited = self.waits.get(serial, attempt)
            log_unreached(self.endpoint, method, waited.number, waited.of, error)
            self.stats.record_failure(error.kind.value)
            for listener in self.failure_listeners:
                listener(error)
            raise error from None
        except asyncio.CancelledError:
            self.stopped = (self.waits.get(serial, attempt), time.monotonic())
            raise
        finally:
            self.waits.pop(serial, None)

    async def _send_retrying(
        self, method: str, once: Callable[[], Awaitable[Any]], resendable: bool, serial: int
    ) -> Any:
        """Send, and again after each failure the retry policy allows."""
        attempt = self.waits[serial]
        for retry in itertools.count():
            if retry == 0 and (left := self.pause.left()) > 0:
                raise self.pause.error(left)
            try:
                async with self._slots:
                    return await once()
            except RpcError as error:
                error.redact(self.endpoint.api_key)
                log_unreached(self.endpoint, method, attempt.number, attempt.of, error)
                self.stats.record_failure(error.kind.value)
                self.pause.note(error)
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

    def hold(self) -> Callable[[], None]:
        """Mark foreground work (a search, a page loading) until the returned call releases it."""
        self._foreground += 1
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                self._foreground -= 1

        return release

    @property
    def busy(self) -> bool:
        """Tell whether a request is in flight or foreground work is under way."""
        return bool(self.waits) or self._foreground > 0

    async def quiet(self, settle: float = QUIET_SECONDS) -> None:
        """Return once nothing has been busy (requests, foreground work) for settle seconds.

        Background reads (the home page's older blocks for its charts) wait on it, so a page
        the user opens never queues behind them nor shares the node or the GUI thread.
        """
        while True:
            while self.busy:
                await asyncio.sleep(settle / 2)
            await asyncio.sleep(settle)
            if not self.busy:
                return

    def longest_wait(self) -> Attempt | None:
        """Return the attempt of the call waiting longest for the node, if any is sent."""
        return min(self.waits.values(), key=lambda a: a.started, default=None)

    async def _attempt(self, method: str, params_json: str) -> NodeAnswer:
        """Send one HTTP request and return the result; one that never left costs no quota."""
        request_id = next(self._ids)

        async def read(answer: HttpAnswer) -> NodeAnswer:
            return NodeAnswer(await result_of_sliced(answer, self._url, request_id), answer.body)

        body = encode_request(request_id, method, params_json)
        return await self._exchange([(method, params_json)], body, read)

    async def _exchange(
        self,
        calls: Sequence[tuple[str, str]],
        body: bytes,
        read: Callable[[HttpAnswer], Awaitable[T]],
    ) -> T:
        """POST body (one call or a batch), count and journal its calls, read the answer."""
        days = [self.stats.record(method) for method, _params in calls]
        for _call in calls:
            note_sent()
        started = time.perf_counter()
        size = 0
        error = ""
        try:
            answer = await post(
                self._http,
                self._url,
                body,
                timeout=self._timeout,
                connect_timeout=self._connect_timeout,
                max_bytes=self._max_bytes,
            )
            size = len(answer.body) // len(calls)
            return await read(answer)
        except TransportError as failure:
            if not failure.maybe_sent:
                for day in days:
                    self.stats.record_unsent(day)
            error = failure.kind.value
            raise
        except AuthError as failure:
            error = failure.kind.value
            if failure.status != 401 or self.endpoint.api_key:
                raise
            raise AuthError(
                f"{self._url.host} asks for an API key (HTTP 401) and none was given",
                status=401,
            ) from None
        except RpcError as failure:
            error = failure.kind.value
            raise
        finally:
            seconds = time.perf_counter() - started
            for method, params_json in calls:
                self._journal(method, params_json, size, seconds, from_cache=False, error=error)

    async def probe(
        self, expected_chain_id: int | None = None, expected_genesis: str | None = None, *,
        lean: bool = False,
    ) -> ProbeResult:  # fmt: skip
        """Read chain id, network id, client and genesis in one trip (lean: chain id, genesis)."""
        return await probe_node(self, expected_chain_id, expected_genesis, lean=lean)

    async def aclose(self) -> None:
        """Close the HTTP client if this client created it."""
        if self._owns_http:
            await self._http.aclose()
