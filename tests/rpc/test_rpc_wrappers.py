"""Every typed wrapper against a scripted node serving the real testnet samples."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from explorer.chain.records import Block, Log, Receipt, Transaction
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import InvalidInput, MalformedResponse
from explorer.rpc.params import CallRequest, LogFilter
from tests.helpers.rpc import with_client
from tests.helpers.scripted_server import ScriptedServer, result
from tests.helpers.testnet import load
from tests.helpers.testnet_node import (
    ADDRESS,
    BLOCK_HASH,
    EIP155_HASH,
    REMASC_HASH,
    TX_BLOCK_HASH,
    TX_HASH,
)

UNKNOWN_HASH = "0x" + "ee" * 32
Use = Callable[[RpcClient], Awaitable[Any]]


def call(endpoint: Endpoint, use: Use) -> Any:
    """Run one use of a fresh client."""
    return with_client(endpoint, use)


def test_blocks_parse_into_records(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Blocks by number and hash come back as Block records with RSK fields."""

    async def use(client: RpcClient) -> tuple[Any, ...]:
        return (
            await client.get_block_by_number(0x1B4),
            await client.get_block_by_hash(BLOCK_HASH.upper().replace("0X", "0x"), full=True),
            await client.get_block_by_number("0x99"),
        )

    by_number, by_hash, missing = call(endpoint, use)
    assert isinstance(by_number, Block)
    assert by_number == by_hash
    assert by_number.number == 0x1B4
    assert by_number.hash == BLOCK_HASH
    assert by_number.uncles
    assert by_number.bitcoin_merged_mining_header
    assert by_number.minimum_gas_price == 0
    assert by_number.cumulative_difficulty == 0x4FF04782
    assert missing is None
    assert [r.params for r in server.requests] == [
        ["0x1b4", False],
        [BLOCK_HASH, True],
        ["0x99", False],
    ]


def test_transactions_parse_leniently(server: ScriptedServer, endpoint: Endpoint) -> None:
    """A one-element array, EIP-155 v, REMASC zeros and `_id` all parse; unknown is None."""

    async def use(client: RpcClient) -> tuple[Any, ...]:
        return (
            await client.get_transaction_by_hash(TX_HASH),
            await client.get_transaction_by_hash(EIP155_HASH),
            await client.get_transaction_by_hash(UNKNOWN_HASH),
            await client.get_transaction_by_block_hash_and_index(TX_BLOCK_HASH, 1),
            await client.get_transaction_by_block_number_and_index(0x2EC6B8, 0),
            await client.get_transaction_by_block_number_and_index("latest", 7),
        )

    wrapped, eip155, unknown, remasc, first, missing = call(endpoint, use)
    assert isinstance(wrapped, Transaction)
    assert wrapped.hash == TX_HASH
    assert wrapped.nonce == 0x10
    assert eip155.chain_id == 31
    assert eip155.type is None
    assert unknown is None
    assert missing is None
    assert remasc.hash == REMASC_HASH
    assert remasc.v == 0
    assert remasc.gas_price == 0
    assert remasc.raw["_id"]
    assert first.hash == EIP155_HASH
    assert server.requests[3].params == [TX_BLOCK_HASH, "0x1"]


def test_receipt_and_logs(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Receipts and logs become records; a missing receipt is None."""
    topic = "0x" + "ab" * 32

    async def use(client: RpcClient) -> tuple[Any, ...]:
        return (
            await client.get_transaction_receipt(TX_HASH),
            await client.get_transaction_receipt(UNKNOWN_HASH),
            await client.get_logs(LogFilter(from_block=1, to_block="latest", topics=[topic])),
            await client.get_logs({"blockHash": TX_BLOCK_HASH, "address": ADDRESS}),
        )

    receipt, missing, logs, logs_by_hash = call(endpoint, use)
    assert isinstance(receipt, Receipt)
    assert receipt.succeeded
    assert receipt.gas_used == 0x15EFC
    assert missing is None
    assert logs == logs_by_hash
    assert isinstance(logs[0], Log)
    assert logs[0].topics == (topic,)
    assert server.requests[2].params == [
        {"fromBlock": "0x1", "toBlock": "latest", "topics": [topic]}
    ]


def test_scalar_methods(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Quantities are ints, data is bytes, strings stay strings."""

    async def use(client: RpcClient) -> dict[str, Any]:
        call_obj = CallRequest(to=ADDRESS, data=b"\x12\x34")
        return {
            "accounts": await client.accounts(),
            "block_number": await client.block_number(),
            "eth_call": await client.eth_call(call_obj),
            "chain_id": await client.chain_id(),
            "estimate_gas": await client.estimate_gas({"to": ADDRESS, "value": 5}),
            "gas_price": await client.gas_price(),
            "balance": await client.get_balance(ADDRESS),
            "balance_at_hash": await client.get_balance(ADDRESS, BLOCK_HASH),
            "code": await client.get_code(ADDRESS),
            "storage": await client.get_storage_at(ADDRESS, 0, "earliest"),
            "count": await client.get_transaction_count(ADDRESS, "pending"),
            "tx_count_hash": await client.get_block_transaction_count_by_hash(BLOCK_HASH),
            "tx_count_number": await client.get_block_transaction_count_by_number(0x1B4),
            "tx_count_missing": await client.get_block_transaction_count_by_number(5),
            "uncles_hash": await client.get_uncle_count_by_block_hash(BLOCK_HASH),
            "uncles_number": await client.get_uncle_count_by_block_number("0x1b4"),
            "protocol": await client.protocol_version(),
            "sent": await client.send_raw_transaction(b"\xf8\x6c\x01"),
            "net": await client.net_version(),
            "client": await client.client_version(),
            "sha3": await client.sha3(b"hello"),
        }

    got = call(endpoint, use)
    assert got == {
        "accounts": [],
        "block_number": 0x2EC6B8,
        "eth_call": bytes(31) + b"\x2a",
        "chain_id": 31,
        "estimate_gas": 21000,
        "gas_price": 0x3E252E0,
        "balance": 10**18,
        "balance_at_hash": 10**18,
        "code": bytes.fromhex("6080604052"),
        "storage": bytes(31) + b"\x07",
        "count": 16,
        "tx_count_hash": 0,
        "tx_count_number": 0,
        "tx_count_missing": None,
        "uncles_hash": 2,
        "uncles_number": 2,
        "protocol": "0x3e",
        "sent": TX_HASH,
        "net": "31",
        "client": "RskJ/6.2.0/Linux/Java1.8/ARROWHEAD-45eb751",
        "sha3": "0x" + "c5" * 32,
    }
    sent = {r.rpc_method: r.params for r in server.requests}
    assert sent["eth_call"] == [{"to": ADDRESS, "data": "0x1234"}, "latest"]
    assert sent["eth_estimateGas"] == [{"to": ADDRESS, "value": "0x5"}, "latest"]
    assert sent["eth_getTransactionCount"] == [ADDRESS, "pending"]
    assert sent["eth_getCode"] == [ADDRESS, "latest"]
    assert sent["eth_getStorageAt"] == [ADDRESS, "0x0", "earliest"]
    assert sent["eth_sendRawTransaction"] == ["0xf86c01"]
    assert sent["web3_sha3"] == ["0x68656c6c6f"]
    assert len(server.requests) == 21


INVALID_CALLS: list[tuple[str, Use]] = [
    ("balance of short address", lambda c: c.get_balance("0x1234")),
    ("balance at bad tag", lambda c: c.get_balance(ADDRESS, "finalized")),
    ("block by bad hash", lambda c: c.get_block_by_hash("0x12")),
    ("block by hash as number", lambda c: c.get_block_by_number(BLOCK_HASH)),
    ("block full not bool", lambda c: c.get_block_by_number(1, 1)),  # type: ignore[arg-type]
    ("call without to", lambda c: c.eth_call({"data": "0x"})),
    ("call at block hash", lambda c: c.eth_call({"to": ADDRESS}, BLOCK_HASH)),
    ("estimate bad value", lambda c: c.estimate_gas({"to": ADDRESS, "value": -1})),
    ("logs hash and range", lambda c: c.get_logs({"blockHash": BLOCK_HASH, "fromBlock": 1})),
    ("logs five topics", lambda c: c.get_logs(LogFilter(topics=[None] * 5))),
    ("code at bad block", lambda c: c.get_code(ADDRESS, "0xnope")),
    ("storage negative", lambda c: c.get_storage_at(ADDRESS, -1)),
    ("tx bad hash", lambda c: c.get_transaction_by_hash(TX_HASH[:-2])),
    ("receipt not str", lambda c: c.get_transaction_receipt(5)),  # type: ignore[arg-type]
    ("index negative", lambda c: c.get_transaction_by_block_hash_and_index(BLOCK_HASH, -1)),
    ("uncle count bad", lambda c: c.get_uncle_count_by_block_number("next")),
    ("raw tx odd hex", lambda c: c.send_raw_transaction("0xabc")),
    ("sha3 not hex", lambda c: c.sha3("hello")),
    ("unknown method", lambda c: c.request("eth_sign", ADDRESS, "0x")),
    ("raw call, params not JSON", lambda c: c.call("eth_getCode", [b"\x01", "latest"])),
]


@pytest.mark.parametrize(("name", "use"), INVALID_CALLS, ids=[n for n, _ in INVALID_CALLS])
def test_invalid_input_spends_no_request(
    server: ScriptedServer, endpoint: Endpoint, name: str, use: Use
) -> None:
    """Bad parameters raise InvalidInput and nothing reaches the server."""
    with pytest.raises(InvalidInput):
        call(endpoint, use)
    assert server.requests == []


@pytest.mark.parametrize(
    ("method", "value", "use"),
    [
        ("eth_blockNumber", 5, lambda c: c.block_number()),
        ("eth_blockNumber", "five", lambda c: c.block_number()),
        ("net_version", 31, lambda c: c.net_version()),
        ("eth_getBlockByNumber", {"number": "0x1"}, lambda c: c.get_block_by_number(1)),
        ("eth_getBlockByNumber", "0x1b4", lambda c: c.get_block_by_number(1)),
        ("eth_getLogs", {"logs": []}, lambda c: c.get_logs({})),
        ("eth_getTransactionReceipt", [1, 2], lambda c: c.get_transaction_receipt(TX_HASH)),
        ("eth_accounts", ["0x12"], lambda c: c.accounts()),
        ("eth_sendRawTransaction", None, lambda c: c.send_raw_transaction("0x01")),
    ],
)
def test_wrong_result_types_are_malformed(
    server: ScriptedServer, endpoint: Endpoint, method: str, value: Any, use: Use
) -> None:
    """A result of the wrong shape is a MalformedResponse naming the method."""
    server.script(result(value))
    with pytest.raises(MalformedResponse, match=method):
        call(endpoint, use)


def test_fixture_samples_round_trip(server: ScriptedServer, endpoint: Endpoint) -> None:
    """The parsed records keep the node's JSON untouched in `.raw`."""

    async def use(client: RpcClient) -> Any:
        return await client.get_transaction_receipt(TX_HASH)

    receipt = call(endpoint, use)
    assert dict(receipt.raw) == load("receipt-0x359f.json")
