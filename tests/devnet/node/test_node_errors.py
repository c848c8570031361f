"""Invalid params, unknown methods, and a fuzzer: handle() raises nothing but RpcFailure."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from explorer.devnet.errors import INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, RpcFailure
from explorer.devnet.node import DevnetNode
from tests.helpers.node import failure

SPEC_METHODS = {
    "eth_accounts", "eth_blockNumber", "eth_call", "eth_chainId", "eth_estimateGas",
    "eth_gasPrice", "eth_getBalance", "eth_getBlockByHash", "eth_getBlockByNumber",
    "eth_getCode", "eth_getLogs", "eth_getStorageAt", "eth_getTransactionByHash",
    "eth_getTransactionCount", "eth_getTransactionReceipt", "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber", "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex", "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber", "eth_protocolVersion", "eth_sendRawTransaction",
    "net_version", "web3_clientVersion", "web3_sha3",
}  # fmt: skip
ADDRESS = "0x" + "12" * 20


def test_every_spec_method_and_the_mining_controls(node: DevnetNode) -> None:
    """The 26 methods of the spec, and rskj's evm module's mining controls."""
    mining = {"evm_mine", "evm_startMining", "evm_stopMining"}
    assert set(node.methods) == SPEC_METHODS | mining
    assert len(SPEC_METHODS) == 26


@pytest.mark.parametrize("method", ["eth_foo", "", "eth_sign", "debug_traceTransaction"])
def test_unknown_methods(node: DevnetNode, method: str) -> None:
    assert failure(node, method).code == METHOD_NOT_FOUND


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBalance", ["0x1234"]),
        ("eth_getBalance", [ADDRESS + "00"]),
        ("eth_getBalance", [ADDRESS, "0xnothex"]),
        ("eth_getBalance", [ADDRESS, "newest"]),
        ("eth_getBalance", [ADDRESS, 5]),
        ("eth_getBalance", [ADDRESS, "latest", "extra"]),
        ("eth_getBalance", []),
        ("eth_getBlockByNumber", ["0x1", "yes"]),
        ("eth_getBlockByNumber", [1, False]),
        ("eth_getBlockByHash", ["0x1234", False]),
        ("eth_getTransactionByHash", ["0x" + "ab" * 31]),
        ("eth_getStorageAt", [ADDRESS, "zz", "latest"]),
        ("eth_call", ["not an object", "latest"]),
        ("eth_call", [{"to": "0x12"}, "latest"]),
        ("eth_call", [{"to": ADDRESS, "chainId": "0x"}, "latest"]),
        ("eth_call", [{"to": ADDRESS, "gasLimit": "0X10"}, "latest"]),
        ("eth_getBlockByNumber", ["0x", False]),
        ("eth_getBlockByNumber", ["0X1", False]),
        ("eth_getTransactionByBlockNumberAndIndex", ["0x1", "0x"]),
        ("web3_sha3", ["hello"]),
        ("web3_sha3", ["0x123"]),
        ("eth_chainId", ["unexpected"]),
        ("eth_getTransactionByBlockNumberAndIndex", ["0x1", "one"]),
    ],
)
def test_invalid_params(node: DevnetNode, method: str, params: list[Any]) -> None:
    assert failure(node, method, *params).code == INVALID_PARAMS


def test_params_must_be_an_array(node: DevnetNode) -> None:
    with pytest.raises(RpcFailure) as caught:
        node.handle("eth_blockNumber", {"a": 1})  # type: ignore[arg-type]
    assert caught.value.code == INVALID_PARAMS


SAMPLES = ["latest", "pending", "earliest", "0x0", "0x1", "0x", ADDRESS, "0x" + "00" * 32]
KEYS = ["to", "from", "data", "value", "gas", "fromBlock", "toBlock", "blockHash", "address",
        "topics", "blockNumber"]  # fmt: skip
SCALARS = (
    st.none() | st.booleans() | st.integers() | st.text(max_size=70) | st.sampled_from(SAMPLES)
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(method=st.sampled_from(sorted(SPEC_METHODS)), params=st.lists(JSON_VALUES, max_size=4))
def test_fuzz_only_rpc_failures(node: DevnetNode, method: str, params: list[Any]) -> None:
    try:
        result = node.handle(method, params)
    except RpcFailure as error:
        assert error.code != INTERNAL_ERROR, (method, params)  # no bug hides behind -32603
        assert isinstance(error.message, str)
        return
    json.dumps(result)


HEX = st.integers(min_value=0, max_value=2**80).map(hex)
CALLS = st.fixed_dictionaries(
    {},
    optional={
        "from": st.sampled_from([ADDRESS, "0x" + "00" * 20]),
        "to": st.sampled_from([ADDRESS, "0x" + "00" * 19 + "01"]),
        "gas": HEX,
        "gasPrice": HEX,
        "value": HEX,
        "data": st.binary(max_size=40).map(lambda b: "0x" + b.hex()),
    },
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(call=CALLS, method=st.sampled_from(["eth_call", "eth_estimateGas"]))
def test_fuzz_call_objects(node: DevnetNode, call: dict[str, str], method: str) -> None:
    try:
        result = node.handle(method, [call, "latest"])
    except RpcFailure as error:
        assert error.code != INTERNAL_ERROR, call
        return
    assert result.startswith("0x")
