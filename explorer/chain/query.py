"""Parse what the user typed in the search bar into a typed query, spending no RPC."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

from explorer.chain.checksum import ChecksumVerdict, checksum_chain_ids, checksum_verdict
from explorer.chain.namehash import namehash

MAX_BLOCK_NUMBER = 2**63 - 1
MAX_HEX_NUMBER_DIGITS = 16
BlockTag = Literal["latest", "earliest", "pending"]
BLOCK_TAGS: dict[str, BlockTag] = {tag: tag for tag in get_args(BlockTag)}
EMPTY_MESSAGE = "Type a block number or tag, a transaction or block hash, an address or a .rsk name"

_HEX = re.compile(r"[0-9a-fA-F]*", re.ASCII)
_DECIMAL = re.compile(r"\d{1,3}(?:,\d{3})+|\d+(?:_\d+)*", re.ASCII)
_SIGNED = re.compile(r"[-−]\s*[\d,_]+", re.ASCII)
_NUMBERISH = re.compile(r"[\d,_]*\d[\d,_]*", re.ASCII)
_FRACTION = re.compile(r"\d[\d,_]*\.\d*", re.ASCII)
_RNS_LABEL = re.compile(r"[^\W_](?:[\w-]*[^\W_])?")


@dataclass(frozen=True)
class BlockNumberQuery:
    """A block by number."""

    number: int


@dataclass(frozen=True)
class BlockTagQuery:
    """A block by tag: latest, earliest or pending."""

    tag: BlockTag


@dataclass(frozen=True)
class HashQuery:
    """A 32-byte hash, canonical lowercase: a transaction or a block, resolved later."""

    hash: str


@dataclass(frozen=True)
class AddressQuery:
    """An address, canonical lowercase, with what its letter case says."""

    address: str
    verdict: ChecksumVerdict
    warning: str | None = None


@dataclass(frozen=True)
class RnsQuery:
    """An RNS name (normalized lowercase) and its EIP-137 node."""

    name: str
    node: bytes


@dataclass(frozen=True)
class Invalid:
    """Input that cannot be valid, with a one-line reason."""

    message: str


@dataclass(frozen=True)
class BridgeQuery:
    """The word `bridge`: the Bridge's page (the 2-way peg)."""


Query = (
    BlockNumberQuery | BlockTagQuery | HashQuery | AddressQuery | RnsQuery | BridgeQuery | Invalid
)


def _shown(text: str, limit: int = 24) -> str:
    """Return text quoted for a one-line message, shortened when long."""
    flat = " ".join(text.split())
    return repr(flat if len(flat) <= limit else flat[: limit - 1] + "…")


def _checksum_warning(digits: str, verdict: ChecksumVerdict) -> str | None:
    """Explain a mixed-case address whose checksum is wrong for this network."""
    if verdict is ChecksumVerdict.VALID_OTHER_CHAIN:
        chains = ", ".join(str(chain) for chain in checksum_chain_ids(digits))
        return f"The address's checksum is for chain {chains}, not this network: is it meant here?"
    if verdict is ChecksumVerdict.INVALID:
        return "The address's checksum (its letter case) is wrong: check it for a typo."
    return None


def _address(digits: str, chain_id: int | None) -> AddressQuery:
    """Build an address query from 40 hex digits."""
    verdict = checksum_verdict(digits, chain_id)
    return AddressQuery("0x" + digits.lower(), verdict, _checksum_warning(digits, verdict))


def _block_number(number: int, text: str) -> Query:
    """Accept a block number in range."""
    if number > MAX_BLOCK_NUMBER:
        return Invalid(f"{_shown(text)} is over the largest block number, 2^63 − 1")
    return BlockNumberQuery(number)


def _decimal(text: str) -> Query:
    """Parse a decimal block number with optional `,` or `_` thousands separators."""
    digits = text.replace(",", "").replace("_", "").lstrip("0") or "0"
    if len(digits) > len(str(MAX_BLOCK_NUMBER)):
        return Invalid(f"{_shown(text)} is over the largest block number, 2^63 − 1")
    return _block_number(int(digits), text)


def _prefixed_hex(text: str, chain_id: int | None) -> Query:
    """Parse `0x…`: a hash (64 digits), an address (40) or a hex block number."""
    digits = text[2:]
    if _HEX.fullmatch(digits) is None:
        return Invalid(f"{_shown(text)} has characters that are not hex digits")
    if len(digits) == 64:
        return HashQuery("0x" + digits.lower())
    if len(digits) == 40:
        return _address(digits, chain_id)
    if not digits:
        return Invalid("0x needs hex digits after it")
    if len(digits) <= MAX_HEX_NUMBER_DIGITS:
        return _block_number(int(digits, 16), text)
    return Invalid(
        f"{text[:2]}… has {len(digits)} hex digits; a hash has 64, an address 40 "
        f"and a block number at most {MAX_HEX_NUMBER_DIGITS}"
    )


def _name(text: str) -> Query:
    """Parse an RNS name ending in `.rsk`."""
    name = text.lower().removesuffix(".") if text.count(".") > 1 else text.lower()
    labels = name.split(".")
    if labels[-1] != "rsk":
        return Invalid(f"{_shown(text)} is not an RNS name: only names ending in .rsk resolve")
    if len(labels) < 2 or not all(_RNS_LABEL.fullmatch(label) for label in labels):
        return Invalid(f"{_shown(text)} is not a valid RNS name")
    return RnsQuery(name, namehash(name))


def parse(text: str, chain_id: int | None) -> Query:
    """Parse search text into a query; never raises."""
    stripped = text.strip()
    lowered = stripped.lower()
    if not stripped:
        return Invalid(EMPTY_MESSAGE)
    if lowered in BLOCK_TAGS:
        return BlockTagQuery(BLOCK_TAGS[lowered])
    if lowered == "bridge":
        return BridgeQuery()

    if lowered.startswith("0x"):
        return _prefixed_hex(stripped, chain_id)
    if len(stripped) in (40, 64) and _HEX.fullmatch(stripped):
        return _prefixed_hex("0x" + stripped, chain_id)
    if _DECIMAL.fullmatch(stripped):
        return _decimal(stripped)
    if _SIGNED.fullmatch(stripped):
        return Invalid("Block numbers are not negative")
    if _NUMBERISH.fullmatch(stripped):
        return Invalid(f"{_shown(stripped)}: group digits in threes, like 1,234 or 1_234")
    if _FRACTION.fullmatch(stripped):
        return Invalid("Block numbers are whole numbers")
    if "." in stripped:
        return _name(stripped)
    return Invalid(f"{_shown(stripped)} is not a block number, hash, address or .rsk name")


def reading_note(text: str, query: Query) -> str:
    """Say how `0x…` text too short for an address or hash was read: as a block number."""
    stripped = text.strip()
    if isinstance(query, BlockNumberQuery) and stripped.lower().startswith("0x"):
        return (
            f"{stripped} is read as a hexadecimal block number: block {query.number:,} (an "
            "address has 40 hex digits, a hash 64)"
        )
    return ""
