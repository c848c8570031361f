"""Decode transaction input and event logs with the bundled signature table."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from eth_abi.codec import ABICodec
from eth_abi.decoding import StringDecoder
from eth_abi.exceptions import DecodingError
from eth_abi.grammar import ABIType, TupleType, parse
from eth_abi.registry import ABIRegistry, registry

from explorer.chain.hexutil import HexFormatError, parse_hash
from explorer.chain.signatures import (
    MAX_TYPE_NESTING,
    Param,
    Signature,
    SignatureTable,
    bundled_table,
    type_nesting,
)

WORD = 32


@dataclass(frozen=True)
class DecodedParam:
    """One decoded parameter: name, type, plain Python value and display text.

    Addresses are canonical lowercase strings, bytes are bytes, arrays and tuples are tuples.
    An indexed event parameter of a dynamic type carries only its keccak hash (`hashed`).
    """

    name: str
    type: str
    value: object
    text: str
    indexed: bool = False
    hashed: bool = False


@dataclass(frozen=True)
class DecodedCall:
    """A decoded function call: the method and its arguments."""

    name: str
    signature: str
    canonical: str
    selector: bytes
    params: tuple[DecodedParam, ...]


@dataclass(frozen=True)
class DecodedEvent:
    """A decoded event log: the event and its parameters in declaration order."""

    name: str
    signature: str
    canonical: str
    topic: bytes
    params: tuple[DecodedParam, ...]


class _LenientStringDecoder(StringDecoder):
    """Decodes `string` values with invalid UTF-8 replaced (U+FFFD) instead of failing."""

    @classmethod
    def from_type_str(cls, type_str: str, registry: ABIRegistry) -> _LenientStringDecoder:
        """Return a decoder that replaces undecodable bytes."""
        return cls(handle_string_errors="replace")


def _lenient_codec() -> ABICodec:
    """Return eth-abi's default codec with lenient string decoding."""
    lenient: ABIRegistry = registry.copy()  # type: ignore[no-untyped-call]
    lenient.unregister_decoder("string")
    lenient.register_decoder("string", _LenientStringDecoder, label="string")
    return ABICodec(lenient)


_CODEC = _lenient_codec()


class _Undecodable(Exception):
    """The data cannot be decoded as the candidate signature (or would cost too much)."""


def decode_call(data: bytes, table: SignatureTable | None = None) -> DecodedCall | None:
    """Decode a transaction's input; None when empty, unknown or not decodable."""
    if table is None:  # a page decodes the same input at each stage: decode it once
        return _decode_call_bundled(bytes(data))
    return _decode_call(bytes(data), table)


@functools.lru_cache(maxsize=256)
def _decode_call_bundled(data: bytes) -> DecodedCall | None:
    """Decode an input with the bundled table, remembered (the result is immutable)."""
    return _decode_call(data, bundled_table())


def _decode_call(data: bytes, table: SignatureTable) -> DecodedCall | None:
    """Decode an input with a signature table."""
    if len(data) < 4:
        return None
    candidates = table.functions.get(bytes(data[:4]), ())
    for signature in candidates:
        try:
            values = _decode(signature.params, bytes(data[4:]))
        except _Undecodable:
            continue
        params = tuple(_decoded(p, v) for p, v in zip(signature.params, values, strict=True))
        return DecodedCall(*_header(signature), params)
    return None


def method_label(data: bytes, table: SignatureTable | None = None) -> str:
    """Return a short method name for a table column: the name, the selector hex, or ""."""
    if len(data) < 4:
        return ""
    candidates = (table or bundled_table()).functions.get(bytes(data[:4]), ())
    names = dict.fromkeys(s.name for s in candidates)
    return " | ".join(names) if names else "0x" + bytes(data[:4]).hex()


def decode_log(
    topics: Sequence[str], data: bytes, table: SignatureTable | None = None
) -> DecodedEvent | None:
    """Decode an event from its topics (hex) and data; None when unknown or not decodable."""
    if table is None and all(isinstance(topic, str) for topic in topics):
        return _decode_log_bundled(tuple(topics), bytes(data))  # once per page, not per stage
    return _decode_log(topics, data, table or bundled_table())


@functools.lru_cache(maxsize=1024)
def _decode_log_bundled(topics: tuple[str, ...], data: bytes) -> DecodedEvent | None:
    """Decode an event with the bundled table, remembered (the result is immutable)."""
    return _decode_log(topics, data, bundled_table())


def _decode_log(topics: Sequence[str], data: bytes, table: SignatureTable) -> DecodedEvent | None:
    """Decode an event with a signature table."""
    try:
        raw_topics = [bytes.fromhex(parse_hash(topic)[2:]) for topic in topics]
    except (HexFormatError, TypeError):
        return None
    if not raw_topics:
        return None
    candidates = table.events.get(raw_topics[0], ())
    for signature in candidates:
        if signature.indexed_count != len(raw_topics) - 1:
            continue
        try:
            params = _event_params(signature, raw_topics[1:], bytes(data))
        except _Undecodable:
            continue
        return DecodedEvent(*_header(signature), params)
    return None


@functools.lru_cache(maxsize=4096)
def event_name_of(topic0: str, topics: int) -> str:
    """Return the name the bundled table gives an event's topic0 with that many topics, or ''.

    A cached lookup, no decoding (for tables and exports of many logs of few kinds).
    """
    try:
        key = bytes.fromhex(parse_hash(topic0)[2:])
    except (HexFormatError, TypeError):
        return ""
    found = [s.name for s in bundled_table().events.get(key, ()) if s.indexed_count == topics - 1]
    return found[0] if found else ""


def _header(signature: Signature) -> tuple[str, str, str, bytes]:
    """Return the name, readable text, canonical text and key of a signature."""
    return signature.name, signature.text, signature.canonical, signature.key


def _event_params(
    signature: Signature, topics: list[bytes], data: bytes
) -> tuple[DecodedParam, ...]:
    """Decode indexed parameters from topics and the others from data, in declared order."""
    unindexed = tuple(p for p in signature.params if not p.indexed)
    data_values = iter(_decode(unindexed, data))
    topic_values = iter(topics)
    params: list[DecodedParam] = []
    for param in signature.params:
        if not param.indexed:
            params.append(_decoded(param, next(data_values)))
        elif _is_hashed_when_indexed(param.type):
            topic = next(topic_values)
            text = f"0x{topic.hex()} (keccak of the value)"
            params.append(DecodedParam(param.name, param.type, topic, text, True, True))
        else:
            (value,) = _decode((param,), next(topic_values))
            params.append(_decoded(param, value, indexed=True))
    return tuple(params)


def _is_hashed_when_indexed(type_str: str) -> bool:
    """Tell whether an indexed parameter of this type is stored as a keccak hash."""
    return type_str in ("string", "bytes") or type_str.endswith("]") or type_str.startswith("(")


def _decode(params: Sequence[Param], data: bytes) -> tuple[Any, ...]:
    """Decode data strictly as the given parameter types, or raise _Undecodable."""
    types = [p.type for p in params]
    if any(type_nesting(t) > MAX_TYPE_NESTING for t in types):
        raise _Undecodable(f"types nest deeper than {MAX_TYPE_NESTING} levels")
    try:
        _check_cost([parse(t) for t in types], data)
        return tuple(_CODEC.decode(types, data))
    except (DecodingError, ValueError, OverflowError) as exc:
        raise _Undecodable(str(exc)) from exc


def _decoded(param: Param, value: Any, indexed: bool = False) -> DecodedParam:
    """Build a DecodedParam with a plain value and display text."""
    plain = _plain(param.type, param.components, value)
    return DecodedParam(
        param.name, param.type, plain, _text(param.type, param.components, plain), indexed
    )


def _item_type(type_str: str) -> str:
    """Return the element type of an array type string."""
    return type_str[: type_str.rindex("[")]


def _plain(type_str: str, components: tuple[Param, ...] | None, value: Any) -> object:
    """Normalize an eth-abi value: lowercase addresses, tuples for arrays and tuples."""
    if type_str.endswith("]"):
        return tuple(_plain(_item_type(type_str), components, item) for item in value)
    if components is not None:
        return tuple(
            _plain(c.type, c.components, item) for c, item in zip(components, value, strict=True)
        )
    if type_str == "address":
        return str(value).lower()
    return value


def _text(type_str: str, components: tuple[Param, ...] | None, value: Any) -> str:
    """Return readable text for a normalized value."""
    if type_str.endswith("]"):
        item_type = _item_type(type_str)
        return "[" + ", ".join(_text(item_type, components, item) for item in value) + "]"
    if components is not None:
        parts = (
            f"{c.name}: {_text(c.type, c.components, item)}"
            if c.name
            else _text(c.type, c.components, item)
            for c, item in zip(components, value, strict=True)
        )
        return "(" + ", ".join(parts) + ")"
    if type_str == "address":
        return str(value)
    return _scalar_text(value)


def _scalar_text(value: object) -> str:
    """Return readable text for one scalar value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, bytes):
        return "0x" + value.hex()
    if isinstance(value, str):
        return quoted(value)
    if isinstance(value, Decimal):
        return format(value, "f")
    return str(value)


def quoted(text: str) -> str:
    """Quote a string, escaping characters that would not print (controls, bidi overrides)."""
    body = "".join(
        ch if ch.isprintable() and ch not in '"\\' else f"\\u{ord(ch):04x}" for ch in text
    )
    return f'"{body}"'


class _Meter:
    """Counts the bytes a decode would materialize and stops past a budget."""

    def __init__(self, budget: int) -> None:
        """Start with nothing spent."""
        self.budget = budget
        self.spent = 0

    def spend(self, amount: int) -> None:
        """Add amount; raise _Undecodable past the budget."""
        self.spent += amount
        if self.spent > self.budget:
            raise _Undecodable("decoding would materialize far more than the input holds")


def _check_cost(types: Sequence[ABIType], data: bytes) -> None:
    """Refuse data whose pointers would make eth-abi copy it over and over (e.g. bytes[])."""
    meter = _Meter(4 * len(data) + 4096)
    _walk_sequence(types, data, 0, meter)


def _word(data: bytes, pos: int) -> int:
    """Read the 32-byte big-endian word at pos, or raise _Undecodable."""
    if pos < 0 or pos + WORD > len(data):
        raise _Undecodable("data too short")
    return int.from_bytes(data[pos : pos + WORD], "big")


def _static_size(abi_type: ABIType) -> int:
    """Return the encoded size of a static type."""
    if abi_type.is_array:
        return int(abi_type.arrlist[-1][0]) * _static_size(abi_type.item_type)
    if isinstance(abi_type, TupleType):
        return sum(_head_size(c) for c in abi_type.components)
    return WORD


def _head_size(abi_type: ABIType) -> int:
    """Return the size a type takes in the head of its enclosing tuple."""
    return WORD if abi_type.is_dynamic else _static_size(abi_type)


def _walk_sequence(types: Sequence[ABIType], data: bytes, base: int, meter: _Meter) -> None:
    """Walk a head/tail sequence starting at base, metering what it holds."""
    head = base
    for abi_type in types:
        if abi_type.is_dynamic:
            _walk(abi_type, data, base + _word(data, head), meter)
        else:
            _walk(abi_type, data, head, meter)
        head += _head_size(abi_type)


def _walk(abi_type: ABIType, data: bytes, start: int, meter: _Meter) -> None:
    """Meter one value encoded at start."""
    meter.spend(WORD)
    if abi_type.is_array:
        dims = abi_type.arrlist[-1]
        count = int(dims[0]) if dims else _word(data, start)
        begin = start if dims else start + WORD
        if count * _head_size(abi_type.item_type) > len(data):
            raise _Undecodable("array longer than the data")
        _walk_sequence([abi_type.item_type] * count, data, begin, meter)
    elif isinstance(abi_type, TupleType):
        _walk_sequence(abi_type.components, data, start, meter)
    elif abi_type.is_dynamic:
        meter.spend(_word(data, start))
