"""query: the pure search parser recognises every input kind and explains the rest."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.checksum import ChecksumVerdict, to_checksum_address
from explorer.chain.namehash import namehash
from explorer.chain.query import (
    MAX_BLOCK_NUMBER,
    AddressQuery,
    BlockNumberQuery,
    BlockTagQuery,
    HashQuery,
    Invalid,
    RnsQuery,
    parse,
)

ON_30 = "0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD"
ON_31 = "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"
EIP55 = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"
HASH = "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110"


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("123", 123),
        ("  123\n", 123),
        ("0x7b", 123),
        ("0X7B", 123),
        ("0", 0),
        ("0x0", 0),
        ("007", 7),
        ("1,234", 1234),
        ("1,234,567", 1_234_567),
        ("1_234", 1234),
        (str(MAX_BLOCK_NUMBER), MAX_BLOCK_NUMBER),
        (hex(MAX_BLOCK_NUMBER), MAX_BLOCK_NUMBER),
    ],
)
def test_block_numbers(text: str, number: int) -> None:
    assert parse(text, 30) == BlockNumberQuery(number)


@pytest.mark.parametrize("text", ["latest", "LATEST", " Pending ", "earliest"])
def test_block_tags(text: str) -> None:
    assert parse(text, 30) == BlockTagQuery(text.strip().lower())  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [HASH, HASH.upper().replace("0X", "0x"), HASH[2:], f"  {HASH} "])
def test_hashes(text: str) -> None:
    assert parse(text, 30) == HashQuery(HASH)


@pytest.mark.parametrize(
    "text", [ON_30, ON_30.lower(), ON_30[2:], ON_30.upper().replace("0X", "0x")]
)
def test_addresses_valid_or_unclaimed_have_no_warning(text: str) -> None:
    query = parse(text, 30)
    assert isinstance(query, AddressQuery)
    assert query.address == ON_30.lower()
    assert query.warning is None
    assert query.verdict in (ChecksumVerdict.VALID_FOR_CHAIN, ChecksumVerdict.LOWER_OR_UPPER)


def test_eip55_checksum_is_accepted_without_warning() -> None:
    query = parse(EIP55, 30)
    assert query == AddressQuery(EIP55.lower(), ChecksumVerdict.VALID_EIP55_ONLY, None)


def test_other_networks_checksum_warns() -> None:
    query = parse(ON_31, 30)
    assert isinstance(query, AddressQuery)
    assert query.verdict is ChecksumVerdict.VALID_OTHER_CHAIN
    assert query.warning is not None
    assert "chain 31" in query.warning


def test_wrong_checksum_warns_but_still_searches() -> None:
    wrong = ON_30[:-1] + ON_30[-1].swapcase()
    query = parse(wrong, 30)
    assert isinstance(query, AddressQuery)
    assert query.address == ON_30.lower()
    assert query.verdict is ChecksumVerdict.INVALID
    assert query.warning is not None
    assert "typo" in query.warning


def test_without_chain_id_eip55_is_the_reference() -> None:
    assert parse(EIP55, None) == AddressQuery(EIP55.lower(), ChecksumVerdict.VALID_FOR_CHAIN)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("alice.rsk", "alice.rsk"),
        (" Alice.RSK ", "alice.rsk"),
        ("pay.alice.rsk", "pay.alice.rsk"),
        ("my-name.rsk.", "my-name.rsk"),
    ],
)
def test_rns_names(text: str, name: str) -> None:
    assert parse(text, 30) == RnsQuery(name, namehash(name))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "Type a block number"),
        ("   ", "Type a block number"),
        ("0x" + "a" * 63, "0x… has 63 hex digits; a hash has 64, an address 40"),
        ("0x" + "a" * 41, "has 41 hex digits"),
        ("0x" + "a" * 65, "has 65 hex digits"),
        ("0x" + "0" * 17, "has 17 hex digits"),
        ("0x", "0x needs hex digits"),
        ("0xzz", "not hex digits"),
        ("0x12 34", "not hex digits"),
        ("-1", "not negative"),
        ("- 1,000", "not negative"),
        (str(MAX_BLOCK_NUMBER + 1), "over the largest block number"),
        (hex(MAX_BLOCK_NUMBER + 1), "over the largest block number"),
        ("9" * 5000, "over the largest block number"),
        ("1,23", "group digits in threes"),
        ("12,34,567", "group digits in threes"),
        ("1.5", "whole numbers"),
        ("alice.eth", "only names ending in .rsk"),
        ("a..rsk", "not a valid RNS name"),
        ("-alice.rsk", "not a valid RNS name"),
        ("al ice.rsk", "not a valid RNS name"),
        ("hello", "is not a block number, hash, address or .rsk name"),
        ("a" * 39, "is not a block number"),
        ("١٢٣", "is not a block number"),
    ],
)
def test_invalid_inputs_say_why(text: str, reason: str) -> None:
    query = parse(text, 30)
    assert isinstance(query, Invalid)
    assert reason in query.message
    assert "\n" not in query.message
    assert len(query.message) < 120


@given(st.text(), st.sampled_from([None, 30, 31, 33]))
def test_parse_never_raises(text: str, chain_id: int | None) -> None:
    query = parse(text, chain_id)
    if isinstance(query, Invalid):
        assert query.message
        assert "\n" not in query.message


@given(st.integers(min_value=0, max_value=MAX_BLOCK_NUMBER))
def test_every_block_number_spelling_parses(number: int) -> None:
    for text in (str(number), hex(number), f"{number:,}", f"{number:_}", f" {number} "):
        assert parse(text, 31) == BlockNumberQuery(number)


@given(st.binary(min_size=20, max_size=20), st.sampled_from([None, 30, 31]))
def test_every_checksummed_address_parses_without_warning(raw: bytes, chain_id: int | None) -> None:
    address = to_checksum_address("0x" + raw.hex(), chain_id)
    query = parse(address, chain_id)
    assert isinstance(query, AddressQuery)
    assert query.address == "0x" + raw.hex()
    assert query.warning is None


@given(st.binary(min_size=32, max_size=32))
def test_every_hash_parses(raw: bytes) -> None:
    assert parse("0x" + raw.hex().upper(), 30) == HashQuery("0x" + raw.hex())
