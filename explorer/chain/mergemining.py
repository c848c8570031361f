"""Decode and verify RSK's Bitcoin merge-mining fields (header, coinbase, proof)."""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass

from explorer.chain import sha256state
from explorer.chain.btcpmt import PartialMerkleTreeError, coinbase_in_tree

HEADER_SIZE = 80
MIDSTATE_PREFIX_SIZE = 40
RSK_TAG = b"RSKBLOCK:"
TAG_PAYLOAD_SIZE = 32
MAX_TAG_OFFSET_IN_TAIL = 63
MAX_BYTES_AFTER_TAG = 128
MAX_PROOF_SIZE = 960
DIFFICULTY_ONE_TARGET = 0xFFFF << 208


def rsk_target(difficulty: int) -> int:
    """Return the most a Bitcoin header's hash may be for an RSK block of this difficulty.

    rskj's DifficultyUtils.difficultyToTarget: 2^256 / difficulty, a difficulty under 3 as 3.
    """
    return (1 << 256) // max(3, difficulty)


def double_sha256(data: bytes) -> bytes:
    """Return SHA-256 of SHA-256 of data (Bitcoin's hash, internal byte order)."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def display_hex(internal: bytes) -> str:
    """Return a Bitcoin hash in display form: byte-reversed hex without `0x`."""
    return internal[::-1].hex()


def target_from_bits(bits: int) -> int:
    """Expand Bitcoin's compact `bits` into the target (a set sign bit gives 0)."""
    exponent, mantissa = bits >> 24, bits & 0x007FFFFF
    if bits & 0x00800000:
        return 0
    if exponent <= 3:
        return mantissa >> (8 * (3 - exponent))
    return mantissa << (8 * (exponent - 3))


def difficulty_from_target(target: int) -> float:
    """Return Bitcoin difficulty: the difficulty-1 target over this target (0.0 for 0)."""
    return DIFFICULTY_ONE_TARGET / target if target else 0.0


@dataclass(frozen=True)
class BitcoinHeader:
    """An 80-byte Bitcoin block header; hashes in display form (reversed hex, no 0x)."""

    version: int
    previous_block_hash: str
    merkle_root: str
    time: int
    bits: int
    target: int
    difficulty: float
    nonce: int
    block_hash: str

    @property
    def hash_value(self) -> int:
        """Return the block hash as the number compared against targets."""
        return int(self.block_hash, 16)

    @property
    def meets_own_target(self) -> bool:
        """Tell whether the hash is at or below the target of the header's own bits."""
        return self.hash_value <= self.target


def decode_bitcoin_header(raw: bytes) -> BitcoinHeader:
    """Decode an 80-byte Bitcoin header; ValueError for any other length."""
    if len(raw) != HEADER_SIZE:
        raise ValueError(f"a Bitcoin header has {HEADER_SIZE} bytes, got {len(raw)}")
    version, previous, root, time, bits, nonce = struct.unpack("<L32s32sLLL", raw)
    target = target_from_bits(bits)
    return BitcoinHeader(
        version=version,
        previous_block_hash=display_hex(previous),
        merkle_root=display_hex(root),
        time=time,
        bits=bits,
        target=target,
        difficulty=difficulty_from_target(target),
        nonce=nonce,
        block_hash=display_hex(double_sha256(raw)),
    )


@dataclass(frozen=True)
class CoinbaseMidstate:
    """A coinbase as RSK sends it: bytes already hashed, the SHA-256 state, the tail."""

    hashed_length: int
    midstate: tuple[int, ...]
    tail: bytes

    @property
    def total_length(self) -> int:
        """Return the length of the whole serialized coinbase transaction."""
        return self.hashed_length + len(self.tail)


def decode_coinbase(raw: bytes) -> CoinbaseMidstate:
    """Split the compressed coinbase (8-byte length, 32-byte midstate, tail)."""
    if len(raw) < MIDSTATE_PREFIX_SIZE:
        raise ValueError(f"a compressed coinbase has at least {MIDSTATE_PREFIX_SIZE} bytes")
    return CoinbaseMidstate(
        hashed_length=int.from_bytes(raw[:8], "big"),
        midstate=sha256state.state_from_bytes(raw[8:MIDSTATE_PREFIX_SIZE]),
        tail=raw[MIDSTATE_PREFIX_SIZE:],
    )


def coinbase_txid(coinbase: CoinbaseMidstate) -> bytes:
    """Return the coinbase txid (internal byte order) resumed from the midstate."""
    first = sha256state.resume(coinbase.midstate, coinbase.hashed_length, coinbase.tail)
    return hashlib.sha256(first).digest()


def find_rsk_tag(tail: bytes) -> bytes | None:
    """Return the 32 bytes after the last `RSKBLOCK:` in tail, or None."""
    offset = tail.rfind(RSK_TAG)
    payload = tail[offset + len(RSK_TAG) : offset + len(RSK_TAG) + TAG_PAYLOAD_SIZE]
    return payload if offset >= 0 and len(payload) == TAG_PAYLOAD_SIZE else None


def fold_merkle_proof(txid: bytes, proof: bytes) -> bytes:
    """Fold the coinbase txid (leaf 0) with the proof's display-order siblings to a root."""
    if len(proof) % 32:
        raise ValueError("a merkle proof is a sequence of 32-byte hashes")
    current = txid
    for start in range(0, len(proof), 32):
        current = double_sha256(current + proof[start : start + 32][::-1])
    return current


@dataclass(frozen=True)
class HashForMergedMiningParts:
    """The RSKIP110 reading of hashForMergedMining's last 12 bytes."""

    header_hash_prefix: bytes
    fork_detection: bytes
    uncle_count: int
    block_number: int


def split_hash_for_merged_mining(value: bytes) -> HashForMergedMiningParts:
    """Split a 32-byte hashForMergedMining; ValueError for any other length."""
    if len(value) != 32:
        raise ValueError(f"hashForMergedMining has 32 bytes, got {len(value)}")
    return HashForMergedMiningParts(
        header_hash_prefix=value[:20],
        fork_detection=value[20:27],
        uncle_count=value[27],
        block_number=int.from_bytes(value[28:], "big"),
    )


def compose_hash_for_merged_mining(
    header_hash: bytes, fork_detection: bytes, uncle_count: int, number: int
) -> bytes:
    """Build hashForMergedMining: 20 bytes of header hash, then the RSKIP110 12 bytes."""
    if len(header_hash) < 20 or len(fork_detection) != 7:
        raise ValueError("need a header hash of 20+ bytes and 7 bytes of fork detection data")
    if not 0 <= uncle_count <= 0xFF or not 0 <= number <= 0xFFFFFFFF:
        raise ValueError("uncle count is one byte and the block number four")
    return header_hash[:20] + fork_detection + bytes([uncle_count]) + number.to_bytes(4, "big")


@dataclass(frozen=True)
class MergeMiningReport:
    """Everything decoded from a block's merge-mining fields and why it does not verify."""

    header: BitcoinHeader | None = None
    coinbase: CoinbaseMidstate | None = None
    proof_hashes: tuple[str, ...] = ()
    hash_for_merged_mining: bytes | None = None
    parts: HashForMergedMiningParts | None = None
    tag: bytes | None = None
    tag_offset: int | None = None
    tag_matches: bool = False
    coinbase_txid: bytes | None = None
    folded_root: bytes | None = None
    root_matches: bool = False
    block_number_matches: bool | None = None
    meets_rsk_target: bool | None = None
    problems: tuple[str, ...] = ()

    @property
    def verified(self) -> bool:
        """Tell whether every check passed."""
        return not self.problems

    @property
    def coinbase_txid_display(self) -> str | None:
        """Return the coinbase txid in display form."""
        return None if self.coinbase_txid is None else display_hex(self.coinbase_txid)


NO_DATA_PENDING = "no merge-mining data: the fields are empty (a pending block)"
NO_DATA_ABSENT = "no merge-mining data: the node sent none of the fields"


def _decoded_header(raw: bytes | None, problems: list[str]) -> BitcoinHeader | None:
    """Decode the header or note why not."""
    if not raw:
        problems.append("missing Bitcoin header")
        return None
    if len(raw) != HEADER_SIZE:
        problems.append(f"Bitcoin header has {len(raw)} bytes, not {HEADER_SIZE}")
        return None
    return decode_bitcoin_header(raw)


def _decoded_coinbase(raw: bytes | None, problems: list[str]) -> CoinbaseMidstate | None:
    """Decode the compressed coinbase or note why not; check its lengths."""
    if not raw:
        problems.append("missing coinbase transaction")
        return None
    if len(raw) < MIDSTATE_PREFIX_SIZE:
        problems.append(f"coinbase has {len(raw)} bytes, fewer than the {MIDSTATE_PREFIX_SIZE}")
        return None
    coinbase = decode_coinbase(raw)
    if coinbase.hashed_length % 64:
        problems.append(f"hashed length {coinbase.hashed_length} is not a multiple of 64")
    if coinbase.total_length <= 64:
        problems.append(f"coinbase is {coinbase.total_length} bytes long; it must exceed 64")
    return coinbase


def _proof_hashes(proof: bytes | None, problems: list[str]) -> tuple[str, ...] | None:
    """Split the proof into display-order hashes or note why not."""
    if proof is None:
        problems.append("missing merkle proof")
        return None
    if len(proof) % 32:
        problems.append(f"merkle proof has {len(proof)} bytes, not a multiple of 32")
        return None
    if len(proof) > MAX_PROOF_SIZE:
        problems.append(f"merkle proof has {len(proof)} bytes, over the {MAX_PROOF_SIZE} allowed")
    return tuple(proof[i : i + 32].hex() for i in range(0, len(proof), 32))


def _parts(value: bytes | None, problems: list[str]) -> HashForMergedMiningParts | None:
    """Split hashForMergedMining or note why not."""
    if not value:
        problems.append("missing hashForMergedMining")
        return None
    if len(value) != 32:
        problems.append(f"hashForMergedMining has {len(value)} bytes, not 32")
        return None
    return split_hash_for_merged_mining(value)


def _check_tag(tail: bytes, expected: bytes | None, problems: list[str]) -> int | None:
    """Check the last RSKBLOCK: tag's place in the tail; return its offset."""
    offset = tail.rfind(RSK_TAG)
    if offset < 0:
        problems.append("no RSKBLOCK: tag in the coinbase tail")
        return None
    after = len(tail) - offset - len(RSK_TAG) - TAG_PAYLOAD_SIZE
    if after < 0:
        problems.append("RSKBLOCK: tag is followed by fewer than 32 bytes")
    elif expected is not None and len(expected) == 32 and find_rsk_tag(tail) != expected:
        problems.append("RSKBLOCK: tag does not equal hashForMergedMining")
    if offset > MAX_TAG_OFFSET_IN_TAIL:
        problems.append(f"RSKBLOCK: tag starts {offset} bytes into the tail; at most 63 allowed")
    if after > MAX_BYTES_AFTER_TAG:
        problems.append(f"{after} bytes follow the tag; at most {MAX_BYTES_AFTER_TAG} allowed")
    return offset


def _check_root(root: bytes | None, header: BitcoinHeader | None, problems: list[str]) -> bool:
    """Tell whether the folded root equals the header's merkle root; note a mismatch."""
    if root is None or header is None:
        return False
    if display_hex(root) != header.merkle_root:
        problems.append("folded merkle root does not equal the Bitcoin header's merkle root")
        return False
    return True


def _check_target(
    header: BitcoinHeader | None, difficulty: int | None, problems: list[str]
) -> bool | None:
    """Tell whether the Bitcoin hash meets the RSK target (rsk_target); note a miss."""
    if header is None or difficulty is None or difficulty <= 0:
        return None
    if header.hash_value > rsk_target(difficulty):
        problems.append("Bitcoin block hash is above the RSK block's target")
        return False
    return True


def _tree_root(proof: bytes, txid: bytes, problems: list[str]) -> bytes | None:
    """Return the root of a pre-RSKIP92 partial merkle tree proving txid, or note why not."""
    try:
        return coinbase_in_tree(proof, txid)
    except PartialMerkleTreeError as error:
        problems.append(f"partial merkle tree: {error}")
        return None


def verify_merge_mining(
    header: bytes | None,
    coinbase: bytes | None,
    proof: bytes | None,
    hash_for_merged_mining: bytes | None,
    *,
    block_number: int | None = None,
    difficulty: int | None = None,
    rskip92: bool = True,
    fork_detection: bool = True,
) -> MergeMiningReport:
    """Decode and check a block's merge-mining fields; never raises on garbage.

    Before RSKIP92 the proof is a BIP 37 partial merkle tree (btcpmt), not a list of
    hashes; before RSKIP110 hashForMergedMining is a plain hash, without the parts.
    """
    if all(field is None for field in (header, coinbase, proof, hash_for_merged_mining)):
        return MergeMiningReport(problems=(NO_DATA_ABSENT,))
    if not (header or coinbase or hash_for_merged_mining):
        return MergeMiningReport(
            hash_for_merged_mining=hash_for_merged_mining or None, problems=(NO_DATA_PENDING,)
        )
    problems: list[str] = []
    decoded_header = _decoded_header(header, problems)
    decoded_coinbase = _decoded_coinbase(coinbase, problems)
    hashes = _proof_hashes(proof, problems) if rskip92 else ()
    parts = _parts(hash_for_merged_mining, problems) if fork_detection else None
    offset = tag = txid = root = None
    if decoded_coinbase is not None:
        offset = _check_tag(decoded_coinbase.tail, hash_for_merged_mining, problems)
        tag = find_rsk_tag(decoded_coinbase.tail)
        txid = coinbase_txid(decoded_coinbase)
        if not rskip92 and proof is not None:
            root = _tree_root(proof, txid, problems)
        elif hashes is not None and proof is not None:
            root = fold_merkle_proof(txid, proof)
    root_matches = _check_root(root, decoded_header, problems)
    meets_target = _check_target(decoded_header, difficulty, problems)
    return MergeMiningReport(
        header=decoded_header,
        coinbase=decoded_coinbase,
        proof_hashes=hashes or (),
        hash_for_merged_mining=hash_for_merged_mining,
        parts=parts,
        tag=tag,
        tag_offset=offset,
        tag_matches=tag is not None and tag == hash_for_merged_mining,
        coinbase_txid=txid,
        folded_root=root,
        root_matches=root_matches,
        block_number_matches=None
        if parts is None or block_number is None
        else parts.block_number == block_number,
        meets_rsk_target=meets_target,
        problems=tuple(problems),
    )
