"""Hex quantities, data, addresses and hashes as the node sends them."""

from __future__ import annotations


class HexFormatError(ValueError):
    """A value is not in the hex form the JSON-RPC conventions require."""


def _strip_prefix(value: object, what: str) -> str:
    """Return the digits after `0x`, or raise HexFormatError."""
    if not isinstance(value, str):
        raise HexFormatError(f"{what} must be a 0x-prefixed hex string, got {type(value).__name__}")
    if not value.startswith(("0x", "0X")):
        raise HexFormatError(f"{what} must start with 0x")
    digits = value[2:]
    # int() and bytes.fromhex() check the digits themselves; what they would also accept
    # (signs, underscores, spaces, a second 0x, non-ASCII digits) is refused here, in C-speed
    # str methods rather than a regex, since this runs for every field of every record.
    if (not (digits.isascii() and digits.isalnum()) and digits) or "x" in digits or "X" in digits:
        raise _not_hex(what)
    return digits


def _not_hex(what: str) -> HexFormatError:
    """Return the error for digits that are not all hex."""
    return HexFormatError(f"{what} has characters that are not hex digits")


def parse_quantity(value: object, what: str = "quantity") -> int:
    """Parse a hex quantity leniently: `0x` means 0 and leading zeros are accepted."""
    digits = _strip_prefix(value, what)
    try:
        return int(digits, 16) if digits else 0
    except ValueError:
        raise _not_hex(what) from None


def parse_optional_quantity(value: object, what: str = "quantity") -> int | None:
    """Parse a hex quantity that may be `null`."""
    return None if value is None else parse_quantity(value, what)


def to_quantity(value: int) -> str:
    """Encode a non-negative int as a minimal hex quantity (`0x0` for zero)."""
    if value < 0:
        raise ValueError("quantities are non-negative")
    return hex(value)


def parse_data(value: object, what: str = "data") -> bytes:
    """Parse hex data (two digits a byte; `0x` is empty)."""
    digits = _strip_prefix(value, what)
    if len(digits) % 2:
        raise HexFormatError(f"{what} has an odd number of hex digits")
    try:
        return bytes.fromhex(digits)
    except ValueError:
        raise _not_hex(what) from None


def parse_optional_data(value: object, what: str = "data") -> bytes | None:
    """Parse hex data that may be `null`."""
    return None if value is None else parse_data(value, what)


def to_data(value: bytes) -> str:
    """Encode bytes as 0x-prefixed lowercase hex."""
    return "0x" + value.hex()


def parse_fixed(value: object, size: int, what: str) -> str:
    """Parse hex of exactly `size` bytes; return it canonical (lowercase, 0x)."""
    digits = _strip_prefix(value, what)
    if len(digits) != size * 2:
        raise HexFormatError(f"{what} must be {size} bytes ({size * 2} hex digits)")
    try:
        bytes.fromhex(digits)
    except ValueError:
        raise _not_hex(what) from None
    return "0x" + digits.lower()


def parse_address(value: object, what: str = "address") -> str:
    """Parse a 20-byte address into canonical lowercase form."""
    return parse_fixed(value, 20, what)


def parse_optional_address(value: object, what: str = "address") -> str | None:
    """Parse an address that may be `null` (or, leniently, `0x`/empty)."""
    if value is None or value in ("", "0x"):
        return None
    return parse_address(value, what)


def parse_hash(value: object, what: str = "hash") -> str:
    """Parse a 32-byte hash into canonical lowercase form."""
    return parse_fixed(value, 32, what)


def parse_optional_hash(value: object, what: str = "hash") -> str | None:
    """Parse a hash that may be `null`."""
    return None if value is None else parse_hash(value, what)


def is_address(value: object) -> bool:
    """Tell whether value is a 0x-prefixed 20-byte hex string (any case)."""
    try:
        parse_address(value)
    except HexFormatError:
        return False
    return True


def is_hash(value: object) -> bool:
    """Tell whether value is a 0x-prefixed 32-byte hex string (any case)."""
    try:
        parse_hash(value)
    except HexFormatError:
        return False
    return True
