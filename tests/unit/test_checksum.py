"""checksum: EIP-1191 vectors for chains 30 and 31, EIP-55 without a chain id, verdicts."""

from __future__ import annotations

import pytest
from eth_utils.address import to_checksum_address as eip55_reference
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.checksum import (
    ChecksumVerdict,
    checksum_chain_ids,
    checksum_verdict,
    has_valid_checksum,
    to_checksum_address,
)
from explorer.chain.hexutil import HexFormatError

RSK_VECTORS = [
    (30, "0x5aaEB6053f3e94c9b9a09f33669435E7ef1bEAeD"),
    (30, "0xFb6916095cA1Df60bb79ce92cE3EA74c37c5d359"),
    (31, "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"),
    (31, "0xFb6916095CA1dF60bb79CE92ce3Ea74C37c5D359"),
]
EIP55_VECTORS = [
    "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
    "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
    "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
]
ON_30 = RSK_VECTORS[0][1]
ON_31 = RSK_VECTORS[2][1]


@pytest.mark.parametrize(("chain_id", "expected"), RSK_VECTORS)
def test_eip1191_vectors(chain_id: int, expected: str) -> None:
    assert to_checksum_address(expected.lower(), chain_id) == expected
    assert to_checksum_address(expected.upper().replace("0X", "0x"), chain_id) == expected
    assert checksum_verdict(expected, chain_id) is ChecksumVerdict.VALID_FOR_CHAIN


@pytest.mark.parametrize("expected", EIP55_VECTORS)
def test_eip55_vectors_without_chain_id(expected: str) -> None:
    assert to_checksum_address(expected.lower(), None) == expected
    assert checksum_verdict(expected, None) is ChecksumVerdict.VALID_FOR_CHAIN


def test_address_without_prefix_is_accepted() -> None:
    assert to_checksum_address(ON_30[2:].lower(), 30) == ON_30
    assert checksum_verdict(ON_30[2:], 30) is ChecksumVerdict.VALID_FOR_CHAIN


@pytest.mark.parametrize("text", [ON_30.lower(), "0x" + ON_30[2:].upper(), "0X" + "12" * 20])
def test_single_case_claims_no_checksum(text: str) -> None:
    assert checksum_verdict(text, 30) is ChecksumVerdict.LOWER_OR_UPPER


def test_eip55_form_on_rsk_is_flagged() -> None:
    assert checksum_verdict(EIP55_VECTORS[0], 30) is ChecksumVerdict.VALID_EIP55_ONLY


def test_other_networks_checksum_is_flagged() -> None:
    assert checksum_verdict(ON_31, 30) is ChecksumVerdict.VALID_OTHER_CHAIN
    assert checksum_verdict(ON_30, 31) is ChecksumVerdict.VALID_OTHER_CHAIN
    assert checksum_verdict(ON_30, None) is ChecksumVerdict.VALID_OTHER_CHAIN
    assert checksum_chain_ids(ON_31) == (31,)


def test_one_flipped_letter_is_invalid() -> None:
    flipped = ON_30[:3] + ON_30[3].swapcase() + ON_30[4:]
    assert not has_valid_checksum(flipped, 30)
    assert checksum_verdict(flipped, 30) is ChecksumVerdict.INVALID


@pytest.mark.parametrize(
    "bad", ["", "0x", "0x" + "a" * 39, "0x" + "g" * 40, "a" * 41, "0x" + "a" * 64]
)
def test_non_addresses_raise_hex_format_error(bad: str) -> None:
    with pytest.raises(HexFormatError):
        checksum_verdict(bad, 30)
    with pytest.raises(HexFormatError):
        to_checksum_address(bad, 30)


addresses = st.binary(min_size=20, max_size=20).map(lambda raw: "0x" + raw.hex())
chains = st.sampled_from([None, 30, 31, 33, 1])


@given(addresses)
def test_eip55_agrees_with_eth_utils(address: str) -> None:
    assert to_checksum_address(address, None) == eip55_reference(address)


@given(addresses, chains)
def test_checksummed_address_is_judged_valid_for_its_chain(
    address: str, chain_id: int | None
) -> None:
    checksummed = to_checksum_address(address, chain_id)
    assert checksummed.lower() == address
    assert has_valid_checksum(checksummed, chain_id)
    verdict = checksum_verdict(checksummed, chain_id)
    assert verdict in (ChecksumVerdict.VALID_FOR_CHAIN, ChecksumVerdict.LOWER_OR_UPPER)


@given(st.text(max_size=50), chains)
def test_verdict_never_raises_anything_else(text: str, chain_id: int | None) -> None:
    try:
        verdict = checksum_verdict(text, chain_id)
    except HexFormatError:
        return
    assert isinstance(verdict, ChecksumVerdict)
