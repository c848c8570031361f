"""Rootstock's binary trie (the Unitrie): the root hash of a block's transactions or receipts.

rskj (rsksmart/rskj) puts item i under the key `RLP.encodeInt(i)` (`co/rsk/core/bc/
BlockHashesHelper.java`) in `co/rsk/trie/Trie.java`, a binary Patricia trie: a node has a shared
path of bits, a left (0) and a right (1) child and maybe a value. Its hash is keccak of its
serialization: `Trie.toMessage()` (RSKIP107, used from RSKIP126) or, before, the Orchid format
`Trie.toMessageOrchid(false)`. The empty trie hashes to keccak(RLP("")).

RSKIP107 node (`internalToMessage`, `NodeReference`, `SharedPathSerializer`, `PathEncoder`):
a flags byte (0b01000000, long value 0x20, shared path 0x10, left 0x08, right 0x04, left
embedded 0x02, right embedded 0x01); the shared path's bit length (1..32: one byte, length-1;
160..382: one byte, length-128; else 0xff and a VarInt) and its bits, most significant first;
each child as its hash, or embedded (a one-byte length and its message) when it is a leaf whose
message has at most 44 bytes; the VarInt size of the subtree unless a leaf; the value, or for
more than 32 bytes keccak of it and its length in three bytes.

Orchid node: arity 2, flags (long value 0x02), a 16-bit child mask (left 1, right 2), the
16-bit shared path length and its bits, the children's hashes, then the value (or its hash).

Keys here are at most a few bytes, so the trie is as deep as a key has bits: building it
recurses over the items' own keys, never over anything nested in input.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import rlp

from explorer.chain.btc_tx import varint  # bitcoinj VarInt, as rskj's trie writes sizes
from explorer.chain.keccak import keccak

EMPTY_TRIE_HASH = keccak(rlp.encode(b""))
MAX_EMBEDDED_SIZE = 44
LONG_VALUE_OVER = 32


class Node(NamedTuple):
    """A trie node as a caller writes one: shared path bits ('0'/'1'), value, children."""

    path: str
    value: bytes
    left: Node | None
    right: Node | None


class Shape(NamedTuple):
    """A node of a trie's shape: its path (and SharedPathSerializer bytes), value index, kids.

    The shape of a block's trie depends only on which indexes it holds, so it is built once
    per count and the values are read from the items (index -1: no value).
    """

    path: str
    shared: bytes
    slot: int
    left: Shape | None
    right: Shape | None


class Serialized(NamedTuple):
    """A node's RSKIP107 message and the subtree size its parent counts (referenceSize)."""

    message: bytes
    reference_size: int
    embeddable: bool


def _bits(key: bytes) -> str:
    """Return a key's bits, most significant first (TrieKeySlice.fromKey)."""
    return "".join(format(byte, "08b") for byte in key)


def _common_prefix(first: str, last: str, start: int) -> int:
    """Return how many bits first and last share from start on."""
    end = min(len(first), len(last))
    position = start
    while position < end and first[position] == last[position]:
        position += 1
    return position - start


def _path_bytes(path: str) -> bytes:
    """Encode path bits into bytes, most significant bit first, zero-padded (PathEncoder)."""
    padded = path + "0" * (-len(path) % 8)
    return int(padded, 2).to_bytes(len(padded) // 8, "big") if padded else b""


def _shared_path(path: str) -> bytes:
    """SharedPathSerializer.serializeInto: the length prefix, then the bits (none: nothing)."""
    length = len(path)
    if length == 0:
        return b""
    if length <= 32:
        prefix = bytes([length - 1])
    elif 160 <= length <= 382:
        prefix = bytes([length - 128])
    else:
        prefix = b"\xff" + varint(length)
    return prefix + _path_bytes(path)


def _shape_node(path: str, index: int, left: Shape | None, right: Shape | None) -> Shape:
    """Return a shape node with its shared path's bytes worked out."""
    return Shape(path, _shared_path(path), index, left, right)


def _build(keys: Sequence[tuple[str, int]], start: int) -> Shape:
    """Build the node for sorted, distinct keys that agree on their bits before start."""
    first, last = keys[0][0], keys[-1][0]
    split = start + _common_prefix(first, last, start)
    index = -1
    lefts: list[tuple[str, int]] = []
    rights: list[tuple[str, int]] = []
    for bits, position in keys:
        if len(bits) == split:
            index = position
        elif bits[split] == "0":
            lefts.append((bits, position))
        else:
            rights.append((bits, position))
    left = _build(lefts, split + 1) if lefts else None
    right = _build(rights, split + 1) if rights else None
    return _shape_node(first[start:split], index, left, right)


@lru_cache(maxsize=64)
def _shape(indexes: tuple[int, ...]) -> Shape:
    """Return the shape of a trie holding items under their indexes' RLP (rskj's keys)."""
    return _build(sorted((_bits(rlp.encode(index)), index) for index in indexes), 0)


def _message(shape: Shape, values: Sequence[bytes], hashes: Sequence[bytes]) -> Serialized:
    """Return a node's Trie.toMessage() and its referenceSize, children first."""
    flags = 0b01010000 if shape.shared else 0b01000000
    references: list[bytes] = []
    children_size = 0
    for child, present, embedded in ((shape.left, 0x08, 0x02), (shape.right, 0x04, 0x01)):
        if child is not None:
            message, size, embeddable = _message(child, values, hashes)
            flags |= present | embedded if embeddable else present
            references.append(bytes([len(message)]) + message if embeddable else keccak(message))
            children_size += size
    value = values[shape.slot] if shape.slot >= 0 else b""
    long_value = len(value) > LONG_VALUE_OVER
    parts = [b"", shape.shared, *references]
    if references:
        parts.append(varint(children_size))
    if long_value:
        flags |= 0b00100000
        parts += [hashes[shape.slot] or keccak(value), len(value).to_bytes(3, "big")]
    else:
        parts.append(value)
    parts[0] = bytes([flags])
    message = b"".join(parts)
    size = children_size + (len(value) if long_value else 0) + len(message)
    return Serialized(message, size, not references and len(message) <= MAX_EMBEDDED_SIZE)


def _orchid(shape: Shape, values: Sequence[bytes], hashes: Sequence[bytes]) -> bytes:
    """Return a node's Trie.toMessageOrchid(false): children by their Orchid hashes."""
    mask, references = 0, b""
    for bit, child in ((1, shape.left), (2, shape.right)):
        if child is not None:
            mask |= bit
            references += keccak(_orchid(child, values, hashes))
    value = values[shape.slot] if shape.slot >= 0 else b""
    long_value = len(value) > LONG_VALUE_OVER
    head = bytes([2, 0b10 if long_value else 0]) + mask.to_bytes(2, "big")
    path = len(shape.path).to_bytes(2, "big") + _path_bytes(shape.path)
    stored = (hashes[shape.slot] or keccak(value)) if long_value else value
    return head + path + references + stored


def _from_node(node: Node, values: list[bytes]) -> Shape:
    """Return a written node's shape, its values appended to values."""
    index = -1
    if node.value:
        index = len(values)
        values.append(node.value)
    left = None if node.left is None else _from_node(node.left, values)
    right = None if node.right is None else _from_node(node.right, values)
    return _shape_node(node.path, index, left, right)


def serialize(node: Node) -> Serialized:
    """Return a written node's Trie.toMessage() and referenceSize."""
    values: list[bytes] = []
    shape = _from_node(node, values)
    return _message(shape, values, [b""] * len(values))


def orchid_message(node: Node) -> bytes:
    """Return a written node's Trie.toMessageOrchid(false)."""
    values: list[bytes] = []
    shape = _from_node(node, values)
    return _orchid(shape, values, [b""] * len(values))


def trie_root(
    items: Sequence[bytes], *, unitrie: bool = True, hashes: Sequence[bytes] = ()
) -> bytes:
    """Return the root hash of items keyed by index, in the RSKIP107 or the Orchid format.

    hashes, when given, are the items' keccak digests, not computed again. An empty item is
    never stored (rskj treats an empty value as a deletion).
    """
    indexes = tuple(index for index, item in enumerate(items) if item)
    if not indexes:
        return EMPTY_TRIE_HASH
    known = hashes or [b""] * len(items)
    shape = _shape(indexes)
    if unitrie:
        return keccak(_message(shape, items, known).message)
    return keccak(_orchid(shape, items, known))
