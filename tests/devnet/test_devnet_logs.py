"""eth_getLogs over HTTP: blockHash XOR range, latest when neither, filters, §8's limits."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from eth_abi.abi import encode
from eth_account import Account
from eth_utils.abi import function_signature_to_4byte_selector
from eth_utils.address import to_checksum_address
from eth_utils.crypto import keccak

from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc, RpcError
from tests.helpers.devnet_shapes import assert_log

TRANSFER_TOPIC = "0x" + keccak(text="Transfer(address,address,uint256)").hex()


@pytest.fixture(scope="module")
def seed(devnet: Devnet) -> dict[str, Any]:
    """Return the test network's seed manifest."""
    return devnet.manifest("testnet")


@pytest.fixture(scope="module")
def busy_block(rpc: RawRpc, seed: dict[str, Any]) -> int:
    """Return a seeded block with at least six Transfer logs."""
    logs = rpc(
        "eth_getLogs", {"fromBlock": "0x0", "toBlock": hex(1999), "topics": [TRANSFER_TOPIC]}
    )
    per_block = Counter(int(log["blockNumber"], 16) for log in logs)
    return next(number for number, count in sorted(per_block.items()) if count >= 6)


def test_block_hash_form_matches_the_receipts(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Logs by blockHash are the block's receipts' logs, in order."""
    receipt = rpc("eth_getTransactionReceipt", seed["token_transfer"])
    logs = rpc("eth_getLogs", {"blockHash": receipt["blockHash"]})
    assert [log for log in logs if log["transactionHash"] == receipt["transactionHash"]] == receipt[
        "logs"
    ]
    for log in logs:
        assert_log(log)
    assert [int(log["logIndex"], 16) for log in logs] == list(range(len(logs)))


def test_block_hash_and_range_together_are_invalid(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """A `blockHash` excludes fromBlock/toBlock: -32602, HTTP 400."""
    receipt = rpc("eth_getTransactionReceipt", seed["token_transfer"])
    status, envelope = rpc.answer(
        "eth_getLogs", {"blockHash": receipt["blockHash"], "fromBlock": "0x1"}
    )
    assert (status, envelope["error"]["code"]) == (400, -32602)


def test_range_with_address_and_topics(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """A range narrowed by address and topics (with null and alternatives)."""
    receipt = rpc("eth_getTransactionReceipt", seed["token_transfer"])
    number = receipt["blockNumber"]
    found = rpc(
        "eth_getLogs",
        {
            "fromBlock": number,
            "toBlock": number,
            "address": seed["token"],
            "topics": [TRANSFER_TOPIC],
        },
    )
    assert receipt["logs"][0] in found
    assert all(log["address"] == seed["token"] for log in found)
    sender_topic = receipt["logs"][0]["topics"][1]
    by_sender = rpc(
        "eth_getLogs",
        {
            "fromBlock": number,
            "toBlock": number,
            "topics": [None, [sender_topic, "0x" + "00" * 32]],
        },
    )
    assert receipt["logs"][0] in by_sender
    assert all(log["topics"][1] in (sender_topic, "0x" + "00" * 32) for log in by_sender)
    nobody = rpc(
        "eth_getLogs", {"fromBlock": number, "toBlock": number, "address": "0x" + "99" * 20}
    )
    assert nobody == []


def test_neither_means_the_latest_block(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """Without blockHash, fromBlock and toBlock: the logs of the latest block."""
    sender = Account.from_key(seed["private_keys"][-3])
    call = function_signature_to_4byte_selector("transfer(address,uint256)") + encode(
        ["address", "uint256"], ["0x" + "66" * 20, 0]
    )
    fields = {
        "nonce": int(rpc("eth_getTransactionCount", sender.address.lower(), "pending"), 16),
        "gasPrice": int(rpc("eth_gasPrice"), 16),
        "gas": 100_000,
        "to": to_checksum_address(seed["token"]),
        "value": 0,
        "data": call,
        "chainId": 31,
    }
    raw = "0x" + sender.sign_transaction(fields).raw_transaction.hex()
    receipt = rpc("eth_getTransactionReceipt", rpc("eth_sendRawTransaction", raw))
    assert receipt["status"] == "0x1"
    assert len(receipt["logs"]) == 1
    assert rpc("eth_blockNumber") == receipt["blockNumber"]
    assert rpc("eth_getLogs", {}) == receipt["logs"]
    assert rpc("eth_getLogs", {"fromBlock": "latest"}) == receipt["logs"]


def test_long_range_with_few_logs_is_allowed(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """More than 2,000 blocks is fine while at most 10,000 logs match."""
    head = rpc("eth_blockNumber")
    logs = rpc("eth_getLogs", {"fromBlock": "0x0", "toBlock": head, "address": seed["collectible"]})
    assert 0 < len(logs) <= 10_000


def test_long_range_with_too_many_logs_is_32012(rpc: RawRpc, seed: dict[str, Any]) -> None:
    """The whole seeded history of Transfer logs is over both limits: -32012, HTTP 200."""
    assert seed["transfer_log_count"] > 10_000
    status, envelope = rpc.answer("eth_getLogs", {"fromBlock": "earliest", "toBlock": "latest"})
    error = envelope["error"]
    assert (status, error["code"]) == (200, -32012)
    assert "2000 blocks" in error["message"]
    assert "10000 logs" in error["message"]


def test_small_limits_short_range_is_uncapped(rpc_limited: RawRpc, busy_block: int) -> None:
    """With max 10 blocks / 5 logs: 10 blocks with more than 5 logs are still returned."""
    window = {"fromBlock": hex(busy_block), "toBlock": hex(busy_block + 9)}
    assert len(rpc_limited("eth_getLogs", window)) > 5


def test_small_limits_long_range_with_few_logs(rpc_limited: RawRpc, seed: dict[str, Any]) -> None:
    """More than 10 blocks holding at most 5 logs are returned (an empty run: no transfer).

    Its blocks hold only their REMASC transaction, which may log payments: the filter asks
    for transfers.
    """
    first, last = seed["empty_runs"][0]
    assert last - first >= 10
    window = {"fromBlock": hex(first), "toBlock": hex(last), "topics": [TRANSFER_TOPIC]}
    assert rpc_limited("eth_getLogs", window) == []


def test_small_limits_long_range_with_many_logs(rpc_limited: RawRpc, busy_block: int) -> None:
    """11 blocks with more than 5 logs: -32012 naming both limits."""
    with pytest.raises(RpcError) as caught:
        rpc_limited("eth_getLogs", {"fromBlock": hex(busy_block), "toBlock": hex(busy_block + 10)})
    assert caught.value.code == -32012
    assert "10 blocks" in caught.value.message
    assert "5 logs" in caught.value.message
