"""The CBOR metadata compilers append to runtime code: compiler version, source IPFS/Swarm hash.

Solidity (and Vyper from 0.3.x) end the code with a CBOR map and its length in two big-endian
bytes. The code is untrusted: the length is bounded, only a map of known keys and types is
accepted, and anything else is "no metadata" rather than an error.
"""

from __future__ import annotations

from dataclasses import dataclass

import base58
import cbor2

#: The longest CBOR tail accepted; solc writes ~50 bytes, a few hundred leaves room for more keys.
MAX_CBOR = 512
IPFS_MULTIHASH = b"\x12\x20"  # sha2-256, 32 bytes: an IPFS CIDv0


@dataclass(frozen=True)
class CodeMetadata:
    """What the CBOR tail says; `length` counts the CBOR bytes and their two length bytes."""

    length: int
    compiler: str = ""  # "solc 0.8.26", "vyper 0.3.10", "" when not said
    ipfs: bytes = b""  # the metadata file's multihash (0x1220 + sha-256)
    swarm: bytes = b""  # bzzr0 / bzzr1: the metadata file's Swarm hash
    swarm_version: str = ""
    experimental: bool = False

    @property
    def ipfs_text(self) -> str:
        """Return the IPFS hash as a CIDv0 (`Qm…`), or ""."""
        return base58.b58encode(self.ipfs).decode("ascii") if self.ipfs else ""

    @property
    def source_hash_text(self) -> str:
        """Return the source's hash as its kind and text: `ipfs://Qm…`, `bzz-raw://…`, or ""."""
        if self.ipfs:
            return f"ipfs://{self.ipfs_text}"
        if self.swarm:
            return f"bzz-raw://{self.swarm.hex()} ({self.swarm_version})"
        return ""


def _version(value: object) -> str:
    """Return a compiler version from three bytes (release) or a text (pre-release)."""
    if isinstance(value, bytes) and len(value) == 3:
        return ".".join(str(part) for part in value)
    if isinstance(value, str) and len(value) <= 64 and value.isprintable():
        return value
    return ""


def _decode_map(raw: bytes) -> dict[str, object] | None:
    """Return the CBOR map of raw, or None when raw is not one map of text keys."""
    try:
        value = cbor2.loads(raw)
    except (cbor2.CBORDecodeError, ValueError, TypeError, OverflowError, RecursionError):
        return None
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        return None
    return value


def _metadata(length: int, entries: dict[str, object]) -> CodeMetadata | None:
    """Return the metadata of a decoded map, None when it has no key a compiler writes."""
    ipfs = entries.get("ipfs")
    ipfs = ipfs if isinstance(ipfs, bytes) and len(ipfs) == 34 else b""
    if ipfs and not ipfs.startswith(IPFS_MULTIHASH):
        ipfs = b""
    swarm, swarm_version = b"", ""
    for key in ("bzzr1", "bzzr0"):
        value = entries.get(key)
        if isinstance(value, bytes) and len(value) == 32:
            swarm, swarm_version = value, key
            break
    compiler = ""
    for name in ("solc", "vyper"):
        if version := _version(entries.get(name)):
            compiler = f"{name} {version}"
            break
    if not (ipfs or swarm or compiler):
        return None
    experimental = entries.get("experimental") is True
    return CodeMetadata(length, compiler, ipfs, swarm, swarm_version, experimental)


def read_metadata(code: bytes) -> CodeMetadata | None:
    """Return the CBOR metadata at the end of runtime code, or None when there is none."""
    if len(code) < 3:
        return None
    size = int.from_bytes(code[-2:], "big")
    if not 0 < size <= min(MAX_CBOR, len(code) - 2):
        return None
    entries = _decode_map(bytes(code[-2 - size : -2]))
    return None if entries is None else _metadata(size + 2, entries)


def strip_metadata(code: bytes) -> bytes:
    """Return the code without its CBOR metadata tail (the code itself when it has none)."""
    metadata = read_metadata(code)
    return code[: -metadata.length] if metadata else code
