"""RLP encoding of byte strings and lists of them, as `rlp.codec.encode_raw`, only faster.

Verifying a block re-encodes every transaction, receipt and header; pyrlp's general encoder
checks each item's type through its sedes machinery (about ten times the cost of the
encoding itself). Here an item is bytes or a list (nested lists allowed, as receipts' logs
need), nothing else; tests check every answer against pyrlp's.
"""

from __future__ import annotations

from collections.abc import Sequence

Item = bytes | Sequence["Item"]
SHORT = 56  # under this many bytes a length fits in the prefix byte
_STRINGS = (bytes, bytearray)  # a bytearray is a string too, not a list of numbers


def _prefix(length: int, offset: int) -> bytes:
    """Return the length prefix of a string (offset 0x80) or a list (offset 0xC0)."""
    if length < SHORT:
        return bytes((offset + length,))
    size = (length.bit_length() + 7) // 8
    return bytes((offset + 55 + size,)) + length.to_bytes(size, "big")


def encode(item: Item) -> bytes:
    """Return the RLP of a byte string or a (nested) list of them."""
    if isinstance(item, _STRINGS):
        length = len(item)
        if length == 1 and item[0] < 0x80:
            return bytes(item)
        return _prefix(length, 0x80) + bytes(item)
    payload = b"".join([encode(part) for part in item])
    return _prefix(len(payload), 0xC0) + payload
