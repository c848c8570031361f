"""Requests spent per key and UTC day, and each network's daily quota, in one shared file.

The window and every command line add to the same counts (the hosted service counts every
request of a key, whoever sent it): a small SQLite file in the user data directory, used on a
worker thread, each addition one short transaction. Keys are never stored, only the session's
`usage_id` (a hash of the endpoint and key).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import platformdirs

from explorer.rpc.stats import utc_today
from explorer.saved.sqlite_worker import SqliteWorker

if TYPE_CHECKING:
    from explorer.services.session import Session

T = TypeVar("T")
KEEP_DAYS = 40
FILE_VARIABLE = "EXPLORER_USAGE_FILE"  # tests and benchmarks keep their own
WARN_SHARE = 0.8  # the status bar warns from this share of the quota
_CREATE = """
CREATE TABLE IF NOT EXISTS usage (
    usage_id TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL,
    PRIMARY KEY (usage_id, day)
);
CREATE TABLE IF NOT EXISTS quotas (network TEXT PRIMARY KEY, quota INTEGER NOT NULL);
"""


def default_path() -> Path:
    """Return the file: $EXPLORER_USAGE_FILE, else in the user data directory."""
    chosen = os.environ.get(FILE_VARIABLE)
    return (
        Path(chosen) if chosen else Path(platformdirs.user_data_dir("explorer")) / "usage.sqlite3"
    )


class UsageStore:
    """Requests per usage id and day, quotas per network; every call on one worker thread."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self._worker = SqliteWorker(self._open, "usage-db")

    async def _on_worker(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the worker thread (opening the file first)."""
        return await self._worker.run(function, *args)

    def _open(self) -> sqlite3.Connection:
        """Open the file, pruning old days (worker thread)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None)
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript(_CREATE)
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
    if count > 0:
        db.execute(
            "INSERT INTO usage VALUES (?, ?, ?) ON CONFLICT (usage_id, day) "
            "DO UPDATE SET count = count + excluded.count",
            (usage_id, day, count),
        )
    row = db.execute(
        "SELECT count FROM usage WHERE usage_id = ? AND day = ?", (usage_id, day)
    ).fetchone()
    return int(row[0]) if row else 0


def _quota(db: sqlite3.Connection, network: str) -> int | None:
    """Read a network's quota (worker thread)."""
    row = db.execute("SELECT quota FROM quotas WHERE network = ?", (network,)).fetchone()
    return None if row is None else int(row[0])


def _set_quota(db: sqlite3.Connection, network: str, quota: int) -> None:
    """Write a network's quota (worker thread)."""
    db.execute("INSERT OR REPLACE INTO quotas VALUES (?, ?)", (network, quota))


class UsageTally:
    """Adds one session's requests to the shared counts, each day's new ones once.

    After a flush the session's `requests_today` is the key's whole day: this session's
    requests and every other process's.
    """

    def __init__(self, store: UsageStore, session: Session) -> None:
        self.store = store
        self.session = session
        self._flushed: dict[date, int] = {}

    async def flush(self) -> int:
        """Add the requests sent since the last flush; return the key's total today."""
        session, today = self.session, utc_today()
        by_day = dict(session.client.stats.by_day)
        total = 0
        for day, count in sorted(by_day.items()):
            new = count - self._flushed.get(day, 0)
            if new > 0 or day == today:
                added = await self.store.add(session.usage_id, max(new, 0), day)
                self._flushed[day] = count
                if day == today:
                    total = added
        if today not in by_day:
            total = await self.store.today(session.usage_id)
        session.earlier_today = total - by_day.get(today, 0)
        return total


def near_quota(spent: int, quota: int) -> bool:
    """Tell whether a key has spent the warning share of its quota (none: never)."""
    return quota > 0 and spent >= WARN_SHARE * quota
