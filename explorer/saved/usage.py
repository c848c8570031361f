"""Requests spent per key and UTC day, and each network's daily quota, in one shared file.

The window and every command line add to the same counts (the hosted service counts every
request of a key, whoever sent it): a small SQLite file in the user data directory, used on a
worker thread, each addition one short transaction. Keys are never stored, nor a bare hash of
one: a session's `usage_id` (a hash of the endpoint and key) is kept hashed again with the
file's own random salt (`salt.py`).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from explorer.rpc.stats import utc_today
from explorer.saved.files import private_directory
from explorer.saved.salt import salt_column, salt_of, salted
from explorer.saved.sqlite_file import FileSchema, Migration, open_database, statements
from explorer.saved.sqlite_worker import SqliteWorker

T = TypeVar("T")
KEEP_DAYS = 40
FILE_VARIABLE = "EXPLORER_USAGE_FILE"  # tests and benchmarks keep their own
BUSY_SECONDS = 10.0  # every process adds here: a writer is waited for this long
USAGE_FILE = FileSchema(
    "the request counts",
    (
        Migration(
            "requests per key and day, quotas per network",
            statements(
                """
                CREATE TABLE IF NOT EXISTS usage (
                    usage_id TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL,
                    PRIMARY KEY (usage_id, day)
                );
                CREATE TABLE IF NOT EXISTS quotas (
                    network TEXT PRIMARY KEY, quota INTEGER NOT NULL
                )
                """
            ),
        ),
        Migration("key ids salted", (salt_column("usage", "usage_id"),)),
    ),
)


def default_path() -> Path | None:
    """Return the file $EXPLORER_USAGE_FILE names, else None (the user data directory's)."""
    chosen = os.environ.get(FILE_VARIABLE)
    return Path(chosen) if chosen else None


class UsageStore:
    """Requests per usage id and day, quotas per network; every call on one worker thread."""

    def __init__(self, path: Path | None = None) -> None:
        chosen = path or default_path()
        self.own_folder = chosen is None  # the app's data folder: made private
        self.path = chosen or Path(platformdirs.user_data_dir("explorer")) / "usage.sqlite3"
        self._worker = SqliteWorker(self._open, "usage-db")

    async def _on_worker(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the worker thread (opening the file first)."""
        return await self._worker.run(function, *args)

    def _open(self) -> sqlite3.Connection:
        """Open the file, pruning old days (worker thread)."""
        if self.own_folder:
            private_directory(self.path.parent)
        db = open_database(self.path, USAGE_FILE, BUSY_SECONDS)
        oldest = (utc_today() - timedelta(days=KEEP_DAYS)).isoformat()
        db.execute("DELETE FROM usage WHERE day < ?", (oldest,))
        return db

    async def add(self, usage_id: str, count: int, day: date | None = None) -> int:
        """Add requests to a key's day (today by default); return that day's total."""
        return await self._on_worker(_add, usage_id, count, (day or utc_today()).isoformat())

    async def today(self, usage_id: str) -> int:
        """Return the requests a key spent today (UTC), every process counted."""
        return await self.add(usage_id, 0)

    async def quota(self, network: str, default: int) -> int:
        """Return a network's daily quota per key (0: none), the default when never set."""
        found = await self._on_worker(_quota, network)
        return max(found if found is not None else default, 0)

    async def set_quota(self, network: str, quota: int) -> None:
        """Store a network's daily quota per key (0: none)."""
        await self._on_worker(_set_quota, network, max(quota, 0))

    async def aclose(self) -> None:
        """Close the file and stop the worker thread."""
        await self._worker.aclose()


def _add(db: sqlite3.Connection, usage_id: str, count: int, day: str) -> int:
    """Add to a day's count and return it (worker thread)."""
    kept_id = salted(salt_of(db), usage_id)
    if count > 0:
        db.execute(
            "INSERT INTO usage VALUES (?, ?, ?) ON CONFLICT (usage_id, day) "
            "DO UPDATE SET count = count + excluded.count",
            (kept_id, day, count),
        )
    row = db.execute(
        "SELECT count FROM usage WHERE usage_id = ? AND day = ?", (kept_id, day)
    ).fetchone()
    return int(row[0]) if row else 0


def _quota(db: sqlite3.Connection, network: str) -> int | None:
    """Read a network's quota (worker thread)."""
    row = db.execute("SELECT quota FROM quotas WHERE network = ?", (network,)).fetchone()
    return None if row is None else int(row[0])


def _set_quota(db: sqlite3.Connection, network: str, quota: int) -> None:
    """Write a network's quota (worker thread)."""
    db.execute("INSERT OR REPLACE INTO quotas VALUES (?, ?)", (network, quota))
