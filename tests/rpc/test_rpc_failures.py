"""Every way a call can fail, against a scripted server over real sockets."""

from __future__ import annotations

import asyncio
import email.utils
import logging
import time
from collections.abc import Callable
from typing import Any

import pytest
from eth_abi.abi import encode

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import (
    AuthError,
    ErrorKind,
    MalformedResponse,
    NodeError,
    RateLimited,
    RpcError,
    ServerError,
    TransportError,
)
from explorer.rpc.retry import RetryPolicy
from tests.helpers.rpc import API_KEY, with_client
from tests.helpers.scripted_server import (
    Action,
    ScriptedServer,
    drop,
    html,
    json_reply,
    raw,
    redirect,
    result,
    rpc_error,
    scripted_server,
    slow,
)

RAW_TX = "0xf86c0185"


def block_number(endpoint: Endpoint, plain_httpx: bool = False, **options: Any) -> Any:
    """Ask for the block number (a read, so retried) through a fresh client."""

    async def use(client: RpcClient) -> Any:
        return await client.block_number()

    return with_client(endpoint, use, plain_httpx=plain_httpx, **options)


def failure(endpoint: Endpoint, plain_httpx: bool = False, **options: Any) -> RpcError:
    """Return the error of a block-number call, checking the key is not in it."""
    with pytest.raises(RpcError) as caught:
        block_number(endpoint, plain_httpx, **options)
    error = caught.value
    assert API_KEY not in str(error)
    assert API_KEY not in repr(error.args)
    assert "\n" not in error.message
    return error


def send_raw(endpoint: Endpoint, **options: Any) -> Any:
    """Submit a transaction through a fresh client."""

    async def use(client: RpcClient) -> Any:
        return await client.send_raw_transaction(RAW_TX)

    return with_client(endpoint, use, **options)


@pytest.mark.parametrize("status", [401, 403])
def test_auth_errors(
    server: ScriptedServer, endpoint: Endpoint, status: int, plain_httpx: bool
) -> None:
    """401/403 are auth errors, JSON body or not, and are not retried."""
    server.script(raw(status, '{"error":"invalid api key"}'))
    error = failure(endpoint, plain_httpx)
    assert isinstance(error, AuthError)
    assert error.kind is ErrorKind.AUTH
    assert error.status == status
    assert len(server.requests) == 1


def test_rate_limited_then_success_honours_retry_after(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """A 429 with Retry-After waits that long, then retries and succeeds."""
    sleeps: list[float] = []

    async def record(delay: float) -> None:
        sleeps.append(delay)

    server.script(raw(429, "slow down", {"Retry-After": "3"}), result("0x10"))
    assert block_number(endpoint, sleep=record) == 16
    assert sleeps
    assert sleeps[0] >= 3
    assert len(server.requests) == 2


def test_retry_after_as_http_date(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Retry-After may be an HTTP date; it becomes seconds from now."""
    later = email.utils.formatdate(time.time() + 120, usegmt=True)
    server.script(raw(429, headers={"Retry-After": later}))
    error = failure(endpoint)
    assert isinstance(error, RateLimited)
    assert error.retry_after is not None
    assert 100 <= error.retry_after <= 121
    assert len(server.requests) == 1, "a wait above the cap is reported, not slept"


def test_rate_limited_without_retry_after_gives_up_after_attempts(
    server: ScriptedServer, endpoint: Endpoint, plain_httpx: bool
) -> None:
    """429 without Retry-After backs off, then surfaces as RATE_LIMITED."""
    server.fallback = raw(429, "<html>too many</html>", {"Content-Type": "text/html"})
    error = failure(endpoint, plain_httpx)
    assert isinstance(error, RateLimited)
    assert error.retry_after is None
    assert len(server.requests) == 4


def test_backoff_is_exponential_capped_and_jittered() -> None:
    """Delays grow ×2 from base up to the cap, each jittered within [½, 1] of its ceiling."""
    policy = RetryPolicy(attempts=10, base_delay=0.5, max_delay=4.0)
    for retry, ceiling in enumerate([0.5, 1, 2, 4, 4, 4]):
        delays = {policy.backoff(retry) for _ in range(50)}
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(delays) > 1


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_5xx_html_is_retried_then_succeeds(
    server: ScriptedServer, endpoint: Endpoint, status: int, plain_httpx: bool
) -> None:
    """Gateway errors with HTML pages are transient: retried until the node answers."""
    server.script(html(status), html(status), result("0x2a"))
    assert block_number(endpoint, plain_httpx) == 42
    assert len(server.requests) == 3


def test_5xx_forever_is_a_server_error(server: ScriptedServer, endpoint: Endpoint) -> None:
    """When every attempt fails, the last error is raised with its status."""
    server.fallback = html(503)
    error = failure(endpoint)
    assert isinstance(error, ServerError)
    assert error.status == 503
    assert "HTML" in error.message
    assert len(server.requests) == 4


@pytest.mark.parametrize("status", [404, 405, 415, 418])
def test_other_statuses_are_server_errors_without_retry(
    server: ScriptedServer, endpoint: Endpoint, status: int
) -> None:
    """Non-JSON-RPC 4xx answers are server errors, not retried."""
    server.script(raw(status, "nope", {"Content-Type": "text/plain"}))
    error = failure(endpoint)
    assert isinstance(error, ServerError)
    assert error.status == status
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (rpc_error(-32601, "The method eth_foo does not exist/is not available"), -32601),
        (rpc_error(-32602, "invalid argument 0: hex string has length 3", status=400), -32602),
        (rpc_error(-32603, "Internal error", status=200), -32603),
        (rpc_error(-32600, "Invalid request", status=400), -32600),
        (rpc_error(-32700, "Parse error", status=400), -32700),
        (rpc_error(-32010, "transaction nonce too low"), -32010),
        (rpc_error(-32010, "insufficient funds"), -32010),
        (rpc_error(-32012, "Cannot query more than 2000 blocks at once"), -32012),
        (rpc_error(-32012, "Filter returned more than 10000 logs."), -32012),
        (rpc_error(-32011, "Response size exceeded", envelope=False), -32011),
        (rpc_error(-32011, "Timeout", envelope=False, status=500), -32011),
        (rpc_error(-32603, "wrong content type", status=415), -32603),
    ],
)
def test_node_error_shapes(
    server: ScriptedServer, endpoint: Endpoint, action: Action, code: int, plain_httpx: bool
) -> None:
    """The error envelopes of rskj (with or without jsonrpc/id, any status) are node errors."""
    server.script(action)
    error = failure(endpoint, plain_httpx)
    assert isinstance(error, NodeError)
    assert error.kind is ErrorKind.NODE
    assert error.code == code
    assert str(code) in error.message
    assert len(server.requests) == 1


def test_revert_reason_is_decoded(server: ScriptedServer, endpoint: Endpoint) -> None:
    """-32015 carries revert bytes; Error(string) is decoded to its reason."""
    data = "0x08c379a0" + encode(["string"], ["not the owner"]).hex()
    message = "VM Exception while processing transaction: revert not the owner"
    server.script(rpc_error(-32015, message, data))

    async def use(client: RpcClient) -> Any:
        return await client.eth_call({"to": "0x" + "11" * 20, "data": "0x8da5cb5b"})

    with pytest.raises(NodeError) as caught:
        with_client(endpoint, use)
    assert caught.value.code == -32015
    assert caught.value.revert_reason == "not the owner"
    assert NodeError(-32015, "revert", "0xzz").revert_reason is None
    assert NodeError(-32015, "revert", None).revert_reason is None


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (raw(200, "not json at all"), "not JSON"),
        (html(200), "not JSON"),
        (raw(200, ""), "not JSON"),
        (raw(200, b"\xff\xfe"), "not JSON"),
        (lambda r: json_reply([{"jsonrpc": "2.0", "id": r.rpc_id, "result": "0x1"}]), "object"),
        (result("0x1", id_shift=1), "request id"),
        (lambda r: json_reply({"jsonrpc": "2.0", "id": str(r.rpc_id), "result": "0x1"}), "id"),
        (lambda r: json_reply({"jsonrpc": "2.0", "result": "0x1"}), "id None"),
        (lambda r: json_reply({"jsonrpc": "2.0", "id": r.rpc_id}), "neither"),
        (lambda r: json_reply({"id": r.rpc_id, "error": {"code": "x", "message": 1}}), "code"),
        (lambda r: json_reply({"id": r.rpc_id, "error": "boom"}), "not an object"),
        (lambda r: json_reply({"id": r.rpc_id + 7, "error": {"code": 1, "message": "m"}}), "id"),
    ],
)
def test_malformed_answers(
    server: ScriptedServer, endpoint: Endpoint, action: Action, text: str, plain_httpx: bool
) -> None:
    """Answers that are not valid JSON-RPC for this request are MALFORMED, not retried."""
    server.script(action)
    error = failure(endpoint, plain_httpx)
    assert isinstance(error, MalformedResponse)
    assert text in error.message
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    "action",
    [
        lambda r: json_reply({"jsonrpc": "2.0", "id": r.rpc_id, "result": "0x" + "0" * 5000}),
        raw(200, b"{}", content_length=10_000),
        raw(200, b'{"jsonrpc":"2.0","id":1,"result":"', stream=50_000),
        raw(200, b"", headers={"Content-Encoding": "identity"}, stream=50_000),
    ],
    ids=["body", "declared", "streamed", "encoded-streamed"],
)
def test_oversized_answers_are_refused(
    server: ScriptedServer, endpoint: Endpoint, action: Action, plain_httpx: bool
) -> None:
    """Bodies over the cap (declared or streamed) are MALFORMED without reading them all."""
    server.script(action)
    error = failure(endpoint, plain_httpx, max_response_bytes=4096)
    assert isinstance(error, MalformedResponse)
    assert "larger than" in error.message


def test_answer_under_the_cap_is_fine(server: ScriptedServer, endpoint: Endpoint) -> None:
    """The cap is a limit, not a guess: a body just under it is read."""
    server.script(result("0x" + "0" * 3900 + "1"))
    assert block_number(endpoint, max_response_bytes=4096) == 1


def test_slow_answer_times_out_and_is_retried(
    server: ScriptedServer, endpoint: Endpoint, plain_httpx: bool
) -> None:
    """A read that times out is retried; the next, prompt answer wins."""
    server.script(slow(2.0, result("0x1")), result("0x2"))
    assert block_number(endpoint, plain_httpx, timeout=0.3) == 2
    assert len(server.requests) == 2


def test_slow_answers_forever_is_a_timeout(server: ScriptedServer, endpoint: Endpoint) -> None:
    """When every attempt times out, the error says so."""
    server.fallback = slow(1.0, result("0x1"))
    error = failure(endpoint, timeout=0.2, retry=RetryPolicy(attempts=2, base_delay=0.001))
    assert isinstance(error, TransportError)
    assert "timed out" in error.message
    assert len(server.requests) == 2


def test_dropped_connection_read_is_retried(
    server: ScriptedServer, endpoint: Endpoint, plain_httpx: bool
) -> None:
    """A connection closed without an answer is a transport error; reads retry."""
    server.script(drop(), result("0x3"))
    assert block_number(endpoint, plain_httpx) == 3
    server.fallback = drop()
    error = failure(endpoint, plain_httpx)
    assert isinstance(error, TransportError)
    assert error.maybe_sent


@pytest.mark.parametrize("action", [drop(), html(502), raw(429), slow(1.0, result("0x1"))])
def test_send_raw_transaction_is_never_resent_once_sent(
    server: ScriptedServer, endpoint: Endpoint, action: Action
) -> None:
    """After the request may have reached the server, a submission is not repeated."""
    server.script(action, result("0x" + "ab" * 32))
    with pytest.raises(RpcError):
        send_raw(endpoint, timeout=0.3)
    assert server.rpc_methods == ["eth_sendRawTransaction"]


def test_send_raw_transaction_retries_when_never_connected() -> None:
    """Connection refused means nothing was sent: a submission may be retried."""
    with scripted_server() as gone:
        endpoint = Endpoint.parse(f"{gone.url}/{API_KEY}")
    sent: list[RpcClient] = []

    async def use(client: RpcClient) -> Any:
        sent.append(client)
        return await client.send_raw_transaction(RAW_TX)

    with pytest.raises(TransportError) as caught:
        with_client(endpoint, use)
    assert not caught.value.maybe_sent
    assert "cannot connect" in caught.value.message
    assert sent[0].stats.total == 4
    assert sent[0].stats.failures["transport"] == 4


def test_tls_failure_is_a_transport_error(server: ScriptedServer) -> None:
    """An https URL to a plain-http server fails the handshake: a TLS transport error."""
    endpoint = Endpoint.parse(f"https://127.0.0.1:{server.port}/{API_KEY}")
    error = failure(endpoint, retry=RetryPolicy(attempts=1))
    assert isinstance(error, TransportError)
    assert "TLS" in error.message


def test_clients_share_one_verifying_tls_context() -> None:
    """Every client verifies certificates and host names with one context, made once."""
    import ssl

    from explorer.rpc.transport import make_http_client

    contexts = [make_http_client()._transport.ssl_context for _ in range(2)]  # type: ignore[attr-defined]
    assert contexts[0] is contexts[1]
    assert contexts[0].verify_mode is ssl.CERT_REQUIRED
    assert contexts[0].check_hostname


@pytest.mark.parametrize("status", [301, 302, 307, 308])
def test_redirect_to_another_host_is_refused(
    server: ScriptedServer, endpoint: Endpoint, status: int, plain_httpx: bool
) -> None:
    """A redirect is not followed: the key never reaches the other host."""
    with scripted_server(host="localhost") as other:
        server.script(redirect(f"http://localhost:{other.port}/{API_KEY}", status))
        error = failure(endpoint, plain_httpx)
        assert other.requests == []
    assert isinstance(error, ServerError)
    assert "host localhost" in error.message


def test_same_host_redirect_is_refused_too(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Even a same-host redirect is reported rather than followed (documented choice)."""
    server.script(redirect(f"/v2/{API_KEY}"))
    error = failure(endpoint)
    assert isinstance(error, ServerError)
    assert "same host" in error.message
    assert len(server.requests) == 1


def test_key_echoed_by_the_server_is_redacted(server: ScriptedServer, endpoint: Endpoint) -> None:
    """A node that echoes the key in its error text does not leak it into our messages."""
    server.script(rpc_error(-32000, f"unknown key {API_KEY} for this app"))
    error = failure(endpoint)
    assert "<key>" in error.message


ERROR_KINDS: list[tuple[Callable[[ScriptedServer], None], ErrorKind]] = [
    (lambda s: s.script(drop(), drop(), drop(), drop()), ErrorKind.TRANSPORT),
    (lambda s: s.script(raw(401)), ErrorKind.AUTH),
    (lambda s: s.script(raw(429, headers={"Retry-After": "99"})), ErrorKind.RATE_LIMITED),
    (lambda s: s.script(raw(404)), ErrorKind.SERVER),
    (lambda s: s.script(rpc_error(-32000, "x")), ErrorKind.NODE),
    (lambda s: s.script(raw(200, "x")), ErrorKind.MALFORMED),
]


@pytest.mark.parametrize(("arrange", "kind"), ERROR_KINDS, ids=[k.name for _, k in ERROR_KINDS])
def test_failures_are_counted_by_kind(
    server: ScriptedServer,
    endpoint: Endpoint,
    arrange: Callable[[ScriptedServer], None],
    kind: ErrorKind,
) -> None:
    """Each failure has its kind and is counted in the client's stats."""
    arrange(server)
    clients: list[RpcClient] = []

    async def use(client: RpcClient) -> Any:
        clients.append(client)
        return await client.block_number()

    with pytest.raises(RpcError) as caught:
        with_client(endpoint, use)
    assert caught.value.kind is kind
    assert clients[0].stats.failures[kind.value] >= 1
    assert clients[0].stats.total == len(server.requests)


def test_a_pause_asked_with_retry_after_holds_every_new_call(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """While one call waits out Retry-After, others fail at once, unsent; then all go again.

    The pause is capped as the wait is (RetryPolicy.max_retry_after).
    """
    server.script(raw(429, headers={"Retry-After": "600"}))
    server.fallback = result("0x10")

    async def use(client: RpcClient) -> tuple[RpcError, RpcError, float, int]:
        with pytest.raises(RateLimited) as first:
            await client.block_number()  # 600 s: above the cap, reported, not slept
        with pytest.raises(RateLimited) as second:
            await client.chain_id()  # within the (capped) pause: not sent
        left = client.pause.left()
        sent = len(server.requests)
        while client.pause.left() > 0:
            await asyncio.sleep(0.05)
        assert await client.block_number() == 16
        return first.value, second.value, left, sent

    retry = RetryPolicy(attempts=2, base_delay=0.01, max_delay=0.02, max_retry_after=0.5)
    first, second, left, sent = with_client(endpoint, use, retry=retry)
    assert isinstance(second, RateLimited)
    assert sent == 1  # the 429 only
    assert 0 < left <= 0.5
    assert "asked for a pause (Retry-After): nothing is sent for" in second.message
    assert first.message.startswith("127.0.0.1 is rate limiting requests (HTTP 429)")
    assert len(server.requests) == 2


def test_each_failed_connection_is_logged_once_without_the_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The log file said nothing of failed connections: now one line an attempt, no key."""
    with scripted_server() as gone:
        endpoint = Endpoint.parse(f"{gone.url}/{API_KEY}")
    with caplog.at_level(logging.WARNING, logger="explorer.rpc"):
        failure(endpoint, retry=RetryPolicy(attempts=3, base_delay=0.01))
    unreached = [r for r in caplog.records if r.name == "explorer.rpc.unreached"]
    lines = [record.getMessage() for record in unreached]
    assert [line.split(" (")[0] for line in lines] == [f"could not reach {gone.url}"] * 3
    assert [f"attempt {n} of 3" in line for n, line in enumerate(lines, 1)] == [True] * 3
    assert all("cannot connect" in line for line in lines)
    assert not [line for line in caplog.text.splitlines() if API_KEY in line]


def test_an_answered_call_logs_no_failed_connection(
    server: ScriptedServer, endpoint: Endpoint, caplog: pytest.LogCaptureFixture
) -> None:
    """A node's error is an answer, not a failed connection: nothing is logged for it."""
    server.script(rpc_error(-32000, "boom"))
    with caplog.at_level(logging.WARNING, logger="explorer.rpc"):
        failure(endpoint, retry=RetryPolicy(attempts=1))
    assert [r for r in caplog.records if r.name == "explorer.rpc.unreached"] == []
