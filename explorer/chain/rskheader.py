"""A Rootstock block header rebuilt from the node's JSON, and its hash recomputed as rskj does.

rskj (rsksmart/rskj) hashes `BlockHeader.getEncodedForHash()`: `getEncoded(true, !rskip92, true)`
in `org/ethereum/core/BlockHeader.java`, the RLP list of

    parentHash, unclesHash, coinbase, stateRoot, txTrieRoot, receiptTrieRoot,
    logsBloom (version 0) or the extension data (versions 1 and 2, RSKIP351),
    difficulty, number, gasLimit, gasUsed, timestamp, extraData, paidFees,
    minimumGasPrice, uncleCount, [ummRoot from RSKIPUMM],
    bitcoinMergedMiningHeader, [merkle proof and coinbase before RSKIP92]

each field as rskj writes its bytes (`org/ethereum/util/RLP.java`): difficulty, gas limit (as
`BlockToMineBuilder` sets it) and minimum gas price as Java's `BigInteger.toByteArray()` (a
leading zero byte when the top bit is set), the other numbers minimal, a zero minimum gas
price as one zero byte, a null coinbase as nothing. The JSON (`rpc/dto/BlockResultDTO.java`)
drops what cannot be told from the numbers: leading zeros a miner may have written, and whether
the edges were absent or empty; each reading is tried, and only one can give the hash the node
claims (keccak has no second preimage), so a match binds every field the JSON shows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from explorer.chain import bounds
from explorer.chain.hexutil import HexFormatError, parse_data, parse_optional_data
from explorer.chain.jsonfields import RecordFormatError, optional, required
from explorer.chain.keccak import keccak
from explorer.chain.rlpfast import encode as encode_raw
from explorer.chain.rskrules import NetworkRules

BLOOM_SIZE = 256
BASE_EVENT_MAX_SIZE = 128  # BlockHeaderV2.BASE_EVENT_MAX_SIZE
UMM_ROOT_SIZE = 20  # BlockHeader.UMM_LEAVES_LENGTH


def java_bytes(value: int) -> bytes:
    """Return Java's `BigInteger.toByteArray()` of a non-negative int (sign byte when needed)."""
    return value.to_bytes(value.bit_length() // 8 + 1, "big")


def minimal_bytes(value: int) -> bytes:
    """Return a non-negative int as big-endian bytes without leading zeros (0: empty)."""
    return value.to_bytes((value.bit_length() + 7) // 8, "big")


def _sized(size: int) -> Any:
    """Return a parser of hex data of exactly size bytes."""

    def parse(value: object, what: str) -> bytes:
        data = parse_data(value, what)
        if len(data) != size:
            raise HexFormatError(f"{what} must be {size} bytes, got {len(data)}")
        return data

    return parse


def _coinbase(value: object, what: str) -> bytes:
    """Parse the miner: 20 bytes, or nothing when the node sends null (the null address)."""
    return b"" if value is None else _sized(20)(value, what)


def _edges(obj: Mapping[str, Any]) -> tuple[int, ...] | None:
    """Parse `rskPteEdges`: null, or transaction indexes as JSON numbers (Java shorts)."""
    value = obj.get("rskPteEdges")
    if value is None:
        return None
    if not isinstance(value, list) or len(value) > 0xFFFF:
        raise RecordFormatError("'rskPteEdges' must be an array of numbers")
    if not all(type(v) is int and -0x8000 <= v <= 0xFFFF for v in value):
        raise RecordFormatError("'rskPteEdges' holds a value that is not a 16-bit number")
    return tuple(value)


@dataclass(frozen=True)
class HeaderFields:
    """The header of a mined block as its JSON shows it, with the hashes the node claims."""

    number: int
    parent_hash: bytes
    uncles_hash: bytes
    coinbase: bytes
    state_root: bytes
    transactions_root: bytes
    receipts_root: bytes
    logs_bloom: bytes
    difficulty: int
    gas_limit: int
    gas_used: int
    timestamp: int
    extra_data: bytes
    paid_fees: int
    minimum_gas_price: int | None
    uncle_count: int
    edges: tuple[int, ...] | None
    edges_sent: bool
    base_event: bytes
    bitcoin_header: bytes
    merkle_proof: bytes
    coinbase_transaction: bytes
    claimed_hash: bytes
    claimed_hash_for_merged_mining: bytes | None

    @property
    def has_mining_fields(self) -> bool:
        """BlockHeader.hasMiningFields: any of the three merge-mining fields is non-empty."""
        return bool(self.bitcoin_header or self.merkle_proof or self.coinbase_transaction)

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> HeaderFields:
        """Read a mined block's header fields; RecordFormatError names a missing or bad one."""
        if obj.get("hash") is None or obj.get("number") is None:
            raise RecordFormatError("a pending block has no number or hash to verify")
        uncles = obj.get("uncles") or []
        if not isinstance(uncles, list):
            raise RecordFormatError("'uncles' must be an array")
        base_event = optional(obj, "baseEvent", parse_optional_data) or b""
        if len(base_event) > BASE_EVENT_MAX_SIZE:
            raise RecordFormatError(f"'baseEvent' is over {BASE_EVENT_MAX_SIZE} bytes")
        hash32, root = _sized(32), _sized(32)
        return cls(
            number=required(obj, "number", bounds.BLOCK_NUMBER.parse),
            parent_hash=required(obj, "parentHash", hash32),
            uncles_hash=required(obj, "sha3Uncles", hash32),
            coinbase=_coinbase(obj.get("miner"), "miner"),
            state_root=required(obj, "stateRoot", root),
            transactions_root=required(obj, "transactionsRoot", root),
            receipts_root=required(obj, "receiptsRoot", root),
            logs_bloom=required(obj, "logsBloom", _sized(BLOOM_SIZE)),
            difficulty=required(obj, "difficulty", bounds.WORD.parse),
            gas_limit=required(obj, "gasLimit", bounds.WORD.parse),
            gas_used=required(obj, "gasUsed", bounds.GAS.parse),
            timestamp=required(obj, "timestamp", bounds.GAS.parse),
            extra_data=required(obj, "extraData", parse_data),
            paid_fees=optional(obj, "paidFees", bounds.WORD.parse_optional) or 0,
            minimum_gas_price=optional(obj, "minimumGasPrice", bounds.WORD.parse_optional),
            uncle_count=len(uncles),
            edges=_edges(obj),
            edges_sent="rskPteEdges" in obj,
            base_event=base_event,
            bitcoin_header=optional(obj, "bitcoinMergedMiningHeader", parse_optional_data) or b"",
            merkle_proof=optional(obj, "bitcoinMergedMiningMerkleProof", parse_optional_data)
            or b"",
            coinbase_transaction=optional(
                obj, "bitcoinMergedMiningCoinbaseTransaction", parse_optional_data
            )
            or b"",
            claimed_hash=required(obj, "hash", hash32),
            claimed_hash_for_merged_mining=optional(
                obj, "hashForMergedMining", parse_optional_data
            ),
        )


@dataclass(frozen=True)
class Encoding:
    """How rskj wrote the bytes the JSON cannot show: one reading of a header."""

    version: int
    gas_limit: bytes
    difficulty: bytes
    edges: tuple[int, ...] | None
    umm_root: bytes | None


def _edges_bytes(edges: Sequence[int]) -> bytes:
    """ByteUtil.shortsToRLP's payload: each edge as a little-endian 16-bit value."""
    return b"".join((edge & 0xFFFF).to_bytes(2, "little") for edge in edges)


def extension_data(fields: HeaderFields, encoding: Encoding) -> bytes:
    """RLP [version, extension hash] (BlockHeaderV1/V2.createExtensionData).

    The hash is keccak of RLP [keccak(bloom), base event (version 2), edges (when present)]
    (BlockHeaderExtensionV1.getEncodedForHash, BlockHeaderExtensionV2.addElementsEncoded).
    """
    items = [keccak(fields.logs_bloom)]
    if encoding.version >= 2:
        items.append(fields.base_event)
    if encoding.edges is not None:
        items.append(_edges_bytes(encoding.edges))
    return bytes(encode_raw([bytes([encoding.version]), keccak(encode_raw(items))]))


def _minimum_gas_price(value: int | None) -> bytes:
    """RLP.encodeSignedCoinNonNullZero's payload: null empty, zero one zero byte."""
    return b"" if value is None else java_bytes(value)


def header_items(
    fields: HeaderFields, rules: NetworkRules, encoding: Encoding, *, merge_mining: bool
) -> list[bytes]:
    """Return the header's RLP items as rskj hashes them (compressed, per the rules)."""
    bloom = fields.logs_bloom if encoding.version == 0 else extension_data(fields, encoding)
    items = [
        fields.parent_hash,
        fields.uncles_hash,
        fields.coinbase,
        fields.state_root,
        fields.transactions_root,
        fields.receipts_root,
        bloom,
        encoding.difficulty,
        minimal_bytes(fields.number),
        encoding.gas_limit,
        minimal_bytes(fields.gas_used),
        minimal_bytes(fields.timestamp),
        fields.extra_data,
        minimal_bytes(fields.paid_fees),
        _minimum_gas_price(fields.minimum_gas_price),
        minimal_bytes(fields.uncle_count),
    ]
    if encoding.umm_root is not None:
        items.append(encoding.umm_root)
    if merge_mining and fields.has_mining_fields:
        items.append(fields.bitcoin_header)
        if not rules.merge_mining_compressed(fields.number):
            items += [fields.merkle_proof, fields.coinbase_transaction]
    return items


def encode_header(
    fields: HeaderFields, rules: NetworkRules, encoding: Encoding, *, merge_mining: bool = True
) -> bytes:
    """Return the RLP a block hash (merge_mining) or hashForMergedMining is keccak of."""
    return bytes(encode_raw(header_items(fields, rules, encoding, merge_mining=merge_mining)))


def _variants(value: int) -> list[bytes]:
    """Java's bytes of a number first, then the minimal form where that differs."""
    forms = [java_bytes(value)]
    if minimal_bytes(value) != forms[0]:
        forms.append(minimal_bytes(value))
    return forms


def encodings(
    fields: HeaderFields, rules: NetworkRules, umm_root: bytes | None = None
) -> Iterator[Encoding]:
    """Yield the readings of a header the JSON allows, rskj's usual one first."""
    version = rules.header_version(fields.number)
    umm = (umm_root or b"") if rules.has_umm_root(fields.number) else None
    edges_options: list[tuple[int, ...] | None] = [fields.edges]
    if version and not fields.edges_sent:
        edges_options = [() if rules.has_edges(fields.number) else None, None, ()]
    first = Encoding(version, b"", b"", None, umm)
    seen: set[Encoding] = set()
    for edges in edges_options:
        for gas_limit in _variants(fields.gas_limit):
            for difficulty in _variants(fields.difficulty):
                encoding = replace(first, gas_limit=gas_limit, difficulty=difficulty, edges=edges)
                if encoding not in seen:
                    seen.add(encoding)
                    yield encoding


@dataclass(frozen=True)
class HashRecompute:
    """A block hash recomputed from its fields, and the reading of the header that gave it."""

    computed: bytes
    encoding: Encoding
    matches: bool


def recompute_hash(
    fields: HeaderFields, rules: NetworkRules, umm_root: bytes | None = None
) -> HashRecompute:
    """Recompute the block hash; the first reading that gives the claimed hash wins."""
    first: HashRecompute | None = None
    for encoding in encodings(fields, rules, umm_root):
        computed = keccak(encode_header(fields, rules, encoding))
        if computed == fields.claimed_hash:
            return HashRecompute(computed, encoding, True)
        first = first or HashRecompute(computed, encoding, False)
    assert first is not None  # encodings() yields at least one reading
    return first


def base_hash_for_merged_mining(
    fields: HeaderFields, rules: NetworkRules, encoding: Encoding
) -> bytes:
    """BlockHeader.getBaseHashForMergedMining: keccak of the header without merge mining.

    With a 20-byte ummRoot (RSKIP UMM) it is keccak(first 20 bytes of that ‖ ummRoot).
    """
    base = keccak(encode_header(fields, rules, encoding, merge_mining=False))
    if encoding.umm_root:
        return keccak(base[:UMM_ROOT_SIZE] + encoding.umm_root)
    return base
