"""EIP-137 name hashing for RNS (`*.rsk`) names and reverse records."""

from __future__ import annotations

from eth_hash.auto import keccak

from explorer.chain.hexutil import parse_address

ROOT_NODE = b"\x00" * 32
REVERSE_SUFFIX = "addr.reverse"


def normalize_name(name: str) -> str:
    """Return the name trimmed and lowercased; ValueError when a label is empty."""
    normalized = name.strip().lower()
    if normalized and any(not label for label in normalized.split(".")):
        raise ValueError(f"{name.strip()!r} has an empty label")
    return normalized


def label_hash(label: str) -> bytes:
    """Return keccak256 of one label's UTF-8 bytes."""
    return keccak(label.encode("utf-8"))


def namehash(name: str) -> bytes:
    """Return the EIP-137 node of a name (the root node for an empty name)."""
    node = ROOT_NODE
    normalized = normalize_name(name)
    for label in reversed(normalized.split(".") if normalized else []):
        node = keccak(node + label_hash(label))
    return node


def reverse_name(address: str) -> str:
    """Return `<lowercase hex without 0x>.addr.reverse` for a 0x-prefixed address."""
    return f"{parse_address(address)[2:]}.{REVERSE_SUFFIX}"


def reverse_node(address: str) -> bytes:
    """Return the node of an address's reverse record."""
    return namehash(reverse_name(address))
