"""ABI decoding with the bundled signature table: calls, events, collisions, garbage."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from eth_abi.abi import encode
from eth_abi.grammar import TupleType
from eth_abi.grammar import parse as eth_abi_parse
from eth_utils.abi import event_abi_to_log_topic, function_abi_to_4byte_selector
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain.abi import decode_call, decode_log, method_label
from explorer.chain.known import known_label
from explorer.chain.signatures import (
    Signature,
    SignatureSyntaxError,
    SignatureTable,
    bundled_table,
    parse_signature,
    parse_table,
)
from explorer.devnet.contracts import load_artifact
from tests.helpers.testnet import FIXTURES

REPO = Path(__file__).resolve().parents[2]
ALICE = "0x" + "a1" * 20
BOB = "0x" + "b0" * 20
TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


def topic_of(address: str) -> str:
    """Return an address left-padded into a topic."""
    return "0x" + "00" * 12 + address[2:]


def call(selector_hex: str, types: list[str], values: list[object]) -> bytes:
    """Return input data: selector plus ABI-encoded arguments."""
    return bytes.fromhex(selector_hex) + encode(types, values)


@pytest.mark.parametrize(
    ("canonical", "key"),
    [
        ("transfer(address,uint256)", "a9059cbb"),
        ("approve(address,uint256)", "095ea7b3"),
        ("transferFrom(address,address,uint256)", "23b872dd"),
        ("aggregate3((address,bool,bytes)[])", "82ad56cb"),
        ("aggregate((address,bytes)[])", "252dba42"),
        ("deposit()", "d0e30db0"),
        ("withdraw(uint256)", "2e1a7d4d"),
        ("resolver(bytes32)", "0178b8bf"),
        ("addr(bytes32)", "3b3b57de"),
        ("name(bytes32)", "691f3431"),
        ("Transfer(address,address,uint256)", TRANSFER_TOPIC[2:]),
        (
            "Sync(uint112,uint112)",
            "1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1",
        ),
    ],
)
def test_bundled_keys_match_published_values(canonical: str, key: str) -> None:
    """Selectors and topics computed at load equal the well-known published values."""
    index = bundled_table().functions if len(key) == 8 else bundled_table().events
    assert canonical in {s.canonical for s in index[bytes.fromhex(key)]}


def test_table_covers_the_devnet_contracts() -> None:
    """Each devnet ABI entry whose name the table knows is there with its exact signature."""
    table = bundled_table()
    known = {
        "function": {s.name for group in table.functions.values() for s in group},
        "event": {s.name for group in table.events.values() for s in group},
    }
    checked, missing = set(), []
    for name in ("DevToken", "DevCollectible", "Multicall3", "RnsRegistry", "RnsResolver"):
        entries: list[Any] = list(load_artifact(name).abi)  # JSON, as eth-utils reads it
        for entry in entries:
            kind = entry["type"]
            if kind not in known or entry["name"] not in known[kind]:
                continue
            if kind == "function":
                found = function_abi_to_4byte_selector(entry) in table.functions
            else:
                found = event_abi_to_log_topic(entry) in table.events
            checked.add(entry["name"])
            if not found:
                missing.append(f"{name}.{entry['name']}")
    assert missing == []
    assert {"transfer", "Transfer", "ApprovalForAll", "aggregate3", "AddrChanged"} <= checked


def test_readable_signature_names_tuple_components() -> None:
    """Readable text keeps parameter names, including inside tuples."""
    (signature,) = bundled_table().functions[bytes.fromhex("82ad56cb")]
    assert signature.text == (
        "aggregate3((address target, bool allowFailure, bytes callData)[] calls)"
    )


def test_parse_signature_normalizes_aliases_and_rejects_nonsense() -> None:
    """`uint` means uint256; unknown types and bad syntax are refused."""
    signature = parse_signature("function f(uint a, int[2] b)")
    assert signature.canonical == "f(uint256,int256[2])"
    for bad in ("function f(address", "func f()", "function f(uint7 x)", "function f() x"):
        with pytest.raises(SignatureSyntaxError):
            parse_signature(bad)


def test_decode_erc20_transfer() -> None:
    """A `transfer` call decodes to names, lowercase address, decimal amount."""
    data = call("a9059cbb", ["address", "uint256"], [BOB.upper().replace("0X", "0x"), 10**18])
    decoded = decode_call(data)
    assert decoded is not None
    assert decoded.name == "transfer"
    assert decoded.signature == "transfer(address to, uint256 amount)"
    assert [(p.name, p.type, p.value, p.text) for p in decoded.params] == [
        ("to", "address", BOB, BOB),
        ("amount", "uint256", 10**18, "1000000000000000000"),
    ]


def test_decode_multicall3_nested_tuples() -> None:
    """aggregate3 shows its calls as readable nested tuples."""
    calls = [(ALICE, True, b"\x01\x02"), (BOB, False, b"")]
    decoded = decode_call(call("82ad56cb", ["(address,bool,bytes)[]"], [calls]))
    assert decoded is not None
    (param,) = decoded.params
    assert param.value == ((ALICE, True, b"\x01\x02"), (BOB, False, b""))
    assert param.text == (
        f"[(target: {ALICE}, allowFailure: true, callData: 0x0102), "
        f"(target: {BOB}, allowFailure: false, callData: 0x)]"
    )


def test_decode_bridge_register_btc_transaction() -> None:
    """The Bridge's registerBtcTransaction decodes, with a negative-capable int256."""
    data = call("", ["bytes", "int256", "bytes"], [b"\x01\x00\x00\x00", 2_500_000, b"\xaa" * 40])
    selector = parse_signature("function registerBtcTransaction(bytes,int256,bytes)").key
    decoded = decode_call(selector + data)
    assert decoded is not None
    assert decoded.name == "registerBtcTransaction"
    assert [p.name for p in decoded.params] == ["tx", "height", "pmt"]
    assert decoded.params[1].text == "2500000"


def test_strings_are_quoted_with_controls_escaped() -> None:
    """A string value is shown quoted; bidi overrides and newlines are escaped."""
    set_name = parse_signature("function setName(bytes32,string)").key
    decoded = decode_call(set_name + encode(["bytes32", "string"], [b"\x01" * 32, "a\u202eb\nc"]))
    assert decoded is not None
    assert decoded.params[1].text == '"a\\u202eb\\u000ac"'
    assert decoded.params[1].value == "a\u202eb\nc"


def test_invalid_utf8_string_is_replaced_not_refused() -> None:
    """A string argument with invalid UTF-8 still decodes, with U+FFFD in its place."""
    set_name = parse_signature("function setName(bytes32,string)").key
    args = encode(["bytes32", "bytes"], [b"\x01" * 32, b"ok\xff"])  # same layout as string
    decoded = decode_call(set_name + args)
    assert decoded is not None
    assert decoded.params[1].value == "ok\ufffd"


def test_selector_collision_tries_every_candidate() -> None:
    """When the first candidate does not decode, the next one with that selector is used."""
    table = SignatureTable.build(
        parse_table(["function clash(string text)", "function clash(string)"])
    )
    assert len(table.functions) == 1  # exact duplicates are dropped
    first, second = parse_table(["function f(bytes32 a, bytes32 b)", "function g(uint8 small)"])
    crafted = SignatureTable({b"\x11\x22\x33\x44": (first, second)}, {})
    one_word = b"\x11\x22\x33\x44" + (7).to_bytes(32, "big")
    decoded = decode_call(one_word, crafted)
    assert decoded is not None
    assert decoded.name == "g"
    assert decoded.params[0].value == 7


def test_unknown_empty_and_short_input() -> None:
    """Empty input, a bare short input and an unknown selector give None."""
    assert decode_call(b"") is None
    assert decode_call(b"\xa9\x05\x9c") is None
    assert decode_call(bytes.fromhex("deadbeef") + b"\x00" * 64) is None


def test_truncated_arguments_do_not_decode() -> None:
    """A known selector with missing argument bytes is not decodable."""
    data = call("a9059cbb", ["address", "uint256"], [BOB, 1])
    assert decode_call(data[:-1]) is None
    assert decode_call(data[:4]) is None


def test_real_testnet_inputs() -> None:
    """The fixtures' inputs are not in the table (custom contracts) or empty: None, no error."""
    for path in sorted(FIXTURES.glob("tx-*.json")):
        obj = json.loads(path.read_text())
        obj = obj[0] if isinstance(obj, list) else obj
        assert decode_call(bytes.fromhex(obj["input"][2:])) is None


def test_erc20_and_erc721_transfer_told_apart_by_topic_count() -> None:
    """Same topic0: three topics mean ERC-20 (value in data), four mean ERC-721."""
    topics = [TRANSFER_TOPIC, topic_of(ALICE), topic_of(BOB)]
    erc20 = decode_log(topics, encode(["uint256"], [5]))
    assert erc20 is not None
    assert [p.name for p in erc20.params] == ["from", "to", "value"]
    assert [p.indexed for p in erc20.params] == [True, True, False]
    erc721 = decode_log([*topics, "0x" + "00" * 31 + "07"], b"")
    assert erc721 is not None
    assert [(p.name, p.value) for p in erc721.params] == [
        ("from", ALICE),
        ("to", BOB),
        ("tokenId", 7),
    ]
    assert decode_log(topics[:2], b"") is None


def test_event_params_in_declared_order() -> None:
    """Uniswap's Swap has `to` indexed after unindexed amounts: order is kept."""
    swap = parse_signature(
        "event Swap(address indexed sender, uint256 amount0In, uint256 amount1In,"
        " uint256 amount0Out, uint256 amount1Out, address indexed to)"
    )
    topics = ["0x" + swap.key.hex(), topic_of(ALICE), topic_of(BOB)]
    decoded = decode_log(topics, encode(["uint256"] * 4, [1, 2, 3, 4]))
    assert decoded is not None
    assert [p.name for p in decoded.params] == [
        "sender",
        "amount0In",
        "amount1In",
        "amount0Out",
        "amount1Out",
        "to",
    ]
    assert decoded.params[-1].value == BOB


def test_indexed_dynamic_param_is_shown_as_its_hash() -> None:
    """An indexed string/bytes carries only keccak in its topic; it is marked hashed."""
    table = SignatureTable.build(parse_table(["event Named(string indexed label, uint8 n)"]))
    (signature,) = next(iter(table.events.values()))
    topic = "0x" + "ab" * 32
    decoded = decode_log(["0x" + signature.key.hex(), topic], encode(["uint8"], [3]), table)
    assert decoded is not None
    assert decoded.params[0].hashed
    assert decoded.params[0].text == topic + " (keccak of the value)"


def test_bridge_event_decodes() -> None:
    """The Bridge's pegin_btc event decodes from topics and data."""
    signature = parse_signature(
        "event pegin_btc(address indexed receiver, bytes32 indexed btcTxHash,"
        " int256 amount, int256 protocolVersion)"
    )
    topics = ["0x" + signature.key.hex(), topic_of(ALICE), "0x" + "cd" * 32]
    decoded = decode_log(topics, encode(["int256", "int256"], [50_000, 1]))
    assert decoded is not None
    assert decoded.name == "pegin_btc"
    assert decoded.params[1].value == b"\xcd" * 32
    assert decoded.params[2].text == "50000"


def test_garbage_topics_give_none() -> None:
    """Malformed topics, dirty address padding or no topics: None, never an exception."""
    assert decode_log([], b"") is None
    assert decode_log(["0x1234"], b"") is None
    assert decode_log([TRANSFER_TOPIC, "nothex", topic_of(BOB)], b"") is None
    dirty = "0x" + "ff" * 12 + ALICE[2:]
    assert decode_log([TRANSFER_TOPIC, dirty, topic_of(BOB)], encode(["uint256"], [1])) is None


def test_pointer_bomb_is_refused_quickly() -> None:
    """bytes[] whose elements all point at one big blob is refused instead of copied N times."""
    count = 3000
    blob_at = 32 * count  # element offsets are relative to the start of the element heads
    heads = b"".join(blob_at.to_bytes(32, "big") for _ in range(count))
    blob = (100_000).to_bytes(32, "big") + b"\x00" * 100_000
    payload = (32).to_bytes(32, "big") + count.to_bytes(32, "big") + heads + blob
    selector = parse_signature("function receiveHeaders(bytes[] blocks)").key
    tracemalloc.start()
    try:
        assert decode_call(selector + payload) is None
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000  # copying the blob per element would take 300 MB


def test_legit_large_bytes_array_decodes() -> None:
    """A large but honest bytes[] still decodes."""
    blocks = [bytes([i % 256]) * 80 for i in range(500)]
    decoded = decode_call(
        parse_signature("function receiveHeaders(bytes[] blocks)").key
        + encode(["bytes[]"], [blocks])
    )
    assert decoded is not None
    assert decoded.params[0].value == tuple(blocks)


def test_known_labels() -> None:
    """Precompiles everywhere; token labels only on their own network."""
    assert known_label("0x0000000000000000000000000000000001000006", 30) == "Bridge"
    assert known_label("0x0000000000000000000000000000000001000008", 31) == "REMASC"
    assert known_label("0x19F64674D8A5B4E652319F5E239EFD3BC969A1FE", 31) == "tRIF"
    assert known_label("0x19f64674d8a5b4e652319f5e239efd3bc969a1fe", 30) is None
    assert known_label("not an address", 30) is None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=600))
def test_decode_call_never_raises(data: bytes) -> None:
    """Any bytes: a DecodedCall or None."""
    decode_call(data)


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from([bytes(s) for s in bundled_table().functions]),
    st.binary(max_size=400),
)
def test_decode_call_with_known_selector_never_raises(selector: bytes, rest: bytes) -> None:
    """Known selectors followed by any bytes: a DecodedCall or None."""
    decode_call(selector + rest)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(max_size=70),
            st.sampled_from(["0x" + t.hex() for t in bundled_table().events]),
            st.binary(min_size=32, max_size=32).map(lambda b: "0x" + b.hex()),
        ),
        max_size=5,
    ),
    st.binary(max_size=300),
)
def test_decode_log_never_raises(topics: list[str], data: bytes) -> None:
    """Any topics and data: a DecodedEvent or None."""
    decode_log(topics, data)


def test_method_label_for_tables() -> None:
    """The method column: a known name without decoding, the selector, or nothing."""
    assert method_label(bytes.fromhex("a9059cbb")) == "transfer"
    assert method_label(bytes.fromhex("deadbeef00")) == "0xdeadbeef"
    assert method_label(b"") == ""
    assert method_label(b"\x01\x02") == ""


def values_for(abi_type: str) -> st.SearchStrategy[object]:
    """Return a hypothesis strategy of Python values eth-abi can encode as abi_type."""
    parsed = eth_abi_parse(abi_type)
    if parsed.is_array:
        item = values_for(parsed.item_type.to_type_str())
        dims = parsed.arrlist[-1]
        size = dims[0] if dims else None
        return st.lists(item, min_size=size or 0, max_size=size or 3).map(tuple)
    if isinstance(parsed, TupleType):
        return st.tuples(*(values_for(c.to_type_str()) for c in parsed.components))
    base, sub = parsed.base, parsed.sub
    if base == "uint":
        return st.integers(0, 2**sub - 1)
    if base == "int":
        return st.integers(-(2 ** (sub - 1)), 2 ** (sub - 1) - 1)
    if base == "address":
        return st.binary(min_size=20, max_size=20).map(lambda b: "0x" + b.hex())
    if base == "bool":
        return st.booleans()
    if base == "bytes":
        return st.binary(min_size=sub or 0, max_size=sub or 80)
    assert base == "string", abi_type
    return st.text(max_size=20)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([g[0] for g in bundled_table().functions.values()]), st.data())
def test_every_bundled_function_decodes_its_own_encoding(
    signature: Signature, data: st.DataObject
) -> None:
    """Any values encoded for any bundled function decode back to that function and values."""
    types = [p.type for p in signature.params]
    values = [data.draw(values_for(t)) for t in types]
    decoded = decode_call(signature.key + encode(types, values))
    assert decoded is not None
    assert decoded.canonical == signature.canonical
    expected = json.loads(json.dumps(values, default=bytes.hex).lower())
    got = [p.value for p in decoded.params]
    assert json.loads(json.dumps(got, default=bytes.hex).lower()) == expected


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([s for g in bundled_table().events.values() for s in g]), st.data())
def test_every_bundled_event_decodes_its_own_encoding(
    signature: Signature, data: st.DataObject
) -> None:
    """Any values encoded for any bundled event (topics and data) decode back to it."""
    topics = ["0x" + signature.key.hex()]
    unindexed_types, unindexed_values = [], []
    for param in signature.params:
        value = data.draw(values_for(param.type))
        if not param.indexed:
            unindexed_types.append(param.type)
            unindexed_values.append(value)
        elif param.type in ("string", "bytes") or param.type.endswith("]"):
            topics.append("0x" + data.draw(st.binary(min_size=32, max_size=32)).hex())
        else:
            topics.append("0x" + encode([param.type], [value]).hex())
    decoded = decode_log(topics, encode(unindexed_types, unindexed_values))
    assert decoded is not None
    assert decoded.signature == signature.text
