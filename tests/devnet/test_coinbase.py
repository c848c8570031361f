"""The devnet's merge-mining builder: deterministic fields that the verifier accepts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain.mergemining import (
    MAX_TAG_OFFSET_IN_TAIL,
    RSK_TAG,
    decode_bitcoin_header,
    decode_coinbase,
    find_rsk_tag,
    verify_merge_mining,
)
from explorer.devnet.coinbase import build_merge_mining_fields

HASH = bytes.fromhex("c4d2419792f08338d4fa5fd21c61ad79484c875f1ac9b483f253842edb96c924")
PREVIOUS = bytes(range(32))


def test_built_fields_verify_and_have_the_expected_shape() -> None:
    fields = build_merge_mining_fields(HASH, previous_block_hash=PREVIOUS, time=1_700_000_000)
    report = verify_merge_mining(fields.header, fields.coinbase, fields.merkle_proof, HASH)
    assert report.problems == ()
    header = decode_bitcoin_header(fields.header)
    assert header.previous_block_hash == PREVIOUS[::-1].hex()
    assert header.time == 1_700_000_000
    assert header.bits == 0x207FFFFF
    assert header.meets_own_target
    assert len(fields.merkle_proof) == 3 * 32
    coinbase = decode_coinbase(fields.coinbase)
    assert coinbase.hashed_length >= 64
    assert coinbase.hashed_length % 64 == 0
    assert 0 <= coinbase.tail.rfind(RSK_TAG) <= MAX_TAG_OFFSET_IN_TAIL
    assert find_rsk_tag(coinbase.tail) == HASH
    assert b"\x2a\x6a" + RSK_TAG + HASH in coinbase.tail


def test_building_is_deterministic_and_the_seed_matters() -> None:
    def build(seed: bytes) -> object:
        return build_merge_mining_fields(HASH, previous_block_hash=PREVIOUS, time=5, seed=seed)

    assert build(b"a") == build(b"a")
    assert build(b"a") != build(b"b")


def test_rsk_difficulty_is_met() -> None:
    fields = build_merge_mining_fields(
        HASH, previous_block_hash=PREVIOUS, time=5, rsk_difficulty=1000
    )
    report = verify_merge_mining(
        fields.header, fields.coinbase, fields.merkle_proof, HASH, difficulty=1000
    )
    assert report.meets_rsk_target is True
    assert report.verified


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"hash_for_merged_mining": HASH[:31]}, "have 32 bytes"),
        ({"previous_block_hash": PREVIOUS + b"\x00"}, "have 32 bytes"),
        ({"sibling_count": 31}, "0 to 30 siblings"),
        ({"sibling_count": -1}, "0 to 30 siblings"),
        ({"time": 2**32}, "32-bit time"),
        ({"bits": 0x1D00FFFF}, "too hard to grind"),
        ({"bits": 0x20FFFFFF}, "too hard to grind"),
        ({"rsk_difficulty": 2**17}, "too hard to grind"),
    ],
)
def test_bad_inputs_are_rejected(kwargs: dict[str, object], match: str) -> None:
    arguments: dict[str, object] = {
        "hash_for_merged_mining": HASH,
        "previous_block_hash": PREVIOUS,
        "time": 1,
    } | kwargs
    with pytest.raises(ValueError, match=match):
        build_merge_mining_fields(**arguments)  # type: ignore[arg-type]


@settings(deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.binary(min_size=32, max_size=32),
    st.integers(min_value=0, max_value=2**32 - 1),
    st.integers(min_value=0, max_value=30),
    st.binary(max_size=40),
)
def test_build_then_verify_round_trips(
    hash_for_merged_mining: bytes, previous: bytes, time: int, siblings: int, seed: bytes
) -> None:
    fields = build_merge_mining_fields(
        hash_for_merged_mining, previous_block_hash=previous, time=time,
        sibling_count=siblings, seed=seed,
    )  # fmt: skip
    report = verify_merge_mining(
        fields.header, fields.coinbase, fields.merkle_proof, hash_for_merged_mining, difficulty=2
    )
    assert report.problems == ()
    assert report.tag_matches
    assert report.root_matches
    assert len(report.proof_hashes) == siblings
