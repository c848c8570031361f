"""Bind a Rootstock header to the Bitcoin work that merge-mined it, as rskj's ProofOfWorkRule.

rskj (`co/rsk/validators/ProofOfWorkRule.java`): the Bitcoin header's double SHA-256, read as a
number, is at most 2^256 / max(3, difficulty) (`co/rsk/util/DifficultyUtils.java`); the coinbase
(8-byte length, SHA-256 midstate, tail) has its last `RSKBLOCK:` tag before byte 64 of the tail,
at most 128 bytes after the hash that follows it, and that hash is the header's
hashForMergedMining (`BlockHeader.getHashForMergedMining`: the first 20 bytes of the header's
own hash without merge mining, then, from RSKIP110, 12 bytes of fork detection data the coinbase
itself carries); the coinbase is longer than 64 bytes; its txid, resumed from the midstate,
leads through the merkle proof (a list of hashes from RSKIP92, `Rskip92MerkleProofValidator`;
before, a BIP 37 partial merkle tree, `GenesisMerkleProofValidator`) to the Bitcoin header's
merkle root. Before RSKIP98 a block with neither proof nor coinbase was signed by the
federation's fallback key instead (`validFallbackBlockSignature`): no Bitcoin work backs it.
"""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain import mergemining as mm
from explorer.chain.btcpmt import PartialMerkleTreeError, coinbase_in_tree
from explorer.chain.rskheader import HeaderFields
from explorer.chain.rskrules import NetworkRules

HASH_PREFIX_SIZE = 20  # BlockHeader.HASH_FOR_MERGED_MINING_PREFIX_LENGTH


def rsk_target(difficulty: int) -> int:
    """Return the most a Bitcoin header's hash may be: 2^256 / max(3, difficulty)."""
    return (1 << 256) // max(3, difficulty)


@dataclass(frozen=True)
class WorkBinding:
    """Whether a header is bound to Bitcoin work; `problem` names the first break, if any."""

    bound: bool
    problem: str | None = None
    fallback_signed: bool = False
    bitcoin_block_hash: str | None = None
    tag_hash: bytes | None = None


def _broken(problem: str) -> WorkBinding:
    """Return an unbound result naming its problem."""
    return WorkBinding(False, problem)


def _tag_problem(tail: bytes, base_hash: bytes, with_fork_detection: bool) -> str | None:
    """Check the last RSKBLOCK: tag and the hash after it against the header's own."""
    offset = tail.rfind(mm.RSK_TAG)
    if offset < 0:
        return "the Bitcoin coinbase has no RSKBLOCK: tag"
    payload = tail[offset + len(mm.RSK_TAG) : offset + len(mm.RSK_TAG) + mm.TAG_PAYLOAD_SIZE]
    if len(payload) < mm.TAG_PAYLOAD_SIZE:
        return "the RSKBLOCK: tag is followed by fewer than 32 bytes"
    expected = base_hash[:HASH_PREFIX_SIZE] if with_fork_detection else base_hash
    if payload[: len(expected)] != expected:
        return "the coinbase's RSKBLOCK: tag commits to another header (hashForMergedMining)"
    if offset > mm.MAX_TAG_OFFSET_IN_TAIL:
        return f"the RSKBLOCK: tag starts {offset} bytes into the coinbase tail (before 64 only)"
    after = len(tail) - offset - len(mm.RSK_TAG) - mm.TAG_PAYLOAD_SIZE
    if after > mm.MAX_BYTES_AFTER_TAG:
        return f"{after} bytes follow the RSKBLOCK: tag (at most {mm.MAX_BYTES_AFTER_TAG})"
    return None


def _merkle_root(fields: HeaderFields, rules: NetworkRules, txid: bytes) -> bytes | str:
    """Return the root the proof leads the coinbase txid to, or why it leads nowhere."""
    proof = fields.merkle_proof
    if rules.merge_mining_compressed(fields.number):
        if len(proof) % 32:
            return "the merkle proof is not a list of 32-byte hashes"
        return mm.fold_merkle_proof(txid, proof)
    try:
        return coinbase_in_tree(proof, txid)
    except PartialMerkleTreeError as error:
        return f"the partial merkle tree: {error}"


def bind_to_bitcoin_work(
    fields: HeaderFields, rules: NetworkRules, base_hash: bytes
) -> WorkBinding:
    """Check that the Bitcoin work of a block's merge-mining fields commits to its header."""
    if (
        rules.fallback_mining_possible(fields.number)
        and not fields.coinbase_transaction
        and not fields.merkle_proof
    ):
        return WorkBinding(False, None, fallback_signed=True)
    if len(fields.bitcoin_header) != mm.HEADER_SIZE:
        return _broken(f"the Bitcoin header has {len(fields.bitcoin_header)} bytes, not 80")
    header = mm.decode_bitcoin_header(fields.bitcoin_header)
    if header.hash_value > rsk_target(fields.difficulty):
        return _broken(f"the Bitcoin work is below difficulty {fields.difficulty:,}")
    raw = fields.coinbase_transaction
    if len(raw) < mm.MIDSTATE_PREFIX_SIZE:
        return _broken("the Bitcoin coinbase is shorter than its length and midstate")
    coinbase = mm.decode_coinbase(raw)
    if coinbase.total_length <= 64:
        return _broken("the Bitcoin coinbase is not longer than 64 bytes")
    with_fork_detection = rules.fork_detection_data(fields.number)
    if (problem := _tag_problem(coinbase.tail, base_hash, with_fork_detection)) is not None:
        return _broken(problem)
    tag = mm.find_rsk_tag(coinbase.tail)
    claimed = fields.claimed_hash_for_merged_mining
    if claimed and claimed != tag:
        return _broken("the node's hashForMergedMining is not the one the coinbase commits to")
    root = _merkle_root(fields, rules, mm.coinbase_txid(coinbase))
    if isinstance(root, str):
        return _broken(root)
    if mm.display_hex(root) != header.merkle_root:
        return _broken("the coinbase's merkle proof does not lead to the Bitcoin header's root")
    return WorkBinding(True, None, bitcoin_block_hash=header.block_hash, tag_hash=tag)
