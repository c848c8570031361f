"""eth_sendRawTransaction: rskj's admission checks and instant and manual mining.

Follows TxPendingValidator.java and EthModuleTransactionBase.java.
"""

from __future__ import annotations

from typing import Any

import pytest
import rlp
from eth_account import Account
from eth_keys.constants import SECPK1_N
from eth_utils.address import to_checksum_address

from explorer.devnet import errors
from explorer.devnet.contracts import load_artifact
from explorer.devnet.history import HistoryBuilder
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.seed import SMALL
from tests.helpers.node import GAS_PRICE, STRANGER, failure, send, sign


def test_instant_mining_mines_each_transaction(fresh_node: DevnetNode) -> None:
    node = fresh_node
    head = int(node.handle("eth_blockNumber", []), 16)
    tx_hash = send(node, sign(node, 1, value=12345))
    assert int(node.handle("eth_blockNumber", []), 16) == head + 1
    receipt = node.handle("eth_getTransactionReceipt", [tx_hash])
    assert receipt["status"] == "0x1"
    assert receipt["blockNumber"] == hex(head + 1)
    assert node.handle("eth_getBalance", [STRANGER]) == hex(12345)
    block = node.handle("eth_getBlockByNumber", ["latest", True])
    assert block["transactions"][0]["hash"] == tx_hash
    assert block["transactions"][-1]["to"] == "0x0000000000000000000000000000000001000008"
    assert block["transactions"][0]["v"] in ("0x61", "0x62")


def test_contract_creation_receipt_has_the_address(fresh_node: DevnetNode) -> None:
    node = fresh_node
    code = load_artifact("Reverter").bytecode
    tx_hash = send(node, sign(node, 2, to=None, value=0, data=code, gas=500_000))
    receipt = node.handle("eth_getTransactionReceipt", [tx_hash])
    assert receipt["to"] is None
    assert receipt["contractAddress"]
    deployed = node.handle("eth_getCode", [receipt["contractAddress"], "latest"])
    assert deployed == "0x" + load_artifact("Reverter").deployed_bytecode.hex()


def test_failing_transaction_is_mined_with_status_0(fresh_node: DevnetNode) -> None:
    node = fresh_node
    data = bytes.fromhex("a9cc4718")  # fail()
    tx_hash = send(node, sign(node, 3, to=node.manifest.reverter, value=0, data=data, gas=60_000))
    assert node.handle("eth_getTransactionReceipt", [tx_hash])["status"] == "0x0"


def test_pre_eip155_signature_is_accepted(fresh_node: DevnetNode) -> None:
    node = fresh_node
    tx_hash = send(node, sign(node, 1, chainId=None))
    tx = node.handle("eth_getTransactionByHash", [tx_hash])
    assert tx["v"] in ("0x1b", "0x1c")
    assert tx["blockNumber"] is not None


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"nonce": 0}, errors.NONCE_TOO_LOW),
        ({"gasPrice": 59_999_999}, errors.GAS_PRICE_TOO_LOW),
        ({"gasPrice": 10**26}, errors.INSUFFICIENT_FUNDS),
        ({"value": 10**30}, errors.PENDING_FUNDS),
        ({"gas": 20_000}, errors.BASIC_COST_TOO_HIGH),
        ({"gas": 50_000_000}, errors.gas_limit_too_high(50_000_000, 40_000_000)),
        ({"nonce": 10**6}, errors.NONCE_TOO_HIGH),
    ],
)
def test_pool_rejections(fresh_node: DevnetNode, fields: dict[str, Any], message: str) -> None:
    """The validator's steps answer -32010 with rskj's words.

    Gas times price is weighed against the balance first; the value counts with the pending ones.
    """
    error = failure(fresh_node, "eth_sendRawTransaction", sign(fresh_node, 1, **fields))
    assert (error.code, error.message) == (errors.TRANSACTION_REJECTED, message)


def test_nonces_are_accepted_up_to_the_account_slots(fresh_node: DevnetNode) -> None:
    """TxValidatorNonceRangeValidator: up to 15 nonces ahead of the account's (16 slots)."""
    node = fresh_node
    node.instant_mining = False
    nonce = int(node.handle("eth_getTransactionCount", [node.manifest.accounts[1], "latest"]), 16)
    send(node, sign(node, 1, nonce=nonce + 15))
    error = failure(node, "eth_sendRawTransaction", sign(node, 1, nonce=nonce + 16))
    assert error.message == errors.NONCE_TOO_HIGH


def test_oversized_transaction_names_both_sizes(fresh_node: DevnetNode) -> None:
    raw = sign(fresh_node, 1, gas=3_000_000, data=bytes(128 * 1024))
    error = failure(fresh_node, "eth_sendRawTransaction", raw)
    size = (len(raw) - 2) // 2
    assert (error.code, error.message) == (
        errors.TRANSACTION_REJECTED,
        f"{errors.TOO_LARGE}: {size} > {128 * 1024}",
    )


def test_another_chain_id_is_invalid_params(fresh_node: DevnetNode) -> None:
    """EthModuleTransactionBase: -32602 "Invalid chainId: <the transaction's>"."""
    error = failure(fresh_node, "eth_sendRawTransaction", sign(fresh_node, 1, chainId=33))
    assert (error.code, error.message) == (errors.INVALID_PARAMS, "Invalid chainId: 33")


def test_unknown_sender_account(fresh_node: DevnetNode) -> None:
    raw = Account.sign_transaction(
        {
            "nonce": 0,
            "gas": 21_000,
            "gasPrice": GAS_PRICE,
            "to": to_checksum_address(STRANGER),
            "value": 0,
            "chainId": 31,
        },
        "0x" + "77" * 32,
    ).raw_transaction
    error = failure(fresh_node, "eth_sendRawTransaction", "0x" + raw.hex())
    assert error.message == errors.NO_SENDER_ACCOUNT


def test_waiting_transactions_count_against_the_balance(fresh_node: DevnetNode) -> None:
    node = fresh_node
    node.instant_mining = False
    balance = int(node.handle("eth_getBalance", [node.manifest.accounts[1]]), 16)
    half = balance // 2
    send(node, sign(node, 1, value=half))
    error = failure(node, "eth_sendRawTransaction", sign(node, 1, value=half))
    assert error.message == errors.PENDING_FUNDS


def test_garbage_is_invalid_params(fresh_node: DevnetNode) -> None:
    for raw in ("0x", "0x1234", "0xc0", "0x02f86b", "nonsense", 12):
        assert failure(fresh_node, "eth_sendRawTransaction", raw).code == errors.INVALID_PARAMS


def test_manual_mining(fresh_node: DevnetNode) -> None:
    node = fresh_node
    node.instant_mining = False
    head = int(node.handle("eth_blockNumber", []), 16)
    tx_hash = send(node, sign(node, 1))
    assert int(node.handle("eth_blockNumber", []), 16) == head
    pending = node.handle("eth_getBlockByNumber", ["pending", False])
    assert pending["transactions"][0] == tx_hash
    assert pending["gasUsed"] == hex(21_000)
    assert int(pending["paidFees"], 16) == 21_000 * GAS_PRICE
    assert node.handle("eth_getBalance", [STRANGER, "pending"]) == "0x1"
    assert node.handle("eth_getBalance", [STRANGER, "latest"]) == "0x0"
    sender = node.manifest.accounts[1]
    latest_nonce = int(node.handle("eth_getTransactionCount", [sender]), 16)
    assert node.handle("eth_getTransactionCount", [sender, "pending"]) == hex(latest_nonce + 1)
    assert node.mine_block() == head + 1
    assert node.handle("eth_getTransactionReceipt", [tx_hash])["blockNumber"] == hex(head + 1)
    assert node.mine_block() == head + 2
    empty = node.handle("eth_getBlockByNumber", ["latest", False])
    assert len(empty["transactions"]) == 1  # only REMASC


def test_main_network_signatures(small_cache: Any) -> None:
    node = open_node(30, cache_dir=small_cache, seed=SMALL)
    tx_hash = send(node, sign(node, 1))
    assert node.handle("eth_getTransactionByHash", [tx_hash])["v"] in ("0x5f", "0x60")
    assert failure(node, "eth_sendRawTransaction", sign(node, 1, chainId=31)).message == (
        "Invalid chainId: 31"
    )


def test_only_applicable_transactions_are_kept() -> None:
    builder = HistoryBuilder(31, SMALL)
    user = builder.users[0]
    good = builder.send(user, builder.users[1].address, value=1)
    wrong_nonce = builder.engine.sign(
        user.private_key, nonce=99, gas_price=GAS_PRICE, gas=21_000, to=bytes(20)
    )
    assert builder.engine.applicable([wrong_nonce, good], 1_800_000_000) == [good]


def test_high_s_signature_is_rejected(fresh_node: DevnetNode) -> None:
    fields = rlp.decode(bytes.fromhex(sign(fresh_node, 1)[2:]))
    high_s = SECPK1_N - int.from_bytes(fields[8], "big")
    fields[8] = high_s.to_bytes(32, "big")
    error = failure(fresh_node, "eth_sendRawTransaction", "0x" + rlp.encode(fields).hex())
    assert (error.code, error.message) == (errors.INVALID_PARAMS, "Invalid chainId: 31")
