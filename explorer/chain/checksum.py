"""Address checksums: EIP-1191 (RSKIP-60) with a chain id, EIP-55 without."""

from __future__ import annotations

import enum
import functools
import re

from eth_hash.auto import keccak

from explorer.chain.hexutil import HexFormatError

KNOWN_CHAIN_IDS: tuple[int, ...] = (30, 31, 33, 32)
_ADDRESS_DIGITS = re.compile(r"[0-9a-fA-F]{40}")


class ChecksumVerdict(enum.Enum):
    """What the letter case of an address says about its checksum."""

    LOWER_OR_UPPER = "no checksum claimed"
    VALID_FOR_CHAIN = "checksum valid for this network"
    VALID_EIP55_ONLY = "Ethereum (EIP-55) checksum, not this network's"
    VALID_OTHER_CHAIN = "checksum of another Rootstock network"
    INVALID = "checksum wrong"


def _address_digits(address: str) -> str:
    """Return the 40 hex digits of an address given with or without `0x`."""
    digits = address[2:] if address[:2] in ("0x", "0X") else address
    if _ADDRESS_DIGITS.fullmatch(digits) is None:
        raise HexFormatError("an address has 40 hex digits")
    return digits


@functools.lru_cache(maxsize=4096)  # tables show the same few addresses in row after row
def to_checksum_address(address: str, chain_id: int | None) -> str:
    """Return the address with EIP-1191 letter case for chain_id, or EIP-55 when None."""
    digits = _address_digits(address).lower()
    prefix = "" if chain_id is None else f"{chain_id}0x"
    nibbles = keccak((prefix + digits).encode("ascii")).hex()
    cased = (c.upper() if int(n, 16) >= 8 else c for c, n in zip(digits, nibbles[:40], strict=True))
    return "0x" + "".join(cased)


def has_valid_checksum(address: str, chain_id: int | None) -> bool:
    """Tell whether the address's letter case is exactly the checksum for chain_id."""
    digits = _address_digits(address)
    return to_checksum_address(digits, chain_id)[2:] == digits


def checksum_chain_ids(
    address: str, candidates: tuple[int, ...] = KNOWN_CHAIN_IDS
) -> tuple[int, ...]:
    """Return the candidate chain ids whose EIP-1191 checksum the address carries."""
    return tuple(chain for chain in candidates if has_valid_checksum(address, chain))


def checksum_verdict(text: str, chain_id: int | None) -> ChecksumVerdict:
    """Judge the checksum of an address (with or without `0x`); HexFormatError if not one."""
    digits = _address_digits(text)
    if digits == digits.lower() or digits == digits.upper():
        return ChecksumVerdict.LOWER_OR_UPPER
    if has_valid_checksum(digits, chain_id):
        return ChecksumVerdict.VALID_FOR_CHAIN
    if chain_id is not None and has_valid_checksum(digits, None):
        return ChecksumVerdict.VALID_EIP55_ONLY
    others = tuple(chain for chain in KNOWN_CHAIN_IDS if chain != chain_id)
    if checksum_chain_ids(digits, others):
        return ChecksumVerdict.VALID_OTHER_CHAIN
    return ChecksumVerdict.INVALID
