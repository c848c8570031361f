"""Display formatting for narrow cells."""

from __future__ import annotations

import pytest

from explorer.presentation.format import brief_amount


@pytest.mark.parametrize(
    ("wei", "text"),
    [
        (971_270_000_000_000_000, "0.97127 tRBTC"),
        (2_103_000_000_000_000, "0.002103 tRBTC"),
        (2_103_456_789_000_000, "≈0.002103 tRBTC"),
        (1, "<0.000001 tRBTC"),
        (0, "0 tRBTC"),
        (999_999_999_999_999_999, "≈1 tRBTC"),
    ],
)
def test_a_home_value_is_short_and_says_when_it_is_rounded(wei: int, text: str) -> None:
    """The home table's Value fits beside the bookmarks panel; the exact one is on hover."""
    assert brief_amount(wei, "tRBTC") == text
