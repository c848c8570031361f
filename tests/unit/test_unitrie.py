"""The Unitrie's two node formats as rskj's Trie tests pin them, and BIP 37 partial trees."""

from __future__ import annotations

import pytest
import rlp
from eth_hash.auto import keccak
from hypothesis import given
from hypothesis import strategies as st

from explorer.chain.btcpmt import PartialMerkleTree, PartialMerkleTreeError, coinbase_in_tree
from explorer.chain.mergemining import decode_bitcoin_header, display_hex
from explorer.chain.unitrie import EMPTY_TRIE_HASH, Node, orchid_message, serialize, trie_root


def test_empty_trie_hash() -> None:
    """No items: keccak(RLP("")), the empty trie of rskj (and Ethereum)."""
    assert trie_root([]) == trie_root([], unitrie=False) == EMPTY_TRIE_HASH
    assert keccak(b"\x80") == EMPTY_TRIE_HASH


def test_orchid_messages_as_rskj_pins_them() -> None:
    """TrieOrchidMessageTest: a value, a long value, a shared path, two children."""
    assert orchid_message(Node("", b"\x01\x02\x03\x04", None, None)) == bytes(
        [2, 0, 0, 0, 0, 0, 1, 2, 3, 4]
    )
    long_value = bytes(range(33))
    assert orchid_message(Node("", long_value, None, None)) == bytes([2, 2, 0, 0, 0, 0]) + (
        keccak(long_value)
    )
    leaf = Node("00000010", b"\x01\x02\x03\x04", None, None)  # key 0x02
    assert orchid_message(leaf) == bytes([2, 0, 0, 0, 0, 8, 2, 1, 2, 3, 4])
    left = Node("0010", b"\x01\x02\x03\x04", None, None)
    right = Node("0010", b"\x01\x02\x03\x04", None, None)
    message = orchid_message(Node("000", b"", left, right))  # keys 0x02 and 0x12
    assert message[:7] == bytes([2, 0, 0, 3, 0, 3, 0])
    assert len(message) == 7 + 64


def test_unitrie_embeds_small_leaves_and_counts_subtrees() -> None:
    """RSKIP107: a leaf of 44 bytes or fewer is embedded; a parent counts its children."""
    small = Node("1", b"\x01", None, None)
    long_value = Node("", bytes(40), None, None)
    wide = Node("1" * 100, bytes(32), None, None)  # 1 + 2 + 13 + 32 = 48 bytes
    assert serialize(small).message == bytes([0b01010000, 0, 0x80, 1])
    assert serialize(small).embeddable
    long_leaf = serialize(long_value)
    assert long_leaf.message == bytes([0b01100000]) + keccak(bytes(40)) + (40).to_bytes(3, "big")
    assert long_leaf.embeddable
    assert long_leaf.reference_size == 40 + len(long_leaf.message)
    assert serialize(wide).message[:3] == bytes([0b01010000, 0xFF, 100])
    assert not serialize(wide).embeddable
    message = serialize(Node("", b"", small, wide)).message
    assert message[0] == 0b01001110  # both children, the left embedded
    assert message[1:6] == bytes([4]) + serialize(small).message
    assert message[6:38] == keccak(serialize(wide).message)
    assert message[38:] == bytes([4 + 48])  # the subtree size, a VarInt


@given(st.lists(st.binary(min_size=1, max_size=80), min_size=1, max_size=40))
def test_root_does_not_depend_on_insertion_order(items: list[bytes]) -> None:
    """Keys are the indexes' RLP: the trie is built from them, not from the order of puts."""
    keyed = {rlp.encode(i): item for i, item in enumerate(items)}
    assert len(keyed) == len(items)
    assert len(trie_root(items)) == 32
    assert len(trie_root(items, unitrie=False)) == 32
    assert trie_root(items) != trie_root(items[::-1]) or items == items[::-1]


# The bitcoin.org `merkleblock` example: Bitcoin block 000000000000b731…dea4, 7 transactions.
MERKLEBLOCK = bytes.fromhex(
    "0100000082bb869cf3a793432a66e826e05a6fc37469f8efb7421dc880670100000000007f16c5962e8bd9"
    "63659c793ce370d95f093bc7e367117b3c30c1f8fdd0d9728776381b4d4c86041b554b85290700000004"
    "3612262624047ee87660be1a707519a443b1c1ce3d248cbfc6c15870f6c5daa2019f5b01d4195ecbc9398f"
    "bf3c3b1fa9bb3183301d7a1fb3bd174fcfa40a2b6541ed70551dd7e841883ab8f0b16bf04176b7d1480e4f"
    "0af9f3d4c3595768d06820d2a7bc994987302e5b1ac80fc425fe25f8b63169ea78e68fbaaefa59379bbf01"
    "1d"
)


def test_partial_merkle_tree_of_a_real_bitcoin_block() -> None:
    """The tree rebuilds the header's merkle root and matches the one transaction flagged."""
    header = decode_bitcoin_header(MERKLEBLOCK[:80])
    tree = PartialMerkleTree.parse(MERKLEBLOCK[80:])
    assert tree.transactions == 7
    assert len(tree.hashes) == 4
    root, matched = tree.root_and_matches()
    assert display_hex(root) == header.merkle_root
    assert len(matched) == 1
    assert coinbase_in_tree(MERKLEBLOCK[80:], matched[0]) == root
    with pytest.raises(PartialMerkleTreeError, match="not among"):
        coinbase_in_tree(MERKLEBLOCK[80:], bytes(32))


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-1],  # a flag byte short
        lambda b: b + b"\x00",  # a byte too many
        lambda b: b[:4] + b"\xfd\xff\xff" + b[5:],  # announces 65,535 hashes
        lambda b: b[:-1] + b"\x00",  # flags that use no hash
        lambda b: b"\x00\x00\x00\x00" + b[4:],  # no transactions
    ],
)
def test_partial_merkle_tree_refuses_damage(damage: object) -> None:
    """Truncated, padded or inconsistent trees are refused with a reason, never crash."""
    data = damage(MERKLEBLOCK[80:])  # type: ignore[operator]
    with pytest.raises(PartialMerkleTreeError):
        PartialMerkleTree.parse(data).root_and_matches()
