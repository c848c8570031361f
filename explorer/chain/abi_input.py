"""Typed user inputs for ABI calls: text to eth-abi values, and pasted ABI JSON to functions."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from eth_abi.exceptions import ABITypeError, ParseError
from eth_abi.grammar import ABIType, BasicType, TupleType, parse
from eth_utils.abi import function_signature_to_4byte_selector

from explorer.chain.checksum import ChecksumVerdict, checksum_verdict
from explorer.chain.hexutil import HexFormatError
from explorer.chain.signatures import MAX_TYPE_NESTING

_HEX = re.compile(r"0[xX][0-9a-fA-F]*")
_DECIMAL = re.compile(r"[+-]?[0-9][0-9_]*")
TRUE_WORDS = frozenset({"true", "1", "yes"})
FALSE_WORDS = frozenset({"false", "0", "no"})
MAX_TEXT = 100_000
MAX_NUMBER_DIGITS = 100


class AbiInputError(ValueError):
    """A user input cannot be a value of its ABI type; the message says why."""


def _type_text(abi_type: ABIType) -> str:
    """Return the type's canonical text."""
    return str(abi_type.to_type_str())  # type: ignore[no-untyped-call]


def _abi_type(type_str: str) -> ABIType:
    """Parse and validate an ABI type string."""
    try:
        abi_type: ABIType = parse(type_str)
        abi_type.validate()  # type: ignore[no-untyped-call]
    except (ParseError, ABITypeError) as exc:
        raise AbiInputError(f"{type_str!r} is not an ABI type") from exc
    return abi_type


def parse_input(type_str: str, text: str, chain_id: int | None = None) -> Any:
    """Return the eth-abi value of text typed by a user for type_str, or raise AbiInputError.

    Integers: decimal (may be negative for intN, `_` allowed) or 0x hex; bool: true/false/1/0;
    address: 40 hex digits, a mixed-case one must carry a valid checksum; bytes/bytesN: 0x hex;
    string: as typed; arrays and tuples: JSON arrays whose items are JSON strings, numbers or
    booleans.
    """
    if len(text) > MAX_TEXT:
        raise AbiInputError(f"input longer than {MAX_TEXT:,} characters")
    return _value(_abi_type(type_str), text, chain_id)


def _value(abi_type: ABIType, item: Any, chain_id: int | None) -> Any:
    """Convert one item (text or a JSON value) to the eth-abi value of abi_type."""
    if abi_type.is_array or isinstance(abi_type, TupleType):
        return _sequence(abi_type, item, chain_id)
    assert isinstance(abi_type, BasicType)
    text = _scalar_text(abi_type, item)
    base, sub = abi_type.base, abi_type.sub
    if base in ("uint", "int"):
        return _integer(text, base == "int", int(str(sub)))
    if base == "bool":
        return _boolean(text)
    if base == "address":
        return _address(text, chain_id)
    if base == "bytes":
        return _bytes(text, None if sub is None else int(str(sub)))
    if base == "string":
        return text
    raise AbiInputError(f"{_type_text(abi_type)} inputs are not supported")


def _scalar_text(abi_type: BasicType, item: Any) -> str:
    """Return a scalar item as text (JSON numbers and booleans inside arrays are allowed)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, str):
        return item if abi_type.base == "string" else item.strip()
    raise AbiInputError(f"{_type_text(abi_type)}: expected a string or number, got {item!r}")


def _sequence(abi_type: ABIType, item: Any, chain_id: int | None) -> tuple[Any, ...]:
    """Convert a JSON array (text or already parsed) to an array or tuple value."""
    items = _json_array(item) if isinstance(item, str) else item
    if not isinstance(items, list):
        raise AbiInputError(f"{_type_text(abi_type)}: expected a JSON array")
    if isinstance(abi_type, TupleType) and not abi_type.is_array:
        if len(items) != len(abi_type.components):
            count = len(abi_type.components)
            raise AbiInputError(f"{_type_text(abi_type)}: expected {count} items")
        return tuple(
            _value(c, v, chain_id) for c, v in zip(abi_type.components, items, strict=True)
        )
    dims = abi_type.arrlist[-1] if abi_type.arrlist else ()
    if dims and len(items) != int(dims[0]):
        raise AbiInputError(f"{_type_text(abi_type)}: expected exactly {dims[0]} items")
    return tuple(_value(abi_type.item_type, v, chain_id) for v in items)


def _json_array(text: str) -> Any:
    """Parse a JSON array typed by the user."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise AbiInputError(f"not valid JSON: {exc}") from None


def _integer(text: str, signed: bool, bits: int) -> int:
    """Parse a decimal or hex integer and check its range."""
    if len(text) > MAX_NUMBER_DIGITS:
        raise AbiInputError(f"a number of more than {MAX_NUMBER_DIGITS} characters")
    if _HEX.fullmatch(text):
        value = int(text[2:] or "0", 16)
    elif _DECIMAL.fullmatch(text) and not text.endswith("_") and "__" not in text:
        value = int(text)
    else:
        raise AbiInputError(f"{text!r} is not a whole number (decimal or 0x hex)")
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    if not low <= value <= high:
        kind = f"int{bits}" if signed else f"uint{bits}"
        raise AbiInputError(f"{kind} holds {low} … {high}")
    return value


def _boolean(text: str) -> bool:
    """Parse true/false (also 1/0, yes/no)."""
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise AbiInputError(f"{text!r} is not a bool (true or false)")


def _address(text: str, chain_id: int | None) -> str:
    """Parse an address; mixed case must be a valid EIP-1191 or EIP-55 checksum."""
    digits = text[2:] if text[:2] in ("0x", "0X") else text
    try:
        verdict = checksum_verdict(digits, chain_id)
    except HexFormatError:
        raise AbiInputError(f"{text!r} is not an address (40 hex digits)") from None
    if verdict is ChecksumVerdict.INVALID:
        raise AbiInputError(f"{text!r}: the letter case is not a valid checksum")
    return "0x" + digits.lower()


def _bytes(text: str, size: int | None) -> bytes:
    """Parse 0x hex bytes, exactly size bytes for bytesN."""
    if not _HEX.fullmatch(text) or len(text) % 2:
        raise AbiInputError(f"{text!r} is not 0x-prefixed hex with two digits a byte")
    value = bytes.fromhex(text[2:])
    if size is not None and len(value) != size:
        raise AbiInputError(f"bytes{size} takes exactly {size} bytes, got {len(value)}")
    return value


@dataclass(frozen=True)
class AbiParam:
    """A function input or output: name and canonical type (tuples as `(t1,t2)`)."""

    name: str
    type: str


@dataclass(frozen=True)
class AbiFunction:
    """A function of a pasted ABI."""

    name: str
    inputs: tuple[AbiParam, ...]
    outputs: tuple[AbiParam, ...]
    mutability: str

    @property
    def canonical(self) -> str:
        """Return `name(type,…)`, the text hashed for the selector."""
        return f"{self.name}({','.join(p.type for p in self.inputs)})"

    @property
    def selector(self) -> bytes:
        """Return the 4-byte selector."""
        return function_signature_to_4byte_selector(self.canonical)

    @property
    def is_view(self) -> bool:
        """Tell whether the function only reads (view or pure)."""
        return self.mutability in ("view", "pure")


def _canonical_type(entry: Any, depth: int = 0) -> str:
    """Return the canonical type of a JSON ABI param, expanding `tuple` components."""
    if not isinstance(entry, dict) or not isinstance(entry.get("type"), str):
        raise AbiInputError("every ABI parameter needs a string `type`")
    if depth > MAX_TYPE_NESTING:
        raise AbiInputError(f"tuples nest deeper than {MAX_TYPE_NESTING} levels")
    type_str: str = entry["type"]
    if type_str.startswith("tuple"):
        inner = ",".join(_canonical_type(c, depth + 1) for c in entry.get("components") or [])
        type_str = f"({inner}){type_str[len('tuple') :]}"
    _abi_type(type_str)
    return type_str


def _params(entries: Any) -> tuple[AbiParam, ...]:
    """Parse a list of JSON ABI params."""
    if entries is None:
        return ()
    if not isinstance(entries, list):
        raise AbiInputError("ABI `inputs`/`outputs` must be arrays")
    return tuple(AbiParam(str(e.get("name") or ""), _canonical_type(e)) for e in entries)


def _mutability(entry: dict[str, Any]) -> str:
    """Return the state mutability, honouring the old `constant` flag."""
    if isinstance(entry.get("stateMutability"), str):
        return str(entry["stateMutability"])
    return "view" if entry.get("constant") else "nonpayable"


def abi_entries(text: str) -> list[Any]:
    """Return the entries of pasted ABI JSON (an array, or an object with an `abi` array)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise AbiInputError(f"the ABI is not valid JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("abi"), list):
        data = data["abi"]
    if not isinstance(data, list):
        raise AbiInputError("an ABI is a JSON array of entries")
    return data


def parse_abi(text: str) -> tuple[AbiFunction, ...]:
    """Parse pasted ABI JSON (an array, or an object with an `abi` array) into its functions."""
    functions = []
    for entry in abi_entries(text):
        if not isinstance(entry, dict):
            raise AbiInputError("every ABI entry must be a JSON object")
        if entry.get("type", "function") != "function":
            continue
        if not isinstance(entry.get("name"), str) or not entry["name"]:
            raise AbiInputError("a function entry needs a name")
        inputs, outputs = _params(entry.get("inputs")), _params(entry.get("outputs"))
        functions.append(AbiFunction(entry["name"], inputs, outputs, _mutability(entry)))
    return tuple(functions)


def _abi_json(lines: list[tuple[str, str, str]]) -> str:
    """Build ABI JSON for view functions given as (name, inputs, outputs) type lists."""
    entries = [
        {
            "type": "function",
            "name": name,
            "stateMutability": "view",
            "inputs": [{"name": n, "type": t} for t, n in _pairs(inputs)],
            "outputs": [{"name": "", "type": t} for t, _ in _pairs(outputs)],
        }
        for name, inputs, outputs in lines
    ]
    return json.dumps(entries)


def _pairs(spec: str) -> list[tuple[str, str]]:
    """Split `type name, type name` into (type, name) pairs."""
    pairs = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        type_str, _, name = part.partition(" ")
        pairs.append((type_str, name))
    return pairs


ERC20_ABI = _abi_json(
    [
        ("name", "", "string"),
        ("symbol", "", "string"),
        ("decimals", "", "uint8"),
        ("totalSupply", "", "uint256"),
        ("balanceOf", "address owner", "uint256"),
        ("allowance", "address owner, address spender", "uint256"),
    ]
)
ERC721_ABI = _abi_json(
    [
        ("name", "", "string"),
        ("symbol", "", "string"),
        ("balanceOf", "address owner", "uint256"),
        ("ownerOf", "uint256 tokenId", "address"),
        ("getApproved", "uint256 tokenId", "address"),
        ("isApprovedForAll", "address owner, address operator", "bool"),
        ("tokenURI", "uint256 tokenId", "string"),
        ("supportsInterface", "bytes4 interfaceId", "bool"),
    ]
)
