"""rlpfast encodes byte strings and nested lists exactly as pyrlp does."""

from __future__ import annotations

import rlp
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.rlpfast import Item, encode

ITEMS = st.recursive(
    st.binary(max_size=70),  # short and long strings (the prefix changes at 56 bytes)
    lambda children: st.lists(children, max_size=8),
    max_leaves=40,
)


@given(ITEMS)
def test_same_bytes_as_pyrlp(item: Item) -> None:
    """Every item, nested or not, encodes to pyrlp's bytes."""
    assert encode(item) == rlp.encode(item)


def test_lengths_at_the_prefix_boundaries() -> None:
    """A single low byte is itself; 55, 56 and 256+ byte strings and lists take longer prefixes."""
    assert encode(b"\x7f") == b"\x7f"
    assert encode(b"\x80") == b"\x81\x80"
    for size in (0, 55, 56, 255, 256, 70_000):
        assert encode(bytes(size)) == rlp.encode(bytes(size))
        assert encode([b"\x01"] * size) == rlp.encode([b"\x01"] * size)
