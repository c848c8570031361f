"""web3.py 8 against the devnet, both profiles and both networks, with no RSK middleware.

Connect, chain id, blocks by number and hash (full and not), transactions, receipts, balances,
code, storage, logs with filters, call, estimate, a signed legacy transaction and its receipt,
a deployment and its address, a revert with its reason, and on the rskj profile the filters.
"""

from __future__ import annotations

from typing import Any

import pytest
from eth_account import Account
from hexbytes import HexBytes
from web3 import Web3
from web3.exceptions import ContractLogicError, Web3RPCError
from web3.types import TxParams, Wei

from explorer.devnet.contracts import load_artifact
from tests.clients.conftest import Target, funded_key

REVERT_REASON = "Reverter: value too large"


@pytest.fixture
def w3(target: Target) -> Web3:
    """web3.py over HTTP on one target."""
    return Web3(Web3.HTTPProvider(target.url, request_kwargs={"timeout": 60}))


def contract(w3: Web3, name: str, address: str) -> Any:
    """Return a web3 contract object for a seeded contract."""
    checksummed = Web3.to_checksum_address(address)
    return w3.eth.contract(address=checksummed, abi=list(load_artifact(name).abi))


def send(w3: Web3, key: str, target: Target, **fields: Any) -> dict[str, Any]:
    """Sign a legacy transaction locally, send it raw, and wait for its receipt."""
    account = Account.from_key(key)
    params: TxParams = {
        "nonce": w3.eth.get_transaction_count(account.address, "pending"),
        "gasPrice": w3.eth.gas_price,
        "chainId": target.chain_id,
        **fields,  # type: ignore[typeddict-item]
    }
    if "gas" not in params:
        params["gas"] = w3.eth.estimate_gas({**params, "from": account.address})
    tx_hash = w3.eth.send_raw_transaction(account.sign_transaction(params).raw_transaction)
    return dict(w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30))


def test_connect_chain_and_blocks(w3: Web3, target: Target) -> None:
    seed, rpc = target.seed, target.rpc
    assert w3.is_connected()
    assert w3.eth.chain_id == target.chain_id
    assert w3.net.version == str(target.chain_id)
    assert w3.eth.block_number >= seed["head_at_build"]
    raw = rpc("eth_getBlockByNumber", hex(seed["big_block"]), False)
    by_number = w3.eth.get_block(seed["big_block"])
    full = w3.eth.get_block(seed["big_block"], full_transactions=True)
    by_hash = w3.eth.get_block(HexBytes(raw["hash"]), full_transactions=True)
    assert by_number["hash"].to_0x_hex() == raw["hash"]
    hashes: list[Any] = list(by_number["transactions"])
    objects: list[Any] = list(full["transactions"])
    assert [h.to_0x_hex() for h in hashes] == raw["transactions"]
    assert [tx["hash"].to_0x_hex() for tx in objects] == raw["transactions"]
    assert by_hash["number"] == seed["big_block"]
    assert by_hash["transactions"] == full["transactions"]
    assert by_number["miner"].lower() == raw["miner"]


def test_transactions_receipts_and_state(w3: Web3, target: Target) -> None:
    seed, rpc = target.seed, target.rpc
    tx = w3.eth.get_transaction(seed["token_transfer"])
    assert tx["to"] is not None
    assert tx["to"].lower() == seed["token"]
    receipt = w3.eth.get_transaction_receipt(seed["token_transfer"])
    assert receipt["status"] == 1
    assert receipt["blockNumber"] == tx["blockNumber"]
    same = w3.eth.get_transaction_by_block(tx["blockNumber"], tx["transactionIndex"])
    assert same["hash"] == tx["hash"]
    account = Web3.to_checksum_address(seed["accounts"][3])
    assert w3.eth.get_balance(account) == int(rpc("eth_getBalance", seed["accounts"][3]), 16)
    token = Web3.to_checksum_address(seed["token"])
    assert w3.eth.get_code(token).to_0x_hex() == rpc("eth_getCode", seed["token"], "latest")
    slot = w3.eth.get_storage_at(token, 2)
    assert slot.to_0x_hex() == rpc("eth_getStorageAt", seed["token"], "0x2", "latest")


def test_logs_with_filters_call_and_estimate(w3: Web3, target: Target) -> None:
    seed = target.seed
    token = contract(w3, "DevToken", seed["token"])
    receipt = w3.eth.get_transaction_receipt(seed["token_transfer"])
    block = receipt["blockNumber"]
    events = token.events.Transfer().get_logs(from_block=block, to_block=block)
    assert receipt["transactionHash"] in {event["transactionHash"] for event in events}
    topic = "0x" + Web3.keccak(text="Transfer(address,address,uint256)").hex()
    logs = w3.eth.get_logs(
        {"address": token.address, "topics": [topic], "blockHash": receipt["blockHash"]}
    )
    assert len(logs) == len(events)
    assert token.functions.symbol().call() == "DVT"
    holder = Web3.to_checksum_address(seed["accounts"][1])
    assert token.functions.balanceOf(holder).call(block_identifier=block) >= 0
    gas = w3.eth.estimate_gas({"to": holder, "value": Wei(1), "from": holder})
    assert gas == 21_000


def test_send_deploy_and_read_the_address(w3: Web3, target: Target) -> None:
    key = funded_key(target)
    receipt = send(w3, key, target, to=Web3.to_checksum_address("0x" + "77" * 20), value=5)
    assert receipt["status"] == 1
    assert (
        receipt["effectiveGasPrice"]
        == w3.eth.get_transaction(receipt["transactionHash"])["gasPrice"]
    )
    artifact = load_artifact("DevToken")
    factory = w3.eth.contract(abi=list(artifact.abi), bytecode=artifact.bytecode)
    data = factory.constructor("Web3 Token", "W3T", 10**20).data_in_transaction
    created = send(w3, key, target, data=data, gas=2_000_000)
    assert created["status"] == 1
    address = created["contractAddress"]
    assert address is not None
    deployed = w3.eth.contract(address=address, abi=list(artifact.abi))
    assert deployed.functions.symbol().call() == "W3T"
    assert deployed.functions.totalSupply().call() == 10**20


def test_a_revert_and_its_reason(w3: Web3, target: Target) -> None:
    reverter = contract(w3, "Reverter", target.seed["reverter"])
    assert reverter.functions.double(4).call() == 8
    with pytest.raises((ContractLogicError, Web3RPCError), match=REVERT_REASON):
        reverter.functions.double(11).call()
    estimate = reverter.functions.poke(50).estimate_gas
    if target.profile == "rskj":
        with pytest.raises((ContractLogicError, Web3RPCError), match=REVERT_REASON):
            estimate()
    else:
        assert estimate() > 21_000  # the service estimates a failing call (§4.3.1)


def test_filters(w3: Web3, target: Target) -> None:
    if target.profile != "rskj":
        with pytest.raises(Web3RPCError, match="method not found"):
            w3.eth.filter("latest")
        return
    key = funded_key(target)
    blocks = w3.eth.filter("latest")
    pending = w3.eth.filter("pending")
    token = contract(w3, "DevToken", target.seed["token"])
    events = token.events.Transfer.create_filter(from_block="latest")
    receipt = send(w3, key, target, to=Web3.to_checksum_address("0x" + "66" * 20), value=9)
    assert receipt["blockHash"] in blocks.get_new_entries()
    assert receipt["transactionHash"] in pending.get_new_entries()
    assert events.get_new_entries() == []  # a plain transfer logs nothing
    assert blocks.filter_id is not None
    assert w3.eth.uninstall_filter(blocks.filter_id)
