"""Typed ABI inputs: clear errors only, and values that round-trip through eth-abi."""

from __future__ import annotations

import json
from typing import Any

import pytest
from eth_abi.abi import decode, encode
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain.abi_input import (
    ERC20_ABI,
    ERC721_ABI,
    AbiInputError,
    parse_abi,
    parse_input,
)
from explorer.chain.checksum import to_checksum_address

TYPES: tuple[str, ...] = ("uint8", "uint256", "int8", "int256", "bool", "address", "bytes4")
TYPES += ("bytes32", "bytes", "string", "uint256[]", "address[2]", "(uint8,bool)", "int16[][]")
TYPES += ("bytes1[]",)
ADDRESS = "0x" + "ab12" * 10


@pytest.mark.parametrize(
    ("type_str", "text", "value"),
    [
        ("uint256", "1_000", 1000),
        ("uint256", "0xff", 255),
        ("int8", "-128", -128),
        ("bool", "True", True),
        ("bool", "0", False),
        ("address", ADDRESS.upper().replace("0X", "0x"), ADDRESS),
        ("address", to_checksum_address(ADDRESS, 31), ADDRESS),
        ("bytes2", "0xabcd", b"\xab\xcd"),
        ("bytes", "0x", b""),
        ("string", " spaced ", " spaced "),
        ("uint8[]", '[1, "0x02"]', (1, 2)),
        ("(address,bool)[1]", f'[["{ADDRESS}", true]]', ((ADDRESS, True),)),
    ],
)
def test_accepted_inputs(type_str: str, text: str, value: Any) -> None:
    """Each accepted spelling gives the expected value."""
    assert parse_input(type_str, text, chain_id=31) == value


@pytest.mark.parametrize(
    ("type_str", "text", "message"),
    [
        ("uint8", "256", "uint8 holds 0 … 255"),
        ("uint256", "-1", "holds 0"),
        ("int8", "128", "int8 holds -128 … 127"),
        ("uint256", "1.5", "not a whole number"),
        ("bool", "maybe", "not a bool"),
        ("address", "0x1234", "not an address"),
        ("address", "0xAb12" + ADDRESS[6:], "not a valid checksum"),
        ("bytes4", "0xabcd", "exactly 4 bytes"),
        ("bytes", "abcd", "0x-prefixed"),
        ("uint8[2]", "[1]", "exactly 2 items"),
        ("uint8[]", "[1,", "not valid JSON"),
        ("uint8[]", "{}", "expected a JSON array"),
        ("fixed128x18", "1", "not supported"),
        ("uint7", "1", "not an ABI type"),
    ],
)
def test_rejected_inputs(type_str: str, text: str, message: str) -> None:
    """Bad inputs raise AbiInputError with a message saying what is wrong."""
    with pytest.raises(AbiInputError, match=message):
        parse_input(type_str, text, chain_id=31)


@settings(max_examples=400)
@given(st.sampled_from(TYPES), st.text(max_size=80))
def test_any_text_gives_a_value_or_a_clear_error(type_str: str, text: str) -> None:
    """Whatever is typed, the result encodes, or the error is an AbiInputError."""
    try:
        value = parse_input(type_str, text)
    except AbiInputError as error:
        assert str(error)
        return
    assert decode([type_str], encode([type_str], [value])) == (value,)


def _int_text(value: int) -> st.SearchStrategy[str]:
    """Spell an int as decimal or hex (hex only when non-negative)."""
    spellings = [str(value)] + ([hex(value)] if value >= 0 else [])
    return st.sampled_from(spellings)


SCALARS: dict[str, st.SearchStrategy[tuple[Any, str]]] = {
    "uint256": st.integers(0, 2**256 - 1).flatmap(lambda v: _int_text(v).map(lambda t: (v, t))),
    "int64": st.integers(-(2**63), 2**63 - 1).flatmap(lambda v: _int_text(v).map(lambda t: (v, t))),
    "bool": st.booleans().map(lambda v: (v, str(v).lower())),
    "address": st.binary(min_size=20, max_size=20).map(lambda b: ("0x" + b.hex(), "0x" + b.hex())),
    "bytes32": st.binary(min_size=32, max_size=32).map(lambda b: (b, "0x" + b.hex())),
    "bytes": st.binary(max_size=64).map(lambda b: (b, "0x" + b.hex())),
    "string": st.text(max_size=40).map(lambda s: (s, s)),
}


@given(st.sampled_from(sorted(SCALARS)).flatmap(lambda t: SCALARS[t].map(lambda p: (t, p))))
def test_scalar_round_trip(case: tuple[str, tuple[Any, str]]) -> None:
    """Text of a value parses back to it and survives eth-abi encode/decode."""
    type_str, (value, text) = case
    parsed = parse_input(type_str, text)
    assert parsed == value
    assert decode([type_str], encode([type_str], [parsed])) == (value,)


@given(st.lists(st.integers(-(2**15), 2**15 - 1), max_size=8))
def test_array_round_trip(values: list[int]) -> None:
    """A JSON array of ints parses to a tuple that round-trips."""
    parsed = parse_input("int16[]", json.dumps(values))
    assert decode(["int16[]"], encode(["int16[]"], [parsed])) == (tuple(values),)


def test_bundled_abis_and_pasted_abi() -> None:
    """ERC-20/721 ABIs parse; a pasted ABI keeps only functions and expands tuples."""
    erc20 = {f.name: f for f in parse_abi(ERC20_ABI)}
    assert erc20["balanceOf"].canonical == "balanceOf(address)"
    assert erc20["balanceOf"].selector.hex() == "70a08231"
    assert all(f.is_view for f in parse_abi(ERC721_ABI))
    pasted = json.dumps(
        {
            "abi": [
                {"type": "event", "name": "E", "inputs": []},
                {
                    "type": "function",
                    "name": "f",
                    "constant": True,
                    "inputs": [
                        {
                            "name": "p",
                            "type": "tuple[]",
                            "components": [{"type": "uint8"}, {"type": "address"}],
                        }
                    ],
                    "outputs": [],
                },
            ]
        }
    )
    (function,) = parse_abi(pasted)
    assert function.canonical == "f((uint8,address)[])"
    assert function.is_view


@pytest.mark.parametrize(
    "text", ["", "{}", "[1]", '[{"type":"function"}]', '[{"name":"f","inputs":[{}]}]']
)
def test_bad_abi_is_a_clear_error(text: str) -> None:
    """A malformed ABI raises AbiInputError."""
    with pytest.raises(AbiInputError):
        parse_abi(text)
