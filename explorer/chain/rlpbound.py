"""RLP from a node, decoded only once its size and nesting are known to be within bounds.

`rlp.decode` recurses once per nested list: a log whose data nests a thousand lists deep ends
in RecursionError (a crash, not a message). `decode` first walks the bytes with an explicit
stack, no recursion: each item's prefix is read (as in the RLP spec: 0x80/0xb7 strings, 0xc0/0xf7
lists), its length checked against what is left of the input and of its enclosing list, and
the nesting counted. Input over `max_size` bytes or `max_depth` levels is refused before
`rlp.decode` sees it, with an error that says which bound it crossed.
"""

from __future__ import annotations

from typing import Any

import rlp

MAX_SIZE = 1 << 20  # 1 MiB: any event's data, header or receipt the explorer decodes
MAX_DEPTH = 16  # rskj's own RLP (logs, headers, receipts) nests a few levels at most


class RlpBoundError(ValueError):
    """RLP refused before decoding: too large, too deep, or its lengths do not add up."""


def _header(data: bytes, offset: int) -> tuple[bool, int, int]:
    """Read the prefix at offset; return (is_list, payload start, payload length)."""
    first = data[offset]
    if first < 0x80:
        return False, offset, 1
    if first <= 0xB7:
        return False, offset + 1, first - 0x80
    if first < 0xC0:
        size = first - 0xB7
        return False, offset + 1 + size, _long_length(data, offset, size)
    if first <= 0xF7:
        return True, offset + 1, first - 0xC0
    size = first - 0xF7
    return True, offset + 1 + size, _long_length(data, offset, size)


def _long_length(data: bytes, offset: int, size: int) -> int:
    """Read a long item's big-endian length of size bytes after its first byte."""
    if offset + 1 + size > len(data):
        raise RlpBoundError("RLP ends inside a length")
    return int.from_bytes(data[offset + 1 : offset + 1 + size], "big")


def check_bounds(data: bytes, *, max_size: int = MAX_SIZE, max_depth: int = MAX_DEPTH) -> int:
    """Walk RLP without recursing; return its deepest nesting, or raise RlpBoundError."""
    if len(data) > max_size:
        raise RlpBoundError(f"RLP of {len(data):,} bytes is over the {max_size:,} allowed")
    if not data:
        raise RlpBoundError("empty RLP")
    ends = [len(data)]  # where each open list (and the whole input) ends
    offset, deepest = 0, 0
    while offset < len(data):
        while offset == ends[-1]:
            ends.pop()
        is_list, start, length = _header(data, offset)
        end = start + length
        if end > ends[-1]:
            raise RlpBoundError("an RLP item runs past the list that holds it")
        if not is_list:
            offset = end
            continue
        if len(ends) > max_depth:
            raise RlpBoundError(f"RLP nests deeper than {max_depth} lists")
        ends.append(end)
        deepest = max(deepest, len(ends) - 1)
        offset = start
    return deepest


def decode(data: bytes, *, max_size: int = MAX_SIZE, max_depth: int = MAX_DEPTH) -> Any:
    """Decode RLP within bounds; RlpBoundError when it is not (rlp's DecodingError if bad)."""
    check_bounds(bytes(data), max_size=max_size, max_depth=max_depth)
    return rlp.decode(bytes(data))
