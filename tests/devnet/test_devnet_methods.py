"""Every method of the spec's table over raw HTTP: result shapes, null lookups, RSK fields."""

from __future__ import annotations

from typing import Any

import pytest
from eth_abi.abi import encode
from eth_utils.abi import function_signature_to_4byte_selector
from eth_utils.crypto import keccak

from explorer.chain.records import Block, Receipt, Transaction
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc, RpcError
from tests.helpers.devnet_shapes import (
    assert_block,
    assert_receipt,
    assert_remasc,
    assert_transaction,
    is_data,
    is_quantity,
)

UNKNOWN_HASH = "0x" + "ab" * 32
TRANSFER_TOPIC = "0x" + keccak(text="Transfer(address,address,uint256)").hex()


def calldata(signature: str, types: list[str], args: list[Any]) -> str:
    """ABI-encoded call data for a function."""
    return "0x" + (function_signature_to_4byte_selector(signature) + encode(types, args)).hex()


@pytest.fixture(scope="module")
def seed(devnet: Devnet) -> dict[str, Any]:
    """Return the test network's seed manifest."""
    return devnet.manifest("testnet")


def test_methods_without_chain_data(rpc: RawRpc, rpc_main: RawRpc) -> None:
    """accounts, protocol and client versions, sha3, chain ids."""
    assert rpc("eth_accounts") == []
    assert rpc("eth_protocolVersion") == "0x3e"
    version = rpc("web3_clientVersion")
    assert version.startswith("RskJ/")
    assert "devnet" in version.lower()
    assert rpc("web3_sha3", "0x68656c6c6f") == "0x" + keccak(b"hello").hex()
    assert rpc("web3_sha3", "0x") == "0x" + keccak(b"").hex()
    assert rpc_main("eth_chainId") == "0x1e"
    assert rpc_main("net_version") == "30"


def test_block_number_and_gas_price(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """The head is at least the seeded one; gas price is the latest minimumGasPrice × 1.1."""
    head = rpc("eth_blockNumber")
    assert is_quantity(head)
    assert int(head, 16) >= seed["head_at_build"] >= 2500
    latest = rpc("eth_getBlockByNumber", "latest", False)
    assert int(rpc("eth_gasPrice"), 16) == int(latest["minimumGasPrice"], 16) * 11 // 10
    assert int(latest["minimumGasPrice"], 16) > 0


def test_big_block_with_hashes_and_with_objects(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """The 1,000-transaction block, both forms, parsed by chain.records too."""
    number = hex(seed["big_block"])
    light = rpc("eth_getBlockByNumber", number, False)
    full = rpc("eth_getBlockByNumber", number, True)
    assert_block(light, full=False)
    assert_block(full, full=True)
    assert len(light["transactions"]) == seed["big_block_tx_count"] >= 1000
    assert [tx["hash"] for tx in full["transactions"]] == light["transactions"]
    for index, tx in enumerate(full["transactions"]):
        assert (tx["blockHash"], tx["blockNumber"]) == (full["hash"], number)
        assert tx["transactionIndex"] == hex(index)
    assert_remasc(full["transactions"][-1], seed["big_block"])
    assert Block.from_json(full).number == seed["big_block"]
    assert rpc("eth_getBlockByHash", light["hash"], False) == light
    assert rpc("eth_getBlockByHash", light["hash"]) == light
    assert rpc("eth_getBlockByNumber", number) == light


def test_every_block_ends_with_remasc(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Empty blocks hold just the REMASC transaction; others end with it."""
    first_empty = seed["empty_runs"][0][0]
    for number in (first_empty, seed["big_block"] - 1, 1):
        block = rpc("eth_getBlockByNumber", hex(number), True)
        assert_remasc(block["transactions"][-1], number)
    empty = rpc("eth_getBlockByNumber", hex(first_empty), True)
    assert len(empty["transactions"]) == 1


def test_block_tags_and_missing_blocks(rpc: RawRpc) -> None:
    """The `earliest` tag is block 0; past the head and unknown hashes are null, not errors."""
    genesis = rpc("eth_getBlockByNumber", "earliest", False)
    assert_block(genesis, full=False)
    assert genesis["number"] == "0x0"
    head = int(rpc("eth_blockNumber"), 16)
    assert rpc("eth_getBlockByNumber", hex(head + 1000), False) is None
    assert rpc("eth_getBlockByHash", UNKNOWN_HASH, False) is None
    latest = rpc("eth_getBlockByNumber", "latest", False)
    assert int(latest["number"], 16) >= head
    assert int(latest["totalDifficulty"], 16) >= int(genesis["totalDifficulty"], 16)


def test_pending_block_shape(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """The sample next block: null number/hash/bloom/miner, empty merge-mining fields."""
    pending = rpc("eth_getBlockByNumber", "pending", True)
    assert_block(pending, full=True, pending=True)
    latest = rpc("eth_getBlockByNumber", "latest", False)
    assert pending["parentHash"] == latest["hash"]
    hashes = {tx["hash"] for tx in pending["transactions"]}
    assert not set(seed["pending_txs"]) & hashes  # nonce gaps are queued, not in it
    assert Block.from_json(pending).is_pending


def test_transaction_by_hash(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """A mined transaction, an unknown one and a queued one (a nonce gap): both null."""
    tx = rpc("eth_getTransactionByHash", seed["plain_transfer"])
    assert_transaction(tx)
    assert tx["hash"] == seed["plain_transfer"]
    assert tx["v"] in ("0x61", "0x62")
    assert Transaction.from_json(tx).chain_id == 31
    assert rpc("eth_getTransactionByHash", UNKNOWN_HASH) is None
    assert rpc("eth_getTransactionByHash", seed["pending_txs"][0]) is None
    assert rpc("eth_getTransactionReceipt", seed["pending_txs"][0]) is None


def test_transaction_by_block_and_index_has_id(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Both by-index methods add `_id` and agree with the by-hash answer."""
    tx = rpc("eth_getTransactionByHash", seed["token_transfer"])
    by_number = rpc(
        "eth_getTransactionByBlockNumberAndIndex", tx["blockNumber"], tx["transactionIndex"]
    )
    by_hash = rpc("eth_getTransactionByBlockHashAndIndex", tx["blockHash"], tx["transactionIndex"])
    for indexed in (by_number, by_hash):
        assert isinstance(indexed.pop("_id"), str)
        assert indexed == tx
    count = int(rpc("eth_getBlockTransactionCountByHash", tx["blockHash"]), 16)
    assert rpc("eth_getTransactionByBlockHashAndIndex", tx["blockHash"], hex(count)) is None
    assert rpc("eth_getTransactionByBlockHashAndIndex", UNKNOWN_HASH, "0x0") is None


def test_receipts(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Success with Transfer logs, failure with status 0, creation with contractAddress."""
    transfer = rpc("eth_getTransactionReceipt", seed["token_transfer"])
    assert_receipt(transfer)
    assert transfer["status"] == "0x1"
    assert transfer["to"] == seed["token"]
    assert transfer["logs"][0]["topics"][0] == TRANSFER_TOPIC
    failed = rpc("eth_getTransactionReceipt", seed["failed_tx"])
    assert_receipt(failed)
    assert failed["status"] == "0x0"
    assert failed["logs"] == []
    creation = rpc("eth_getTransactionReceipt", seed["contract_creation"])
    assert_receipt(creation)
    assert creation["to"] is None
    assert creation["contractAddress"] is not None
    assert rpc("eth_getCode", creation["contractAddress"], "latest") != "0x"
    tx = rpc("eth_getTransactionByHash", seed["token_transfer"])
    assert transfer["effectiveGasPrice"] == tx["gasPrice"]
    assert Receipt.from_json(transfer).succeeded is True
    assert rpc("eth_getTransactionReceipt", UNKNOWN_HASH) is None


def test_counts(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Transaction and uncle counts by hash and by number; unknown blocks as rskj answers."""
    big = rpc("eth_getBlockByNumber", hex(seed["big_block"]), False)
    expected = hex(seed["big_block_tx_count"])
    assert rpc("eth_getBlockTransactionCountByNumber", big["number"]) == expected
    assert rpc("eth_getBlockTransactionCountByHash", big["hash"]) == expected
    uncle_block = rpc("eth_getBlockByNumber", hex(seed["uncle_blocks"][0]), False)
    uncles = hex(len(uncle_block["uncles"]))
    assert uncles != "0x0"
    assert rpc("eth_getUncleCountByBlockNumber", uncle_block["number"]) == uncles
    assert rpc("eth_getUncleCountByBlockHash", uncle_block["hash"]) == uncles
    assert rpc("eth_getUncleCountByBlockNumber", "earliest") == "0x0"
    assert rpc("eth_getBlockTransactionCountByHash", UNKNOWN_HASH) is None
    status, envelope = rpc.answer("eth_getUncleCountByBlockHash", UNKNOWN_HASH)
    assert (status, envelope["error"]["code"]) == (400, -32600)


def test_state_queries(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Balance, nonce, code and storage: default block latest, by number, tag and hash."""
    account = seed["accounts"][1]
    balance = rpc("eth_getBalance", account)
    assert is_quantity(balance)
    assert int(balance, 16) > 0
    assert rpc("eth_getBalance", account, "latest") == balance
    genesis = rpc("eth_getBlockByNumber", "0x0", False)
    assert rpc("eth_getBalance", account, genesis["hash"]) == rpc("eth_getBalance", account, "0x0")
    nonce = rpc("eth_getTransactionCount", account)
    assert is_quantity(nonce)
    assert rpc("eth_getTransactionCount", account, "latest") == nonce
    assert rpc("eth_getTransactionCount", account, "earliest") == "0x0"
    code = rpc("eth_getCode", seed["token"], "latest")
    assert is_data(code)
    assert len(code) > 2
    assert rpc("eth_getCode", account, "latest") == "0x"
    slot = rpc("eth_getStorageAt", seed["token"], "0x0", "latest")
    assert is_data(slot)
    assert len(slot) == 66
    unused = rpc("eth_getStorageAt", seed["token"], hex(2**200), "latest")
    assert unused == "0x" + "00" * 32


def test_eth_call_and_revert(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """A view call returns ABI data; a revert is -32015 with the reason and revert data."""
    holder = seed["accounts"][1]
    data = calldata("balanceOf(address)", ["address"], [holder])
    result = rpc("eth_call", {"to": seed["token"], "data": data}, "latest")
    assert is_data(result)
    assert len(result) == 66
    double = calldata("double(uint256)", ["uint256"], [4])
    assert int(rpc("eth_call", {"to": seed["reverter"], "data": double}, "latest"), 16) == 8
    status, envelope = rpc.answer(
        "eth_call", {"to": seed["reverter"], "data": calldata("fail()", [], [])}, "latest"
    )
    error = envelope["error"]
    assert (status, error["code"]) == (200, -32015)
    assert (
        error["message"]
        == "VM Exception while processing transaction: revert Reverter: always fails"
    )
    assert error["data"].startswith("0x08c379a0")


def test_estimate_gas(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """A plain transfer costs 21000; a transfer that cannot be paid still gets an estimate."""
    sender, receiver = seed["accounts"][1], seed["accounts"][2]
    call = {"from": sender, "to": receiver, "value": "0x1"}
    assert rpc("eth_estimateGas", call) == hex(21000)
    assert rpc("eth_estimateGas", call, "latest") == hex(21000)
    broke = "0x" + "5e" * 20
    unaffordable = {"from": broke, "to": receiver, "value": hex(10**30)}
    estimate = rpc("eth_estimateGas", unaffordable)
    assert is_quantity(estimate)
    assert int(estimate, 16) >= 21000
    failing = {"from": sender, "to": seed["reverter"], "data": calldata("fail()", [], [])}
    try:
        assert is_quantity(rpc("eth_estimateGas", failing))
    except RpcError as error:
        assert error.code == -32015
