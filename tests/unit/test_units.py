"""units: exact RBTC, gwei and token amounts both ways, no floats anywhere."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.units import format_gwei, format_rbtc, format_units, parse_rbtc, parse_units

WEI = 10**18
MAX_UINT256_RBTC = (
    "115,792,089,237,316,195,423,570,985,008,687,907,853,269,984,665,640,564,039,457"
    ".584007913129639935 RBTC"
)


@pytest.mark.parametrize(
    ("wei", "text"),
    [
        (0, "0 RBTC"),
        (WEI, "1 RBTC"),
        (1, "0.000000000000000001 RBTC"),
        (1234 * WEI + WEI // 2, "1,234.5 RBTC"),
        (10**6 * WEI + 10, "1,000,000.00000000000000001 RBTC"),
        (-3 * WEI // 10, "-0.3 RBTC"),
        (2**256 - 1, MAX_UINT256_RBTC),
    ],
)
def test_format_rbtc_is_exact(wei: int, text: str) -> None:
    assert format_rbtc(wei) == text


def test_symbol_is_configurable() -> None:
    assert format_rbtc(WEI // 4, "tRBTC") == "0.25 tRBTC"
    assert format_rbtc(WEI, "") == "1"


@pytest.mark.parametrize(
    ("wei", "text"), [(60_000_000, "0.06 gwei"), (0, "0 gwei"), (10**9, "1 gwei")]
)
def test_format_gwei(wei: int, text: str) -> None:
    assert format_gwei(wei) == text


def test_format_units_for_tokens() -> None:
    assert format_units(123_456, 2) == "1,234.56"
    assert format_units(123_456, 0) == "123,456"
    assert format_units(123_456, 2, grouping=False) == "1234.56"
    with pytest.raises(ValueError, match="decimals cannot be negative"):
        format_units(1, -1)


@pytest.mark.parametrize(
    ("text", "wei"),
    [
        ("1", WEI),
        ("1,234.5 RBTC", 1234 * WEI + WEI // 2),
        (" .5 trbtc ", WEI // 2),
        ("1_000", 1000 * WEI),
    ],
)
def test_parse_rbtc(text: str, wei: int) -> None:
    assert parse_rbtc(text) == wei


@pytest.mark.parametrize(
    "bad", ["", ".", "-", "1.2.3", "1e18", "abc", "0.0000000000000000001", "١"]
)
def test_parse_rbtc_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match="decimal"):
        parse_rbtc(bad)


@given(st.integers(min_value=-(2**260), max_value=2**260), st.integers(min_value=0, max_value=40))
def test_format_parse_round_trip(value: int, decimals: int) -> None:
    assert parse_units(format_units(value, decimals), decimals) == value
    assert parse_units(format_units(value, decimals, grouping=False), decimals) == value


@given(st.text(max_size=40))
def test_parse_raises_only_value_error(text: str) -> None:
    with contextlib.suppress(ValueError):
        parse_units(text, 18)
