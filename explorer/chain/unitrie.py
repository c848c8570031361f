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
from dataclasses import dataclass

import rlp

from explorer.chain.keccak import keccak

EMPTY_TRIE_HASH = keccak(rlp.encode(b""))
MAX_EMBEDDED_SIZE = 44
LONG_VALUE_OVER = 32


@dataclass(frozen=True)
class Node:
    """A trie node: shared path bits ('0'/'1'), value, children."""

    path: str
    value: bytes
    left: Node | None
    right: Node | None
    known_hash: bytes = b""  # keccak of value when the caller has it (a transaction's hash)

    @property
    def value_hash(self) -> bytes:
        """Return keccak of the value (a long value is stored by it)."""
        return self.known_hash or keccak(self.value)

    @property
    def is_leaf(self) -> bool:
        """Tell whether the node has no children (Trie.isTerminal)."""
        return self.left is None and self.right is None

    @property
    def long_value(self) -> bool:
        """Tell whether the value is stored by hash (more than 32 bytes)."""
        return len(self.value) > LONG_VALUE_OVER


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


Keyed = tuple[str, bytes, bytes]  # key bits, value, keccak of value (or b"")


def _build(keys: Sequence[Keyed], start: int) -> Node:
    """Build the node for sorted, distinct keys that agree on their bits before start."""
    first, last = keys[0][0], keys[-1][0]
    shared = _common_prefix(first, last, start)
    split = start + shared
    value, known = b"", b""
    lefts: list[Keyed] = []
    rights: list[Keyed] = []
    for entry in keys:
        bits = entry[0]
        if len(bits) == split:
            value, known = entry[1], entry[2]
        elif bits[split] == "0":
            lefts.append(entry)
        else:
            rights.append(entry)
    return Node(
        path=first[start:split],
        value=value,
        left=_build(lefts, split + 1) if lefts else None,
        right=_build(rights, split + 1) if rights else None,
        known_hash=known,
    )


def build_trie(items: Sequence[bytes], hashes: Sequence[bytes] = ()) -> Node | None:
    """Return the trie of items keyed by their index's RLP; None when there are none.

    hashes, when given, are the items' keccak digests, not computed again. An empty item is
    never stored (rskj treats an empty value as a deletion).
    """
    known = list(hashes) or [b""] * len(items)
    keys = sorted(
        (_bits(rlp.encode(index)), item, known[index]) for index, item in enumerate(items) if item
    )
    return _build(keys, 0) if keys else None


def _path_bytes(path: str) -> bytes:
    """Encode path bits into bytes, most significant bit first, zero-padded (PathEncoder)."""
    padded = path + "0" * (-len(path) % 8)
    return int(padded, 2).to_bytes(len(padded) // 8, "big") if padded else b""


def varint(value: int) -> bytes:
    """Bitcoin's VarInt (bitcoinj VarInt.encode)."""
    if value < 0xFD:
        return bytes([value])
    if value <= 0xFFFF:
        return b"\xfd" + value.to_bytes(2, "little")
    if value <= 0xFFFFFFFF:
        return b"\xfe" + value.to_bytes(4, "little")
    return b"\xff" + value.to_bytes(8, "little")


@dataclass(frozen=True)
class Serialized:
    """A node's RSKIP107 message and the subtree size its parent counts (referenceSize)."""

    message: bytes
    reference_size: int
    embeddable: bool


def _shared_path(path: str) -> bytes:
    """SharedPathSerializer.serializeInto: the length prefix, then the bits."""
    length = len(path)
    if 1 <= length <= 32:
        prefix = bytes([length - 1])
    elif 160 <= length <= 382:
        prefix = bytes([length - 128])
    else:
        prefix = b"\xff" + varint(length)
    return prefix + _path_bytes(path)


def _child_reference(child: Serialized) -> bytes:
    """Embed a small leaf (a length byte and its message), else refer to it by hash."""
    if child.embeddable:
        return bytes([len(child.message)]) + child.message
    return keccak(child.message)


def serialize(node: Node) -> Serialized:
    """Return a node's Trie.toMessage() and its referenceSize, children first."""
    children = [serialize(child) if child else None for child in (node.left, node.right)]
    flags = 0b01000000
    if node.long_value:
        flags |= 0b00100000
    if node.path:
        flags |= 0b00010000
    for present, embedded, child in zip((0x08, 0x04), (0x02, 0x01), children, strict=True):
        if child is not None:
            flags |= present | (embedded if child.embeddable else 0)
    parts = [bytes([flags]), _shared_path(node.path) if node.path else b""]
    parts += [_child_reference(child) for child in children if child is not None]
    children_size = sum(child.reference_size for child in children if child is not None)
    if not node.is_leaf:
        parts.append(varint(children_size))
    if node.long_value:
        parts += [node.value_hash, len(node.value).to_bytes(3, "big")]
    else:
        parts.append(node.value)
    message = b"".join(parts)
    external = len(node.value) if node.long_value else 0
    return Serialized(
        message,
        children_size + external + len(message),
        node.is_leaf and len(message) <= MAX_EMBEDDED_SIZE,
    )


def orchid_message(node: Node) -> bytes:
    """Return a node's Trie.toMessageOrchid(false): children by their Orchid hashes."""
    mask, hashes = 0, b""
    for bit, child in ((1, node.left), (2, node.right)):
        if child is not None:
            mask |= bit
            hashes += keccak(orchid_message(child))
    head = bytes([2, 0b10 if node.long_value else 0]) + mask.to_bytes(2, "big")
    path = len(node.path).to_bytes(2, "big") + _path_bytes(node.path)
    value = node.value_hash if node.long_value else node.value
    return head + path + hashes + value


def trie_root(
    items: Sequence[bytes], *, unitrie: bool = True, hashes: Sequence[bytes] = ()
) -> bytes:
    """Return the root hash of items keyed by index, in the RSKIP107 or the Orchid format."""
    root = build_trie(items, hashes)
    if root is None:
        return EMPTY_TRIE_HASH
    return keccak(serialize(root).message if unitrie else orchid_message(root))
