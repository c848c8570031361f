"""mergemining: the real testnet block verifies; every corruption fails for the right reason."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain.mergemining import (
    DIFFICULTY_ONE_TARGET,
    NO_DATA_ABSENT,
    NO_DATA_PENDING,
    compose_hash_for_merged_mining,
    decode_bitcoin_header,
    decode_coinbase,
    find_rsk_tag,
    fold_merkle_proof,
    split_hash_for_merged_mining,
    target_from_bits,
    verify_merge_mining,
)
from explorer.chain.records import Block
from explorer.devnet.coinbase import (
    MergeMiningFields,
    build_merge_mining_fields,
    coinbase_transaction,
    compress_coinbase,
)
from tests.helpers.testnet import BLOCK, load


@dataclass(frozen=True)
class Fields:
    """The four merge-mining inputs of one block."""

    header: bytes | None
    coinbase: bytes | None
    proof: bytes | None
    hash_for_merged_mining: bytes | None


def build(hash_for_merged_mining: bytes) -> MergeMiningFields:
    """Build fields for a hash with fixed other inputs."""
    return build_merge_mining_fields(
        hash_for_merged_mining, previous_block_hash=b"\x07" * 32, time=1_700_000_000
    )


def real_block() -> Block:
    """Return the real testnet block 0x1b4."""
    return Block.from_json(load(BLOCK))


def real_fields() -> Fields:
    """Return block 0x1b4's merge-mining fields."""
    block = real_block()
    return Fields(
        block.bitcoin_merged_mining_header,
        block.bitcoin_merged_mining_coinbase_transaction,
        block.bitcoin_merged_mining_merkle_proof,
        block.hash_for_merged_mining,
    )


def verify(fields: Fields) -> tuple[str, ...]:
    """Return the problems verify_merge_mining finds in fields."""
    return verify_merge_mining(
        fields.header, fields.coinbase, fields.proof, fields.hash_for_merged_mining
    ).problems


def flip(data: bytes | None, index: int) -> bytes:
    """Return data with one byte's bits inverted."""
    assert data is not None
    return data[:index] + bytes([data[index] ^ 0xFF]) + data[index + 1 :]


def test_testnet_header_decodes() -> None:
    raw = real_fields().header
    assert raw is not None
    header = decode_bitcoin_header(raw)
    assert header.version == 0x20000000
    assert header.previous_block_hash == (
        "0000000000000270833d0f608038740b1d56f65fc36b37af3ec9c469a1c9172d"
    )
    assert header.merkle_root == "6c319cbf25121716bf0e1b6fc8ef7d979d11f263246323dd4d2272fc07ad318d"
    assert header.time == 0x5D1F7C11
    assert header.bits == 0x1A041D53
    assert header.target == 0x041D53 << (8 * (0x1A - 3))
    assert header.difficulty == pytest.approx(4_077_473.66, rel=1e-9)
    assert header.nonce == 0x9FD04680
    independent = hashlib.sha256(hashlib.sha256(raw).digest()).digest()[::-1].hex()
    assert header.block_hash == independent
    assert header.block_hash.startswith("00000007dbceef87")
    assert not header.meets_own_target


def test_testnet_block_verifies() -> None:
    block = real_block()
    report = verify_merge_mining(
        block.bitcoin_merged_mining_header,
        block.bitcoin_merged_mining_coinbase_transaction,
        block.bitcoin_merged_mining_merkle_proof,
        block.hash_for_merged_mining,
        block_number=block.number,
        difficulty=block.difficulty,
    )
    assert report.problems == ()
    assert report.verified
    assert report.tag == block.hash_for_merged_mining
    assert report.tag_matches
    assert report.root_matches
    assert report.header is not None
    assert report.folded_root is not None
    assert report.folded_root[::-1].hex() == report.header.merkle_root
    assert report.coinbase is not None
    assert report.coinbase.hashed_length == 128
    assert report.tag_offset == 60
    assert report.coinbase_txid_display == (
        "8d28919020cfe0af0e5d116203f863756e2285b11c14ea86499243626199c0a9"
    )
    assert len(report.proof_hashes) == 7
    assert report.meets_rsk_target is True
    assert report.block_number_matches is False  # before RSKIP110 the last 12 bytes are hash


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"header": "truncate"}, "Bitcoin header has 79 bytes, not 80"),
        ({"header": ("flip", 40)}, "folded merkle root does not equal"),
        ({"header": None}, "missing Bitcoin header"),
        ({"coinbase": ("flip", 7)}, "hashed length 127 is not a multiple of 64"),
        ({"coinbase": ("flip", 20)}, "folded merkle root does not equal"),
        ({"coinbase": ("flip", 40 + 2)}, "folded merkle root does not equal"),
        ({"coinbase": ("flip", 40 + 60)}, "no RSKBLOCK: tag"),
        ({"coinbase": ("flip", 40 + 80)}, "tag does not equal hashForMergedMining"),
        ({"coinbase": "truncate"}, "folded merkle root does not equal"),
        ({"coinbase": b"\x00" * 39}, "fewer than the 40"),
        ({"coinbase": None}, "missing coinbase transaction"),
        ({"proof": "truncate"}, "not a multiple of 32"),
        ({"proof": ("flip", 100)}, "folded merkle root does not equal"),
        ({"proof": b""}, "folded merkle root does not equal"),
        ({"proof": None}, "missing merkle proof"),
        ({"proof": b"\x00" * 992}, "over the 960 allowed"),
        ({"hash_for_merged_mining": ("flip", 0)}, "tag does not equal hashForMergedMining"),
        ({"hash_for_merged_mining": "truncate"}, "hashForMergedMining has 31 bytes, not 32"),
        ({"hash_for_merged_mining": None}, "missing hashForMergedMining"),
    ],
)
def test_corrupted_fixture_fails_with_the_right_problem(
    change: dict[str, object], problem: str
) -> None:
    fields = real_fields()
    for name, how in change.items():
        value: bytes | None = getattr(fields, name)
        changed: bytes | None
        if how == "truncate":
            assert value is not None
            changed = value[:-1]
        elif isinstance(how, tuple):
            changed = flip(value, how[1])
        else:
            assert how is None or isinstance(how, bytes)
            changed = how
        fields = replace(fields, **{name: changed})
    problems = verify(fields)
    assert any(problem in text for text in problems), problems


def test_pending_and_absent_blocks() -> None:
    assert verify(Fields(b"", b"", b"", b"")) == (NO_DATA_PENDING,)
    assert verify(Fields(None, None, None, None)) == (NO_DATA_ABSENT,)
    report = verify_merge_mining(b"", b"", b"", b"")
    assert not report.verified
    assert report.header is None
    assert report.tag is None
    assert not report.tag_matches


def test_rsk_target_is_checked_when_difficulty_is_given() -> None:
    fields = real_fields()
    report = verify_merge_mining(
        fields.header, fields.coinbase, fields.proof, fields.hash_for_merged_mining,
        difficulty=2**40,
    )  # fmt: skip
    assert report.meets_rsk_target is False
    assert report.problems == ("Bitcoin block hash is above the RSK block's target",)


def test_tag_too_deep_in_the_tail_is_rejected_though_the_txid_holds() -> None:
    built = build(bytes(range(32)))
    assert decode_coinbase(built.coinbase).hashed_length == 64
    nothing_hashed = compress_coinbase(coinbase_transaction(bytes(range(32))), 0)
    problems = verify(Fields(built.header, nothing_hashed, built.merkle_proof, bytes(range(32))))
    assert "RSKBLOCK: tag starts 117 bytes into the tail; at most 63 allowed" in problems
    assert len(problems) == 1, problems


def test_more_than_128_bytes_after_the_tag_is_rejected() -> None:
    fields = real_fields()
    assert fields.coinbase is not None
    problems = verify(replace(fields, coinbase=fields.coinbase + b"\x00" * 125))
    assert any("129 bytes follow the tag" in text for text in problems), problems


def test_find_rsk_tag_takes_the_last_tag() -> None:
    first, second = b"\x11" * 32, b"\x22" * 32
    assert find_rsk_tag(b"x" + b"RSKBLOCK:" + first + b"RSKBLOCK:" + second + b"tail") == second
    assert find_rsk_tag(b"RSKBLOCK:" + b"\x11" * 31) is None
    assert find_rsk_tag(b"no tag here") is None


def test_fold_merkle_proof() -> None:
    txid = b"\x01" * 32
    assert fold_merkle_proof(txid, b"") == txid
    sibling = bytes(range(32))
    expected = hashlib.sha256(hashlib.sha256(txid + sibling[::-1]).digest()).digest()
    assert fold_merkle_proof(txid, sibling) == expected
    with pytest.raises(ValueError, match="32-byte hashes"):
        fold_merkle_proof(txid, b"\x00" * 33)


@pytest.mark.parametrize(
    ("bits", "target"),
    [
        (0x1D00FFFF, DIFFICULTY_ONE_TARGET),
        (0x207FFFFF, 0x7FFFFF << 232),
        (0x03123456, 0x123456),
        (0x02123456, 0x1234),
        (0x04923456, 0),
    ],
)
def test_target_from_bits(bits: int, target: int) -> None:
    assert target_from_bits(bits) == target


def test_header_length_is_checked() -> None:
    with pytest.raises(ValueError, match="80 bytes"):
        decode_bitcoin_header(b"\x00" * 81)


def test_split_and_compose_hash_for_merged_mining() -> None:
    header_hash = bytes(range(32))
    composed = compose_hash_for_merged_mining(header_hash, b"\xaa" * 7, 3, 5_000_000)
    parts = split_hash_for_merged_mining(composed)
    assert parts.header_hash_prefix == header_hash[:20]
    assert (parts.fork_detection, parts.uncle_count, parts.block_number) == (
        b"\xaa" * 7,
        3,
        5_000_000,
    )
    with pytest.raises(ValueError, match="has 32 bytes, got 31"):
        split_hash_for_merged_mining(composed[:-1])
    with pytest.raises(ValueError, match="7 bytes of fork detection"):
        compose_hash_for_merged_mining(header_hash, b"\xaa" * 6, 3, 1)
    with pytest.raises(ValueError, match="uncle count is one byte"):
        compose_hash_for_merged_mining(header_hash, b"\xaa" * 7, 256, 1)
    with pytest.raises(ValueError, match="block number four"):
        compose_hash_for_merged_mining(header_hash, b"\xaa" * 7, 0, 2**32)


maybe_bytes = st.one_of(st.none(), st.binary(max_size=300))


@settings(max_examples=300, deadline=None)
@given(maybe_bytes, maybe_bytes, maybe_bytes, maybe_bytes)
def test_garbage_never_raises(
    header: bytes | None, coinbase: bytes | None, proof: bytes | None, hfmm: bytes | None
) -> None:
    report = verify_merge_mining(header, coinbase, proof, hfmm, block_number=1, difficulty=0)
    assert not report.verified
    assert report.problems


@settings(deadline=None)
@given(st.binary(min_size=80, max_size=80), st.binary(min_size=40, max_size=200))
def test_well_sized_garbage_never_raises(header: bytes, coinbase: bytes) -> None:
    report = verify_merge_mining(header, coinbase, coinbase[:64], coinbase[:32], difficulty=7)
    assert report.header is not None
    assert not report.verified
