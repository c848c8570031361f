"""Decode the revert data of a failed call: `Error(string)` and `Panic(uint256)`."""

from __future__ import annotations

ERROR_SELECTOR = bytes.fromhex("08c379a0")
PANIC_SELECTOR = bytes.fromhex("4e487b71")

PANIC_CODES: dict[int, str] = {
    0x00: "generic compiler panic",
    0x01: "assertion failed",
    0x11: "arithmetic overflow or underflow",
    0x12: "division or modulo by zero",
    0x21: "conversion to an invalid enum value",
    0x22: "incorrectly encoded storage byte array",
    0x31: "pop() on an empty array",
    0x32: "array index out of bounds",
    0x41: "out of memory (too much memory allocated)",
    0x51: "call to a zero-initialized internal function",
}


def describe_panic(code: int) -> str:
    """Return the text for a Solidity panic code, e.g. `panic 0x11: arithmetic …`."""
    meaning = PANIC_CODES.get(code, "unknown panic code")
    return f"panic 0x{code:02x}: {meaning}"


def decode_revert_reason(data: bytes) -> str | None:
    """Return the reason of `Error(string)` or `Panic(uint256)` revert data, else None."""
    selector, payload = data[:4], data[4:]
    if selector not in (ERROR_SELECTOR, PANIC_SELECTOR):
        return None
    from eth_abi.abi import decode  # on first revert: the window's start loads no ABI codec
    from eth_abi.exceptions import DecodingError

    try:
        if selector == ERROR_SELECTOR:
            (raw,) = decode(["bytes"], payload)
            return bytes(raw).decode("utf-8", errors="replace")
        if selector == PANIC_SELECTOR:
            (code,) = decode(["uint256"], payload)
            return describe_panic(int(code))
    except (DecodingError, OverflowError, ValueError):
        return None
    return None
