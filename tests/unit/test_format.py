"""Amounts as people read them: four decimals, or four significant digits below one."""

from __future__ import annotations

from decimal import Decimal, localcontext

import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.units import format_units, readable_rbtc, readable_units


@pytest.mark.parametrize(
    ("wei", "text"),
    [
        (1_019_365_177_738_310_666_726, "1,019.3652 tRBTC"),  # not 1,019.365177738310666726
        (10_000_013_363_523_804_644_999_950, "10,000,013.3635 tRBTC"),
        (-183_333_333_333_333_333, "-0.1833 tRBTC"),  # not -0.183333333…333333
        (971_270_000_000_000_000, "0.9713 tRBTC"),
        (2_103_456_789_000_000, "0.002103 tRBTC"),
        (21_040_000_000_001, "0.00002104 tRBTC"),
        (1, "0.000000000000000001 tRBTC"),  # one wei is not zero
        (0, "0 tRBTC"),
        (500_000_000_000_000_000, "0.5 tRBTC"),  # exact: nothing to round
        (999_999_999_999_999_999, "1.0000 tRBTC"),  # rounded: its zeros say so
        (5 * 10**18, "5 tRBTC"),
    ],
)
def test_an_amount_reads_as_people_read_it(wei: int, text: str) -> None:
    assert readable_rbtc(wei, "tRBTC") == text


@given(st.integers(min_value=-(10**30), max_value=10**30), st.integers(min_value=0, max_value=24))
def test_the_readable_amount_is_the_exact_one_rounded(value: int, decimals: int) -> None:
    """Within half a unit of its last digit, never zero for what is not, exact when it fits."""
    shown = readable_units(value, decimals)
    places = len(shown.partition(".")[2])
    with localcontext() as context:
        context.prec = 100
        exact = Decimal(value).scaleb(-decimals)
        assert abs(Decimal(shown.replace(",", "")) - exact) <= Decimal(5).scaleb(-places - 1)
    assert (shown.strip("-0.,") == "") == (value == 0)
    exact_text = format_units(value, decimals)
    if len(exact_text.partition(".")[2]) <= 4:
        assert shown == exact_text
