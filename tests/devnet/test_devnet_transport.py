"""The service's HTTP rules over real sockets: paths, keys, methods, envelopes, batches."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import JSON_HEADERS, RawRpc, assert_error_body, batch_of

CHAIN_ID = {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId", "params": []}


@pytest.mark.parametrize("form", ["/{key}", "/v2/{key}", "/{key}/", "/v2/{key}/"])
def test_key_in_either_path_form(devnet: Devnet, http: httpx.Client, form: str) -> None:
    """The key works as `/<KEY>` and as `/v2/<KEY>`."""
    url = devnet.base("testnet") + form.format(key=devnet.key)
    response = http.post(url, json=CHAIN_ID, headers=JSON_HEADERS)
    assert response.status_code == 200
    assert response.json() == {"jsonrpc": "2.0", "id": 1, "result": "0x1f"}


def test_each_network_at_its_own_address(rpc: RawRpc, rpc_main: RawRpc) -> None:
    """The test and main networks answer their own chain ids on different ports."""
    assert rpc.url != rpc_main.url
    assert (rpc("eth_chainId"), rpc("net_version")) == ("0x1f", "31")
    assert (rpc_main("eth_chainId"), rpc_main("net_version")) == ("0x1e", "30")


@pytest.mark.parametrize("path", ["", "/", "/v2", "/v2/"])
def test_missing_key_is_401(devnet: Devnet, http: httpx.Client, path: str) -> None:
    """No key in the path: 401 with a JSON-RPC error body."""
    response = http.post(devnet.base() + path, json=CHAIN_ID, headers=JSON_HEADERS)
    assert "key" in assert_error_body(response, 401)["message"].lower()


@pytest.mark.parametrize("form", ["/{key}x", "/v2/{key}x", "/WRONG"])
def test_unknown_key_is_403(devnet: Devnet, http: httpx.Client, form: str) -> None:
    """An unknown key: 403 with a JSON-RPC error body that does not echo the key."""
    url = devnet.base() + form.format(key=devnet.key)
    response = http.post(url, json=CHAIN_ID, headers=JSON_HEADERS)
    assert_error_body(response, 403)
    assert devnet.key not in response.text


def test_key_of_one_devnet_is_unknown_to_another(
    devnet: Devnet, devnet_limited: Devnet, http: httpx.Client
) -> None:
    """Keys are per service: the limited devnet refuses the main devnet's key."""
    url = f"{devnet_limited.base()}/{devnet.key}"
    assert_error_body(http.post(url, json=CHAIN_ID, headers=JSON_HEADERS), 403)


def test_other_paths_are_404(devnet: Devnet, http: httpx.Client) -> None:
    """Paths that are not a key form get 404, still with a JSON-RPC body."""
    url = f"{devnet.base()}/v3/a/{devnet.key}"
    assert_error_body(http.post(url, json=CHAIN_ID, headers=JSON_HEADERS), 404)


@pytest.mark.parametrize("method", ["GET", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_non_post_is_405_with_allow(devnet: Devnet, http: httpx.Client, method: str) -> None:
    """Only POST is allowed, and the answer says so."""
    response = http.request(method, devnet.url())
    assert_error_body(response, 405)
    assert response.headers["allow"] == "POST"


@pytest.mark.parametrize("content_type", [None, "text/plain", "application/x-www-form-urlencoded"])
def test_wrong_content_type_is_415(
    devnet: Devnet, http: httpx.Client, content_type: str | None
) -> None:
    """A body that is not declared as JSON is refused with 415."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    response = http.post(devnet.url(), content=json.dumps(CHAIN_ID).encode(), headers=headers)
    assert_error_body(response, 415)


def test_content_type_with_charset_is_accepted(devnet: Devnet, http: httpx.Client) -> None:
    """`application/json; charset=utf-8` is JSON."""
    headers = {"Content-Type": "application/json; charset=utf-8"}
    response = http.post(devnet.url(), content=json.dumps(CHAIN_ID).encode(), headers=headers)
    assert response.json()["result"] == "0x1f"


@pytest.mark.parametrize(
    "body",
    [b"{", b"", b"nul", b'{"jsonrpc": "2.0", "id": 1,}', b"\xff\xfe{}", b"NaN", b"[1, Infinity]"],
)
def test_parse_error_is_400(devnet: Devnet, http: httpx.Client, body: bytes) -> None:
    """A body that is not JSON: -32700 with id null, HTTP 400 as rskj."""
    response = http.post(devnet.url(), content=body, headers=JSON_HEADERS)
    assert_error_body(response, 400, -32700)
    assert response.json()["id"] is None


@pytest.mark.parametrize(
    "body",
    [
        b"[" * 200_000 + b"]" * 200_000,
        b'{"a":' * 90_000 + b"1" + b"}" * 90_000,
        b'{"jsonrpc":"2.0","id":1,"method":"eth_getBalance","params":'
        + b"[" * 80
        + b"]" * 80
        + b"}",
    ],
)
def test_deeply_nested_json_is_a_parse_error(
    devnet: Devnet, http: httpx.Client, body: bytes
) -> None:
    """JSON nested past a sane depth is refused (the C parser must not crash the server)."""
    assert_error_body(http.post(devnet.url(), content=body, headers=JSON_HEADERS), 400, -32700)
    assert http.post(devnet.url(), json=CHAIN_ID).json()["result"] == "0x1f"


@pytest.mark.parametrize(
    "request_object",
    [
        42,
        "eth_chainId",
        None,
        {"id": 7, "method": "eth_chainId", "params": []},
        {"jsonrpc": "1.0", "id": 7, "method": "eth_chainId", "params": []},
        {"jsonrpc": "2.0", "id": 7, "params": []},
        {"jsonrpc": "2.0", "id": 7, "method": 5, "params": []},
        {"jsonrpc": "2.0", "id": 7, "method": "eth_chainId", "params": "x"},
        {"jsonrpc": "2.0", "id": [7], "method": "eth_chainId", "params": []},
        {"jsonrpc": "2.0", "id": True, "method": "eth_chainId", "params": []},
    ],
)
def test_invalid_request_is_400(rpc: RawRpc, request_object: Any) -> None:
    """A request that is not a valid request object: -32600, HTTP 400."""
    body = json.dumps(request_object).encode()
    response = rpc.client.post(rpc.url, content=body, headers=JSON_HEADERS)
    assert_error_body(response, 400, -32600)
    envelope_id = response.json()["id"]
    valid_id = isinstance(request_object, dict) and request_object.get("id") == 7
    assert envelope_id == (7 if valid_id else None)


def test_params_may_be_omitted(rpc: RawRpc) -> None:
    """A call without `params` means an empty array."""
    response = rpc.post({"jsonrpc": "2.0", "id": "a", "method": "eth_chainId"})
    assert response.json() == {"jsonrpc": "2.0", "id": "a", "result": "0x1f"}


def test_named_params_are_invalid_params(rpc: RawRpc) -> None:
    """Params as an object are not supported: -32602, HTTP 400."""
    call = {"jsonrpc": "2.0", "id": 3, "method": "eth_getBalance", "params": {"address": "0x"}}
    assert_error_body(rpc.post(call), 400, -32602)


def test_unknown_method_is_32601_with_200(rpc: RawRpc) -> None:
    """An unknown method: -32601 and HTTP 200 (only parse/request/params errors are 400)."""
    status, envelope = rpc.answer("eth_mine")
    assert (status, envelope["error"]["code"]) == (200, -32601)


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBalance", ["0x1234"]),
        ("eth_getBlockByNumber", ["nonsense", False]),
        ("eth_getTransactionByHash", ["0x12"]),
        ("eth_getBalance", []),
    ],
)
def test_invalid_params_are_32602_with_400(rpc: RawRpc, method: str, params: list[Any]) -> None:
    """Invalid params: -32602 and HTTP 400 as rskj."""
    status, envelope = rpc.answer(method, *params)
    assert (status, envelope["error"]["code"]) == (400, -32602), envelope


def test_id_is_echoed_whatever_its_type(rpc: RawRpc) -> None:
    """Numbers, strings and null ids come back unchanged."""
    for request_id in (0, 2**53, 1.5, "x-1", None):
        body: dict[str, Any] = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "net_version",
            "params": [],
        }
        assert rpc.post(body).json() == {"jsonrpc": "2.0", "id": request_id, "result": "31"}


def test_notification_gets_no_content(rpc: RawRpc) -> None:
    """A request without id is a notification: HTTP 204, no body."""
    response = rpc.post({"jsonrpc": "2.0", "method": "eth_chainId", "params": []})
    assert (response.status_code, response.content) == (204, b"")


def test_batch_of_50_is_answered_in_full(rpc: RawRpc) -> None:
    """50 requests in a batch: 50 answers, ids matched."""
    response = rpc.post(batch_of(50))
    assert response.status_code == 200
    answers = response.json()
    assert sorted(answer["id"] for answer in answers) == list(range(50))
    assert {answer["result"] for answer in answers} == {"0x1f"}


def test_batch_of_51_is_rejected(rpc: RawRpc) -> None:
    """More than 50 requests in a batch: one -32600 error in rskj's words and body.

    The body has neither `jsonrpc` nor `id` (JsonRpcRequestValidatorInterceptor.java,
    JsonRpcWeb3ServerHandler.java).
    """
    response = rpc.post(batch_of(51))
    assert response.status_code == 400
    assert response.json() == {
        "error": {
            "code": -32600,
            "message": "Cannot dispatch batch requests. 50 is the max number of supported "
            "batch requests",
        }
    }


def test_empty_batch_is_an_empty_answer(rpc: RawRpc) -> None:
    """`[]` gets `[]`, as jsonrpc4j answers an empty array."""
    response = rpc.post([])
    assert response.status_code == 200
    assert response.json() == []


def test_mixed_batch_answers_each_item(rpc: RawRpc) -> None:
    """Good, bad and notification items: every non-notification gets its own answer."""
    batch = [
        {"jsonrpc": "2.0", "id": 1, "method": "net_version", "params": []},
        {"jsonrpc": "2.0", "id": 2, "method": "no_such_method", "params": []},
        {"jsonrpc": "2.0", "method": "eth_chainId", "params": []},
        17,
        {"jsonrpc": "2.0", "id": 3, "method": "eth_getBalance", "params": ["0x1"]},
    ]
    response = rpc.post(batch)
    assert response.status_code == 200
    by_id = {json.dumps(answer["id"]): answer for answer in response.json()}
    assert by_id["1"]["result"] == "31"
    assert by_id["2"]["error"]["code"] == -32601
    assert by_id["null"]["error"]["code"] == -32600
    assert by_id["3"]["error"]["code"] == -32602
    assert len(response.json()) == 4


def test_batch_of_notifications_gets_no_content(rpc: RawRpc) -> None:
    """A batch made only of notifications: HTTP 204."""
    batch = [{"jsonrpc": "2.0", "method": "eth_chainId", "params": []}] * 3
    assert rpc.post(batch).status_code == 204


def test_body_over_10_mib_is_413(devnet: Devnet, http: httpx.Client) -> None:
    """A huge body is refused with 413 and a JSON-RPC error; the server lives on."""
    padding = "0" * (11 * 1024 * 1024)
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "web3_sha3", "params": [padding]})
    response = http.post(devnet.url(), content=body.encode(), headers=JSON_HEADERS)
    assert_error_body(response, 413)
    assert http.post(devnet.url(), json=CHAIN_ID).json()["result"] == "0x1f"


def test_key_is_not_echoed_in_any_error(devnet: Devnet, http: httpx.Client) -> None:
    """Error answers never contain the API key."""
    for method, path in (("GET", ""), ("POST", "/v2/a/b")):
        response = http.request(method, devnet.url() + path, content=b"{")
        assert devnet.key not in response.text
