"""Bitcoin's partial merkle tree (BIP 37), the merge-mining proof of blocks before RSKIP92.

Before RSKIP92 a Rootstock block carried its coinbase's proof as bitcoinj's serialized
`PartialMerkleTree` (rskj `co/rsk/validators/GenesisMerkleProofValidator.java`, sizes checked
by `co/rsk/peg/utils/PartialMerkleTreeFormatUtils.java`): the block's transaction count (4 bytes,
little-endian), a VarInt count of hashes and the hashes (internal byte order), a VarInt count
of flag bytes and the flags (bits least significant first). Walking the tree depth first
(a set flag: descend, or at a leaf, a matched transaction) rebuilds the merkle root and the
matched transactions; the proof holds when the root is the header's and the coinbase matched.

The walk is as deep as the tree is high (at most 33 levels for a 32-bit count), never as deep
as anything in the input nests; every count is checked against the bytes there are.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

MAX_PROOF_SIZE = 1 << 16  # far above any coinbase proof; refused before it is read


def double_sha256(data: bytes) -> bytes:
    """Return Bitcoin's hash of data: SHA-256 twice (internal byte order)."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


class PartialMerkleTreeError(ValueError):
    """The serialized tree is malformed, truncated, or its bits and hashes do not add up."""


def _varint(data: bytes, offset: int) -> tuple[int, int]:
    """Read a Bitcoin VarInt at offset; return (value, next offset)."""
    if offset >= len(data):
        raise PartialMerkleTreeError("the tree ends inside a count")
    first = data[offset]
    size = {0xFD: 2, 0xFE: 4, 0xFF: 8}.get(first, 0)
    if not size:
        return first, offset + 1
    end = offset + 1 + size
    if end > len(data):
        raise PartialMerkleTreeError("the tree ends inside a count")
    return int.from_bytes(data[offset + 1 : end], "little"), end


@dataclass(frozen=True)
class PartialMerkleTree:
    """A decoded tree: the block's transaction count, its hashes and its flag bits."""

    transactions: int
    hashes: tuple[bytes, ...]
    flags: bytes

    @classmethod
    def parse(cls, data: bytes) -> PartialMerkleTree:
        """Decode the bitcoinj serialization; PartialMerkleTreeError unless it is exact."""
        if len(data) > MAX_PROOF_SIZE:
            raise PartialMerkleTreeError(f"a proof of {len(data):,} bytes is refused")
        if len(data) < 4:
            raise PartialMerkleTreeError("the tree is shorter than its transaction count")
        transactions = int.from_bytes(data[:4], "little")
        count, offset = _varint(data, 4)
        end = offset + 32 * count
        if end > len(data):
            raise PartialMerkleTreeError(f"the tree announces {count:,} hashes it lacks")
        hashes = tuple(data[start : start + 32] for start in range(offset, end, 32))
        flag_count, offset = _varint(data, end)
        if offset + flag_count != len(data):
            raise PartialMerkleTreeError("the tree's flag bytes do not end where it does")
        if transactions <= 0 or count > transactions:
            raise PartialMerkleTreeError("the tree's counts cannot be a block's")
        return cls(transactions, hashes, data[offset:])

    def _width(self, height: int) -> int:
        """Return how many nodes the tree has at height (leaves at 0)."""
        return (self.transactions + (1 << height) - 1) >> height

    def root_and_matches(self) -> tuple[bytes, tuple[bytes, ...]]:
        """Return the merkle root and the matched transaction ids (internal byte order)."""
        height = 0
        while self._width(height) > 1:
            height += 1
        walk = _Walk(self)
        root = walk.node(height, 0)
        if walk.hash_index != len(self.hashes) or (walk.bit_index + 7) // 8 != len(self.flags):
            raise PartialMerkleTreeError("the tree leaves hashes or flag bytes unused")
        return root, tuple(walk.matched)


class _Walk:
    """The depth-first walk's cursor over the tree's flag bits and hashes."""

    def __init__(self, tree: PartialMerkleTree) -> None:
        self.tree = tree
        self.bit_index = 0
        self.hash_index = 0
        self.matched: list[bytes] = []

    def _bit(self) -> bool:
        """Return the next flag bit."""
        if self.bit_index >= 8 * len(self.tree.flags):
            raise PartialMerkleTreeError("the tree runs out of flag bits")
        byte = self.tree.flags[self.bit_index // 8]
        bit = bool(byte >> (self.bit_index % 8) & 1)
        self.bit_index += 1
        return bit

    def _hash(self) -> bytes:
        """Return the next hash."""
        if self.hash_index >= len(self.tree.hashes):
            raise PartialMerkleTreeError("the tree runs out of hashes")
        value = self.tree.hashes[self.hash_index]
        self.hash_index += 1
        return value

    def node(self, height: int, position: int) -> bytes:
        """Return the hash of the node at height and position (recursing at most height)."""
        descend = self._bit()
        if height == 0 or not descend:
            value = self._hash()
            if height == 0 and descend:
                self.matched.append(value)
            return value
        left = self.node(height - 1, position * 2)
        if position * 2 + 1 < self.tree._width(height - 1):
            right = self.node(height - 1, position * 2 + 1)
            if right == left:
                raise PartialMerkleTreeError("the tree repeats a hash (CVE-2012-2459)")
        else:
            right = left
        return double_sha256(left + right)


def single_branch_tree(txid: bytes, siblings: list[bytes]) -> bytes:
    """Serialize the tree proving txid as the first of 2^len(siblings) transactions.

    siblings are the right-hand hashes from the leaves up (internal order): the walk descends
    the left edge (flags 1), matches the txid, then takes each sibling whole (flags 0).
    """
    flags = [1] * (len(siblings) + 1) + [0] * len(siblings)
    packed = bytes(
        sum(bit << offset for offset, bit in enumerate(flags[start : start + 8]))
        for start in range(0, len(flags), 8)
    )
    hashes = [txid, *siblings]
    return (
        (1 << len(siblings)).to_bytes(4, "little")
        + bytes([len(hashes)])
        + b"".join(hashes)
        + bytes([len(packed)])
        + packed
    )


def coinbase_in_tree(data: bytes, coinbase_txid: bytes) -> bytes:
    """Return the tree's merkle root when the coinbase is a matched leaf; raise otherwise."""
    root, matched = PartialMerkleTree.parse(data).root_and_matches()
    if coinbase_txid not in matched:
        raise PartialMerkleTreeError("the coinbase is not among the tree's matched transactions")
    return root
