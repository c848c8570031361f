"""The labels file: every label and bookmark of a network as JSON, validated entry by entry."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from explorer.chain.checksum import ChecksumVerdict, checksum_verdict, to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.saved.files import replaced_whole
from explorer.services.label_entries import (
    MAX_LABEL,
    MAX_TITLE,
    Bookmark,
    canonical_route,
    clean_text,
    default_title,
)
from explorer.services.routes import Route

EXPORT_FORMAT = "explorer-labels"
EXPORT_VERSION = 1
MAX_IMPORT_BYTES = 20_000_000
MAX_PROBLEMS = 20


class ImportFormatError(ValueError):
    """An import file is not a labels file this version can read; nothing was imported."""


@dataclass(frozen=True)
class ImportData:
    """The valid entries of an import file, and why the others were skipped."""

    labels: dict[str, str]
    bookmarks: dict[Route, Bookmark]
    invalid: tuple[str, ...] = ()
    network: str | None = None
    chain_id: int | None = None


@dataclass(frozen=True)
class ImportReport:
    """What an import did: added, updated (replaced yours), unchanged, kept yours, invalid."""

    added: int = 0
    updated: int = 0
    unchanged: int = 0
    kept: int = 0
    invalid: tuple[str, ...] = field(default_factory=tuple)

    @property
    def skipped(self) -> int:
        """Return how many entries of the file changed nothing."""
        return self.unchanged + self.kept + len(self.invalid)

    def summary(self) -> str:
        """Return a one-paragraph human summary with the first few problems."""
        parts = [f"{self.added} added", f"{self.updated} updated", f"{self.skipped} skipped"]
        details = [
            f"{count} {what}"
            for count, what in (
                (self.unchanged, "already the same"),
                (self.kept, "kept your different entry"),
                (len(self.invalid), "invalid"),
            )
            if count
        ]
        text = "Imported: " + ", ".join(parts)
        if details:
            text += " (" + ", ".join(details) + ")"
        if self.invalid:
            shown = self.invalid[:MAX_PROBLEMS]
            more = len(self.invalid) - len(shown)
            text += ".\n" + "\n".join(shown) + (f"\n… and {more} more" if more else "")
        return text


def _label_address(value: object, chain_id: int | None) -> str:
    """Return an imported address canonical; ValueError when bad or its checksum is wrong."""
    if not isinstance(value, str):
        raise ValueError("address is not text")
    try:
        canonical = parse_address(value.strip())
        verdict = checksum_verdict(value.strip(), chain_id)
    except HexFormatError:
        raise ValueError(f"not an address: {value[:50]!r}") from None
    if verdict is ChecksumVerdict.INVALID:
        raise ValueError(f"checksum wrong: {value}")
    return canonical


def _entries(data: dict[str, Any], key: str) -> list[Any]:
    """Return a list member of the file (absent is empty); ImportFormatError otherwise."""
    entries = data.get(key, [])
    if not isinstance(entries, list):
        raise ImportFormatError(f"Not a labels file: {key!r} must be a list")
    return entries


def _check_header(data: object) -> dict[str, Any]:
    """Check the file's format tag and version; return its top-level object."""
    if not isinstance(data, dict):
        raise ImportFormatError("Not a labels file: expected a JSON object at the top")
    if data.get("format") != EXPORT_FORMAT:
        raise ImportFormatError(
            f'Not an explorer labels file: its "format" is {data.get("format")!r}, '
            f"expected {EXPORT_FORMAT!r}"
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportFormatError(f"Wrong version: {version!r} is not a labels file version")
    if version > EXPORT_VERSION:
        raise ImportFormatError(
            f"Wrong version: the file is version {version}, written by a newer explorer; "
            f"this one reads version {EXPORT_VERSION}"
        )
    return data


def _label_entry(entry: object, chain_id: int | None) -> tuple[str, str]:
    """Return one imported label as (canonical address, label); ValueError when not valid."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    address = _label_address(entry.get("address"), chain_id)
    label = clean_text(entry.get("label"), MAX_LABEL, "label")
    if not label:
        raise ValueError("empty label")
    return address, label


def _bookmark_entry(entry: object, chain_id: int | None) -> Bookmark:
    """Return one imported bookmark; ValueError when it is not valid."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    route_text = entry.get("route")
    if not isinstance(route_text, str):
        raise ValueError("route is not text")
    route = canonical_route(Route.parse(route_text.strip()))
    title = clean_text(entry.get("title", ""), MAX_TITLE, "title") or default_title(route, chain_id)
    created = entry.get("created", time.time())
    if not isinstance(created, int | float) or isinstance(created, bool) or created < 0:
        raise ValueError(f"created is not a Unix time: {created!r}")
    return Bookmark(route, title, float(created))


def parse_export(text: str) -> ImportData:
    """Validate an export file's text; bad entries are listed in `invalid`, not imported."""
    try:
        data = _check_header(json.loads(text))
    except json.JSONDecodeError as error:
        raise ImportFormatError(
            f"Bad file: not JSON ({error.msg} at line {error.lineno})"
        ) from None
    chain_id = data.get("chainId") if isinstance(data.get("chainId"), int) else None
    invalid: list[str] = []
    labels: dict[str, str] = {}
    for index, entry in enumerate(_entries(data, "labels")):
        try:
            address, label = _label_entry(entry, chain_id)
            if address in labels:
                raise ValueError(f"{address} appears twice; the first is used")
        except ValueError as error:
            invalid.append(f"labels[{index}]: {error}")
            continue
        labels[address] = label
    bookmarks: dict[Route, Bookmark] = {}
    for index, entry in enumerate(_entries(data, "bookmarks")):
        try:
            bookmark = _bookmark_entry(entry, chain_id)
            if bookmark.route in bookmarks:
                raise ValueError(f"{bookmark.route} appears twice; the first is used")
        except ValueError as error:
            invalid.append(f"bookmarks[{index}]: {error}")
            continue
        bookmarks[bookmark.route] = bookmark
    network = data.get("network") if isinstance(data.get("network"), str) else None
    return ImportData(labels, bookmarks, tuple(invalid), network, chain_id)


def export_text(
    labels: dict[str, str],
    bookmarks: Iterable[Bookmark],
    network: str,
    chain_id: int | None,
) -> str:
    """Return the JSON export: addresses in the chain's checksum, sorted, human-readable."""
    data = {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "network": network,
        "chainId": chain_id,
        "exported": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "labels": [
            {"address": to_checksum_address(address, chain_id), "label": label}
            for address, label in sorted(labels.items())
        ],
        "bookmarks": [
            {"route": str(b.route), "title": b.title, "created": b.created}
            for b in sorted(bookmarks, key=lambda b: (b.created, str(b.route)))
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def write_export_file(
    path: Path,
    labels: dict[str, str],
    bookmarks: Iterable[Bookmark],
    network: str,
    chain_id: int | None,
) -> None:
    """Write the JSON export to path, whole or not at all (blocking: call it off the GUI thread)."""
    text = export_text(labels, bookmarks, network, chain_id)
    with replaced_whole(path) as file:
        file.write(text)


def read_import_file(path: Path) -> ImportData:
    """Read and validate an import file (blocking: call it off the GUI thread)."""
    try:
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise ImportFormatError(f"Bad file: {size:,} bytes is too large for a labels file")
        raw = path.read_bytes()
    except OSError as error:
        raise ImportFormatError(f"Cannot read {path.name}: {error.strerror or error}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ImportFormatError("Bad file: not UTF-8 text") from None
    return parse_export(text)
