"""Every typed wrapper's call goes out in a form a bare rskj node accepts.

rskj matches a call to a Java overload by its exact parameter count (co/rsk/rpc/
Web3EthModule.java; jsonrpc4j's JsonRpcBasicServer): a parameter left out is -32602 "method
parameters invalid". The devnet's rskj profile answers the same way, so each wrapper, called
with its optional arguments left out and given, must come back without a node error.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from eth_account import Account

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import NodeError, RpcError
from explorer.rpc.nodefailures import NodeFailure
from explorer.rpc.wrappers import TypedCalls
from tests.helpers.devnet import Devnet

SENDER_INDEX = -6  # a seeded account no other test sends from
Use = Callable[[RpcClient], Awaitable[Any]]


def calls(manifest: dict[str, Any], facts: dict[str, Any]) -> dict[str, list[Use]]:
    """For each wrapper, calls with the optional arguments left out and given."""
    account, token = manifest["accounts"][1], manifest["token"]
    block_hash, tx_hash = facts["block_hash"], manifest["token_transfer"]
    call = {"to": token, "data": "0x18160ddd"}  # totalSupply()
    return {
        "accounts": [lambda c: c.accounts()],
        "block_number": [lambda c: c.block_number()],
        "eth_call": [lambda c: c.eth_call(call), lambda c: c.eth_call(call, "earliest")],
        "chain_id": [lambda c: c.chain_id()],
        "estimate_gas": [lambda c: c.estimate_gas(call), lambda c: c.estimate_gas(call, "latest")],
        "gas_price": [lambda c: c.gas_price()],
        "get_balance": [
            lambda c: c.get_balance(account),
            lambda c: c.get_balance(account, None),
            lambda c: c.get_balance(account, block_hash),
        ],
        "get_block_by_hash": [
            lambda c: c.get_block_by_hash(block_hash),
            lambda c: c.get_block_by_hash(block_hash, True),
        ],
        "get_block_by_number": [
            lambda c: c.get_block_by_number("latest"),
            lambda c: c.get_block_by_number("pending", True),
        ],
        "get_code": [lambda c: c.get_code(token), lambda c: c.get_code(token, block_hash)],
        "get_logs": [lambda c: c.get_logs({"blockHash": block_hash})],
        "get_storage_at": [
            lambda c: c.get_storage_at(token, 0),
            lambda c: c.get_storage_at(token, 0, block_hash),
        ],
        "get_transaction_by_hash": [lambda c: c.get_transaction_by_hash(tx_hash)],
        "get_transaction_count": [
            lambda c: c.get_transaction_count(account),
            lambda c: c.get_transaction_count(account, None),
            lambda c: c.get_transaction_count(account, "pending"),
        ],
        "get_transaction_receipt": [lambda c: c.get_transaction_receipt(tx_hash)],
        "get_block_transaction_count_by_hash": [
            lambda c: c.get_block_transaction_count_by_hash(block_hash)
        ],
        "get_block_transaction_count_by_number": [
            lambda c: c.get_block_transaction_count_by_number("latest")
        ],
        "get_transaction_by_block_hash_and_index": [
            lambda c: c.get_transaction_by_block_hash_and_index(block_hash, 0)
        ],
        "get_transaction_by_block_number_and_index": [
            lambda c: c.get_transaction_by_block_number_and_index("latest", 0)
        ],
        "get_uncle_count_by_block_hash": [lambda c: c.get_uncle_count_by_block_hash(block_hash)],
        "get_uncle_count_by_block_number": [lambda c: c.get_uncle_count_by_block_number(1)],
        # rskj's Web3RskModule: rsk_getRawBlockHeaderByHash(String blockHash), one parameter
        "get_raw_block_header_by_hash": [lambda c: c.get_raw_block_header_by_hash(block_hash)],
        "protocol_version": [lambda c: c.protocol_version()],
        "send_raw_transaction": [lambda c: c.send_raw_transaction(facts["signed"])],
        "net_version": [lambda c: c.net_version()],
        "client_version": [lambda c: c.client_version()],
        "sha3": [lambda c: c.sha3(b"rskj")],
    }


def wrapper_names() -> set[str]:
    """Return the public typed calls of the client."""
    return {
        name
        for name, member in inspect.getmembers(TypedCalls, inspect.iscoroutinefunction)
        if not name.startswith("_") and name != "request"
    }


def signed_transfer(manifest: dict[str, Any], nonce: int) -> bytes:
    """Return a 1-wei transfer from a seeded account, signed for the test network."""
    sender = Account.from_key(manifest["private_keys"][SENDER_INDEX])
    fields = {
        "nonce": nonce,
        "gasPrice": 70_000_000,
        "gas": 21_000,
        "to": "0x" + "44" * 20,
        "value": 1,
        "chainId": manifest["chain_id"],
    }
    return bytes(sender.sign_transaction(fields).raw_transaction)


@pytest.mark.parametrize("devnet", ["rskj"], indirect=True)
def test_every_wrapper_call_matches_an_rskj_overload(devnet: Devnet) -> None:
    """Each wrapper, with its optional arguments left out and given, answers on rskj."""
    manifest = devnet.manifest()

    async def main() -> dict[str, list[str]]:
        client = RpcClient(Endpoint.parse(devnet.url(), allow_insecure_http=True))
        try:
            block = await client.get_block_by_number(manifest["big_block"])
            assert block is not None
            assert block.hash is not None
            sender = Account.from_key(manifest["private_keys"][SENDER_INDEX]).address
            nonce = await client.get_transaction_count(sender, "pending")
            facts = {"block_hash": block.hash, "signed": signed_transfer(manifest, nonce)}
            table = calls(manifest, facts)
            assert set(table) == wrapper_names()
            refused: dict[str, list[str]] = {}
            for name, uses in table.items():
                for use in uses:
                    try:
                        await use(client)
                    except RpcError as error:
                        refused.setdefault(name, []).append(error.message)
            return refused
        finally:
            await client.aclose()

    assert asyncio.run(main()) == {}


@pytest.mark.parametrize("devnet", ["rskj"], indirect=True)
def test_a_left_out_block_is_refused_by_rskj(devnet: Devnet) -> None:
    """The form the client no longer sends: one parameter to eth_getTransactionCount."""
    account = devnet.manifest()["accounts"][1]

    async def main() -> NodeError:
        client = RpcClient(Endpoint.parse(devnet.url()))
        try:
            with pytest.raises(NodeError) as caught:
                await client.call("eth_getTransactionCount", [account])
            return caught.value
        finally:
            await client.aclose()

    error = asyncio.run(main())
    assert (error.code, error.node_message) == (-32602, "method parameters invalid")
    assert error.failure is NodeFailure.BAD_PARAMETERS
