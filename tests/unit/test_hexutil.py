"""hexutil: the node's hex forms, strict where they must be and lenient where nodes vary."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.hexutil import (
    HexFormatError,
    is_address,
    is_hash,
    parse_address,
    parse_data,
    parse_hash,
    parse_optional_address,
    parse_optional_data,
    parse_optional_hash,
    parse_optional_quantity,
    parse_quantity,
    to_data,
    to_quantity,
)

PARSERS = (parse_quantity, parse_data, parse_address, parse_hash)


@pytest.mark.parametrize(
    ("text", "value"),
    [("0x0", 0), ("0x", 0), ("0x1b4", 436), ("0x000001b4", 436), ("0X1F", 31), ("0xFf", 255)],
)
def test_parse_quantity_accepts_minimal_padded_and_any_case(text: str, value: int) -> None:
    assert parse_quantity(text) == value


@pytest.mark.parametrize("bad", ["1b4", "", "0x1g", " 0x1", "0x1 ", "0x-1", "x1", None, 12, b"0x1"])
def test_parse_quantity_rejects_non_hex(bad: object) -> None:
    with pytest.raises(HexFormatError):
        parse_quantity(bad)


def test_error_names_the_field() -> None:
    with pytest.raises(HexFormatError, match="gasUsed"):
        parse_quantity("12", "gasUsed")


def test_to_quantity_is_minimal() -> None:
    assert [to_quantity(n) for n in (0, 1, 255, 2**64)] == [
        "0x0",
        "0x1",
        "0xff",
        "0x10000000000000000",
    ]
    with pytest.raises(ValueError, match="non-negative"):
        to_quantity(-1)


def test_data_round_trip_and_odd_length() -> None:
    assert parse_data("0x") == b""
    assert parse_data("0x00FF") == b"\x00\xff"
    assert to_data(b"\x00\xff") == "0x00ff"
    with pytest.raises(HexFormatError, match="odd"):
        parse_data("0x123")


def test_address_and_hash_are_canonical_lowercase() -> None:
    mixed = "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"
    assert parse_address(mixed) == mixed.lower()
    assert parse_hash("0x" + "AB" * 32) == "0x" + "ab" * 32


@pytest.mark.parametrize("digits", [39, 41, 0, 64])
def test_address_of_wrong_length_is_rejected(digits: int) -> None:
    with pytest.raises(HexFormatError, match="20 bytes"):
        parse_address("0x" + "a" * digits)
    assert not is_address("0x" + "a" * digits)


def test_hash_of_wrong_length_is_rejected() -> None:
    with pytest.raises(HexFormatError, match="32 bytes"):
        parse_hash("0x" + "a" * 63)
    assert is_hash("0x" + "a" * 64)
    assert not is_hash("0x" + "a" * 40)
    assert not is_hash(None)


def test_optional_variants() -> None:
    assert parse_optional_quantity(None) is None
    assert parse_optional_data(None) is None
    assert parse_optional_hash(None) is None
    assert parse_optional_address(None) is None
    assert parse_optional_address("0x") is None
    assert parse_optional_address("") is None
    assert parse_optional_quantity("0x10") == 16


@given(st.integers(min_value=0, max_value=2**300), st.integers(min_value=0, max_value=70))
def test_quantity_round_trips_with_any_zero_padding(value: int, padding: int) -> None:
    assert parse_quantity(to_quantity(value)) == value
    assert parse_quantity("0x" + "0" * padding + hex(value)[2:]) == value
    assert parse_quantity(to_quantity(value).upper().replace("0X", "0x")) == value


@given(st.binary(max_size=200))
def test_data_round_trips(value: bytes) -> None:
    assert parse_data(to_data(value)) == value
    assert parse_data(to_data(value).upper().replace("0X", "0x")) == value


@given(st.binary(min_size=20, max_size=20), st.binary(min_size=32, max_size=32))
def test_address_and_hash_round_trip(address: bytes, hash_: bytes) -> None:
    assert parse_address(to_data(address)) == to_data(address)
    assert parse_hash(to_data(hash_).upper().replace("0X", "0x")) == to_data(hash_)


hexish = st.text(alphabet="0123456789abcdefABCDEFxX \t-+_gG\u0663\u00bd", max_size=80)
texts = st.one_of(st.text(max_size=80), hexish, hexish.map(lambda s: "0x" + s))
anything = st.one_of(texts, st.none(), st.integers(), st.floats(), st.binary(), st.lists(st.text()))


@given(anything)
def test_parsers_raise_only_hex_format_error(value: object) -> None:
    for parse in PARSERS:
        with contextlib.suppress(HexFormatError):
            parse(value)


@given(st.text(alphabet="0123456789abcdefABCDEF", max_size=80))
def test_any_hex_digits_after_prefix_parse_as_quantity(digits: str) -> None:
    assert parse_quantity("0x" + digits) == (int(digits, 16) if digits else 0)
