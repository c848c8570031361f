"""Build artifacts (Hardhat, Foundry, solc output) and their match against a chain's code.

A match is what verifiers call it, with nothing compiled: the artifact's deployed bytecode
equals the chain's once the immutables (written by the constructor, named by the artifact's
`immutableReferences`) and linked libraries are taken from the chain's code; "exactly" when the
CBOR metadata tail equals too, "except metadata" when only it differs (another source path,
comment or setting). Any other difference, a single byte, is no match.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from explorer.chain.code_metadata import read_metadata

Span = tuple[int, int]  # (start, length) in the runtime code


class ArtifactError(ValueError):
    """A file is not a build artifact the explorer can read."""


class Match(enum.Enum):
    """How an artifact's code compares with the chain's."""

    EXACT = "matches exactly"
    EXCEPT_METADATA = "matches except metadata"
    NONE = "does not match"


@dataclass(frozen=True)
class ContractArtifact:
    """One contract of a build: `source:name`, ABI, runtime code with its holes, NatSpec."""

    source: str
    name: str
    abi: tuple[Mapping[str, Any], ...]
    deployed: bytes
    holes: tuple[Span, ...] = ()  # immutables and library links, filled from the chain's code
    devdoc: Mapping[str, Any] = field(default_factory=dict)
    userdoc: Mapping[str, Any] = field(default_factory=dict)
    origin: str = ""  # the file it was read from, for the user

    @property
    def title(self) -> str:
        """Return `source:name`, as verifiers name a contract."""
        return f"{self.source}:{self.name}" if self.source else self.name


@dataclass(frozen=True)
class MatchResult:
    """An artifact's comparison with the chain's code, and why when it is no match."""

    match: Match
    reason: str = ""


def _hex_code(text: object, what: str) -> tuple[bytes, tuple[Span, ...]]:
    """Return code from hex, with library placeholders (`__$…$__`) as zeroed holes."""
    if not isinstance(text, str):
        raise ArtifactError(f"{what} is not hex text")
    body = text[2:] if text.startswith("0x") else text
    holes: list[Span] = []
    position = body.find("__")
    while position >= 0:  # a library placeholder: 40 hex digits, 20 bytes
        if position % 2:
            raise ArtifactError(f"{what} has a misplaced library placeholder")
        holes.append((position // 2, 20))
        body = body[:position] + "0" * 40 + body[position + 40 :]
        position = body.find("__")
    try:
        return bytes.fromhex(body), tuple(holes)
    except ValueError:
        raise ArtifactError(f"{what} is not hex") from None


def _spans(references: object) -> tuple[Span, ...]:
    """Return the (start, length) spans of `immutableReferences` or link references."""
    spans: list[Span] = []
    groups: Iterable[Any] = references.values() if isinstance(references, dict) else ()
    for group in groups:
        items = group.values() if isinstance(group, dict) else [group]
        for item in items:
            for ref in item if isinstance(item, list) else []:
                if isinstance(ref, dict) and all(
                    isinstance(ref.get(k), int) for k in ("start", "length")
                ):
                    spans.append((ref["start"], ref["length"]))
    return tuple(sorted(spans))


def _docs(entry: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """Return a NatSpec document (devdoc or userdoc) when it is an object."""
    value = entry.get(key)
    return value if isinstance(value, dict) else {}


def artifact_from_entry(
    source: str, name: str, entry: Mapping[str, Any], origin: str = ""
) -> ContractArtifact:
    """Return a contract of solc's standard JSON output (`contracts[source][name]`)."""
    evm = entry.get("evm")
    deployed = evm.get("deployedBytecode") if isinstance(evm, dict) else None
    if not isinstance(deployed, dict):
        raise ArtifactError(f"{source}:{name} has no deployed bytecode")
    return _artifact(source, name, entry, deployed, origin)


def _artifact(
    source: str, name: str, entry: Mapping[str, Any], deployed: Mapping[str, Any], origin: str
) -> ContractArtifact:
    """Return an artifact from a deployedBytecode object (`object`, references)."""
    code, placeholders = _hex_code(deployed.get("object"), f"{name}'s deployed bytecode")
    holes = (
        *_spans({"i": deployed.get("immutableReferences")}),
        *_spans(deployed.get("linkReferences")),
        *placeholders,
    )
    abi = entry.get("abi")
    if not isinstance(abi, list):
        raise ArtifactError(f"{name} has no ABI")
    return ContractArtifact(
        source,
        name,
        tuple(a for a in abi if isinstance(a, dict)),
        code,
        tuple(sorted(set(holes))),
        _docs(entry, "devdoc"),
        _docs(entry, "userdoc"),
        origin,
    )


def parse_artifact_file(text: str, origin: str = "") -> ContractArtifact | None:
    """Return the contract of a Hardhat or Foundry artifact file; None for other JSON files."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ArtifactError(f"{origin or 'the file'} is not JSON: {exc}") from None
    if not isinstance(data, dict):
        return None
    if data.get("_format") == "hh-sol-artifact-1":  # Hardhat: hex strings, no immutables
        hardhat = {"object": data.get("deployedBytecode")}
        hardhat["linkReferences"] = data.get("deployedLinkReferences")
        source, name = str(data.get("sourceName") or ""), str(data.get("contractName") or "")
        return _artifact(source, name, data, hardhat, origin)
    deployed = data.get("deployedBytecode")
    if isinstance(deployed, dict) and "object" in deployed:  # Foundry's out/
        metadata = data.get("metadata")
        target = (
            metadata.get("settings", {}).get("compilationTarget", {})
            if isinstance(metadata, dict)
            else {}
        )
        source, name = next(
            iter(target.items()), ("", origin.rsplit("/", 1)[-1].removesuffix(".json"))
        )
        docs = metadata.get("output", {}) if isinstance(metadata, dict) else {}
        return _artifact(str(source), str(name), {**docs, **data}, deployed, origin)
    return None


def build_info_artifacts(text: str, origin: str = "") -> tuple[ContractArtifact, ...]:
    """Return every contract of a Hardhat build-info file (solc's input and output)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise ArtifactError(f"{origin} is not JSON: {exc}") from None
    output = data.get("output") if isinstance(data, dict) else None
    contracts = output.get("contracts") if isinstance(output, dict) else None
    if not isinstance(contracts, dict):
        raise ArtifactError(f"{origin} holds no compiler output")
    found = []
    for source, by_name in contracts.items():
        for name, entry in by_name.items() if isinstance(by_name, dict) else ():
            if isinstance(entry, dict):
                found.append(artifact_from_entry(str(source), str(name), entry, origin))
    return tuple(found)


def _filled(artifact: ContractArtifact, code: bytes) -> bytes:
    """Return the artifact's code with its holes taken from the chain's code."""
    filled = bytearray(artifact.deployed)
    for start, length in artifact.holes:
        filled[start : start + length] = code[start : start + length]
    return bytes(filled)


def match_code(artifact: ContractArtifact, code: bytes) -> MatchResult:
    """Compare an artifact's runtime code with the chain's, as a verifier does."""
    if not artifact.deployed:
        return MatchResult(Match.NONE, "the artifact has no runtime code (an interface?)")
    if len(artifact.deployed) != len(code):
        size = f"{len(artifact.deployed):,} bytes against {len(code):,}"
        return MatchResult(Match.NONE, f"the code differs in length ({size})")
    if any(start + length > len(code) for start, length in artifact.holes):
        return MatchResult(Match.NONE, "the artifact's immutables lie outside its code")
    filled = _filled(artifact, code)
    if filled == code:
        return MatchResult(Match.EXACT)
    ours, theirs = read_metadata(filled), read_metadata(code)
    if ours and theirs and ours.length == theirs.length:
        cut = len(code) - ours.length
        if filled[:cut] == code[:cut]:
            return MatchResult(Match.EXCEPT_METADATA, "only the metadata hash differs")
    first = next(i for i, (a, b) in enumerate(zip(filled, code, strict=True)) if a != b)
    return MatchResult(Match.NONE, f"the code differs from byte {first:,} on")


def best_match(
    artifacts: Iterable[ContractArtifact], code: bytes
) -> tuple[ContractArtifact, MatchResult] | None:
    """Return the artifact that matches the code best (exactly first), or None."""
    best: tuple[ContractArtifact, MatchResult] | None = None
    for artifact in artifacts:
        result = match_code(artifact, code)
        if result.match is Match.EXACT:
            return artifact, result
        if result.match is Match.EXCEPT_METADATA and best is None:
            best = artifact, result
    return best
