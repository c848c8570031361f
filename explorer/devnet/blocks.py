"""Assemble RSK-shaped blocks: header RLP, hashes, uncles, merge mining, REMASC."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import rlp
from eth_hash.auto import keccak
from rlp.codec import encode_raw, length_prefix
from rlp.sedes import big_endian_int
from trie.hexary import HexaryTrie

from explorer.chain.mergemining import compose_hash_for_merged_mining
from explorer.devnet.blockdata import DevBlock, MergeMining, ReceiptRecord, TxRecord
from explorer.devnet.coinbase import build_merge_mining_fields
from explorer.devnet.evm import MINIMUM_GAS_PRICE

BASE_DIFFICULTY = 2  # regtest-like: the Bitcoin hash is ground to meet 2^256 / difficulty
DIFFICULTY_SPREAD = 16  # so a block takes 2 to 17 tries (on average 9.5) to grind
EMPTY_UNCLES_HASH = keccak(rlp.encode([]))
LIST_OFFSET = 0xC0
NO_MERGE_MINING = MergeMining(b"", b"", b"", b"")
SINGLE_LEAF_PATH = b"\x20\x80"  # hex-prefix form of the key rlp(0) in a leaf (even, terminated)


@dataclass(frozen=True)
class BlockDraft:
    """What a new block is made of, before its header and hashes exist."""

    number: int
    timestamp: int
    miner: bytes
    gas_limit: int
    state_root: bytes
    transactions: tuple[TxRecord, ...]
    receipts: tuple[ReceiptRecord, ...]
    uncle_count: int = 0
    recent_uncles: int = 0


def difficulty_of(number: int) -> int:
    """Return a deterministic, slightly varying difficulty for block number (2 to 17)."""
    spread = keccak(b"difficulty" + number.to_bytes(8, "big"))[0] % DIFFICULTY_SPREAD
    return BASE_DIFFICULTY + spread


def trie_root(items: Sequence[list[object]]) -> bytes:
    """Root of the trie of RLP-encoded items keyed by their index."""
    return encoded_trie_root(tuple(rlp.encode(item) for item in items))


@functools.lru_cache(maxsize=64)
def encoded_trie_root(encoded: tuple[bytes, ...]) -> bytes:
    """Root of the trie of already encoded items (repeated ones, like REMASC receipts, cached)."""
    if len(encoded) == 1:  # most blocks hold only their REMASC transaction: one leaf at key 0x80
        return keccak(rlp.encode([SINGLE_LEAF_PATH, encoded[0]]))
    nodes: dict[bytes, bytes] = {}
    trie = HexaryTrie(nodes)
    with trie.squash_changes() as batch:
        for index, item in enumerate(encoded):
            batch[rlp.encode(index)] = item
    return bytes(trie.root_hash)


def _header_items(header: list[bytes | int]) -> list[bytes]:
    """Return header fields as RLP byte strings (encoded twice a block: no type inference)."""
    return [big_endian_int.serialize(f) if isinstance(f, int) else f for f in header]


def list_length(item_lengths: Iterable[int]) -> int:
    """Length of the RLP list of items already encoded to these lengths."""
    payload = sum(item_lengths)
    return len(length_prefix(payload, LIST_OFFSET)) + payload


def _uncle_headers(draft: BlockDraft, parent_hash: bytes) -> list[list[object]]:
    """Sibling headers standing for this block's uncles."""
    return [
        [
            parent_hash,
            EMPTY_UNCLES_HASH,
            keccak(b"uncle-miner" + bytes([i]))[:20],
            draft.number,
            _uncle_difficulty(draft.number, i),
            draft.timestamp - 1 - i,
        ]
        for i in range(draft.uncle_count)
    ]


def _uncle_difficulty(number: int, index: int) -> int:
    """Return the difficulty of uncle index of block number."""
    return difficulty_of(number + index + 1)


def _merge_mining(plain_header_hash: bytes, draft: BlockDraft, parent_hash: bytes) -> MergeMining:
    """Merge-mining fields for a header hash, verifiable end to end."""
    fork_detection = keccak(b"fork-detection" + parent_hash)[:7]
    uncle_byte = min(draft.recent_uncles, 0xFF)
    hash_for_mm = compose_hash_for_merged_mining(
        plain_header_hash, fork_detection, uncle_byte, draft.number
    )
    fields = build_merge_mining_fields(
        hash_for_mm,
        previous_block_hash=keccak(b"bitcoin-parent" + draft.number.to_bytes(8, "big")),
        time=draft.timestamp,
        seed=draft.number.to_bytes(8, "big"),
        rsk_difficulty=difficulty_of(draft.number),
    )
    return MergeMining(fields.header, fields.coinbase, fields.merkle_proof, hash_for_mm)


def _header_values(block: DevBlock) -> list[bytes | int]:
    """Return the header fields a block's hash covers, merge mining apart, in RLP order."""
    return [
        block.parent_hash,
        block.sha3_uncles,
        block.miner,
        block.state_root,
        block.transactions_root,
        block.receipts_root,
        block.logs_bloom.to_bytes(256, "big"),
        block.difficulty,
        block.number,
        block.gas_limit,
        block.gas_used,
        block.timestamp,
        block.extra_data,
        block.paid_fees,
        block.minimum_gas_price,
        len(block.uncles),
    ]


def encoded_header(block: DevBlock) -> bytes:
    """Return a block's header as RLP, its merge-mining fields last; its hash is the keccak."""
    mm = block.merge_mining
    fields = [*_header_items(_header_values(block)), mm.header, mm.merkle_proof, mm.coinbase]
    return bytes(encode_raw(fields))


def assemble_block(draft: BlockDraft, parent: DevBlock | None) -> DevBlock:
    """Build the block record: header fields, merge mining and the block hash."""
    parent_hash = parent.hash if parent else bytes(32)
    uncles = _uncle_headers(draft, parent_hash)
    encoded_uncles = rlp.encode(uncles)
    difficulty = difficulty_of(draft.number)
    cumulative = difficulty + sum(_uncle_difficulty(draft.number, i) for i in range(len(uncles)))
    bloom = 0
    for receipt in draft.receipts:
        bloom |= receipt.bloom
    gas_used = draft.receipts[-1].cumulative_gas_used if draft.receipts else 0
    paid_fees = sum(
        r.gas_used * t.gas_price for r, t in zip(draft.receipts, draft.transactions, strict=True)
    )
    encoded_txs = tuple(rlp.encode(tx.rlp_fields()) for tx in draft.transactions)
    unhashed = DevBlock(
        number=draft.number,
        hash=b"",
        parent_hash=parent_hash,
        sha3_uncles=keccak(encoded_uncles),
        logs_bloom=bloom,
        transactions_root=encoded_trie_root(encoded_txs),
        state_root=draft.state_root,
        receipts_root=trie_root([r.rlp_fields() for r in draft.receipts]),
        miner=draft.miner,
        difficulty=difficulty,
        total_difficulty=(parent.total_difficulty if parent else 0) + cumulative,
        cumulative_difficulty=cumulative,
        extra_data=b"",
        size=0,
        gas_limit=draft.gas_limit,
        gas_used=gas_used,
        timestamp=draft.timestamp,
        minimum_gas_price=MINIMUM_GAS_PRICE,
        paid_fees=paid_fees,
        uncles=tuple(keccak(rlp.encode(u)) for u in uncles),
        transactions=draft.transactions,
        receipts=draft.receipts,
        merge_mining=NO_MERGE_MINING,
    )
    sealed, full_header = _sealed(unhashed, draft)
    size = list_length((len(full_header), list_length(map(len, encoded_txs)), len(encoded_uncles)))
    return dataclasses.replace(sealed, size=size)


def _sealed(unhashed: DevBlock, draft: BlockDraft) -> tuple[DevBlock, bytes]:
    """Return the block with its merge-mining fields and hash, and its encoded header."""
    plain_hash = keccak(encode_raw(_header_items(_header_values(unhashed))))
    merge_mining = _merge_mining(plain_hash, draft, unhashed.parent_hash)
    mined = dataclasses.replace(unhashed, merge_mining=merge_mining)
    full_header = encoded_header(mined)
    return dataclasses.replace(mined, hash=keccak(full_header)), full_header


def retimed_block(block: DevBlock, parent_hash: bytes, timestamp: int) -> DevBlock:
    """Return block dated timestamp under parent_hash: its uncles, merge mining and hash redone.

    Its transactions, receipts, state and difficulty stay; so does its size (the header's
    fields keep their lengths).
    """
    uncle_byte = block.merge_mining.hash_for_merged_mining[-5]  # RSKIP110: before the number
    draft = BlockDraft(
        block.number,
        timestamp,
        block.miner,
        block.gas_limit,
        block.state_root,
        block.transactions,
        block.receipts,
        uncle_count=len(block.uncles),
        recent_uncles=uncle_byte,
    )
    uncles = _uncle_headers(draft, parent_hash)
    unhashed = dataclasses.replace(
        block,
        hash=b"",
        parent_hash=parent_hash,
        timestamp=timestamp,
        sha3_uncles=keccak(rlp.encode(uncles)),
        uncles=tuple(keccak(rlp.encode(u)) for u in uncles),
        merge_mining=NO_MERGE_MINING,
    )
    return _sealed(unhashed, draft)[0]
