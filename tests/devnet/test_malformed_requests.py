"""Malformed requests on both profiles: JSON-RPC 2.0's codes or rskj's documented ones.

Unknown methods, wrong parameter counts and types, invalid hex, batches (empty, mixed, over the
cap), bodies that are not JSON and bodies over the size limit: each gets a well-formed answer at
once (docs/service.md §15.1, §15.6), never a traceback, never a connection left hanging; the
node serves on afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.devnet import PROFILES, Devnet, profile_devnet

ADDRESS = "0x" + "12" * 20
HEADERS = {"Content-Type": "application/json"}
BATCH_CAP = 50
BODY_LIMIT = 5 * 1024 * 1024
BATCH_CAP_TEXT = "Cannot dispatch batch requests. 50 is the max number of supported batch requests"


@pytest.fixture(scope="module", params=PROFILES)
def profile(request: pytest.FixtureRequest) -> str:
    """Each profile in turn."""
    return str(request.param)


@pytest.fixture(scope="module")
def url(profile: str, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Return the test network's endpoint on a profile."""
    devnet: Devnet = profile_devnet(profile, tmp_path_factory)
    return devnet.url("testnet")


@pytest.fixture(scope="module")
def http() -> Iterator[httpx.Client]:
    """Yield an HTTP client that gives up after 30 s (so a hung connection fails the test)."""
    with httpx.Client(timeout=30) as client:
        yield client


def post(http: httpx.Client, url: str, body: bytes) -> httpx.Response:
    """POST raw bytes as JSON; check no traceback leaks out."""
    response = http.post(url, content=body, headers=HEADERS)
    assert b"Traceback" not in response.content
    return response


def call(method: str, params: Any, request_id: Any = 1) -> dict[str, Any]:
    """Return a request object."""
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def ask(http: httpx.Client, url: str, payload: Any) -> tuple[int, Any]:
    """POST a JSON payload; return the HTTP status and the parsed answer."""
    response = http.post(url, json=payload, headers=HEADERS)
    assert b"Traceback" not in response.content
    return response.status_code, response.json()


@pytest.mark.parametrize("method", ["eth_madeUp", "", "ETH_CHAINID", "eth_chainId "])
def test_unknown_method(http: httpx.Client, url: str, method: str) -> None:
    status, answer = ask(http, url, call(method, []))
    assert status == 200
    assert answer["id"] == 1
    assert answer["error"] == {"code": -32601, "message": "method not found"}


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_chainId", ["surplus"]),
        ("eth_getStorageAt", [ADDRESS, "0x0"]),
        ("eth_getBlockByHash", ["0x" + "ab" * 32, False, "third"]),
        ("eth_call", []),
        ("web3_sha3", []),
    ],
)
def test_wrong_parameter_counts(
    http: httpx.Client, url: str, profile: str, method: str, params: list[Any]
) -> None:
    status, answer = ask(http, url, call(method, params))
    assert (status, answer["error"]["code"]) == (400, -32602)
    if profile == "rskj":
        assert answer["error"]["message"] == "method parameters invalid"


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBalance", [12, "latest"]),
        ("eth_getBalance", [ADDRESS, ["latest"]]),
        ("eth_getBlockByNumber", ["0x1", "false"]),
        ("eth_getBlockByNumber", [{"number": 1}, False]),
        ("eth_call", ["to", "latest"]),
        ("eth_getLogs", ["everything"]),
        ("eth_sendRawTransaction", [None]),
        ("web3_sha3", [{"data": "0x00"}]),
    ],
)
def test_wrong_parameter_types(
    http: httpx.Client, url: str, method: str, params: list[Any]
) -> None:
    status, answer = ask(http, url, call(method, params))
    assert (status, answer["error"]["code"]) == (400, -32602)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBlockByNumber", ["0x", False]),
        ("eth_getBlockByNumber", ["0X1", False]),
        ("eth_getBlockByNumber", ["0xg1", False]),
        ("eth_getBlockByNumber", ["1", False]),
        ("eth_getTransactionByBlockNumberAndIndex", ["0x1", "0x"]),
        ("eth_getBalance", ["0x" + "zz" * 20, "latest"]),
        ("eth_getBalance", [ADDRESS[:-2], "latest"]),
        ("eth_getTransactionByHash", ["0x" + "ab" * 31 + "a"]),
        ("web3_sha3", ["0x123"]),
        ("eth_sendRawTransaction", ["0xnothex"]),
        ("eth_call", [{"to": ADDRESS, "value": "0x"}, "latest"]),
        ("eth_call", [{"to": ADDRESS, "chainId": "0X1f"}, "latest"]),
    ],
)
def test_invalid_hex(http: httpx.Client, url: str, method: str, params: list[Any]) -> None:
    status, answer = ask(http, url, call(method, params))
    assert (status, answer["error"]["code"]) == (400, -32602)


def test_empty_batch_is_answered_with_an_empty_array(http: httpx.Client, url: str) -> None:
    """As jsonrpc4j answers it (docs/service.md §15.6), rather than one -32600."""
    assert ask(http, url, []) == (200, [])


def test_mixed_batch_answers_each_item_in_place(http: httpx.Client, url: str) -> None:
    batch = [
        call("eth_chainId", [], "a"),
        call("eth_madeUp", [], "b"),
        call("eth_getBalance", ["0x12", "latest"], "c"),
        {"jsonrpc": "2.0", "method": "eth_chainId", "params": []},  # a notification
        "not an object",
        {"jsonrpc": "1.0", "id": "d", "method": "eth_chainId", "params": []},
        call("net_version", [], "e"),
    ]
    status, answers = ask(http, url, batch)
    assert status == 200
    assert len(answers) == 6
    by_id = {a["id"]: a for a in answers if a["id"] is not None}
    assert by_id["a"]["result"] == "0x1f"
    assert by_id["b"]["error"]["code"] == -32601
    assert by_id["c"]["error"]["code"] == -32602
    assert by_id["d"]["error"]["code"] == -32600
    assert by_id["e"]["result"] == "31"
    assert [a["error"]["code"] for a in answers if a["id"] is None] == [-32600]


def test_batch_over_the_cap(http: httpx.Client, url: str) -> None:
    status, answer = ask(http, url, [call("eth_chainId", [], i) for i in range(BATCH_CAP + 1)])
    assert status == 400
    assert answer == {"error": {"code": -32600, "message": BATCH_CAP_TEXT}}
    status, answers = ask(http, url, [call("eth_chainId", [], i) for i in range(BATCH_CAP)])
    assert (status, len(answers)) == (200, BATCH_CAP)


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b"not json", b"\xff\xfe", b'{"jsonrpc": "2.0", "id": 1,}', b"NaN", b"[1, 2"],
)
def test_bodies_that_are_not_json(http: httpx.Client, url: str, body: bytes) -> None:
    response = post(http, url, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == -32700


@pytest.mark.parametrize(
    "body", [b"1", b'"text"', b"null", b"true", b"{}", b'{"jsonrpc": "2.0", "id": 1}']
)
def test_json_that_is_no_request(http: httpx.Client, url: str, body: bytes) -> None:
    response = post(http, url, body)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == -32600


def test_a_body_over_the_limit(http: httpx.Client, url: str, profile: str) -> None:
    """Refuse with 413: empty on rskj (netty's aggregator), JSON on the service (§15.6)."""
    padding = "0x" + "00" * (BODY_LIMIT // 2 + 16)
    response = post(
        http,
        url,
        f'{{"jsonrpc":"2.0","id":1,"method":"web3_sha3","params":["{padding}"]}}'.encode(),
    )
    assert response.status_code == 413
    if profile == "rskj":
        assert response.content == b""
    else:
        assert response.json()["error"]["code"] == -32005


def test_the_node_serves_on(http: httpx.Client, url: str) -> None:
    for body in (b"{", b"[]", b"\x00" * 1000):
        post(http, url, body)
    assert ask(http, url, call("eth_chainId", [])) == (
        200,
        {"jsonrpc": "2.0", "id": 1, "result": "0x1f"},
    )
