"""Human-readable ABI signatures: parsing and the bundled selector/topic table."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Literal

from eth_abi.registry import registry
from eth_utils.abi import event_signature_to_log_topic, function_signature_to_4byte_selector

from explorer.chain.bundled import signature_lines

Kind = Literal["function", "event"]
_TOKEN = re.compile(r"\s*(?:([A-Za-z_$][A-Za-z0-9_$]*)|(\[[0-9]*\])|([(),]))")
_ALIASES = {"uint": "uint256", "int": "int256", "fixed": "fixed128x18", "ufixed": "ufixed128x18"}


class SignatureSyntaxError(ValueError):
    """A signature text is not of the form `kind name(type name, ...)`."""


@dataclass(frozen=True)
class Param:
    """One parameter: its name (may be empty), canonical type and, for tuples, components."""

    name: str
    type: str
    indexed: bool = False
    components: tuple[Param, ...] | None = None

    @property
    def is_tuple(self) -> bool:
        """Tell whether the parameter's base type is a tuple."""
        return self.components is not None


@dataclass(frozen=True)
class Signature:
    """A function or event signature with parameter names; `key` is its selector or topic0.

    The derived texts and key are made once (a key is a keccak: ~10 us per decoded log).
    """

    kind: Kind
    name: str
    params: tuple[Param, ...]

    @cached_property
    def canonical(self) -> str:
        """Return the canonical text hashed for the selector, e.g. `transfer(address,uint256)`."""
        return f"{self.name}({','.join(p.type for p in self.params)})"

    @cached_property
    def key(self) -> bytes:
        """Return the 4-byte selector of a function or the 32-byte topic0 of an event."""
        if self.kind == "function":
            return function_signature_to_4byte_selector(self.canonical)
        return event_signature_to_log_topic(self.canonical)

    @cached_property
    def indexed_count(self) -> int:
        """Return how many parameters an event carries in topics."""
        return sum(1 for p in self.params if p.indexed)

    @cached_property
    def text(self) -> str:
        """Return the readable signature, e.g. `transfer(address to, uint256 amount)`."""
        return f"{self.name}({', '.join(_param_text(p) for p in self.params)})"


def _param_text(param: Param) -> str:
    """Return one parameter as readable text, naming tuple components."""
    type_text = param.type
    if param.components is not None:
        base = f"({','.join(c.type for c in param.components)})"
        inner = ", ".join(_param_text(c) for c in param.components)
        type_text = f"({inner}){param.type[len(base) :]}"
    words = [type_text, "indexed" if param.indexed else "", param.name]
    return " ".join(word for word in words if word)


MAX_TYPE_NESTING = 16  # tuples within tuples: far beyond any contract, far below the stack


def type_nesting(type_str: str) -> int:
    """Return how deep a canonical type's tuples nest (counted without recursing)."""
    depth = deepest = 0
    for char in type_str:
        if char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


class _Parser:
    """A recursive-descent parser over the tokens of one signature text (nesting bounded)."""

    def __init__(self, text: str) -> None:
        """Tokenize text."""
        self.tokens: list[str] = []
        pos = 0
        while pos < len(text.rstrip()):
            match = _TOKEN.match(text, pos)
            if match is None or match.end() == pos:
                raise SignatureSyntaxError(f"unexpected text at {pos} in {text!r}")
            self.tokens.append(match.group(match.lastindex or 0))
            pos = match.end()
        self.pos = 0
        self.depth = 0

    def peek(self) -> str | None:
        """Return the next token without consuming it."""
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        """Consume the next token, checking it when expected is given."""
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise SignatureSyntaxError(f"expected {expected or 'more'}, got {token!r}")
        self.pos += 1
        return token

    def params(self) -> tuple[Param, ...]:
        """Parse `( param, ... )`, refusing tuples nested deeper than MAX_TYPE_NESTING."""
        self.take("(")
        self.depth += 1
        if self.depth > MAX_TYPE_NESTING + 1:  # the parameter list itself is one level
            raise SignatureSyntaxError(f"tuples nest deeper than {MAX_TYPE_NESTING} levels")
        params: list[Param] = []
        while self.peek() != ")":
            if params:
                self.take(",")
            params.append(self.param())
        self.take(")")
        self.depth -= 1
        return tuple(params)

    def param(self) -> Param:
        """Parse `type [indexed] [name]`."""
        components: tuple[Param, ...] | None = None
        if self.peek() == "(":
            components = self.params()
            base = f"({','.join(c.type for c in components)})"
        else:
            word = self.take()
            base = _ALIASES.get(word, word)
        while (token := self.peek()) is not None and token.startswith("["):
            base += self.take()
        indexed = self.peek() == "indexed"
        if indexed:
            self.take()
        name = ""
        if (token := self.peek()) is not None and token not in ",()":
            name = self.take()
        return Param(name, base, indexed, components)


def parse_signature(line: str) -> Signature:
    """Parse `function name(type name, ...)` or `event Name(type indexed name, ...)`."""
    parser = _Parser(line)
    kind = parser.take()
    if kind not in ("function", "event"):
        raise SignatureSyntaxError(f"a signature starts with 'function' or 'event': {line!r}")
    name = parser.take()
    params = parser.params()
    if parser.peek() is not None:
        raise SignatureSyntaxError(f"trailing text in {line!r}")
    for param in params:
        if not registry.has_encoder(param.type):
            raise SignatureSyntaxError(f"unknown type {param.type!r} in {line!r}")
    return Signature("function" if kind == "function" else "event", name, params)


def parse_table(lines: Iterable[str]) -> tuple[Signature, ...]:
    """Parse signature lines, skipping blanks and `#` comments and exact duplicates."""
    seen: set[tuple[str, str, int]] = set()
    signatures: list[Signature] = []
    for raw in lines:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        signature = parse_signature(line)
        identity = (signature.kind, signature.canonical, signature.indexed_count)
        if identity not in seen:
            seen.add(identity)
            signatures.append(signature)
    return tuple(signatures)


@dataclass(frozen=True)
class SignatureTable:
    """Signatures indexed by selector (functions) and by topic0 (events), in file order."""

    functions: dict[bytes, tuple[Signature, ...]]
    events: dict[bytes, tuple[Signature, ...]]

    @classmethod
    def build(cls, signatures: Iterable[Signature]) -> SignatureTable:
        """Index signatures by their computed selector or topic."""
        functions: dict[bytes, tuple[Signature, ...]] = {}
        events: dict[bytes, tuple[Signature, ...]] = {}
        for signature in signatures:
            index = functions if signature.kind == "function" else events
            index[signature.key] = (*index.get(signature.key, ()), signature)
        return cls(functions, events)


@cache
def bundled_table() -> SignatureTable:
    """Return the table of the bundled signatures (computed once)."""
    return SignatureTable.build(parse_table(signature_lines()))
