"""The server survives any input: random bytes, random JSON, wrong types, odd headers."""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import JSON_HEADERS, RawRpc

FUZZ = settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
STATUSES = {200, 204, 400}
METHODS = [
    "eth_getBalance",
    "eth_getBlockByNumber",
    "eth_getBlockByHash",
    "eth_getLogs",
    "eth_call",
    "eth_estimateGas",
    "eth_sendRawTransaction",
    "eth_getTransactionByBlockNumberAndIndex",
    "eth_getStorageAt",
    "web3_sha3",
]
finite_floats = st.floats(allow_nan=False, allow_infinity=False)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | finite_floats | st.text(max_size=80),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=20,
)
hexish = st.from_regex(r"\A0x[0-9a-fA-F]{0,70}\Z") | st.sampled_from(["latest", "pending", "0x"])


def check_answer(response: httpx.Response) -> None:
    """Any answer is an allowed status with a JSON-RPC envelope (or no content)."""
    assert response.status_code in STATUSES, response.text
    if response.status_code == 204:
        return
    payload = response.json()
    for envelope in payload if isinstance(payload, list) else [payload]:
        assert envelope["jsonrpc"] == "2.0"
        assert ("result" in envelope) != ("error" in envelope)
        if "error" in envelope:
            assert isinstance(envelope["error"]["code"], int)


@FUZZ
@given(body=st.binary(max_size=300))
def test_random_bytes(rpc: RawRpc, body: bytes) -> None:
    """Arbitrary bytes never crash the server."""
    check_answer(rpc.client.post(rpc.url, content=body, headers=JSON_HEADERS))


@FUZZ
@given(payload=json_values)
def test_random_json(rpc: RawRpc, payload: Any) -> None:
    """Arbitrary JSON documents get an envelope back."""
    body = json.dumps(payload).encode()
    check_answer(rpc.client.post(rpc.url, content=body, headers=JSON_HEADERS))


@FUZZ
@given(method=st.sampled_from(METHODS), params=st.lists(json_values | hexish, max_size=4))
def test_wrong_parameter_types(rpc: RawRpc, method: str, params: list[Any]) -> None:
    """Real methods with params of any shape answer a result or an error, never a crash."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    check_answer(rpc.post(body))


def test_still_serving_after_the_fuzz(devnet: Devnet, rpc: RawRpc) -> None:
    """After all of it the devnet still answers."""
    assert rpc("eth_chainId") == "0x1f"
    assert devnet.process.returncode is None
