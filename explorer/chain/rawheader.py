"""A raw block header (rskj's own RLP) read back into the fields its JSON shows.

`rsk_getRawBlockHeaderByHash` answers `BlockHeader.getEncoded()` (rskj `co/rsk/rpc/modules/rsk/
RskModuleImpl.java`): the uncompressed header, the full logs bloom in its place and, for versions
1 and 2, the version, the edges and the base event after ummRoot; then the Bitcoin header (and,
before RSKIP92, proof and coinbase; `getFullEncoded()`, as peers and the powHSM keep headers,
always has all three). Fields are read positionally as `BlockFactory.decodeHeader` does.
It gives what the JSON cannot: the ummRoot and the exact bytes of gas limit and difficulty.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer.chain.blockverify import Check, Finding, Outcome
from explorer.chain.hexutil import HexFormatError, parse_quantity
from explorer.chain.keccak import keccak
from explorer.chain.rlpbound import RlpBoundError, decode
from explorer.chain.rskrules import NetworkRules

MAX_HEADER_SIZE = 64 * 1024
MAX_HEADER_DEPTH = 2  # a header is a list of strings (V1 edges are one string)
NAMES = (
    "parentHash",
    "sha3Uncles",
    "miner",
    "stateRoot",
    "transactionsRoot",
    "receiptsRoot",
    "logsBloom",
    "difficulty",
    "number",
    "gasLimit",
    "gasUsed",
    "timestamp",
    "extraData",
    "paidFees",
    "minimumGasPrice",
)
QUANTITIES = {"difficulty", "number", "gasLimit", "gasUsed", "timestamp", "paidFees"}
MERGE_MINING = (
    "bitcoinMergedMiningHeader",
    "bitcoinMergedMiningMerkleProof",
    "bitcoinMergedMiningCoinbaseTransaction",
)


class RawHeaderError(ValueError):
    """The raw header is not a header of this network at its height."""


@dataclass(frozen=True)
class RawHeader:
    """A raw header's fields as JSON shows them, and the bytes JSON loses."""

    fields: dict[str, Any]
    umm_root: bytes | None
    gas_limit: bytes
    difficulty: bytes
    version: int
    edges: bytes | None
    base_event: bytes | None


def _quantity(value: bytes) -> str:
    """Return bytes as a JSON quantity (minimal hex)."""
    return hex(int.from_bytes(value, "big"))


def _strings(items: list[Any]) -> list[bytes]:
    """Return the header items, refusing a nested list."""
    if not all(isinstance(item, bytes) for item in items):
        raise RawHeaderError("a header field is a list")
    return list(items)


def _json_fields(items: list[bytes]) -> dict[str, Any]:
    """Return the first 15 items in JSON form (the minimum gas price as rskj shows it)."""
    fields: dict[str, Any] = {}
    for name, value in zip(NAMES, items, strict=False):
        if name in QUANTITIES:
            fields[name] = _quantity(value)
        elif name == "minimumGasPrice":
            fields[name] = _quantity(value) if value else None
        elif name == "miner":
            fields[name] = "0x" + value.hex() if value else None
        else:
            fields[name] = "0x" + value.hex()
    return fields


def read_raw_header(raw: bytes, rules: NetworkRules) -> RawHeader:
    """Decode a raw header; RawHeaderError when it does not fit the rules at its height."""
    try:
        decoded = decode(raw, max_size=MAX_HEADER_SIZE, max_depth=MAX_HEADER_DEPTH)
    except RlpBoundError as error:
        raise RawHeaderError(f"the raw header is not RLP within bounds: {error}") from error
    if not isinstance(decoded, list) or len(decoded) < 16:
        raise RawHeaderError("the raw header is not a list of at least 16 fields")
    items = _strings(decoded)
    fields = _json_fields(items)
    number = int.from_bytes(items[8], "big")
    rest = items[16:]
    umm_root = rest.pop(0) if rules.has_umm_root(number) and rest else None
    version, edges, base_event = rules.header_version(number), None, None
    if version:
        if not rest or rest.pop(0) != bytes([version]):
            raise RawHeaderError(f"the raw header is not a version {version} header")
        if rules.has_edges(number) and rest:
            edges = rest.pop(0)  # BlockFactory: the edges come first when anything follows
        if version >= 2 and len(rest) in (2, 4):  # then one or three merge-mining fields
            base_event = rest.pop(0)
    if len(rest) not in (0, 1, 3):
        raise RawHeaderError(f"the raw header has {len(rest)} merge-mining fields")
    for name, value in zip(MERGE_MINING, rest, strict=False):
        fields[name] = "0x" + value.hex()
    fields["uncleCount"] = _quantity(items[15])
    return RawHeader(fields, umm_root, items[9], items[7], version, edges, base_event)


def _same(name: str, raw_value: Any, json_value: Any) -> bool:
    """Tell whether a raw header's field equals the JSON's (numbers by value, hex any case)."""
    if raw_value is None or json_value is None:
        return raw_value is None and json_value in (None, "0x")
    try:
        if name in QUANTITIES or name in ("minimumGasPrice", "uncleCount"):
            return parse_quantity(raw_value) == parse_quantity(json_value)
    except HexFormatError:
        return False
    return str(raw_value).lower() == str(json_value).lower()


def cross_check(raw: bytes, block: Mapping[str, Any], rules: NetworkRules) -> Finding:
    """Compare `rsk_getRawBlockHeaderByHash`'s header with the block's JSON, field by field.

    A version 0 header is also the preimage of the block hash (getEncoded is what is hashed).
    """
    try:
        header = read_raw_header(raw, rules)
    except RawHeaderError as error:
        return Finding(Check.RAW_HEADER, Outcome.MISMATCH, str(error))
    json_fields = dict(block) | {"uncleCount": hex(len(block.get("uncles") or []))}
    for name, value in header.fields.items():
        if not _same(name, value, json_fields.get(name)):
            detail = f"rsk_getRawBlockHeaderByHash has another {name} than the block"
            return Finding(Check.RAW_HEADER, Outcome.MISMATCH, detail)
    if header.version == 0 and "0x" + keccak(raw).hex() != str(block.get("hash", "")).lower():
        detail = "rsk_getRawBlockHeaderByHash's header does not hash to the block hash"
        return Finding(Check.RAW_HEADER, Outcome.MISMATCH, detail)
    return Finding(Check.RAW_HEADER, Outcome.VERIFIED, "rsk_getRawBlockHeaderByHash agrees")
