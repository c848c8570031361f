"""The devnet's compiled contracts.

compiled.json is rebuilt by compile.cjs; Multicall3.json, the published Multicall3 compiled as
it was deployed, by compile_multicall3.sh; proxies/compiled.json by proxies/compile.cjs;
inside/compiled.json (issue 28's stories of what happens inside a transaction) by
`compile.cjs inside`.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
ARTIFACT_FILES = (
    HERE / "compiled.json",
    HERE / "Multicall3.json",
    HERE / "inside" / "compiled.json",
    HERE / "proxies" / "compiled.json",
)


@dataclass(frozen=True)
class Artifact:
    """One compiled contract: its ABI, creation code and runtime code."""

    name: str
    abi: tuple[dict[str, Any], ...]
    bytecode: bytes
    deployed_bytecode: bytes


@functools.cache
def _compiled_texts() -> tuple[str, ...]:
    """Return the text of every artifact file, read once."""
    return tuple(path.read_text(encoding="utf-8") for path in ARTIFACT_FILES)


@functools.cache
def _entries() -> dict[str, dict[str, Any]]:
    """Return the compiled contracts of every artifact file by name."""
    entries: dict[str, dict[str, Any]] = {}
    for text in _compiled_texts():
        entries.update(json.loads(text)["contracts"])
    return entries


@functools.cache
def load_artifact(name: str) -> Artifact:
    """Return the compiled contract called name (KeyError when there is none)."""
    entry = _entries()[name]
    return Artifact(
        name=name,
        abi=tuple(entry["abi"]),
        bytecode=bytes.fromhex(entry["bytecode"][2:]),
        deployed_bytecode=bytes.fromhex(entry["deployedBytecode"][2:]),
    )


def compiled_digest() -> str:
    """SHA-256 of the artifact files, part of the seed definition's key."""
    return hashlib.sha256("".join(_compiled_texts()).encode("utf-8")).hexdigest()
