"""The devnet's merge-mining fields: a Bitcoin coinbase, proof and header.

They are deterministic and verify against a block's hashForMergedMining (the explorer only ever
decodes them).
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from explorer.chain import sha256state
from explorer.chain.btcpmt import single_branch_tree
from explorer.chain.mergemining import (
    MAX_PROOF_SIZE,
    RSK_TAG,
    double_sha256,
    fold_merkle_proof,
    rsk_target,
    target_from_bits,
)

REGTEST_BITS = 0x207FFFFF
MIN_BUILD_TARGET = 1 << 240


def compress_coinbase(transaction: bytes, hashed_length: int) -> bytes:
    """Encode a serialized coinbase the way RSK sends it, hashing its first bytes."""
    state = sha256state.midstate(transaction[:hashed_length])
    return (
        hashed_length.to_bytes(8, "big")
        + sha256state.state_to_bytes(state)
        + transaction[hashed_length:]
    )


@dataclass(frozen=True)
class MergeMiningFields:
    """The three merge-mining byte fields of a block, as a node sends them."""

    header: bytes
    coinbase: bytes
    merkle_proof: bytes


def _derive(label: bytes, seed: bytes, anchor: bytes) -> bytes:
    """Return 32 deterministic bytes for one purpose."""
    return hashlib.sha256(label + b"\x00" + seed + anchor).digest()


def _output(satoshis: int, script: bytes) -> bytes:
    """Serialize one transaction output (script under 253 bytes)."""
    return satoshis.to_bytes(8, "little") + bytes([len(script)]) + script


def coinbase_transaction(hash_for_merged_mining: bytes, seed: bytes = b"") -> bytes:
    """Serialize the builder's deterministic coinbase: one input, payout, tag, commitment."""
    extranonce = _derive(b"extranonce", seed, hash_for_merged_mining)[:8]
    script_sig = b"\x08" + extranonce + b"\x10/explorer devnet"
    coinbase_input = b"\x00" * 32 + b"\xff" * 4 + bytes([len(script_sig)]) + script_sig
    payout = b"\x76\xa9\x14" + _derive(b"payout", seed, b"")[:20] + b"\x88\xac"
    commitment = b"\x6a\x24\xaa\x21\xa9\xed" + _derive(b"witness", seed, hash_for_merged_mining)
    rsk = b"\x6a" + RSK_TAG + hash_for_merged_mining
    # The tag goes before the witness commitment (by convention the last output): it then
    # starts in the second 64-byte block, and the midstate covers one block, not two.
    outputs = _output(625_000_000, payout) + _output(0, rsk) + _output(0, commitment)
    return (
        struct.pack("<L", 2) + b"\x01" + coinbase_input + b"\xff" * 4
        + b"\x03" + outputs + b"\x00" * 4
    )  # fmt: skip


def _grind(prefix: bytes, target: int) -> bytes:
    """Return prefix plus the first nonce (from 0) whose header hash meets target."""
    for nonce in range(1 << 32):
        header = prefix + nonce.to_bytes(4, "little")
        if int.from_bytes(double_sha256(header), "little") <= target:
            return header
    raise ValueError("no nonce meets the target")


def build_merge_mining_fields(
    hash_for_merged_mining: bytes,
    *,
    previous_block_hash: bytes,
    time: int,
    bits: int = REGTEST_BITS,
    sibling_count: int = 3,
    seed: bytes = b"",
    rsk_difficulty: int = 1,
    partial_tree: bool = False,
) -> MergeMiningFields:
    """Build deterministic fields that verify (previous_block_hash in internal byte order).

    The proof is a list of sibling hashes (RSKIP92), or before RSKIP92 (partial_tree) the same
    siblings as a BIP 37 partial merkle tree.
    """
    if len(hash_for_merged_mining) != 32 or len(previous_block_hash) != 32:
        raise ValueError("hashForMergedMining and the previous block hash have 32 bytes")
    if not 0 <= sibling_count <= MAX_PROOF_SIZE // 32 or not 0 <= time <= 0xFFFFFFFF:
        raise ValueError(f"0 to {MAX_PROOF_SIZE // 32} siblings and a 32-bit time")
    target = min(target_from_bits(bits), rsk_target(rsk_difficulty))
    if target < MIN_BUILD_TARGET:
        raise ValueError("the target is too hard to grind at build time")
    transaction = coinbase_transaction(hash_for_merged_mining, seed)
    hashed_length = transaction.rfind(RSK_TAG) // 64 * 64
    proof = b"".join(
        _derive(b"sibling" + bytes([i]), seed, hash_for_merged_mining) for i in range(sibling_count)
    )
    txid = hashlib.sha256(hashlib.sha256(transaction).digest()).digest()
    root = fold_merkle_proof(txid, proof)
    prefix = struct.pack("<L32s32sLL", 0x20000000, previous_block_hash, root, time, bits)
    if partial_tree:
        siblings = [proof[start : start + 32][::-1] for start in range(0, len(proof), 32)]
        proof = single_branch_tree(txid, siblings)
    return MergeMiningFields(
        header=_grind(prefix, target),
        coinbase=compress_coinbase(transaction, hashed_length),
        merkle_proof=proof,
    )
