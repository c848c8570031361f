"""Where saved data lives: one database per chain, and which chain each endpoint served."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from explorer.rpc.endpoint import Endpoint
from explorer.saved.schema import BUSY_TIMEOUT_SECONDS
from explorer.saved.sql import clear_file
from explorer.saved.sqlite_worker import SqliteWorker
from explorer.saved.store import ChainIdentity, ChainStore, NoticeListener

T = TypeVar("T")
DEFAULT_SIZE_LIMIT = 500 * 1024 * 1024  # bytes (issue 21 §1)
DIRECTORY_VARIABLE = "EXPLORER_CACHE_DIR"  # tests and benchmarks keep their own
_ENDPOINTS = """
CREATE TABLE IF NOT EXISTS endpoints (
    endpoint TEXT PRIMARY KEY,
    chain_id INTEGER NOT NULL,
    genesis TEXT NOT NULL,
    seen REAL NOT NULL
)
"""
_HEADS = """
CREATE TABLE IF NOT EXISTS heads (
    endpoint TEXT PRIMARY KEY,
    head INTEGER NOT NULL,
    seen REAL NOT NULL
)
"""


def default_directory() -> Path:
    """Return the saved-data folder: $EXPLORER_CACHE_DIR, else the platform's cache folder."""
    chosen = os.environ.get(DIRECTORY_VARIABLE)
    return Path(chosen) if chosen else Path(platformdirs.user_cache_dir("explorer")) / "chains"


def endpoint_id(endpoint: Endpoint) -> str:
    """Return a stable id of an endpoint without its key (any key reads the same chain)."""
    return hashlib.sha256(f"{endpoint.base_url}|{endpoint.url_form.name}".encode()).hexdigest()[:20]


@dataclass(frozen=True)
class Served:
    """The chain an endpoint served when it was last verified, and when."""

    identity: ChainIdentity
    seen: float
    head: int | None = None  # the newest block it reported (None: not known)
    answered: float | None = None  # when it last answered (a head, or data saved)


class CacheDirectory:
    """The saved data of every chain: one store per file, shared by this process's sessions."""

    def __init__(
        self,
        root: Path | None = None,
        size_limit: int = DEFAULT_SIZE_LIMIT,
        confirmations: Callable[[str], int] | None = None,
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> None:
        self.root = root or default_directory()
        self.busy_timeout = busy_timeout
        self.size_limit = size_limit
        self.confirmations = confirmations or (lambda _network: 12)
        self.notice_listeners: list[NoticeListener] = []
        self._stores: dict[Path, ChainStore] = {}
        self._index = SqliteWorker(self._open_index, "cache-index")

    def store(self, identity: ChainIdentity) -> ChainStore:
        """Return the store of a chain (one per file in this process)."""
        path = self.root / identity.file_name
        store = self._stores.get(path)
        if store is None:
            store = ChainStore(path, identity, self.size_limit, self._notice, self.busy_timeout)
            store.others_size = self._others_size
            self._stores[path] = store
        return store

    def set_size_limit(self, size_limit: int) -> None:
        """Change the limit of every store (it holds from their next write)."""
        self.size_limit = size_limit
        for store in self._stores.values():
            store.size_limit = size_limit

    def _notice(self, message: str) -> None:
        """Pass a store's message on."""
        for listener in list(self.notice_listeners):
            listener(message)

    def _others_size(self, path: Path) -> int:
        """Return the bytes of the other chains' files (worker thread)."""
        total = 0
        for other in self.root.glob("chain-*.sqlite3*"):
            if not other.name.startswith(path.name):
                try:
                    total += other.stat().st_size
                except OSError:
                    continue
        return total

    def chain_files(self, chain_id: int) -> list[Path]:
        """Return the database files of a chain id (every genesis it had)."""
        return sorted(self.root.glob(f"chain-{chain_id}-*.sqlite3"))

    async def clear_chain(self, chain_id: int) -> int:
        """Empty every store of a chain id (Clear cache); return how many files were emptied."""
        cleared = 0
        for path in self.chain_files(chain_id):
            store = self._stores.get(path)
            if store is not None:
                store.clear()
                await store.flush()
            else:
                try:
                    await self._on_index(lambda _db, target=path: clear_file(target))
                except (OSError, sqlite3.Error):
                    continue
            cleared += 1
        return cleared

    async def clear_endpoint(self, endpoint: Endpoint) -> ChainIdentity | None:
        """Empty the saved data of the chain an endpoint served (Clear cache of a network)."""
        served = await self.served(endpoint)
        if served is None:
            return None
        path = self.root / served.identity.file_name
        store = self._stores.get(path)
        if store is not None:
            store.clear()
            await store.flush()
        elif path.exists():
            with contextlib.suppress(OSError, sqlite3.Error):
                await self._on_index(lambda _db: clear_file(path))
        return served.identity

    async def size_of(self, endpoint: Endpoint) -> int:
        """Return the bytes of saved data of the chain an endpoint served (0: none)."""
        served = await self.served(endpoint)
        if served is None:
            return 0
        path = self.root / served.identity.file_name
        store = self._stores.get(path)
        if store is not None:
            return await store.size()
        try:
            return path.stat().st_size
        except OSError:
            return 0

    # --- which chain each endpoint served -----------------------------------------------------

    async def _on_index(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the index's worker thread."""
        return await self._index.run(function, *args)

    def _open_index(self) -> sqlite3.Connection:
        """Open the index of endpoints (worker thread)."""
        self.root.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            self.root / "endpoints.sqlite3", timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None
        )
        db.execute("PRAGMA journal_mode = WAL")
        db.execute(_ENDPOINTS)
        db.execute(_HEADS)
        return db

    async def remember(self, endpoint: Endpoint, identity: ChainIdentity) -> None:
        """Remember that an endpoint served a chain (now)."""
        row = (endpoint_id(endpoint), identity.chain_id, identity.genesis_hash, time.time())
        try:
            await self._on_index(
                lambda db: db.execute("INSERT OR REPLACE INTO endpoints VALUES (?, ?, ?, ?)", row)
            )
        except (OSError, sqlite3.Error):
            return  # offline browsing will not know this endpoint; nothing else depends on it

    async def note_head(self, endpoint: Endpoint, head: int) -> None:
        """Remember an endpoint's newest block and that it answered now (not another session's)."""
        row = (endpoint_id(endpoint), head, time.time())
        with contextlib.suppress(OSError, sqlite3.Error):  # offline pages then lack a head
            await self._on_index(
                lambda db: db.execute("INSERT OR REPLACE INTO heads VALUES (?, ?, ?)", row)
            )

    async def served(self, endpoint: Endpoint) -> Served | None:
        """Return the chain an endpoint served when last verified (and its head), or None."""

        def read(db: sqlite3.Connection) -> Any:
            query = (
                "SELECT chain_id, genesis, endpoints.seen, head, heads.seen FROM endpoints "
                "LEFT JOIN heads USING (endpoint) WHERE endpoint = ?"
            )
            return db.execute(query, (endpoint_id(endpoint),)).fetchone()

        try:
            row = await self._on_index(read)
        except (OSError, sqlite3.Error):
            return None
        if row is None:
            return None
        head, answered = (None, None) if row[3] is None else (int(row[3]), float(row[4]))
        return Served(ChainIdentity(int(row[0]), str(row[1])), float(row[2]), head, answered)

    async def aclose(self) -> None:
        """Write what is queued and close every file."""
        for store in list(self._stores.values()):
            await store.aclose()
        self._stores.clear()
        await self._index.aclose()
