"""User labels for addresses and bookmarks, in one SQLite file per network.

Threading: every SQLite call runs on the store's worker thread (`saved/sqlite_worker.py`),
which also owns the connection; the async methods await it, so the GUI thread never blocks
on disk IO or a lock held by another process, and calls stay in order. The file is kept as
every store's is (`saved/sqlite_file.py`): private, WAL (a reader never waits for a writer),
its schema versioned by `PRAGMA user_version`; a newer explorer's file is left untouched.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from explorer.chain.hexutil import parse_address
from explorer.saved.files import private_directory
from explorer.saved.sqlite_file import (
    FileSchema,
    Migration,
    NewerSchema,
    open_database,
    statements,
)
from explorer.saved.sqlite_worker import SqliteWorker
from explorer.services.label_entries import MAX_LABEL, Bookmark, clean_text
from explorer.services.labels_file import ImportData, ImportReport
from explorer.services.routes import Route

_UNSAFE = re.compile(r"[^a-z0-9_-]+")
T = TypeVar("T")

LABELS_FILE = FileSchema(
    "the label database",
    (
        Migration(
            "labels by address, bookmarks by route",
            statements(
                """
                CREATE TABLE labels (
                    address TEXT PRIMARY KEY CHECK (length(address) = 42),
                    label TEXT NOT NULL,
                    updated REAL NOT NULL
                );
                CREATE TABLE bookmarks (
                    route TEXT PRIMARY KEY,
                    title TEXT NOT NULL,
                    created REAL NOT NULL
                )
                """
            ),
        ),
    ),
)


class LabelStoreError(Exception):
    """The label database cannot be opened or written (message names the file, not secrets)."""


class LabelStoreClosed(LabelStoreError):
    """The database was closed (another network's replaced it, or the app is closing)."""


def _stored_route(text: str) -> Route | None:
    """Return a bookmark's route as stored, or None when the file holds something else."""
    try:
        return Route.parse(text)
    except ValueError:
        return None


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
        self._worker = SqliteWorker(self._connect, "labels-db")
        self.closed = False

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        """Run a blocking call on the store's thread and await its result (LabelStoreClosed)."""
        if self.closed:
            raise LabelStoreClosed(f"The label database {self.path.name} was closed")
        return await self._worker.call(lambda: function(*args))

    async def open(self) -> None:
        """Open (creating or upgrading) the database; LabelStoreError when it cannot be used."""
        await self._run(self._open)

    async def aclose(self) -> None:
        """Close the database and stop the worker thread (once)."""
        if self.closed:
            return
        self.closed = True  # later calls are refused; those already queued run first
        await self._worker.aclose()

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
        return [
            Bookmark(route, title, created)
            for text, title, created in rows
            if (route := _stored_route(text)) is not None
        ]

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
            (str(bookmark.route), bookmark.title, bookmark.created),
        )

    async def remove_bookmark(self, route: Route) -> None:
        """Remove a bookmark (nothing happens when there is none)."""
        await self._run(self._write, "DELETE FROM bookmarks WHERE route = ?", (str(route),))

    async def import_data(self, data: ImportData, *, overwrite: bool) -> ImportReport:
        """Merge an import in one transaction; differing entries replace yours only if overwrite."""
        return await self._run(self._import, data, overwrite)

    def _connection(self) -> sqlite3.Connection:
        """Return the open connection (worker thread only)."""
        if not self._worker.is_open:
            raise LabelStoreError(f"The label database {self.path.name} is not open")
        return self._worker.connection()

    def _connect(self) -> sqlite3.Connection:
        """Open the file in its folder, made private (worker thread)."""
        private_directory(self.path.parent)
        return open_database(self.path, LABELS_FILE)

    def _open(self) -> None:
        """Open the file, creating or upgrading its schema (worker thread)."""
        try:
            self._worker.connection()
        except NewerSchema as error:
            raise LabelStoreError(str(error)) from None
        except OSError as error:
            raise LabelStoreError(f"Cannot open the label database {self.path}: {error}") from None
        except sqlite3.Error as error:
            raise LabelStoreError(f"The label database {self.path} is unusable: {error}") from None

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
                if merge(titles.get(str(route)), bookmark.title):
                    db.execute(
                        "INSERT INTO bookmarks VALUES (?, ?, ?) ON CONFLICT(route) DO UPDATE "
                        "SET title = excluded.title",
                        (str(route), bookmark.title, bookmark.created),
                    )
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise LabelStoreError(f"Import into {self.path.name} failed: {error}") from None
        return ImportReport(invalid=data.invalid, **counts)
