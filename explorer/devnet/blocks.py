"""Assemble real Rootstock blocks: header RLP and hashes as rskj makes them, uncles, merge mining.

The hash, the transactions and receipts roots and the merge-mining binding are computed by the
same rules the explorer verifies blocks with (explorer/chain: rskheader, unitrie, rsktx), per
the network rules of the devnet's chain id at each height (rskrules): the test network's at
its low heights (RSKIP92 and RSKIP126 on, fork detection data from block 449, no ummRoot yet),
the main network's (proof and coinbase in the hash, a BIP 37 tree as the proof, Orchid tries).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

import rlp
from rlp.codec import encode_raw, length_prefix

from explorer.chain.keccak import keccak
from explorer.chain.mergemining import compose_hash_for_merged_mining
from explorer.chain.rskheader import (
    HeaderFields,
    base_hash_for_merged_mining,
    encode_header,
    encodings,
    header_items,
)
from explorer.chain.rskrules import TESTNET_RULES, NetworkRules, rules_for_chain
from explorer.chain.unitrie import trie_root
from explorer.devnet.blockdata import DevBlock, MergeMining, ReceiptRecord, TxRecord
from explorer.devnet.coinbase import build_merge_mining_fields
from explorer.devnet.evm import MINIMUM_GAS_PRICE

BASE_DIFFICULTY = 2  # regtest-like: the Bitcoin hash is ground to meet 2^256 / max(3, d)
DIFFICULTY_SPREAD = 16  # so a block takes 3 to 18 tries (on average 10) to grind
EMPTY_UNCLES_HASH = keccak(rlp.encode([]))
LIST_OFFSET = 0xC0
NO_MERGE_MINING = MergeMining(b"", b"", b"", b"")


def devnet_rules(chain_id: int) -> NetworkRules:
    """Return the rules the devnet's blocks follow on a chain (the test network's if unknown)."""
    return rules_for_chain(chain_id) or TESTNET_RULES


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
    rules: NetworkRules = TESTNET_RULES


def difficulty_of(number: int) -> int:
    """Return a deterministic, slightly varying difficulty for block number (2 to 17)."""
    spread = keccak(b"difficulty" + number.to_bytes(8, "big"))[0] % DIFFICULTY_SPREAD
    return BASE_DIFFICULTY + spread


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


def header_fields(block: DevBlock) -> HeaderFields:
    """Return a block's header fields, as its JSON shows them."""
    mm = block.merge_mining
    return HeaderFields(
        number=block.number,
        parent_hash=block.parent_hash,
        uncles_hash=block.sha3_uncles,
        coinbase=block.miner,
        state_root=block.state_root,
        transactions_root=block.transactions_root,
        receipts_root=block.receipts_root,
        logs_bloom=block.logs_bloom.to_bytes(256, "big"),
        difficulty=block.difficulty,
        gas_limit=block.gas_limit,
        gas_used=block.gas_used,
        timestamp=block.timestamp,
        extra_data=block.extra_data,
        paid_fees=block.paid_fees,
        minimum_gas_price=block.minimum_gas_price,
        uncle_count=len(block.uncles),
        edges=None,
        edges_sent=True,
        base_event=b"",
        bitcoin_header=mm.header,
        merkle_proof=mm.merkle_proof,
        coinbase_transaction=mm.coinbase,
        claimed_hash=block.hash,
        claimed_hash_for_merged_mining=mm.hash_for_merged_mining or None,
    )


def _merge_mining(base_hash: bytes, draft: BlockDraft, parent_hash: bytes) -> MergeMining:
    """Merge-mining fields committing to a header's hash, verifiable end to end."""
    if draft.rules.fork_detection_data(draft.number):
        fork_detection = keccak(b"fork-detection" + parent_hash)[:7]
        uncle_byte = min(draft.recent_uncles, 0xFF)
        hash_for_mm = compose_hash_for_merged_mining(
            base_hash, fork_detection, uncle_byte, draft.number
        )
    else:
        hash_for_mm = base_hash  # before RSKIP110 (and block 449) the whole hash
    fields = build_merge_mining_fields(
        hash_for_mm,
        previous_block_hash=keccak(b"bitcoin-parent" + draft.number.to_bytes(8, "big")),
        time=draft.timestamp,
        seed=draft.number.to_bytes(8, "big"),
        rsk_difficulty=difficulty_of(draft.number),
        partial_tree=not draft.rules.merge_mining_compressed(draft.number),
    )
    return MergeMining(fields.header, fields.coinbase, fields.merkle_proof, hash_for_mm)


def encoded_header(block: DevBlock, rules: NetworkRules) -> bytes:
    """Return `BlockHeader.getEncoded()` (rsk_getRawBlockHeaderByHash): a version 0 header."""
    fields = header_fields(block)
    encoding = next(encodings(fields, rules))
    return encode_header(fields, rules, encoding)


def _full_encoded_length(block: DevBlock, rules: NetworkRules) -> int:
    """Return the length of `getFullEncoded()`: the header with proof and coinbase."""
    fields = header_fields(block)
    items = header_items(fields, rules, next(encodings(fields, rules)), merge_mining=True)
    if rules.merge_mining_compressed(block.number):
        items += [fields.merkle_proof, fields.coinbase_transaction]
    return len(encode_raw(items))


def assemble_block(draft: BlockDraft, parent: DevBlock | None) -> DevBlock:
    """Build the block record: header fields, roots, merge mining and the block hash."""
    rules = draft.rules
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
    encoded_txs = tuple(tx.encoded for tx in draft.transactions)
    unitrie = rules.unitrie_hashes(draft.number)
    unhashed = DevBlock(
        number=draft.number,
        hash=b"",
        parent_hash=parent_hash,
        sha3_uncles=keccak(encoded_uncles),
        logs_bloom=bloom,
        transactions_root=trie_root(encoded_txs, unitrie=unitrie),
        state_root=draft.state_root,
        receipts_root=trie_root([r.encoded for r in draft.receipts], unitrie=unitrie),
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
    sealed = _sealed(unhashed, draft)
    size = list_length(
        (
            _full_encoded_length(sealed, rules),
            list_length(map(len, encoded_txs)),
            len(encoded_uncles),
        )
    )
    return dataclasses.replace(sealed, size=size)


def _sealed(unhashed: DevBlock, draft: BlockDraft) -> DevBlock:
    """Return the block with its merge-mining fields and its hash, under the draft's rules."""
    rules = draft.rules
    fields = header_fields(unhashed)
    encoding = next(encodings(fields, rules))
    base = base_hash_for_merged_mining(fields, rules, encoding)
    merge_mining = _merge_mining(base, draft, unhashed.parent_hash)
    mined = dataclasses.replace(unhashed, merge_mining=merge_mining)
    block_hash = keccak(encode_header(header_fields(mined), rules, encoding))
    return dataclasses.replace(mined, hash=block_hash)


def retimed_block(
    block: DevBlock, parent_hash: bytes, timestamp: int, rules: NetworkRules
) -> DevBlock:
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
        rules=rules,
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
    return _sealed(unhashed, draft)
