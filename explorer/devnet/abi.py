"""Encode contract calls for the seeded history (selector plus eth-abi arguments)."""

from __future__ import annotations

from typing import Any

from eth_abi.abi import encode
from eth_utils.abi import function_signature_to_4byte_selector


def call_data(signature: str, *args: Any) -> bytes:
    """Calldata for `name(type,...)` with args encoded by eth-abi."""
    arg_types = split_types(signature[signature.index("(") + 1 : -1])
    return function_signature_to_4byte_selector(signature) + encode(arg_types, list(args))


def split_types(text: str) -> list[str]:
    """Split `a,(b,c)[],d` into its top-level types."""
    types: list[str] = []
    depth, start = 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            types.append(text[start:i])
            start = i + 1
    return [*types, text[start:]] if text else []


def constructor_data(bytecode: bytes, types: list[str], *args: Any) -> bytes:
    """Creation code followed by the encoded constructor arguments."""
    return bytecode + encode(types, list(args))
