"""The devnet read by web3.py 8 as an independent client: blocks, receipts, calls, logs."""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from web3 import Web3
from web3.exceptions import ContractLogicError, Web3RPCError
from web3.types import TxParams, Wei

from explorer.devnet.contracts import load_artifact
from tests.helpers.devnet import Devnet


@pytest.fixture(scope="module")
def w3(devnet: Devnet) -> Web3:
    """web3.py over HTTP on the test network, with no RSK-specific middleware."""
    return Web3(Web3.HTTPProvider(devnet.url("testnet"), request_kwargs={"timeout": 60}))


@pytest.fixture(scope="module")
def seed(devnet: Devnet) -> dict[str, Any]:
    """Return the test network's seed manifest."""
    return devnet.manifest("testnet")


def contract(w3: Web3, name: str, address: str) -> Any:
    """Return a web3 contract object for a seeded contract."""
    abi = list(load_artifact(name).abi)
    return w3.eth.contract(address=Web3.to_checksum_address(address), abi=abi)


def test_chain_basics(w3: Web3, seed: dict[str, Any]) -> None:
    """Chain id, head, gas price and client version parse."""
    assert w3.is_connected()
    assert w3.eth.chain_id == 31
    assert w3.eth.block_number >= seed["head_at_build"]
    latest: dict[str, Any] = dict(w3.eth.get_block("latest"))  # RSK fields: not in BlockData
    assert w3.eth.gas_price == int(latest["minimumGasPrice"], 16) * 11 // 10
    assert "RskJ" in w3.client_version


def test_blocks_parse_with_rsk_fields(w3: Web3, seed: dict[str, Any]) -> None:
    """The big block with full transactions, a hash-only block and the pending block."""
    big: dict[str, Any] = dict(w3.eth.get_block(seed["big_block"], full_transactions=True))
    assert big["number"] == seed["big_block"]
    assert len(big["transactions"]) == seed["big_block_tx_count"]
    remasc = big["transactions"][-1]
    assert remasc["to"] == "0x0000000000000000000000000000000001000008"
    assert len(big["bitcoinMergedMiningHeader"]) == 2 + 160  # RSK extras stay hex strings
    assert w3.eth.get_block(big["hash"])["transactions"][0] == big["transactions"][0]["hash"]
    pending = w3.eth.get_block("pending")
    assert pending["number"] is None
    assert pending["hash"] is None


def test_transactions_and_receipts(w3: Web3, seed: dict[str, Any]) -> None:
    """A transfer, a failed transaction and a contract creation."""
    tx = w3.eth.get_transaction(seed["plain_transfer"])
    assert tx["hash"].to_0x_hex() == seed["plain_transfer"]
    assert tx["value"] > 0
    failed = w3.eth.get_transaction_receipt(seed["failed_tx"])
    assert failed["status"] == 0
    created = w3.eth.get_transaction_receipt(seed["contract_creation"])
    assert created["contractAddress"] is not None
    assert created["to"] is None
    indexed = w3.eth.get_transaction_by_block(tx["blockNumber"], tx["transactionIndex"])
    assert indexed["hash"] == tx["hash"]


def test_contract_call_and_revert(w3: Web3, seed: dict[str, Any]) -> None:
    """A token's view functions answer; a reverting call raises with its reason."""
    token = contract(w3, "DevToken", seed["token"])
    holder = Web3.to_checksum_address(seed["accounts"][1])
    assert isinstance(token.functions.symbol().call(), str)
    assert token.functions.balanceOf(holder).call() >= 0
    assert token.functions.totalSupply().call() > 0
    reverter = contract(w3, "Reverter", seed["reverter"])
    assert reverter.functions.double(4).call() == 8
    # rskj answers reverts with -32015, which web3 surfaces as an RPC error with the reason
    with pytest.raises((ContractLogicError, Web3RPCError), match="Reverter: value too large"):
        reverter.functions.double(11).call()


def test_logs_decode_as_events(w3: Web3, seed: dict[str, Any]) -> None:
    """Transfer logs fetched and decoded through the token's ABI."""
    token = contract(w3, "DevToken", seed["token"])
    receipt = w3.eth.get_transaction_receipt(seed["token_transfer"])
    (event,) = token.events.Transfer().process_receipt(receipt)
    assert event["args"]["value"] > 0
    window = {"from_block": receipt["blockNumber"], "to_block": receipt["blockNumber"]}
    events = token.events.Transfer().get_logs(**window)
    assert receipt["transactionHash"] in {e["transactionHash"] for e in events}


def test_send_and_wait_for_receipt(w3: Web3, seed: dict[str, Any]) -> None:
    """A transaction signed locally, sent and awaited through web3."""
    sender = Account.from_key(seed["private_keys"][-4])
    fields: TxParams = {
        "nonce": w3.eth.get_transaction_count(sender.address, "pending"),
        "gasPrice": w3.eth.gas_price,
        "gas": 21000,
        "to": Web3.to_checksum_address("0x" + "55" * 20),
        "value": Wei(7),
        "chainId": 31,
    }
    assert (
        w3.eth.estimate_gas({"to": fields["to"], "value": fields["value"], "from": sender.address})
        == 21000
    )
    tx_hash = w3.eth.send_raw_transaction(sender.sign_transaction(fields).raw_transaction)
    receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
    assert receipt["status"] == 1
    assert receipt["effectiveGasPrice"] == fields["gasPrice"]
