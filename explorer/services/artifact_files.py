"""A project's build artifacts read from disk, and the one that matches a contract's code.

The folder may be a Hardhat project (or its `artifacts/`), a Foundry project (or its `out/`),
or a Sourcify-style folder (`metadata.json` with `sources/`); a lone `metadata.json` works too.
Reading is bounded (files, bytes) and runs off the event loop; a file that cannot be read is
noted and skipped, never fatal. Matches are kept per chain and address in the saved data.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eth_hash.auto import keccak

from explorer.chain.artifacts import (
    ArtifactError,
    ContractArtifact,
    Match,
    best_match,
    build_info_artifacts,
    parse_artifact_file,
)
from explorer.chain.sourcify import check_metadata
from explorer.rpc.wrappers import TypedCalls
from explorer.saved.cache import records_of

MAX_FILES = 5_000
MAX_BYTES = 64 * 1024 * 1024  # one build-info of a big project is tens of MB
RECORD = "contract-source"
SKIPPED = {"node_modules", ".git", "cache"}  # folders of a project that hold no build of its own


@dataclass(frozen=True)
class Release:
    """A Sourcify-style release: the metadata file's bytes and the sources found beside it."""

    path: str
    metadata: bytes
    sources: dict[str, bytes]


@dataclass(frozen=True)
class ArtifactSet:
    """What a folder holds: contracts with code, Sourcify releases, and what was skipped."""

    folder: str
    contracts: tuple[ContractArtifact, ...]
    releases: tuple[Release, ...]
    problems: tuple[str, ...]


@dataclass(frozen=True)
class SourceMatch:
    """An artifact that matches a contract's code, how, and where it came from."""

    artifact: ContractArtifact
    match: Match
    reason: str = ""

    @property
    def text(self) -> str:
        """Return the sentence the page shows."""
        origin = f" ({self.artifact.origin})" if self.artifact.origin else ""
        return f"{self.match.value.capitalize()}: the artifact {self.artifact.title}{origin}"


def _read(path: Path) -> bytes:
    """Return a file's bytes, refusing one larger than MAX_BYTES."""
    if path.stat().st_size > MAX_BYTES:
        raise ArtifactError(f"{path.name} is larger than {MAX_BYTES // 2**20} MB")
    return path.read_bytes()


def _release(metadata: Path) -> Release:
    """Return a Sourcify release: the metadata and the sources under `sources/` beside it."""
    root = metadata.parent / "sources"
    sources = {}
    if root.is_dir():
        files = [p for p in sorted(root.rglob("*")) if p.is_file()][:MAX_FILES]
        sources = {p.relative_to(root).as_posix(): _read(p) for p in files}
    return Release(str(metadata), _read(metadata), sources)


def _json_files(folder: Path) -> list[Path]:
    """Return the JSON files to look at: under artifacts/ or out/ when the folder has them."""
    for sub in ("artifacts", "out"):
        if (folder / sub).is_dir():
            folder = folder / sub
            break
    files = (
        p for p in folder.rglob("*.json") if not SKIPPED.intersection(p.relative_to(folder).parts)
    )
    return sorted(p for p in files if not p.name.endswith(".dbg.json"))[:MAX_FILES]


def read_folder(folder: Path) -> ArtifactSet:
    """Read every artifact of a folder (blocking: run it off the event loop)."""
    if folder.is_file():
        return ArtifactSet(str(folder), (), (_release(folder),), ())
    if (folder / "metadata.json").is_file():
        return ArtifactSet(str(folder), (), (_release(folder / "metadata.json"),), ())
    if not folder.is_dir():
        raise ArtifactError(f"{folder} is not a folder")
    by_title: dict[str, ContractArtifact] = {}
    from_build_info: dict[str, ContractArtifact] = {}
    problems: list[str] = []
    for path in _json_files(folder):
        origin = path.relative_to(folder).as_posix()
        try:
            text = _read(path).decode("utf-8")
            if path.parent.name == "build-info":
                from_build_info.update((a.title, a) for a in build_info_artifacts(text, origin))
            elif (artifact := parse_artifact_file(text, origin)) is not None:
                by_title[artifact.title] = artifact
        except (ArtifactError, OSError, UnicodeDecodeError) as error:
            problems.append(f"{origin}: {error}")
    for title, artifact in by_title.items():  # build info knows the immutables
        if (built := from_build_info.get(title)) is not None:
            by_title[title] = _with_origin(built, artifact.origin)
    return ArtifactSet(str(folder), tuple(by_title.values()), (), tuple(problems))


def _with_origin(artifact: ContractArtifact, origin: str) -> ContractArtifact:
    """Return the artifact as read from another file."""
    return ContractArtifact(
        artifact.source,
        artifact.name,
        artifact.abi,
        artifact.deployed,
        artifact.holes,
        artifact.devdoc,
        artifact.userdoc,
        origin,
    )


def match_set(found: ArtifactSet, code: bytes) -> SourceMatch | None:
    """Return the artifact of the set that matches the code, or None."""
    for release in found.releases:
        check = check_metadata(release.metadata, release.sources, code, release.path)
        if check.hash_matches and not check.sources_wrong:
            reason = f"its metadata hash is in the code; {check.sources_checked} source(s) checked"
            if check.sources_missing:
                reason += f", {len(check.sources_missing)} not given"
            return SourceMatch(check.artifact, Match.EXACT, reason)
    best = best_match(found.contracts, code)
    return SourceMatch(best[0], best[1].match, best[1].reason) if best else None


async def match_folder(folder: Path, code: bytes) -> tuple[SourceMatch | None, ArtifactSet]:
    """Read a folder off the event loop and match its artifacts against the code."""
    found = await asyncio.to_thread(read_folder, folder)
    return await asyncio.to_thread(match_set, found, code), found


def code_hash(code: bytes) -> str:
    """Return the keccak of code as hex: a kept match holds only for the same code."""
    return "0x" + keccak(bytes(code)).hex()


def _record(found: SourceMatch, code: bytes) -> dict[str, Any]:
    """Return a match as the JSON record the saved data keeps."""
    artifact = found.artifact
    return {
        "code": code_hash(code),
        "source": artifact.source,
        "name": artifact.name,
        "origin": artifact.origin,
        "match": found.match.name,
        "reason": found.reason,
        "abi": list(artifact.abi),
        "devdoc": dict(artifact.devdoc),
        "userdoc": dict(artifact.userdoc),
    }


def keep_match(client: TypedCalls, address: str, found: SourceMatch, code: bytes) -> bool:
    """Keep a match in the chain's saved data; tell whether there is saved data to keep it in."""
    saved = records_of(client)
    if saved is None:
        return False
    saved.keep(RECORD, address, _record(found, code))
    return True


async def kept_match(client: TypedCalls, address: str, code: bytes) -> SourceMatch | None:
    """Return the match kept for this address, if it was made for the same code."""
    saved = records_of(client)
    kept = await saved.get(RECORD, address) if saved is not None else None
    if not isinstance(kept, dict) or kept.get("code") != code_hash(code):
        return None
    try:
        match = Match[str(kept["match"])]
        artifact = ContractArtifact(
            str(kept["source"]),
            str(kept["name"]),
            tuple(a for a in kept["abi"] if isinstance(a, dict)),
            b"",
            (),
            dict(kept["devdoc"]),
            dict(kept["userdoc"]),
            str(kept["origin"]),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return SourceMatch(artifact, match, str(kept.get("reason", "")))
