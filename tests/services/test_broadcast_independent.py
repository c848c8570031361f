"""What eth-account and web3.py sign decodes here as web3.py reads it, and the node agrees.

The independent check of the Broadcast screen's decoding: each is sent once and the node
returns the very transaction that was decoded.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from eth_account import Account
from eth_account._utils.legacy_transactions import Transaction as Web3Legacy
from web3 import Web3
from web3._utils.transactions import fill_nonce, fill_transaction_defaults

from explorer.devnet.contracts import load_artifact
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.broadcast import Answer, send_once
from explorer.services.rawtx import SignedTx, decode_for
from explorer.services.reader import ChainReader
from tests.helpers.support import PRICE, Pool


def signed_by_eth_account(pool: Pool) -> bytes:
    """Return a plain transfer signed by eth-account's Account."""
    return bytes(
        Account.from_key(pool.account("eth-account").key)
        .sign_transaction(
            {
                "nonce": pool.next_nonce("eth-account"),
                "gasPrice": PRICE,
                "gas": 21_000,
                "to": Web3.to_checksum_address("0x" + "42" * 20),
                "value": 12_345,
                "data": b"",
                "chainId": 31,
            }
        )
        .raw_transaction
    )


def signed_by_web3(pool: Pool, w3: Web3) -> bytes:
    """Return a token transfer that web3.py builds (gas, chain id, nonce) and signs."""
    account = pool.account("web3")
    token = w3.eth.contract(
        address=Web3.to_checksum_address(pool.manifest["token"]),
        abi=list(load_artifact("DevToken").abi),
    )
    built = token.functions.transfer(
        Web3.to_checksum_address("0x" + "42" * 20), 5
    ).build_transaction({"from": account.address, "gasPrice": w3.eth.gas_price})
    built = fill_transaction_defaults(w3, fill_nonce(w3, built))
    fields = {key: value for key, value in built.items() if key != "from"}
    return bytes(w3.eth.account.sign_transaction(fields, account.key).raw_transaction)


def send(url: str, tx: SignedTx) -> Answer:
    """Send once through the explorer's client."""

    async def main() -> Answer:
        client = RpcClient(Endpoint.parse(url))
        try:
            return (await send_once(ChainReader(client), tx)).answer
        finally:
            await client.aclose()

    return asyncio.run(main())


@pytest.mark.parametrize("signer", ["eth-account", "web3.py"])
def test_signed_elsewhere_decodes_as_web3_reads_it_and_the_node_agrees(
    pool: Pool, signer: str
) -> None:
    w3 = Web3(Web3.HTTPProvider(pool.devnet.url(), request_kwargs={"timeout": 60}))
    raw = signed_by_eth_account(pool) if signer == "eth-account" else signed_by_web3(pool, w3)
    ours = decode_for("0x" + raw.hex(), 31, "Local devnet")
    assert isinstance(ours, SignedTx)
    theirs: Any = Web3Legacy.from_bytes(raw)
    assert (ours.nonce, ours.gas_price, ours.gas, ours.value) == (
        theirs.nonce,
        theirs.gasPrice,
        theirs.gas,
        theirs.value,
    )
    assert ours.to == "0x" + bytes(theirs.to).hex()
    assert ours.data == bytes(theirs.data)
    assert (ours.v, ours.r, ours.s) == (theirs.v, theirs.r, theirs.s)
    assert ours.sender == w3.eth.account.recover_transaction(raw).lower()
    assert send(pool.devnet.url(), ours) is Answer.ACCEPTED
    node = w3.eth.get_transaction(ours.hash)  # type: ignore[arg-type]
    assert node["hash"].to_0x_hex() == ours.hash
    assert node["from"].lower() == ours.sender
    assert (node["nonce"], node["gasPrice"], node["gas"], node["value"]) == (
        ours.nonce,
        ours.gas_price,
        ours.gas,
        ours.value,
    )
    assert bytes(node["input"]) == ours.data
    if signer == "web3.py":
        assert ours.method is not None
        assert ours.method.signature.startswith("transfer(")
