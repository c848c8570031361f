"""A Sourcify-style metadata.json checked against a contract's code, with nothing compiled.

solc hashes the metadata file into the code's CBOR tail (an IPFS CIDv0 of the exact bytes), and
the metadata lists each source file's keccak-256; so the file's hash equal to the code's ties
the code to those sources as firmly as a recompilation would, and each source given is checked
against its listed hash.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eth_hash.auto import keccak

from explorer.chain.artifacts import ArtifactError, ContractArtifact
from explorer.chain.code_metadata import IPFS_MULTIHASH, read_metadata

#: IPFS stores a file up to this size in one block; solc's metadata files are far smaller.
IPFS_CHUNK = 262_144


def _varint(value: int) -> bytes:
    """Return a protobuf varint."""
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def ipfs_multihash(content: bytes) -> bytes:
    """Return the IPFS CIDv0 multihash of a file of one block (a UnixFS file in a dag-pb node)."""
    if len(content) > IPFS_CHUNK:
        raise ArtifactError(f"the metadata file is over {IPFS_CHUNK:,} bytes")
    unixfs = (
        b"\x08\x02" + b"\x12" + _varint(len(content)) + content + b"\x18" + _varint(len(content))
    )
    node = b"\x0a" + _varint(len(unixfs)) + unixfs
    return IPFS_MULTIHASH + hashlib.sha256(node).digest()


@dataclass(frozen=True)
class SourcifyCheck:
    """A metadata file against the code: the hash agreement and each source's."""

    artifact: ContractArtifact
    hash_matches: bool
    sources_checked: int
    sources_missing: tuple[str, ...]
    sources_wrong: tuple[str, ...]
    reason: str = ""


def _metadata_artifact(data: Mapping[str, Any], origin: str) -> ContractArtifact:
    """Return the contract a metadata file describes (ABI and NatSpec, no code)."""
    target = data.get("settings", {}).get("compilationTarget", {})
    output = data.get("output", {})
    if not isinstance(target, dict) or len(target) != 1 or not isinstance(output, dict):
        raise ArtifactError("the metadata names no single compilation target")
    source, name = next(iter(target.items()))
    abi = output.get("abi")
    devdoc, userdoc = output.get("devdoc"), output.get("userdoc")
    return ContractArtifact(
        str(source),
        str(name),
        tuple(a for a in abi if isinstance(a, dict)) if isinstance(abi, list) else (),
        b"",
        (),
        devdoc if isinstance(devdoc, dict) else {},
        userdoc if isinstance(userdoc, dict) else {},
        origin,
    )


def check_metadata(
    metadata: bytes, sources: Mapping[str, bytes], code: bytes, origin: str = ""
) -> SourcifyCheck:
    """Check a metadata file's exact bytes, and the sources given by path, against the code."""
    try:
        data = json.loads(metadata)
    except (ValueError, RecursionError) as exc:
        raise ArtifactError(f"the metadata is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise ArtifactError("the metadata is not a JSON object")
    artifact = _metadata_artifact(data, origin)
    tail = read_metadata(code)
    hash_matches = bool(tail and tail.ipfs and tail.ipfs == ipfs_multihash(metadata))
    reason = "" if hash_matches else "the code's metadata hash is not this file's"
    if tail is None or not tail.ipfs:
        reason = "the code carries no IPFS metadata hash to compare"
    listed = data.get("sources")
    listed = listed if isinstance(listed, dict) else {}
    missing, wrong, checked = [], [], 0
    for path, entry in listed.items():
        expected = entry.get("keccak256") if isinstance(entry, dict) else None
        content = sources.get(path)
        if content is None and isinstance(entry, dict) and isinstance(entry.get("content"), str):
            content = entry["content"].encode("utf-8")
        if content is None:
            missing.append(path)
        elif "0x" + keccak(content).hex() != expected:
            wrong.append(path)
        else:
            checked += 1
    return SourcifyCheck(artifact, hash_matches, checked, tuple(missing), tuple(wrong), reason)
