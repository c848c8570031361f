"""eth_call, eth_estimateGas and eth_getLogs on the small seeded history."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from eth_abi.abi import decode
from eth_hash.auto import keccak

from explorer.chain.namehash import namehash, reverse_node
from explorer.chain.revert import decode_revert_reason
from explorer.devnet.abi import call_data
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import EXECUTION_REVERTED, INVALID_PARAMS, LOG_LIMIT_EXCEEDED
from explorer.devnet.logs import LogLimits, LogRule
from explorer.devnet.node import DevnetNode
from explorer.devnet.server import json_bytes
from tests.helpers.node import failure

TRANSFER = "0x" + keccak(b"Transfer(address,address,uint256)").hex()
APPROVAL = "0x" + keccak(b"Approval(address,address,uint256)").hex()


def topic(address: str) -> str:
    """Return an address as a 32-byte topic."""
    return "0x" + "00" * 12 + address[2:]


def eth_call(node: DevnetNode, to: str, data: bytes, block: str = "latest") -> bytes:
    """Call a contract and return the raw output."""
    result = node.handle("eth_call", [{"to": to, "data": "0x" + data.hex()}, block])
    return bytes.fromhex(result[2:])


def test_call_reads_contract_state(node: DevnetNode) -> None:
    manifest = node.manifest
    user = manifest.accounts[1]
    balance = eth_call(
        node, manifest.token, call_data("balanceOf(address)", bytes.fromhex(user[2:]))
    )
    assert decode(["uint256"], balance)[0] > 0
    before = eth_call(
        node, manifest.token, call_data("balanceOf(address)", bytes.fromhex(user[2:])), "0x1"
    )
    assert decode(["uint256"], before)[0] == 0
    doubled = eth_call(node, manifest.reverter, call_data("double(uint256)", 4))
    assert decode(["uint256"], doubled)[0] == 8


def test_call_revert_is_32015_with_reason_and_data(node: DevnetNode) -> None:
    error = failure(
        node,
        "eth_call",
        {"to": node.manifest.reverter, "data": "0x" + call_data("double(uint256)", 11).hex()},
        "latest",
    )
    assert error.code == EXECUTION_REVERTED
    assert (
        error.message
        == "VM Exception while processing transaction: revert Reverter: value too large"
    )
    assert error.data is not None
    assert decode_revert_reason(bytes.fromhex(error.data[2:])) == "Reverter: value too large"


def test_rns_names_resolve(node: DevnetNode) -> None:
    manifest = node.manifest
    for name, owner in manifest.rns_names:
        node_hash = namehash(name)
        resolver = eth_call(node, manifest.rns_registry, call_data("resolver(bytes32)", node_hash))
        assert "0x" + resolver[12:].hex() == manifest.rns_resolver
        address = eth_call(node, manifest.rns_resolver, call_data("addr(bytes32)", node_hash))
        assert "0x" + address[12:].hex() == owner
        reverse = eth_call(
            node, manifest.rns_resolver, call_data("name(bytes32)", reverse_node(owner))
        )
        assert decode(["string"], reverse)[0] == name
    unknown = eth_call(
        node, manifest.rns_registry, call_data("resolver(bytes32)", namehash("nobody.rsk"))
    )
    assert unknown == bytes(32)


def test_multicall_aggregate3(node: DevnetNode) -> None:
    manifest = node.manifest
    inner = call_data("double(uint256)", 3)
    calls = [
        (bytes.fromhex(manifest.reverter[2:]), False, inner),
        (bytes.fromhex(manifest.reverter[2:]), True, call_data("fail()")),
    ]
    output = eth_call(
        node, manifest.multicall, call_data("aggregate3((address,bool,bytes)[])", calls)
    )
    (results,) = decode(["(bool,bytes)[]"], output)
    assert results[0] == (True, (6).to_bytes(32, "big"))
    assert results[1][0] is False


def test_estimate_gas(node: DevnetNode) -> None:
    manifest = node.manifest
    sender, receiver = manifest.accounts[1], manifest.accounts[2]
    plain = node.handle("eth_estimateGas", [{"from": sender, "to": receiver, "value": "0x1"}])
    assert plain == hex(21_000)
    data = call_data("transfer(address,uint256)", bytes.fromhex(receiver[2:]), 1)
    token = node.handle(
        "eth_estimateGas",
        [{"from": sender, "to": manifest.token, "data": "0x" + data.hex()}, "latest"],
    )
    assert 21_000 < int(token, 16) < 100_000


def test_estimate_gas_answers_even_when_execution_would_fail(node: DevnetNode) -> None:
    broke = "0x" + "11" * 20
    call = {"from": broke, "to": node.manifest.accounts[1], "value": hex(10**30)}
    assert int(node.handle("eth_estimateGas", [call]), 16) >= 21_000
    revert = {"to": node.manifest.reverter, "data": "0x" + call_data("fail()").hex()}
    assert int(node.handle("eth_estimateGas", [revert]), 16) >= 21_000


def logs(node: DevnetNode, **filter_object: Any) -> list[dict[str, Any]]:
    """eth_getLogs with a filter object."""
    result: list[dict[str, Any]] = node.handle("eth_getLogs", [filter_object])
    return result


def test_logs_by_address_and_topics(node: DevnetNode) -> None:
    manifest = node.manifest
    user = manifest.accounts[1]
    everything = logs(node, fromBlock="earliest", toBlock="latest")
    transfers = logs(
        node, fromBlock="0x0", toBlock="latest", address=manifest.token, topics=[TRANSFER]
    )
    assert 0 < len(transfers) < len(everything)
    assert all(
        log["address"] == manifest.token and log["topics"][0] == TRANSFER for log in transfers
    )
    to_user = logs(node, fromBlock="0x0", toBlock="latest", topics=[TRANSFER, None, topic(user)])
    assert to_user
    assert all(log["topics"][2] == topic(user) for log in to_user)
    either = logs(node, fromBlock="0x0", toBlock="latest", topics=[[TRANSFER, APPROVAL]])
    approvals = logs(node, fromBlock="0x0", toBlock="latest", topics=[APPROVAL])
    assert len(either) == len(approvals) + len(
        [x for x in everything if x["topics"][:1] == [TRANSFER]]
    )
    listed = logs(
        node, fromBlock="0x0", toBlock="latest", address=[manifest.token, manifest.collectible]
    )
    assert {log["address"] for log in listed} == {manifest.token, manifest.collectible}
    assert all("removed" not in log for log in everything)


def test_logs_by_block_hash_and_default_latest(node: DevnetNode) -> None:
    receipt = node.handle("eth_getTransactionReceipt", [node.manifest.token_transfer])
    by_hash = logs(node, blockHash=receipt["blockHash"])
    by_range = logs(node, fromBlock=receipt["blockNumber"], toBlock=receipt["blockNumber"])
    assert by_hash == by_range
    assert by_hash
    keys = {(log["transactionHash"], log["logIndex"]) for log in by_hash}
    assert len(keys) == len(by_hash)
    head = node.handle("eth_blockNumber", [])
    assert logs(node) == logs(node, fromBlock=head, toBlock=head)
    error = failure(node, "eth_getLogs", {"blockHash": receipt["blockHash"], "fromBlock": "0x1"})
    assert error.code == INVALID_PARAMS


def test_log_objects_are_made_once_and_match_the_receipts(node: DevnetNode) -> None:
    """A mined block's log objects are made once and shared; they equal the receipts' logs."""
    first = logs(node, fromBlock="0x0", toBlock="latest", topics=[TRANSFER])
    again = logs(node, fromBlock="0x0", toBlock="latest", topics=[TRANSFER])
    assert again == first
    assert all(a is b for a, b in zip(again, first, strict=True))
    receipt = node.handle("eth_getTransactionReceipt", [node.manifest.token_transfer])
    from_receipt = [{k: v for k, v in log.items() if k != "removed"} for log in receipt["logs"]]
    by_block = logs(node, blockHash=receipt["blockHash"])
    assert all(log in by_block for log in from_receipt)


def test_log_answers_are_joined_exactly_as_json_writes_them(node: DevnetNode) -> None:
    """An eth_getLogs answer made of pre-encoded logs is byte for byte what json.dumps writes."""
    result = node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}])
    assert isinstance(result, EncodedLogs)
    assert result
    single = {"jsonrpc": "2.0", "id": 7, "result": result}
    batch = [{"jsonrpc": "2.0", "id": "a", "result": result}, {"jsonrpc": "2.0", "id": None}]
    empty = {"jsonrpc": "2.0", "id": 1, "result": node.handle("eth_getLogs", [{"toBlock": "0x0"}])}
    for payload in (single, batch, empty):
        assert json_bytes(payload) == json.dumps(payload, separators=(",", ":")).encode()


def test_log_limits(node: DevnetNode) -> None:
    original = node.log_limits
    every = len(logs(node, fromBlock="0x0", toBlock="latest"))
    try:
        node.log_limits = replace(original, max_blocks=10, max_logs=5)
        error = failure(node, "eth_getLogs", {"fromBlock": "0x0", "toBlock": "latest"})
        assert error.code == LOG_LIMIT_EXCEEDED
        assert "Cannot query more than 10 blocks" in error.message
        assert "more than 5 logs" in error.message
        assert len(logs(node, fromBlock="0x1", toBlock="0xa")) > 5  # short range: no cap
        node.log_limits = replace(original, max_blocks=10, max_logs=every)
        assert len(logs(node, fromBlock="0x0", toBlock="latest")) == every  # few logs: any range
    finally:
        node.log_limits = original


def test_rskj_log_limits(node: DevnetNode) -> None:
    """LogFilter.java.

    `to - from` over the block limit is refused whatever the logs, and so is any range with more
    logs than the log limit.
    """
    original = node.log_limits
    busy = first_busy_block(node)
    try:
        node.log_limits = LogLimits(max_blocks=10, max_logs=5, rule=LogRule.RSKJ)
        quiet = {"topics": ["0x" + "ab" * 32]}
        assert logs(node, fromBlock="0x1", toBlock="0xb", **quiet) == []  # to - from = 10
        error = failure(node, "eth_getLogs", {"fromBlock": "0x1", "toBlock": "0xc", **quiet})
        assert (error.code, error.message) == (
            LOG_LIMIT_EXCEEDED,
            "Cannot query more than 10 blocks at once",
        )
        error = failure(node, "eth_getLogs", {"fromBlock": hex(busy), "toBlock": hex(busy)})
        assert error.message == "Filter returned more than 5 logs."
    finally:
        node.log_limits = original


def first_busy_block(node: DevnetNode) -> int:
    """Return the first block holding more than five logs."""
    for number in range(1, node.head_number + 1):
        if len(logs(node, fromBlock=hex(number), toBlock=hex(number))) > 5:
            return number
    raise AssertionError("no block with more than five logs")


def test_from_after_to_reads_the_to_block_and_from_latest_the_latest(node: DevnetNode) -> None:
    """LogFilter.java processes blocks from toBlock down to fromBlock, at least toBlock.

    A fromBlock of `latest` reads the latest block alone.
    """
    busy = first_busy_block(node)
    backwards = logs(node, fromBlock=hex(busy + 3), toBlock=hex(busy))
    assert backwards == logs(node, fromBlock=hex(busy), toBlock=hex(busy))
    assert logs(node, fromBlock="latest", toBlock="0x0") == logs(node, fromBlock="latest")
    assert logs(node, fromBlock="pending") == []


@pytest.mark.parametrize(
    "bad",
    [
        {"fromBlock": "0xzz"},
        {"address": "0x1234"},
        {"topics": ["0x12"]},
        {"topics": [None] * 5},
        {"unknown": 1},
        "not an object",
    ],
)
def test_bad_filters_are_invalid_params(node: DevnetNode, bad: Any) -> None:
    assert failure(node, "eth_getLogs", bad).code == INVALID_PARAMS


def test_chainid_opcode_answers_the_network(node: DevnetNode) -> None:
    returns_chain_id = "0x4660005260206000f3"  # CHAINID, MSTORE at 0, RETURN 32 bytes
    output = node.handle("eth_call", [{"data": returns_chain_id}, "latest"])
    assert int(output, 16) == 31
