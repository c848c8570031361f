"""records: every real testnet sample parses, lenient variants parse, bad input is rejected."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain.records import Block, Log, Receipt, RecordFormatError, Transaction
from tests.helpers.testnet import BLOCK, FIXTURE_NAMES, RECEIPT, TX, TX_EIP155, TX_REMASC, load

PARSER_FOR = {"block": Block, "tx": Transaction, "receipt": Receipt}
RSK_BLOCK_FIELDS = (
    "minimumGasPrice",
    "paidFees",
    "cumulativeDifficulty",
    "bitcoinMergedMiningHeader",
    "bitcoinMergedMiningCoinbaseTransaction",
    "bitcoinMergedMiningMerkleProof",
    "hashForMergedMining",
)
LOG: dict[str, Any] = {
    "address": "0x19F64674D8A5B4E652319F5E239EFD3BC969A1FE",
    "topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"],
    "data": "0x" + "00" * 31 + "01",
    "logIndex": "0x0",
    "transactionIndex": "0x0",
    "transactionHash": "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110",
    "blockHash": "0xf0b093db64e06ff6b94cd3cfc06d85d3664d7b021bef36c4471475b4f1d8b2b9",
    "blockNumber": "0x35aa",
}


def parser(name: str) -> type[Block] | type[Transaction] | type[Receipt]:
    """Return the record class for a fixture file name."""
    return PARSER_FOR[name.split("-")[0]]


def test_every_fixture_is_found() -> None:
    assert len(FIXTURE_NAMES) >= 5
    assert {BLOCK, TX, TX_EIP155, TX_REMASC, RECEIPT} <= set(FIXTURE_NAMES)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_fixture_parses_and_keeps_raw(name: str) -> None:
    obj = load(name)
    record = parser(name).from_json(obj)
    assert record.raw == obj
    assert parser(name).from_json([obj]) == record


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_every_fixture_parses_with_zero_padded_quantities(name: str) -> None:
    plain = load(name)
    padded = {key: pad(value) for key, value in plain.items()}
    assert parser(name).from_json(padded) == parser(name).from_json(plain)


def pad(value: Any) -> Any:
    """Zero-pad a short hex quantity the way older nodes did; leave other values alone."""
    if isinstance(value, str) and value.startswith("0x") and 2 < len(value) < 20:
        return "0x000" + value[2:]
    return value


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_extra_fields_are_ignored_and_kept(name: str) -> None:
    obj = load(name) | {"_id": "5d1f7c06abc", "mixHash": "0x" + "00" * 32, "rskPteEdges": None}
    record = parser(name).from_json(obj)
    assert record == parser(name).from_json(load(name))
    assert record.raw["_id"] == "5d1f7c06abc"


def test_block_fixture_fields() -> None:
    block = Block.from_json(load(BLOCK))
    assert block.number == 0x1B4
    assert block.hash == "0xf1652d8322a880e520f996f7d28b645814a58a202d7d2ab7f058e5566fe4f9f3"
    assert block.miner == "0x1fab9a0e24ffc209b01faa5a61ad4366982d0b7f"
    assert block.difficulty == 0x1AA2B738
    assert block.cumulative_difficulty == 0x4FF04782
    assert block.minimum_gas_price == 0
    assert block.paid_fees == 0
    assert len(block.uncles) == 2
    assert block.transaction_hashes == ()
    assert block.transactions is None
    assert block.bitcoin_merged_mining_header is not None
    assert len(block.bitcoin_merged_mining_header) == 80
    assert block.hash_for_merged_mining is not None
    assert len(block.hash_for_merged_mining) == 32
    assert not block.is_pending


def test_block_from_a_non_rsk_node_has_no_rsk_fields() -> None:
    obj = {k: v for k, v in load(BLOCK).items() if k not in RSK_BLOCK_FIELDS}
    block = Block.from_json(obj)
    assert block.minimum_gas_price is None
    assert block.paid_fees is None
    assert block.bitcoin_merged_mining_header is None
    assert block.hash_for_merged_mining is None


def test_newer_node_extras_are_accepted() -> None:
    extras = {"mixHash": "0x" + "00" * 32, "nonce": "0x0000000000000000", "baseEvent": "0x"}
    block = Block.from_json(load(BLOCK) | extras | {"rskPteEdges": ["0x1"]})
    assert block.number == 0x1B4


def test_pending_block_shape() -> None:
    empty_mm = {field: "0x" for field in RSK_BLOCK_FIELDS[3:]}
    obj = load(BLOCK) | empty_mm | {"totalDifficulty": "0x0"}
    obj |= {"number": None, "hash": None, "logsBloom": None, "miner": None}
    block = Block.from_json(obj)
    assert block.is_pending
    assert block.number is None
    assert block.hash is None
    assert block.miner is None
    assert block.logs_bloom is None
    assert block.total_difficulty == 0
    assert block.bitcoin_merged_mining_header == b""
    assert block.hash_for_merged_mining == b""


def test_block_with_full_transactions() -> None:
    txs = [load(TX_EIP155), load(TX_REMASC)]
    block = Block.from_json(load(BLOCK) | {"transactions": txs})
    assert block.transactions is not None
    assert [tx.hash for tx in block.transactions] == [tx["hash"] for tx in txs]
    assert block.transaction_hashes == tuple(tx["hash"] for tx in txs)


def test_block_with_transaction_hashes() -> None:
    hashes = [load(TX)["hash"], load(TX_REMASC)["hash"].upper().replace("0X", "0x")]
    block = Block.from_json(load(BLOCK) | {"transactions": hashes})
    assert block.transaction_hashes == tuple(h.lower() for h in hashes)
    assert block.transactions is None


def test_transaction_fixture_fields() -> None:
    tx = Transaction.from_json(load(TX))
    assert tx.nonce == 0x10
    assert tx.gas_price == 0x387EE40
    assert tx.v == 0x62
    assert tx.chain_id == 31
    assert tx.r == 0x1F8BB5859D8194EEBFB781ED6D56FD246912EE0BF83FEE2A312DE95D44B66ECF
    assert tx.input[:4] == bytes.fromhex("cc6ebc8b")
    assert tx.type == 0
    assert not tx.is_pending
    assert not tx.is_contract_creation


def test_eip155_transaction_carries_chain_31() -> None:
    tx = Transaction.from_json(load(TX_EIP155))
    assert tx.chain_id == 31
    assert tx.block_number == 0x2EC6B8


def test_remasc_transaction() -> None:
    tx = Transaction.from_json(load(TX_REMASC))
    assert tx.sender == "0x" + "00" * 20
    assert tx.to == "0x0000000000000000000000000000000001000008"
    assert tx.block_number is not None
    assert tx.nonce == tx.block_number - 1
    assert (tx.v, tx.r, tx.s, tx.chain_id) == (0, 0, 0, None)
    assert tx.input == b""
    assert tx.type is None


def test_older_remasc_sends_null_signature() -> None:
    tx = Transaction.from_json(load(TX_REMASC) | {"v": None, "r": None, "s": None})
    assert (tx.v, tx.r, tx.s, tx.chain_id) == (None, None, None, None)


def test_pending_transaction_and_contract_creation() -> None:
    pending = {"blockHash": None, "blockNumber": None, "transactionIndex": None, "to": None}
    tx = Transaction.from_json(load(TX) | pending)
    assert tx.is_pending
    assert tx.is_contract_creation


def test_receipt_fixture_fields_and_fee() -> None:
    receipt = Receipt.from_json(load(RECEIPT))
    tx = Transaction.from_json(load(TX))
    assert receipt.succeeded is True
    assert receipt.root is None
    assert receipt.gas_used == 0x15EFC
    assert receipt.effective_gas_price is None
    assert receipt.fee(tx.gas_price) == 0x15EFC * 0x387EE40
    assert receipt.logs == ()


@pytest.mark.parametrize(
    ("variant", "status", "succeeded", "root"),
    [
        ({"status": "0x0"}, 0, False, None),
        ({"status": "0x1", "root": "0x01"}, 1, True, b"\x01"),
        ({"status": None, "root": "0x" + "ab" * 32}, None, None, b"\xab" * 32),
    ],
)
def test_receipt_status_and_root_variants(
    variant: dict[str, Any], status: int | None, succeeded: bool | None, root: bytes | None
) -> None:
    obj = load(RECEIPT) | variant
    if variant.get("status") is None:
        del obj["status"]
    receipt = Receipt.from_json(obj)
    assert (receipt.status, receipt.succeeded, receipt.root) == (status, succeeded, root)


def test_receipt_fee_prefers_effective_gas_price() -> None:
    receipt = Receipt.from_json(load(RECEIPT) | {"effectiveGasPrice": "0x2"})
    assert receipt.fee(gas_price=999) == 0x15EFC * 2


def test_receipt_with_logs() -> None:
    receipt = Receipt.from_json(load(RECEIPT) | {"logs": [LOG]})
    (log,) = receipt.logs
    assert log.address == LOG["address"].lower()
    assert log.topics == tuple(LOG["topics"])
    assert log.data[-1] == 1
    assert log.log_index == 0


def test_pending_log() -> None:
    pending = dict.fromkeys(("logIndex", "transactionHash", "blockHash", "blockNumber"))
    log = Log.from_json(LOG | pending)
    assert (log.log_index, log.transaction_hash, log.block_number) == (None, None, None)


@pytest.mark.parametrize(
    ("name", "field", "value", "message"),
    [
        (BLOCK, "hash", "0x1234", "32 bytes"),
        (BLOCK, "parentHash", None, "parentHash"),
        (BLOCK, "gasUsed", "12", "gasUsed"),
        (BLOCK, "miner", "0x" + "z" * 40, "miner"),
        (BLOCK, "transactions", {"a": 1}, "transactions"),
        (BLOCK, "uncles", ["0x12"], "uncles"),
        (BLOCK, "bitcoinMergedMiningHeader", "0x123", "odd"),
        (TX, "hash", "0x" + "a" * 63, "32 bytes"),
        (TX, "from", "0x" + "a" * 41, "20 bytes"),
        (TX, "nonce", 16, "nonce"),
        (TX, "value", None, "value"),
        (RECEIPT, "logs", "none", "logs"),
        (RECEIPT, "logs", [LOG | {"topics": ["0x01"]}], "topics"),
        (RECEIPT, "status", "0xg", "status"),
    ],
)
def test_bad_fields_raise_record_format_error(
    name: str, field: str, value: Any, message: str
) -> None:
    with pytest.raises(RecordFormatError, match=message):
        parser(name).from_json(load(name) | {field: value})


@pytest.mark.parametrize("name", FIXTURE_NAMES)
@pytest.mark.parametrize("shape", ["text", None, 3, []])
def test_non_objects_are_rejected(name: str, shape: Any) -> None:
    with pytest.raises(RecordFormatError, match="JSON object"):
        parser(name).from_json(shape)


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_two_element_array_is_rejected(name: str) -> None:
    with pytest.raises(RecordFormatError):
        parser(name).from_json([load(name), load(name)])


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=70) | st.just("0x"),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)


@settings(deadline=None)
@given(st.sampled_from(FIXTURE_NAMES), st.data())
def test_any_field_value_gives_a_record_or_record_format_error(
    name: str, data: st.DataObject
) -> None:
    obj = load(name)
    field = data.draw(st.sampled_from(sorted(obj)))
    obj[field] = data.draw(json_values)
    try:
        record = parser(name).from_json(obj)
    except RecordFormatError:
        return
    assert record.raw is obj


PLAIN_LOG: dict[str, Any] = {
    "address": "0x19f64674d8a5b4e652319f5e239efd3bc969a1fe",
    "topics": [
        "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
        "0x000000000000000000000000" + "12" * 20,
        "0x000000000000000000000000" + "34" * 20,
    ],
    "data": "0x" + "00" * 31 + "01",
    "logIndex": "0x1a",
    "transactionIndex": "0x0",
    "transactionHash": "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110",
    "blockHash": "0xf0b093db64e06ff6b94cd3cfc06d85d3664d7b021bef36c4471475b4f1d8b2b9",
    "blockNumber": "0x35aa",
}
TWISTS = st.sampled_from(
    [
        str.upper,
        lambda text: "0X" + text[2:],
        lambda text: "0x0" + text[2:],
        lambda text: text[:-1],
        lambda text: text + "0",
        lambda text: text[:5] + " " + text[6:],
        lambda text: text[:5] + "_" + text[6:],
        lambda text: text[:5] + "g" + text[6:],
        lambda text: text[:5] + "x" + text[6:],
        lambda text: text[:5] + "\u0663" + text[6:],
        lambda text: "-" + text,
        lambda text: text[2:],
        lambda text: "0x",
        lambda text: None,
        lambda text: 7,
        lambda text: [text],
    ]
)


def bend(value: Any, twist: Any) -> Any:
    """Return a twisted string value (a non-string stands for `0x12`)."""
    return twist(value if isinstance(value, str) else "0x12")


@settings(deadline=None, max_examples=300)
@given(st.data())
def test_plain_and_twisted_logs_parse_as_field_by_field(data: st.DataObject) -> None:
    """Whatever is bent in a log, Log.from_json agrees with the careful field-by-field parse."""
    from explorer.chain.logrecords import _careful_log

    obj: dict[str, Any] = {**PLAIN_LOG, "topics": list(PLAIN_LOG["topics"])}
    for _ in range(data.draw(st.integers(0, 2))):
        field = data.draw(st.sampled_from([*sorted(PLAIN_LOG), "topic", "drop"]))
        twist = data.draw(TWISTS)
        if field == "topic" and isinstance(obj.get("topics"), list) and obj["topics"]:
            obj["topics"][0] = bend(obj["topics"][0], twist)
        elif field == "drop":
            obj.pop(data.draw(st.sampled_from(sorted(obj))), None)
        elif field != "topic" and field in obj:
            obj[field] = bend(obj[field], twist)
    try:
        expected: Log | str = _careful_log(obj)
    except (RecordFormatError, TypeError) as error:
        expected = type(error).__name__
    try:
        parsed: Log | str = Log.from_json(obj)
    except (RecordFormatError, TypeError) as error:
        parsed = type(error).__name__
    assert parsed == expected
    if isinstance(parsed, Log):
        assert parsed.raw is obj
        assert parsed.address == parsed.address.lower()


def twisted_log(data: st.DataObject) -> dict[str, Any]:
    """Return the plain log with up to two of its fields bent, dropped or given more topics."""
    obj: dict[str, Any] = {**PLAIN_LOG, "topics": list(PLAIN_LOG["topics"])}
    for _ in range(data.draw(st.integers(0, 2))):
        field = data.draw(st.sampled_from([*sorted(PLAIN_LOG), "topic", "drop", "more"]))
        if field == "topic" and isinstance(obj.get("topics"), list) and obj["topics"]:
            obj["topics"][0] = bend(obj["topics"][0], data.draw(TWISTS))
        elif field == "more" and isinstance(obj.get("topics"), list):
            obj["topics"].append("0x" + "0a" * 32)
        elif field == "drop":
            obj.pop(data.draw(st.sampled_from(sorted(obj))), None)
        elif field in obj:
            obj[field] = bend(obj[field], data.draw(TWISTS))
    return obj


def parsed_or_error(parse: Any, value: Any) -> Any:
    """Return what parse makes of value, or the name of the error it raises."""
    try:
        return parse(value)
    except (RecordFormatError, TypeError) as error:
        return type(error).__name__


@settings(deadline=None, max_examples=300)
@given(st.data())
def test_many_logs_parse_as_one_by_one(data: st.DataObject) -> None:
    """Log.many_from_json gives what from_json gives for each log: the same logs or error."""
    logs = [twisted_log(data) for _ in range(data.draw(st.integers(0, 4)))]
    if data.draw(st.booleans()):
        logs = [dict(PLAIN_LOG, logIndex=hex(i)) for i in range(3)] + logs

    def one_by_one(values: list[Any]) -> list[Log]:
        return [Log.from_json(value) for value in values]

    expected = parsed_or_error(one_by_one, logs)
    assert parsed_or_error(Log.many_from_json, logs) == expected
    if isinstance(expected, list):
        assert all(a.raw is b for a, b in zip(Log.many_from_json(logs), logs, strict=True))


def test_plain_log_is_taken_as_sent() -> None:
    """The plain form keeps every value: numbers, topics, data, lowercase hashes."""
    log = Log.from_json(PLAIN_LOG)
    assert (log.log_index, log.transaction_index, log.block_number) == (26, 0, 0x35AA)
    assert log.topics == tuple(PLAIN_LOG["topics"])
    assert log.data == bytes(31) + b"\x01"
    assert log.transaction_hash == PLAIN_LOG["transactionHash"]
    assert log.block_hash == PLAIN_LOG["blockHash"]
    assert log.address == PLAIN_LOG["address"]


def full_block(transactions: list[dict[str, Any]]) -> dict[str, Any]:
    """Return the testnet block sample carrying the given full transaction objects."""
    return {**load(BLOCK), "transactions": transactions}


def test_full_transactions_are_parsed_when_read() -> None:
    """A block's transactions are checked by hash at once and parsed on first read."""
    good, remasc = load(TX_EIP155), load(TX_REMASC)
    broken = {key: value for key, value in good.items() if key != "nonce"}
    broken["hash"] = "0x" + "ee" * 32
    block = Block.from_json(full_block([good, broken, remasc]))
    assert block.transactions is not None
    assert len(block.transactions) == 3
    assert block.transaction_hashes == (good["hash"], broken["hash"], remasc["hash"])
    assert block.transactions[0] == Transaction.from_json(good)
    assert block.transactions[0] is block.transactions[0]  # parsed once
    assert block.transactions[2:] == (Transaction.from_json(remasc),)
    with pytest.raises(RecordFormatError, match="nonce"):
        _ = block.transactions[1]
    same = Block.from_json(full_block([good, remasc]))
    assert same.transactions == (Transaction.from_json(good), Transaction.from_json(remasc))


def test_a_full_transaction_without_a_hash_fails_the_block() -> None:
    """Hashes are checked when the block is parsed: a bad one is a format error at once."""
    nameless = {key: value for key, value in load(TX).items() if key != "hash"}
    with pytest.raises(RecordFormatError, match="hash"):
        Block.from_json(full_block([load(TX_EIP155), nameless]))


@pytest.mark.parametrize("field", ["logIndex", "transactionIndex", "blockNumber"])
def test_many_logs_refuse_a_signed_number(field: str) -> None:
    """A number like -0x35aa is not a quantity, one log at a time or many together."""
    signed = {**PLAIN_LOG, field: "-" + PLAIN_LOG[field]}
    with pytest.raises(RecordFormatError):
        Log.from_json(signed)
    with pytest.raises(RecordFormatError):
        Log.many_from_json([PLAIN_LOG, signed])


def test_logs_compare_and_hash_by_their_fields_not_the_node_object() -> None:
    """Two logs with the same fields are equal and hash alike, whatever else the node sent."""
    plain, extra = Log.from_json(PLAIN_LOG), Log.from_json({**PLAIN_LOG, "removed": False})
    assert plain == extra
    assert hash(plain) == hash(extra)
    assert len({plain, extra}) == 1
    assert Log.from_json({**PLAIN_LOG, "logIndex": "0x1b"}) != plain
