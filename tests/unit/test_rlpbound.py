"""rlpbound: RLP nested or sized beyond bounds is refused before rlp.decode recurses."""

from __future__ import annotations

import sys

import pytest
import rlp
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.rlpbound import MAX_DEPTH, RlpBoundError, check_bounds, decode
from tests.helpers.forged_node import nested_rlp as nested


def test_a_thousand_deep_list_is_refused_not_a_recursion_error() -> None:
    """rlp.decode itself recurses into a RecursionError; the bound says why instead."""
    deep = nested(1000)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(400)
    try:
        with pytest.raises(RecursionError):
            rlp.decode(deep)
    finally:
        sys.setrecursionlimit(limit)
    with pytest.raises(RlpBoundError, match=f"deeper than {MAX_DEPTH}"):
        decode(deep)


def test_depth_and_size_at_the_bound() -> None:
    """Exactly max_depth decodes; one more level, or one byte over max_size, does not."""
    assert decode(nested(MAX_DEPTH)) is not None
    with pytest.raises(RlpBoundError):
        decode(nested(MAX_DEPTH + 1))
    with pytest.raises(RlpBoundError, match="over the 10"):
        decode(rlp.encode(b"x" * 20), max_size=10)


@pytest.mark.parametrize(
    "data", [b"", b"\xb9\x01", b"\xf8", b"\xc2\x83ab", b"\xc1\xc2\x80\x80", b"\xbf" + b"\xff" * 8]
)
def test_truncated_or_overlong_lengths_are_refused(data: bytes) -> None:
    """Lengths past the input or past their enclosing list are refused, never read."""
    with pytest.raises(RlpBoundError):
        check_bounds(data)


RLP_ITEMS = st.recursive(
    st.binary(max_size=70), lambda inner: st.lists(inner, max_size=5), max_leaves=30
)


@given(RLP_ITEMS)
def test_decodes_what_rlp_decodes(item: object) -> None:
    """Within bounds the answer is rlp.decode's."""
    encoded = rlp.encode(item)
    assert decode(encoded) == rlp.decode(encoded)
