"""The devnet's HTTP face by profile, over real sockets with a stand-in node.

rskj's netty pipeline (co/rsk/rpc/netty/Web3HttpServer.java): an oversized body is an empty
413 (HttpObjectAggregator, rpc.providers.web.http.max_aggregated_frame_size), gzip on request
(HttpContentCompressor), another content type an empty 415 and another method an empty 501
(JsonRpcWeb3FilterHandler.java), every answer `Connection: close`
(Web3ResultHttpResponseHandler.java), and its own limits as -32011 without `jsonrpc` or `id`
(JsonRpcWeb3ServerHandler.java: JsonRpcTimeoutError, JsonRpcResponseLimitError).
"""

from __future__ import annotations

import gzip
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from explorer.devnet.envelope import Json
from explorer.devnet.profile import Profile
from explorer.devnet.server import RunningNetwork, ServiceConfig, serve
from tests.helpers.devnet import LoopThread

KEY = "profile-key-0001"
CALL = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}
JSON = {"Content-Type": "application/json"}


class StandIn:
    """A node answering eth_chainId at once.

    `slow` after a pause, `big` with 100 kB and `huge` with 200 kB.
    """

    def handle(self, method: str, params: list[Json]) -> Json:
        """Answer one call."""
        if method == "slow":
            time.sleep(0.2)
        if method == "big":
            return "0x" + "ab" * 50_000
        if method == "huge":
            return "0x" + "ab" * 100_000
        return "0x1f"

    def mine_block(self) -> int:
        """Mine nothing."""
        return 0

    def mine_scheduled(self) -> int | None:
        """Mine nothing."""
        return None


@pytest.fixture(scope="module")
def loop() -> Iterator[LoopThread]:
    """Yield a loop thread for the servers."""
    thread = LoopThread()
    yield thread
    thread.close()


def served(loop: LoopThread, profile: Profile, **config: Any) -> Iterator[str]:
    """Serve the stand-in with a profile's HTTP rules; yield its base URL."""
    settings = ServiceConfig(keys=frozenset({KEY}), profile=profile, **config)
    network: RunningNetwork = loop.run(serve(StandIn(), settings))
    try:
        yield network.base_url()
    finally:
        loop.run(network.close())


@pytest.fixture(scope="module")
def rskj(loop: LoopThread) -> Iterator[str]:
    """Yield the stand-in served as a bare rskj node, with a 0.1 s call limit and 150 kB answers."""
    yield from served(loop, Profile.RSKJ, rpc_timeout=0.1, max_response_bytes=150_000)


@pytest.fixture(scope="module")
def service(loop: LoopThread) -> Iterator[str]:
    """Yield the stand-in served as the hosted service."""
    yield from served(loop, Profile.SERVICE)


def test_rskj_takes_any_path_and_no_key(rskj: str) -> None:
    for path in ("", "/", "/whatever/path"):
        answer = httpx.post(rskj + path, json=CALL)
        assert (answer.status_code, answer.json()["result"]) == (200, "0x1f")


def test_the_service_wants_its_key(service: str) -> None:
    assert httpx.post(service, json=CALL).status_code == 401
    assert httpx.post(f"{service}/{KEY}", json=CALL).json()["result"] == "0x1f"


def client_ports(url: str, calls: int) -> tuple[list[Any], list[httpx.Response]]:
    """Send calls on one client; return the local address of each and the answers."""
    ports: list[Any] = []

    def note(response: httpx.Response) -> None:
        ports.append(response.extensions["network_stream"].get_extra_info("client_addr"))

    with httpx.Client(event_hooks={"response": [note]}) as http:
        answers = [http.post(url, json=CALL) for _ in range(calls)]
    return ports, answers


def test_rskj_closes_every_connection_and_the_service_keeps_it(rskj: str, service: str) -> None:
    """Two calls on one client: rskj's need two connections, the service's share one."""
    for url, close in ((rskj, True), (f"{service}/{KEY}", False)):
        ports, answers = client_ports(url, 2)
        assert all((a.headers.get("connection") == "close") is close for a in answers)
        assert (ports[0] != ports[1]) is close


def raw_exchange(base: str, request: bytes) -> bytes:
    """Send raw bytes to the server; return everything it sends before closing."""
    host, port = base.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def test_rskj_gzips_when_asked(rskj: str) -> None:
    body = b'{"jsonrpc":"2.0","id":1,"method":"big","params":[]}'
    head = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    request = f"{head}Accept-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n".encode()
    answer = raw_exchange(rskj, request + body)
    headers, _, payload = answer.partition(b"\r\n\r\n")
    assert b"Content-Encoding: gzip" in headers
    assert b'"result":"0xabab' in gzip.decompress(payload)


@pytest.mark.parametrize(
    ("method", "headers", "body", "status"),
    [
        ("POST", JSON, b"x" * (5 * 1024 * 1024 + 1), 413),
        ("POST", {"Content-Type": "text/plain"}, b"{}", 415),
        ("GET", JSON, b"", 501),
        ("PUT", JSON, b"{}", 501),
    ],
)
def test_rskj_http_refusals_are_empty(
    rskj: str, method: str, headers: dict[str, str], body: bytes, status: int
) -> None:
    answer = httpx.request(method, rskj, headers=headers, content=body)
    assert (answer.status_code, answer.content) == (status, b"")


def test_rskj_limits_answer_without_jsonrpc_or_id(rskj: str) -> None:
    """A call over rpc.timeout, an answer over rpc.maxResponseSize: -32011, HTTP 200."""
    slow = httpx.post(rskj, json={**CALL, "method": "slow"})
    assert (slow.status_code, slow.json()) == (
        200,
        {"error": {"code": -32011, "message": "Execution has got timeout out."}},
    )
    huge = httpx.post(rskj, json={**CALL, "method": "huge"})
    assert huge.json() == {
        "error": {"code": -32011, "message": "Response size limit of 150000 bytes exceeded"}
    }


def test_devnet_cli_options_reach_the_server() -> None:
    """`--profile`, `--rpc-timeout`, `--max-response-bytes` and the pool's expiry parse."""
    from explorer.cli.devnet import build_parser
    from explorer.devnet.process import DevnetOptions

    args = build_parser().parse_args(
        ["--profile", "rskj", "--rpc-timeout", "0.5", "--pool-expiry-blocks", "3"]
    )
    assert (args.profile, args.rpc_timeout, args.pool_expiry_blocks) == ("rskj", 0.5, 3)
    assert (args.max_log_blocks, args.max_logs, args.pool_expiry_seconds) == (None, None, 650)
    options = DevnetOptions(profile="rskj", extra_arguments=("--pool-expiry-seconds", "5"))
    command = options.arguments("k")
    assert command[command.index("--profile") + 1] == "rskj"
    assert command[-2:] == ["--pool-expiry-seconds", "5"]
