"""revert: Error(string) and Panic(uint256) decode; anything else is None, never an exception."""

from __future__ import annotations

import pytest
from eth_abi.abi import encode
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.revert import ERROR_SELECTOR, PANIC_SELECTOR, decode_revert_reason


def error(reason: str) -> bytes:
    """Encode revert data for Error(string)."""
    return ERROR_SELECTOR + encode(["string"], [reason])


def panic(code: int) -> bytes:
    """Encode revert data for Panic(uint256)."""
    return PANIC_SELECTOR + encode(["uint256"], [code])


@pytest.mark.parametrize("reason", ["Ownable: caller is not the owner", "", "ünïcödé ✓", "x" * 300])
def test_error_string_is_decoded(reason: str) -> None:
    assert decode_revert_reason(error(reason)) == reason


def test_invalid_utf8_reason_is_shown_with_replacement_characters() -> None:
    data = ERROR_SELECTOR + encode(["bytes"], [b"bad \xff byte"])
    assert decode_revert_reason(data) == "bad \ufffd byte"


@pytest.mark.parametrize(
    ("code", "text"),
    [
        (0x01, "panic 0x01: assertion failed"),
        (0x11, "panic 0x11: arithmetic overflow or underflow"),
        (0x12, "panic 0x12: division or modulo by zero"),
        (0x21, "panic 0x21: conversion to an invalid enum value"),
        (0x32, "panic 0x32: array index out of bounds"),
        (0x41, "panic 0x41: out of memory (too much memory allocated)"),
        (0x51, "panic 0x51: call to a zero-initialized internal function"),
        (0x99, "panic 0x99: unknown panic code"),
    ],
)
def test_panic_codes(code: int, text: str) -> None:
    assert decode_revert_reason(panic(code)) == text


@pytest.mark.parametrize(
    "data",
    [
        b"",
        ERROR_SELECTOR,
        PANIC_SELECTOR + b"\x00" * 31,
        ERROR_SELECTOR + b"\x00" * 31 + b"\x20",
        ERROR_SELECTOR + encode(["uint256", "uint256"], [32, 2**255]),
        ERROR_SELECTOR + encode(["uint256"], [2**250]),
        bytes.fromhex("deadbeef") + encode(["string"], ["custom error"]),
        encode(["string"], ["no selector"]),
    ],
)
def test_other_data_is_none(data: bytes) -> None:
    assert decode_revert_reason(data) is None


@given(st.binary(max_size=200))
def test_garbage_never_raises(data: bytes) -> None:
    assert decode_revert_reason(data) is None or isinstance(decode_revert_reason(data), str)


@given(st.sampled_from([ERROR_SELECTOR, PANIC_SELECTOR]), st.binary(max_size=200))
def test_garbage_after_a_known_selector_never_raises(selector: bytes, payload: bytes) -> None:
    result = decode_revert_reason(selector + payload)
    assert result is None or isinstance(result, str)


@given(st.text(max_size=100))
def test_any_reason_round_trips(reason: str) -> None:
    assert decode_revert_reason(error(reason)) == reason
