"""The devnet's compiled contracts (compiled.json, rebuilt by compile.cjs)."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

COMPILED_PATH = Path(__file__).with_name("compiled.json")


@dataclass(frozen=True)
class Artifact:
    """One compiled contract: its ABI, creation code and runtime code."""

    name: str
    abi: tuple[dict[str, Any], ...]
    bytecode: bytes
    deployed_bytecode: bytes


@functools.cache
def _compiled_text() -> str:
    """Return the text of compiled.json, read once."""
    return COMPILED_PATH.read_text(encoding="utf-8")


@functools.cache
def load_artifact(name: str) -> Artifact:
    """Return the compiled contract called name (KeyError when there is none)."""
    entry = json.loads(_compiled_text())["contracts"][name]
    return Artifact(
        name=name,
        abi=tuple(entry["abi"]),
        bytecode=bytes.fromhex(entry["bytecode"][2:]),
        deployed_bytecode=bytes.fromhex(entry["deployedBytecode"][2:]),
    )


def compiled_digest() -> str:
    """SHA-256 of compiled.json, part of the seed definition's key."""
    return hashlib.sha256(_compiled_text().encode("utf-8")).hexdigest()
