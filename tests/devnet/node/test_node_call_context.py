"""Calls and estimates run in the block asked for, with call objects as rskj 9 reads them.

Issue 24, defects 1-4 and 6: the context of block N (not N+1), the members ethers and web3.py
send, no balance check, strict quantities, and the published Multicall3 at its standard address.
"""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi.abi import decode, encode
from eth_hash.auto import keccak

from explorer.devnet.contracts import load_artifact
from explorer.devnet.errors import INVALID_PARAMS
from explorer.devnet.node import DevnetNode
from tests.helpers.node import failure

MULTICALL3 = "0xca11bde05977b3631167028862be2a173976ca11"
POOR = "0x" + "12" * 20  # an address that holds nothing
#: Keccak-256 of the creation code in Multicall3's pre-signed deployment transaction (the one
#: that put it at 0xcA11…CA11 on every chain; github.com/mds1/multicall, README), read once
#: from that published transaction.
PUBLISHED_CREATION_CODE_KECCAK = "0b2046aa018109118d518235014ac2c679dcbdff32c64705fdf50d048cd32d22"


def selector(signature: str) -> str:
    """Return the 0x-prefixed 4-byte selector of a function signature."""
    return "0x" + keccak(signature.encode())[:4].hex()


def read(node: DevnetNode, signature: str, block: str, *args: Any, types: str = "") -> Any:
    """Call a no-argument (or typed) Multicall3 view at a block and decode its one result."""
    data = selector(signature) + (encode([types], [args[0]]).hex() if types else "")
    output = node.handle("eth_call", [{"to": MULTICALL3, "data": data}, block])
    (value,) = decode([_result_type(signature)], bytes.fromhex(output[2:]))
    return value


def _result_type(signature: str) -> str:
    """Return the ABI type a Multicall3 getter returns."""
    if "Coinbase" in signature:
        return "address"
    return "bytes32" if "Hash" in signature else "uint256"


def block(node: DevnetNode, selector_value: str) -> dict[str, Any]:
    """Return a block object by number or tag."""
    answer: dict[str, Any] = node.handle("eth_getBlockByNumber", [selector_value, False])
    return answer


@pytest.mark.parametrize("tag", ["0x5", "earliest", "latest"])
def test_a_call_runs_in_the_block_asked_for(node: DevnetNode, tag: str) -> None:
    expected = block(node, tag)
    assert read(node, "getBlockNumber()", tag) == int(expected["number"], 16)
    assert read(node, "getCurrentBlockTimestamp()", tag) == int(expected["timestamp"], 16)
    assert read(node, "getCurrentBlockCoinbase()", tag) == expected["miner"]
    assert read(node, "getCurrentBlockGasLimit()", tag) == int(expected["gasLimit"], 16)
    assert read(node, "getCurrentBlockDifficulty()", tag) == int(expected["difficulty"], 16)


def test_pending_runs_in_the_next_block_and_latest_in_the_head(node: DevnetNode) -> None:
    head = int(node.handle("eth_blockNumber", []), 16)
    assert read(node, "getBlockNumber()", "latest") == head
    assert read(node, "getBlockNumber()", "pending") == head + 1
    pending = block(node, "pending")
    assert read(node, "getCurrentBlockTimestamp()", "pending") == int(pending["timestamp"], 16)


def test_blockhash_answers_the_hashes_the_node_reports(node: DevnetNode) -> None:
    number = 40
    expected = block(node, hex(number - 1))["hash"]
    at = hex(number)
    assert "0x" + read(node, "getLastBlockHash()", at).hex() == expected
    found = read(node, "getBlockHash(uint256)", at, number - 1, types="uint256")
    assert "0x" + found.hex() == expected
    assert read(node, "getBlockHash(uint256)", at, number, types="uint256") == bytes(32)


def test_estimate_runs_in_the_block_asked_for(node: DevnetNode) -> None:
    """The gas of a call whose path depends on the block number follows the block asked for.

    Multicall3's getBlockHash(n) of the current block is a cheap zero; so an estimate at `0x5`
    of getBlockHash(5) must equal that of getBlockHash(6) at `0x6`, and both run.
    """
    for at in (5, 6):
        data = selector("getBlockHash(uint256)") + encode(["uint256"], [at]).hex()
        gas = node.handle("eth_estimateGas", [{"to": MULTICALL3, "data": data}, hex(at)])
        assert int(gas, 16) > 21_000


def test_the_published_multicall3_answers_every_getter(node: DevnetNode) -> None:
    chain_id = int(node.handle("eth_chainId", []), 16)
    assert read(node, "getChainId()", "latest") == chain_id
    assert read(node, "getBasefee()", "latest") == int(block(node, "latest")["minimumGasPrice"], 16)
    account = node.manifest.accounts[1]
    balance = int(node.handle("eth_getBalance", [account, "latest"]), 16)
    assert read(node, "getEthBalance(address)", "latest", account, types="address") == balance


def test_aggregate_and_aggregate3_batch_calls(node: DevnetNode) -> None:
    target = bytes.fromhex(MULTICALL3[2:])
    inner = bytes.fromhex(selector("getBlockNumber()")[2:])
    data = (
        selector("aggregate((address,bytes)[])")
        + encode(["(address,bytes)[]"], [[(target, inner), (target, inner)]]).hex()
    )
    output = node.handle("eth_call", [{"to": MULTICALL3, "data": data}, "0x7"])
    number, results = decode(["uint256", "bytes[]"], bytes.fromhex(output[2:]))
    assert number == 7
    assert [int.from_bytes(r, "big") for r in results] == [7, 7]
    data = (
        selector("aggregate3((address,bool,bytes)[])")
        + encode(
            ["(address,bool,bytes)[]"], [[(target, False, inner), (target, True, b"\xde\xad")]]
        ).hex()
    )
    output = node.handle("eth_call", [{"to": MULTICALL3, "data": data}, "latest"])
    ((first, second),) = decode(["(bool,bytes)[]"], bytes.fromhex(output[2:]))
    assert first[0] is True
    assert second[0] is False


def test_the_deployed_code_is_the_published_multicall3(node: DevnetNode) -> None:
    """The code at the standard address is the artifact compiled from the published source.

    compile_multicall3.sh reproduces the creation code of the project's pre-signed deployment
    transaction byte for byte; the runtime code is what that creation returns.
    """
    artifact = load_artifact("Multicall3")
    assert keccak(artifact.bytecode).hex() == PUBLISHED_CREATION_CODE_KECCAK
    assert artifact.bytecode.endswith(artifact.deployed_bytecode)
    code = node.handle("eth_getCode", [MULTICALL3, "latest"])
    assert bytes.fromhex(code[2:]) == artifact.deployed_bytecode
    names = {entry.get("name") for entry in artifact.abi}
    assert {"aggregate", "tryAggregate", "aggregate3Value", "getBasefee"} <= names


def test_call_objects_as_ethers_and_web3_send_them(node: DevnetNode) -> None:
    """chainId, gasLimit, nonce, type, accessList, fee caps: read or ignored, never refused."""
    sent = {
        "from": node.manifest.accounts[1],
        "to": POOR,
        "value": "0x1",
        "chainId": hex(node.chain_id),
        "gasLimit": "0x5208",
        "nonce": "0x0",
        "type": "0x2",
        "accessList": [],
        "maxFeePerGas": "0x3b9aca00",
        "maxPriorityFeePerGas": "0x0",
        "customField": {"anything": True},
    }
    assert node.handle("eth_call", [sent, "latest"]) == "0x"
    assert node.handle("eth_estimateGas", [sent, "latest"]) == "0x5208"


def test_input_is_read_before_data(node: DevnetNode) -> None:
    call = {"to": MULTICALL3, "input": selector("getChainId()"), "data": selector("getBasefee()")}
    output = node.handle("eth_call", [call, "latest"])
    assert int(output, 16) == node.chain_id


@pytest.mark.parametrize("member", ["chainId", "gasLimit", "nonce"])
@pytest.mark.parametrize("value", ["0x", "0X1", "12", "0xzz", 5])
def test_checked_members_must_be_quantities(node: DevnetNode, member: str, value: Any) -> None:
    call = {"to": POOR, member: value}
    assert failure(node, "eth_call", call, "latest").code == INVALID_PARAMS


def test_a_call_with_a_value_the_sender_cannot_pay_runs(node: DevnetNode) -> None:
    """As rskj runs a local call: no balance check (ReversibleTransactionExecutor)."""
    assert node.handle("eth_getBalance", [POOR, "latest"]) == "0x0"
    call = {"from": POOR, "to": "0x" + "34" * 20, "value": hex(10**21), "gasPrice": "0x3b9aca00"}
    assert node.handle("eth_call", [call, "latest"]) == "0x"
    assert node.handle("eth_estimateGas", [call, "latest"]) == "0x5208"
    assert node.handle("eth_getBalance", [POOR, "latest"]) == "0x0"  # nothing kept


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBlockByNumber", ["0x", False]),
        ("eth_getBlockByNumber", ["0X5", False]),
        ("eth_getBlockTransactionCountByNumber", ["0x"]),
        ("eth_getUncleCountByBlockNumber", ["0X1"]),
        ("eth_getTransactionByBlockNumberAndIndex", ["0x5", "0x"]),
        ("eth_getTransactionByBlockNumberAndIndex", ["0x5", "0X0"]),
        ("eth_getBalance", [POOR, "0x"]),
        ("eth_call", [{"to": POOR}, "0x"]),
        ("eth_getStorageAt", [POOR, "0x", "latest"]),
    ],
)
def test_empty_and_capital_x_quantities_are_invalid(
    node: DevnetNode, method: str, params: list[Any]
) -> None:
    assert failure(node, method, *params).code == INVALID_PARAMS
