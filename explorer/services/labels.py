"""User labels for addresses and bookmarks, in one SQLite file per network, with JSON export.

Threading: every SQLite call runs on one dedicated worker thread (a single-thread
executor) that also owns the connection; the async methods await it, so the GUI
thread never blocks on disk IO or a lock held by another process, and calls stay
in order. The file is opened in WAL mode so a reader never waits for a writer.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import sqlite3
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from explorer.chain.checksum import ChecksumVerdict, checksum_verdict, to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address, parse_hash
from explorer.services.routes import Page, Route

SCHEMA_VERSION = 1
EXPORT_FORMAT = "explorer-labels"
EXPORT_VERSION = 1
MAX_LABEL = 100
MAX_TITLE = 200
MAX_IMPORT_BYTES = 20_000_000
MAX_PROBLEMS = 20
BLOCK_TAGS = ("latest", "earliest", "pending")
_SPACES = re.compile(r"\s+")
_UNSAFE = re.compile(r"[^a-z0-9_-]+")
T = TypeVar("T")

_SCHEMA = """
CREATE TABLE labels (
    address TEXT PRIMARY KEY CHECK (length(address) = 42),
    label TEXT NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE bookmarks (
    route TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    created REAL NOT NULL
);
"""


class LabelStoreError(Exception):
    """The label database cannot be opened or written (message names the file, not secrets)."""


class ImportFormatError(ValueError):
    """An import file is not a labels file this version can read; nothing was imported."""


@dataclass(frozen=True)
class Bookmark:
    """A saved route with the user's title."""

    route: str
    title: str
    created: float


@dataclass(frozen=True)
class ImportData:
    """The valid entries of an import file, and why the others were skipped."""

    labels: dict[str, str]
    bookmarks: dict[str, Bookmark]
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


def clean_text(value: object, limit: int, what: str) -> str:
    """Return user text on one line, trimmed; ValueError when not text or too long."""
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text")
    text = _SPACES.sub(" ", "".join(c if c.isprintable() else " " for c in value)).strip()
    if len(text) > limit:
        raise ValueError(f"{what} is longer than {limit} characters")
    return text


def canonical_route(text: str) -> str:
    """Return a bookmarkable route in canonical form; ValueError when it is not one."""
    route = Route.parse(text.strip())
    try:
        if route.page is Page.ADDRESS:
            return str(Route(Page.ADDRESS, parse_address(route.target)))
        if route.page is Page.TX:
            return str(Route(Page.TX, parse_hash(route.target)))
    except HexFormatError as error:
        raise ValueError(f"not a route: {text!r} ({error})") from None
    if route.page is Page.BLOCK:
        target = route.target.lower()
        if target in BLOCK_TAGS or (target.isdecimal() and target.isascii()):
            return str(Route(Page.BLOCK, target if target in BLOCK_TAGS else str(int(target))))
        try:
            return str(Route(Page.BLOCK, parse_hash(target)))
        except HexFormatError:
            raise ValueError(f"not a block: {route.target!r}") from None
    raise ValueError(f"the home page cannot be bookmarked: {text!r}")


def default_title(route: str, chain_id: int | None) -> str:
    """Return a bookmark's default title, e.g. `Block 1,234` or `Address 0xAbC…`."""
    parsed = Route.parse(route)
    target = parsed.target
    if parsed.page is Page.ADDRESS:
        return f"Address {to_checksum_address(target, chain_id)}"
    if parsed.page is Page.TX:
        return f"Transaction {target[:10]}…{target[-6:]}"
    shown = f"{int(target):,}" if target.isdecimal() else target
    if target.startswith("0x"):
        shown = f"{target[:10]}…{target[-6:]}"
    return f"Block {shown}"


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
        where = f"labels[{index}]"
        try:
            if not isinstance(entry, dict):
                raise ValueError("not an object")
            address = _label_address(entry.get("address"), chain_id)
            label = clean_text(entry.get("label"), MAX_LABEL, "label")
            if not label:
                raise ValueError("empty label")
            if address in labels:
                raise ValueError(f"{address} appears twice; the first is used")
        except ValueError as error:
            invalid.append(f"{where}: {error}")
            continue
        labels[address] = label
    bookmarks: dict[str, Bookmark] = {}
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


def _bookmark_entry(entry: object, chain_id: int | None) -> Bookmark:
    """Return one imported bookmark; ValueError when it is not valid."""
    if not isinstance(entry, dict):
        raise ValueError("not an object")
    route_text = entry.get("route")
    if not isinstance(route_text, str):
        raise ValueError("route is not text")
    route = canonical_route(route_text)
    title = clean_text(entry.get("title", ""), MAX_TITLE, "title") or default_title(route, chain_id)
    created = entry.get("created", time.time())
    if not isinstance(created, int | float) or isinstance(created, bool) or created < 0:
        raise ValueError(f"created is not a Unix time: {created!r}")
    return Bookmark(route, title, float(created))


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
            {"route": b.route, "title": b.title, "created": b.created}
            for b in sorted(bookmarks, key=lambda b: (b.created, b.route))
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


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


def database_path(network_id: str, directory: Path | None = None) -> Path:
    """Return the database file of a network: a safe file name under the user data dir."""
    base = directory or Path(platformdirs.user_data_dir("explorer")) / "labels"
    slug = _UNSAFE.sub("-", network_id.lower()).strip("-") or "network"
    if slug != network_id:
        slug += "-" + hashlib.sha256(network_id.encode()).hexdigest()[:8]
    return base / f"{slug}.sqlite3"


class LabelStore:
    """The labels and bookmarks of one network; every SQLite call on one worker thread."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="labels-db")
        self._db: sqlite3.Connection | None = None

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        """Run a blocking call on the store's thread and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function, *args)

    async def open(self) -> None:
        """Open (creating or upgrading) the database; LabelStoreError when it cannot be used."""
        await self._run(self._open)

    async def aclose(self) -> None:
        """Close the database and stop the worker thread."""
        await self._run(self._close)
        self._executor.shutdown(wait=False)

    async def labels(self) -> dict[str, str]:
        """Return every label by canonical address, in label order (case-insensitive)."""
        rows = await self._run(
            self._query, "SELECT address, label FROM labels ORDER BY label COLLATE NOCASE, address"
        )
        return {address: label for address, label in rows}

    async def bookmarks(self) -> list[Bookmark]:
        """Return the bookmarks, newest first."""
        rows = await self._run(
            self._query, "SELECT route, title, created FROM bookmarks ORDER BY created DESC"
        )
        return [Bookmark(route, title, created) for route, title, created in rows]

    async def set_label(self, address: str, label: str) -> None:
        """Save an address's label; an empty label removes it."""
        canonical = parse_address(address)
        text = clean_text(label, MAX_LABEL, "label")
        if not text:
            await self._run(self._write, "DELETE FROM labels WHERE address = ?", (canonical,))
            return
        await self._run(
            self._write,
            "INSERT INTO labels VALUES (?, ?, ?) ON CONFLICT(address) DO UPDATE "
            "SET label = excluded.label, updated = excluded.updated",
            (canonical, text, time.time()),
        )

    async def save_bookmark(self, bookmark: Bookmark) -> None:
        """Add a bookmark or retitle an existing one (its creation time is kept)."""
        await self._run(
            self._write,
            "INSERT INTO bookmarks VALUES (?, ?, ?) ON CONFLICT(route) DO UPDATE "
            "SET title = excluded.title",
            (bookmark.route, bookmark.title, bookmark.created),
        )

    async def remove_bookmark(self, route: str) -> None:
        """Remove a bookmark (nothing happens when there is none)."""
        await self._run(self._write, "DELETE FROM bookmarks WHERE route = ?", (route,))

    async def import_data(self, data: ImportData, *, overwrite: bool) -> ImportReport:
        """Merge an import in one transaction; differing entries replace yours only if overwrite."""
        return await self._run(self._import, data, overwrite)

    def _connection(self) -> sqlite3.Connection:
        """Return the open connection (worker thread only)."""
        if self._db is None:
            raise LabelStoreError(f"The label database {self.path.name} is not open")
        return self._db

    def _open(self) -> None:
        """Connect, switch to WAL and create or check the schema (worker thread)."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, timeout=5, isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise LabelStoreError(f"Cannot open the label database {self.path}: {error}") from None
        try:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LabelStoreError(
                    f"The label database {self.path} was written by a newer explorer "
                    f"(schema {version}; this one knows {SCHEMA_VERSION}); it was left untouched"
                )
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            if version == 0:
                db.executescript(
                    f"BEGIN; {_SCHEMA} PRAGMA user_version = {SCHEMA_VERSION}; COMMIT;"
                )
        except sqlite3.Error as error:
            db.close()
            raise LabelStoreError(f"The label database {self.path} is unusable: {error}") from None
        except LabelStoreError:
            db.close()
            raise
        self._db = db

    def _close(self) -> None:
        """Close the connection (worker thread)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    def _query(self, sql: str) -> list[tuple[Any, ...]]:
        """Run a read (worker thread)."""
        try:
            return self._connection().execute(sql).fetchall()
        except sqlite3.Error as error:
            raise LabelStoreError(f"Reading {self.path.name} failed: {error}") from None

    def _write(self, sql: str, params: tuple[Any, ...]) -> None:
        """Run one write in its own transaction (worker thread)."""
        try:
            self._connection().execute(sql, params)
        except sqlite3.Error as error:
            raise LabelStoreError(f"Writing {self.path.name} failed: {error}") from None

    def _import(self, data: ImportData, overwrite: bool) -> ImportReport:
        """Merge labels and bookmarks, counting each outcome (worker thread)."""
        db = self._connection()
        counts = {"added": 0, "updated": 0, "unchanged": 0, "kept": 0}
        now = time.time()

        def merge(current: str | None, new: str) -> bool:
            """Count one entry; return whether to write it."""
            outcome = (
                "added"
                if current is None
                else "unchanged"
                if current == new
                else "updated"
                if overwrite
                else "kept"
            )
            counts[outcome] += 1
            return outcome in ("added", "updated")

        try:
            db.execute("BEGIN IMMEDIATE")
            labels = dict(db.execute("SELECT address, label FROM labels").fetchall())
            for address, label in data.labels.items():
                if merge(labels.get(address), label):
                    db.execute(
                        "INSERT OR REPLACE INTO labels VALUES (?, ?, ?)", (address, label, now)
                    )
            titles = dict(db.execute("SELECT route, title FROM bookmarks").fetchall())
            for route, bookmark in data.bookmarks.items():
                if merge(titles.get(route), bookmark.title):
                    db.execute(
                        "INSERT INTO bookmarks VALUES (?, ?, ?) ON CONFLICT(route) DO UPDATE "
                        "SET title = excluded.title",
                        (route, bookmark.title, bookmark.created),
                    )
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise LabelStoreError(f"Import into {self.path.name} failed: {error}") from None
        return ImportReport(invalid=data.invalid, **counts)
