"""eth_sendRawTransaction over HTTP: acceptance, rskj's rejections, instant and interval mining."""

from __future__ import annotations

import time
from typing import Any

import pytest
from eth_account import Account
from eth_utils.crypto import keccak

from explorer.devnet.contracts import load_artifact
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc, RpcError

SENDER_INDEX = -1  # the last seeded account is left to these tests


class Wallet:
    """A seeded account that signs legacy transactions for one network."""

    def __init__(self, rpc: RawRpc, private_key: str, chain_id: int) -> None:
        self.rpc = rpc
        self.account = Account.from_key(private_key)
        self.address = self.account.address.lower()
        self.chain_id = chain_id

    def sign(self, **overrides: Any) -> str:
        """Return a signed raw transaction: a 1-wei transfer unless overridden."""
        fields = {
            "nonce": int(self.rpc("eth_getTransactionCount", self.address, "pending"), 16),
            "gasPrice": int(self.rpc("eth_gasPrice"), 16),
            "gas": 21000,
            "to": "0x" + "77" * 20,
            "value": 1,
            "data": b"",
            "chainId": self.chain_id,
        } | overrides
        signed: bytes = self.account.sign_transaction(fields).raw_transaction
        return "0x" + signed.hex()


@pytest.fixture(scope="module")
def wallet(rpc: RawRpc, devnet: Devnet) -> Wallet:
    """Return the test network wallet."""
    seed = devnet.manifest("testnet")
    return Wallet(rpc, seed["private_keys"][SENDER_INDEX], 31)


def rejection(rpc: RawRpc, raw: str, status: int = 200) -> RpcError:
    """Send a raw transaction that must be refused; return the error.

    HTTP 200 for the pool's -32010, 400 for -32602.
    """
    with pytest.raises(RpcError) as caught:
        rpc("eth_sendRawTransaction", raw)
    assert caught.value.status == status
    return caught.value


def test_valid_transfer_is_mined_at_once(rpc: RawRpc, wallet: Wallet) -> None:
    """Instant mining: the hash comes back and the receipt exists in a new block."""
    head = int(rpc("eth_blockNumber"), 16)
    before = int(rpc("eth_getBalance", "0x" + "77" * 20), 16)
    raw = wallet.sign(value=12345)
    tx_hash = rpc("eth_sendRawTransaction", raw)
    assert tx_hash == "0x" + keccak(bytes.fromhex(raw[2:])).hex()
    receipt = rpc("eth_getTransactionReceipt", tx_hash)
    assert receipt["status"] == "0x1"
    assert int(receipt["blockNumber"], 16) > head
    assert int(rpc("eth_getBalance", "0x" + "77" * 20), 16) == before + 12345
    tx = rpc("eth_getTransactionByHash", tx_hash)
    assert tx["from"] == wallet.address
    assert tx["v"] in ("0x61", "0x62")
    block = rpc("eth_getBlockByHash", receipt["blockHash"], False)
    assert block["transactions"][int(receipt["transactionIndex"], 16)] == tx_hash


def test_contract_creation_address_from_receipt(rpc: RawRpc, wallet: Wallet) -> None:
    """§4.3 rule 2: a created contract's address is read from the receipt."""
    bytecode = load_artifact("Reverter").bytecode
    raw = wallet.sign(to=b"", value=0, data=bytecode, gas=1_000_000)
    receipt = rpc("eth_getTransactionReceipt", rpc("eth_sendRawTransaction", raw))
    assert receipt["status"] == "0x1"
    assert receipt["to"] is None
    created = receipt["contractAddress"]
    assert (
        rpc("eth_getCode", created, "latest")
        == "0x" + load_artifact("Reverter").deployed_bytecode.hex()
    )


def test_wrong_chain_id_is_rejected(rpc: RawRpc, wallet: Wallet) -> None:
    """A transaction signed for chain 30 is refused on the test network.

    rskj's -32602 "Invalid chainId: 30" with HTTP 400 (EthModuleTransactionBase.java).
    """
    error = rejection(rpc, wallet.sign(chainId=30), status=400)
    assert (error.code, error.message) == (-32602, "Invalid chainId: 30")


def test_nonce_too_low(rpc: RawRpc, wallet: Wallet) -> None:
    """Reusing a mined nonce: -32010 transaction nonce too low."""
    rpc("eth_sendRawTransaction", wallet.sign())
    error = rejection(rpc, wallet.sign(nonce=0))
    assert (error.code, error.message) == (-32010, "transaction nonce too low")


def test_insufficient_funds(rpc: RawRpc, wallet: Wallet) -> None:
    """Gas times price over the balance: "insufficient funds"; the value on top: more words.

    As TxValidatorAccountBalanceValidator.java and TransactionPoolImpl.java say them.
    """
    balance = int(rpc("eth_getBalance", wallet.address), 16)
    error = rejection(rpc, wallet.sign(value=balance + 1))
    assert (error.code, error.message) == (
        -32010,
        "insufficient funds to pay for pending and new transactions",
    )
    error = rejection(rpc, wallet.sign(gasPrice=balance // 21000 + 1))
    assert (error.code, error.message) == (-32010, "insufficient funds")


def test_gas_price_below_block_minimum(rpc: RawRpc, wallet: Wallet) -> None:
    """A gas price under the minimum: rskj's -32010 message."""
    minimum = int(rpc("eth_getBlockByNumber", "latest", False)["minimumGasPrice"], 16)
    error = rejection(rpc, wallet.sign(gasPrice=minimum - 1))
    assert error.code == -32010
    assert error.message == "transaction's gas price lower than block's minimum"


@pytest.mark.parametrize("raw", ["0x", "0x1234", "0xf86c" + "00" * 100])
def test_garbage_raw_transaction_is_an_error(rpc: RawRpc, raw: str) -> None:
    """Bytes that are not a signed transaction get an error, and the node lives on."""
    with pytest.raises(RpcError) as caught:
        rpc("eth_sendRawTransaction", raw)
    assert caught.value.code in (-32602, -32010)
    assert rpc("eth_chainId") == "0x1f"


def test_main_network_takes_its_own_chain_id(rpc_main: RawRpc, devnet: Devnet) -> None:
    """On chain 30 a chain-30 transaction is mined and a chain-31 one refused."""
    main = Wallet(rpc_main, devnet.manifest("mainnet")["private_keys"][SENDER_INDEX], 30)
    tx_hash = rpc_main("eth_sendRawTransaction", main.sign())
    assert rpc_main("eth_getTransactionByHash", tx_hash)["v"] in ("0x5f", "0x60")
    assert rpc_main("eth_getTransactionReceipt", tx_hash)["status"] == "0x1"
    assert rejection(rpc_main, main.sign(chainId=31), status=400).code == -32602


def test_interval_mining_shows_the_transaction_pending_first(
    rpc_limited: RawRpc, devnet_limited: Devnet
) -> None:
    """With a block every 2 s the transaction is pending (no block, no receipt), then mined."""
    seed = devnet_limited.manifest("testnet")
    slow = Wallet(rpc_limited, seed["private_keys"][SENDER_INDEX - 1], 31)
    tx_hash = rpc_limited("eth_sendRawTransaction", slow.sign())
    waiting = rpc_limited("eth_getTransactionByHash", tx_hash)
    assert waiting["blockNumber"] is None
    assert waiting["transactionIndex"] is None
    assert rpc_limited("eth_getTransactionReceipt", tx_hash) is None
    pending = rpc_limited("eth_getBlockByNumber", "pending", False)
    assert tx_hash in pending["transactions"]
    deadline = time.monotonic() + 15
    receipt = None
    while receipt is None and time.monotonic() < deadline:
        time.sleep(0.5)
        receipt = rpc_limited("eth_getTransactionReceipt", tx_hash)
    assert receipt is not None
    assert receipt["status"] == "0x1"
    assert rpc_limited("eth_getTransactionByHash", tx_hash)["blockNumber"] == receipt["blockNumber"]


def test_interval_mining_makes_blocks_without_transactions(rpc_limited: RawRpc) -> None:
    """The chain grows every block time even with an empty pool."""
    first = int(rpc_limited("eth_blockNumber"), 16)
    deadline = time.monotonic() + 15
    while int(rpc_limited("eth_blockNumber"), 16) == first and time.monotonic() < deadline:
        time.sleep(0.5)
    assert int(rpc_limited("eth_blockNumber"), 16) > first
