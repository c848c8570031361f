"""The tools' pure parts: keccak input, exact units, checksum forms, ABI encode and lookup."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from eth_abi.abi import encode
from eth_abi.exceptions import EncodingError
from eth_hash.auto import keccak

from explorer.chain.abi_input import AbiInputError, abi_entries, parse_input
from explorer.chain.checksum import KNOWN_CHAIN_IDS, has_valid_checksum, to_checksum_address
from explorer.chain.signatures import (
    Signature,
    SignatureSyntaxError,
    SignatureTable,
    bundled_table,
    parse_signature,
    parse_table,
)
from explorer.chain.units import format_units, parse_units

_HEX = re.compile(r"0[xX](?:[0-9a-fA-F]{2})*")
_AMOUNT = re.compile(r"\s*([0-9][0-9,_]*(?:\.[0-9]*)?|\.[0-9]+)\s*(wei|gwei|t?rbtc)\s*", re.I)
UNITS: dict[str, int] = {"wei": 0, "gwei": 9, "RBTC": 18}  # decimals of each unit
CHECKSUM_CHAINS = (30, 31)


class HashInput(enum.Enum):
    """How the keccak tool reads its input."""

    AUTO = "auto"  # 0x and whole bytes of hex: hex, else text
    TEXT = "text"  # UTF-8 bytes of the text
    HEX = "hex"  # the bytes the hex digits spell


def keccak_input(text: str, mode: HashInput = HashInput.AUTO) -> tuple[bytes, HashInput]:
    """Return the bytes to hash and how they were read; ValueError for bad hex."""
    if mode is HashInput.TEXT or (mode is HashInput.AUTO and not _HEX.fullmatch(text)):
        return text.encode("utf-8"), HashInput.TEXT
    if not _HEX.fullmatch(text):
        raise ValueError("hex input is 0x followed by two hex digits a byte")
    return bytes.fromhex(text[2:]), HashInput.HEX


def keccak_hex(data: bytes) -> str:
    """Return the Keccak-256 (not SHA3-256) of data as 0x hex."""
    return "0x" + keccak(data).hex()


def unit_name(text: str) -> str:
    """Return the canonical unit for `wei`, `gwei`, `rbtc` or `trbtc` (any case)."""
    lowered = text.strip().lower()
    if lowered in ("rbtc", "trbtc"):
        return "RBTC"
    if lowered in ("wei", "gwei"):
        return lowered
    raise ValueError(f"{text!r} is not a unit: wei, gwei or RBTC")


def convert_amount(amount: str, unit: str) -> dict[str, str]:
    """Return an amount in every unit, exactly; ValueError when it is not exact in wei."""
    name = unit_name(unit)
    try:
        wei = parse_units(amount, UNITS[name])
    except ValueError as error:
        if "decimal places" not in str(error):
            raise
        places = UNITS[name]
        if places == 0:
            raise ValueError(f"{amount.strip()} wei is not a whole number of wei") from None
        raise ValueError(f"{name} has at most {places} decimal places") from None
    return {name: format_units(wei, decimals) for name, decimals in UNITS.items()}


def amount_query(text: str) -> tuple[str, str] | None:
    """Return (amount, unit) when text reads like `1.5 rbtc` or `30 gwei`, else None."""
    match = _AMOUNT.fullmatch(text)
    return None if match is None else (match[1], unit_name(match[2]))


@dataclass(frozen=True)
class ChecksumForms:
    """An address in every checksum, and which of them a typed letter case matches."""

    typed: str
    lower: str
    eip55: str
    eip1191: dict[int, str]
    matches: tuple[str, ...]  # "EIP-55" and/or "EIP-1191 chain N"; () for one case

    @property
    def single_case(self) -> bool:
        """Tell whether the typed address was all lower or all upper case (no checksum)."""
        digits = self.typed[2:]
        return digits in (digits.lower(), digits.upper())


def checksum_forms(address: str) -> ChecksumForms:
    """Return the EIP-55 and EIP-1191 (chains 30, 31) forms of an address; HexFormatError."""
    typed = address.strip()
    digits = typed[2:] if typed[:2] in ("0x", "0X") else typed
    eip55 = to_checksum_address(digits, None)
    forms = {chain: to_checksum_address(digits, chain) for chain in CHECKSUM_CHAINS}
    matches: list[str] = []
    if digits not in (digits.lower(), digits.upper()):
        if has_valid_checksum(digits, None):
            matches.append("EIP-55")
        matches += [
            f"EIP-1191 chain {chain}"
            for chain in KNOWN_CHAIN_IDS
            if has_valid_checksum(digits, chain)
        ]
    return ChecksumForms("0x" + digits, "0x" + digits.lower(), eip55, forms, tuple(matches))


def function_signature(text: str) -> Signature:
    """Parse `name(type name, …)` (a leading `function` is optional); SignatureSyntaxError."""
    stripped = text.strip()
    if not stripped.startswith(("function ", "event ")):
        stripped = "function " + stripped
    return parse_signature(stripped)


def encode_call(signature: str, arguments: list[str], chain_id: int | None) -> bytes:
    """Return the calldata of a call: selector, then the typed arguments encoded by eth-abi."""
    function = function_signature(signature)
    if function.kind != "function":
        raise SignatureSyntaxError("only functions are called; events are looked up")
    if len(arguments) != len(function.params):
        raise AbiInputError(
            f"{function.canonical} takes {len(function.params)} argument(s), "
            f"{len(arguments)} given (one a line)"
        )
    values = [
        parse_input(param.type, text, chain_id)
        for param, text in zip(function.params, arguments, strict=True)
    ]
    try:
        return function.key + encode([p.type for p in function.params], values)
    except EncodingError as error:
        raise AbiInputError(str(error)) from None


def signature_lines_of_abi(text: str) -> list[str]:
    """Return a pasted ABI's functions and events as signature lines; AbiInputError."""
    lines = []
    for entry in abi_entries(text):
        if isinstance(entry, dict) and entry.get("type", "function") in ("function", "event"):
            params = ", ".join(_abi_param(p) for p in entry.get("inputs") or [])
            lines.append(f"{entry.get('type', 'function')} {entry.get('name')}({params})")
    return lines


def _abi_param(entry: object) -> str:
    """Return one ABI JSON parameter as signature text: type [indexed] [name]."""
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        raise AbiInputError("every ABI parameter needs a string `type`")
    type_str: str = entry["type"]
    if type_str.startswith("tuple"):
        inner = ", ".join(_abi_param(c) for c in entry.get("components") or [])
        type_str = f"({inner}){type_str[len('tuple') :]}"
    words = [type_str, "indexed" if entry.get("indexed") else "", str(entry.get("name") or "")]
    return " ".join(word for word in words if word)


def abi_table(text: str) -> SignatureTable:
    """Return the signature table of a pasted ABI (functions and events); AbiInputError."""
    try:
        return SignatureTable.build(parse_table(signature_lines_of_abi(text)))
    except SignatureSyntaxError as error:
        raise AbiInputError(str(error)) from None


@dataclass(frozen=True)
class Lookup:
    """What a selector, a topic or a signature text is: its key and the known signatures."""

    key: bytes  # the selector (4 bytes) or topic0 (32 bytes)
    kind: str  # "function" or "event"
    known: tuple[Signature, ...]  # bundled signatures with this key
    typed: Signature | None = None  # the signature typed, when text was one


def lookup(text: str, table: SignatureTable | None = None) -> list[Lookup]:
    """Look up a 4-byte selector, a 32-byte topic, or the selector and topic of a signature."""
    table = table or bundled_table()
    stripped = text.strip()
    if _HEX.fullmatch(stripped) and len(stripped) in (10, 66):
        key = bytes.fromhex(stripped[2:])
        kind = "function" if len(key) == 4 else "event"
        index = table.functions if kind == "function" else table.events
        return [Lookup(key, kind, index.get(key, ()))]
    bare = re.sub(r"^(function|event)\s+", "", stripped)
    found = []
    for kind in ("function", "event"):
        signature = parse_signature(f"{kind} {bare}")
        index = table.functions if kind == "function" else table.events
        found.append(Lookup(signature.key, kind, index.get(signature.key, ()), signature))
    return found
