"""Every quantity a node sends is range-checked where it is parsed (hypothesis, extreme values).

The table below states what each field can be on a real chain, independently of the code:
a value within it parses to itself, a value beyond it is a RecordFormatError (or, through the
typed calls, a MalformedResponse naming the node) with a short message naming the field.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from explorer.chain.records import Block, Log, Receipt, RecordFormatError, Transaction
from explorer.rpc.errors import MalformedResponse
from explorer.rpc.wrappers import TypedCalls
from tests.helpers.testnet import BLOCK, RECEIPT, TX, load

U32, U63, U64, U256 = 2**32 - 1, 2**63 - 1, 2**64 - 1, 2**256 - 1
YEAR_9999 = 253_402_128_000  # a block time any calendar and time zone can show

LOG = {
    "address": "0x19f64674d8a5b4e652319f5e239efd3bc969a1fe",
    "topics": [],
    "data": "0x",
    "logIndex": "0x1",
    "transactionIndex": "0x0",
    "transactionHash": "0x" + "35" * 32,
    "blockHash": "0x" + "f0" * 32,
    "blockNumber": "0x35aa",
}

#: (record, JSON field, attribute, largest value on a real chain)
FIELDS: list[tuple[str, str, str, int]] = [
    ("block", "number", "number", U63),
    ("block", "timestamp", "timestamp", YEAR_9999),
    ("block", "gasLimit", "gas_limit", U63),
    ("block", "gasUsed", "gas_used", U63),
    ("block", "size", "size", U32),
    ("block", "difficulty", "difficulty", U256),
    ("block", "totalDifficulty", "total_difficulty", U256),
    ("block", "cumulativeDifficulty", "cumulative_difficulty", U256),
    ("block", "minimumGasPrice", "minimum_gas_price", U256),
    ("block", "paidFees", "paid_fees", U256),
    ("tx", "nonce", "nonce", U64),
    ("tx", "gas", "gas", U63),
    ("tx", "gasPrice", "gas_price", U256),
    ("tx", "value", "value", U256),
    ("tx", "blockNumber", "block_number", U63),
    ("tx", "transactionIndex", "transaction_index", U32),
    ("tx", "v", "v", U256),
    ("tx", "r", "r", U256),
    ("tx", "s", "s", U256),
    ("receipt", "transactionIndex", "transaction_index", U32),
    ("receipt", "blockNumber", "block_number", U63),
    ("receipt", "cumulativeGasUsed", "cumulative_gas_used", U63),
    ("receipt", "gasUsed", "gas_used", U63),
    ("receipt", "status", "status", 1),
    ("log", "logIndex", "log_index", U32),
    ("log", "transactionIndex", "transaction_index", U32),
    ("log", "blockNumber", "block_number", U63),
]
SOURCES: dict[str, tuple[Callable[[], dict[str, Any]], Callable[[object], Any]]] = {
    "block": (lambda: load(BLOCK), Block.from_json),
    "tx": (lambda: load(TX), Transaction.from_json),
    "receipt": (lambda: load(RECEIPT), Receipt.from_json),
    "log": (lambda: dict(LOG), Log.from_json),
}


def extreme(maximum: int) -> st.SearchStrategy[int]:
    """Return values at and around a bound, and far beyond it (thousands of digits)."""
    return st.one_of(
        st.sampled_from([0, 1, maximum - 1, maximum, maximum + 1, 2 * maximum + 1]),
        st.integers(min_value=0, max_value=maximum),
        st.integers(min_value=maximum + 1, max_value=2**600),
        st.integers(min_value=8, max_value=20_000).map(lambda bits: 2**bits - 1),
    )


@settings(max_examples=60, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize(("record", "key", "attribute", "maximum"), FIELDS)
def test_each_field_takes_what_a_chain_can_hold_and_refuses_the_rest(
    record: str, key: str, attribute: str, maximum: int, data: st.DataObject
) -> None:
    """A value within the field's range parses as sent; one beyond it is refused by name."""
    value = data.draw(extreme(maximum))
    padded = data.draw(st.booleans())
    make, parse = SOURCES[record]
    obj = make()
    obj[key] = f"0x{value:064x}" if padded else hex(value)
    if value <= maximum:
        assert getattr(parse(obj), attribute) == value
        return
    with pytest.raises(RecordFormatError) as refused:
        parse(obj)
    message = str(refused.value)
    assert key in message
    assert len(message) < 200  # never the node's thousands of digits


class Answers(TypedCalls):
    """The typed calls over one raw answer (what the client hands its parsers)."""

    node_name = "node.example"

    def __init__(self, raw: object) -> None:
        self.raw = raw

    async def request(self, method: str, *args: Any) -> Any:
        """Return the raw answer, whatever was asked."""
        return self.raw


CALLS: list[tuple[str, Callable[[TypedCalls], Any], int]] = [
    ("eth_blockNumber", lambda calls: calls.block_number(), U63),
    ("eth_chainId", lambda calls: calls.chain_id(), U63),
    ("eth_gasPrice", lambda calls: calls.gas_price(), U256),
    ("eth_getBalance", lambda calls: calls.get_balance("0x" + "11" * 20), U256),
    ("eth_getTransactionCount", lambda calls: calls.get_transaction_count("0x" + "11" * 20), U64),
    ("eth_estimateGas", lambda calls: calls.estimate_gas({"to": "0x" + "11" * 20}), U63),
    (
        "eth_getBlockTransactionCountByNumber",
        lambda calls: calls.get_block_transaction_count_by_number("latest"),
        U32,
    ),
    ("eth_getUncleCountByBlockNumber", lambda calls: calls.get_uncle_count_by_block_number(1), U32),
]


@settings(max_examples=40, deadline=None)
@given(data=st.data())
@example(data=None)  # the answer that killed the window: 0x and 5,000 hex digits
@pytest.mark.parametrize(("method", "call", "maximum"), CALLS)
def test_each_method_answer_is_range_checked_and_names_the_node(
    method: str, call: Callable[[TypedCalls], Any], maximum: int, data: st.DataObject | None
) -> None:
    """An absurd quantity is an invalid answer naming the node, never a number passed on."""
    value = 16**5000 - 1 if data is None else data.draw(extreme(maximum))
    calls = Answers(hex(value))
    if value <= maximum:
        assert asyncio.run(call(calls)) == value
        return
    with pytest.raises(MalformedResponse) as refused:
        asyncio.run(call(calls))
    assert refused.value.message.startswith(f"node.example sent an impossible {method} answer")
    assert len(refused.value.message) < 250


def test_a_transaction_index_is_below_its_blocks_count() -> None:
    """A full block's transaction claiming a position past the block's end is refused."""
    block = load(BLOCK)
    tx = load(TX)
    block["transactions"] = [{**tx, "transactionIndex": "0x1"}]
    parsed = Block.from_json(block)
    assert parsed.transactions is not None
    with pytest.raises(RecordFormatError, match="not below the block's 1 transactions"):
        parsed.transactions[0]
    assert list(parsed.transactions.well_formed()) == []
    block["transactions"] = [{**tx, "transactionIndex": "0x0"}]
    parsed = Block.from_json(block)
    assert parsed.transactions is not None
    assert [t.transaction_index for t in parsed.transactions.well_formed()] == [0]


@pytest.mark.parametrize("count", [1, 3])
def test_many_logs_are_range_checked_like_one(count: int) -> None:
    """The bulk log parse refuses an out-of-range number as the careful one does."""
    logs = [dict(LOG) for _ in range(count)]
    logs[-1]["blockNumber"] = hex(2**63)
    with pytest.raises(RecordFormatError, match="blockNumber"):
        Log.many_from_json(logs)
    logs[-1]["blockNumber"] = hex(2**63 - 1)
    assert Log.many_from_json(logs)[-1].block_number == 2**63 - 1
