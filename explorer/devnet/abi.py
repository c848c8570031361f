"""Encode contract calls for the seeded history (selector plus eth-abi arguments)."""

from __future__ import annotations

from typing import Any

from eth_abi.abi import encode
from eth_utils.abi import function_signature_to_4byte_selector


def call_data(signature: str, *args: Any) -> bytes:
    """Calldata for `name(type,...)` with args encoded by eth-abi."""
    types = signature[signature.index("(") + 1 : -1]
    arg_types = [t for t in types.split(",") if t] if types else []
    return function_signature_to_4byte_selector(signature) + encode(arg_types, list(args))


def constructor_data(bytecode: bytes, types: list[str], *args: Any) -> bytes:
    """Creation code followed by the encoded constructor arguments."""
    return bytecode + encode(types, list(args))
