"""sha256state: resuming from a midstate gives exactly hashlib's SHA-256."""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.chain import sha256state


def test_known_vector_abc() -> None:
    digest = sha256state.resume(sha256state.INITIAL_STATE, 0, b"abc")
    assert digest.hex() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"


@pytest.mark.parametrize("length", [0, 55, 56, 63, 64, 65, 119, 120, 128])
def test_padding_boundaries(length: int) -> None:
    data = bytes(range(256))[:length] if length <= 256 else b""
    assert sha256state.resume(sha256state.INITIAL_STATE, 0, data) == hashlib.sha256(data).digest()


@settings(deadline=None)
@given(st.binary(max_size=400), st.data())
def test_resume_from_any_block_boundary_matches_hashlib(data: bytes, draw: st.DataObject) -> None:
    cut = draw.draw(st.integers(min_value=0, max_value=len(data) // 64)) * 64
    state = sha256state.midstate(data[:cut])
    assert sha256state.resume(state, cut, data[cut:]) == hashlib.sha256(data).digest()


@given(st.binary(min_size=32, max_size=32))
def test_state_bytes_round_trip(raw: bytes) -> None:
    assert sha256state.state_to_bytes(sha256state.state_from_bytes(raw)) == raw


def test_midstate_needs_whole_blocks() -> None:
    with pytest.raises(ValueError, match="64-byte"):
        sha256state.midstate(b"\x00" * 65)
