"""Where saved data lives: one database per chain, and which chain each endpoint served."""

from __future__ import annotations

import asyncio
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
from explorer.saved.files import PRIVATE_FILE, private_directory
from explorer.saved.guarded import FileUnavailable, GuardedFile, NoticeListener
from explorer.saved.salt import salt_column, salt_of, salted
from explorer.saved.sharing import SHARED_SCOPE
from explorer.saved.sql import clear_file
from explorer.saved.sqlite_file import BUSY_TIMEOUT_SECONDS, FileSchema, Migration, open_database
from explorer.saved.store import RETRY_SECONDS, ChainIdentity, ChainStore

T = TypeVar("T")
DEFAULT_SIZE_LIMIT = 500 * 1024 * 1024  # bytes (issue 21 §1)
DIRECTORY_VARIABLE = "EXPLORER_CACHE_DIR"  # tests and benchmarks keep their own
SHARED_FILE = f"-{SHARED_SCOPE}.sqlite3"  # the end of a chain's shared file's name
SCOPE_CHARS = 16  # hex characters of an endpoint's salted id in a file name
INDEX_FILE = FileSchema(
    "the index of the saved data",
    (
        Migration(
            "the chain each endpoint served",
            (
                "CREATE TABLE IF NOT EXISTS endpoints (endpoint TEXT PRIMARY KEY, "
                "chain_id INTEGER NOT NULL, genesis TEXT NOT NULL, seen REAL NOT NULL)",
            ),
        ),
        Migration(
            "endpoint ids hashed with the file's salt", (salt_column("endpoints", "endpoint"),)
        ),
        Migration(
            "each endpoint's newest block and when it last answered",
            (
                "CREATE TABLE IF NOT EXISTS heads (endpoint TEXT PRIMARY KEY, "
                "head INTEGER NOT NULL, seen REAL NOT NULL)",
            ),
        ),
    ),
)


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
    """The saved data of every chain: one store per file, shared by this process's sessions.

    The folder is private (0700, its files 0600). Each chain has its file, named by chain id
    and genesis hash; `store(identity, scope)` gives a chain a file per scope as well (an
    endpoint's `endpoint_scope`), for data that must not be shared between endpoints.
    `notice_listeners` hear what the files say (damaged and moved aside, locked).
    """

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
        index = self.root / "endpoints.sqlite3"
        self._index = GuardedFile(
            index, self._open_index, "the saved data's index", self._notice, RETRY_SECONDS
        )

    def store(self, identity: ChainIdentity, scope: str | None = None) -> ChainStore:
        """Return the store of a chain, or of a chain and scope (one per file in this process)."""
        path = self.root / identity.file_name(scope)
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
        """Return the bytes of the other files (worker thread); an endpoint's leaves shared out.

        A chain's shared file gives way to the endpoints' own: it keeps what they leave.
        """
        total = 0
        for other in self.root.glob("chain-*.sqlite3*"):
            shared = SHARED_FILE in other.name and not path.name.endswith(SHARED_FILE)
            if not other.name.startswith(path.name) and not shared:
                try:
                    total += other.stat().st_size
                except OSError:
                    continue
        return total

    def chain_files(self, chain_id: int) -> list[Path]:
        """Return the database files of a chain id (every genesis and scope it had)."""
        return sorted(self.root.glob(f"chain-{chain_id}-*.sqlite3"))

    async def clear_chain(self, chain_id: int) -> int:
        """Empty every store of a chain id (Clear cache); return how many files were emptied."""
        cleared = 0
        for path in self.chain_files(chain_id):
            if await self._clear_file(path):
                cleared += 1
        return cleared

    async def clear_endpoint(self, endpoint: Endpoint) -> ChainIdentity | None:
        """Empty the saved data of the chain an endpoint served (Clear cache of a network)."""
        served = await self.served(endpoint)
        if served is None:
            return None
        for path in self.root.glob(f"{served.identity.file_name()[: -len('.sqlite3')]}*.sqlite3"):
            await self._clear_file(path)
        return served.identity

    async def _clear_file(self, path: Path) -> bool:
        """Empty one chain file, open here or not; tell whether it was emptied."""
        store = self._stores.get(path)
        if store is not None:
            store.clear()
            await store.flush()
            return True
        try:
            await asyncio.to_thread(clear_file, path, self.busy_timeout)
        except (OSError, sqlite3.Error):
            return False
        return True

    async def size_of(self, endpoint: Endpoint) -> int:
        """Return the bytes of the saved data an endpoint's answers fill (0: none)."""
        served = await self.served(endpoint)
        if served is None:
            return 0
        try:
            scope = await self.endpoint_scope(endpoint)
        except (OSError, sqlite3.Error, FileUnavailable):
            return 0
        path = self.root / served.identity.file_name(scope)
        store = self._stores.get(path)
        if store is not None:
            return await store.size()
        try:
            return path.stat().st_size
        except OSError:
            return 0

    # --- which chain each endpoint served -----------------------------------------------------

    async def _on_index(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(db, *args) on the index's worker thread (FileUnavailable)."""
        return await self._index.run(function, *args)

    def _open_index(self) -> sqlite3.Connection:
        """Make the folder and its files private, then open the index (worker thread)."""
        private_directory(self.root)
        for path in self.root.iterdir():
            with contextlib.suppress(OSError):
                if path.is_file() and os.name == "posix":
                    os.chmod(path, PRIVATE_FILE)
        return open_database(self.root / "endpoints.sqlite3", INDEX_FILE, self.busy_timeout)

    async def endpoint_scope(self, endpoint: Endpoint) -> str:
        """Return an endpoint's id for file names: hashed with the index's salt."""
        return (await self._on_index(_salted_id, endpoint))[:SCOPE_CHARS]

    async def remember(self, endpoint: Endpoint, identity: ChainIdentity) -> None:
        """Remember that an endpoint served a chain (now)."""

        def write(db: sqlite3.Connection) -> None:
            row = (_salted_id(db, endpoint), identity.chain_id, identity.genesis_hash, time.time())
            db.execute("INSERT OR REPLACE INTO endpoints VALUES (?, ?, ?, ?)", row)

        try:
            await self._on_index(write)
        except (OSError, sqlite3.Error, FileUnavailable):
            return  # offline browsing will not know this endpoint; nothing else depends on it

    async def note_head(self, endpoint: Endpoint, head: int) -> None:
        """Remember an endpoint's newest block and that it answered now (not another session's)."""

        def write(db: sqlite3.Connection) -> None:
            row = (_salted_id(db, endpoint), head, time.time())
            db.execute("INSERT OR REPLACE INTO heads VALUES (?, ?, ?)", row)

        with contextlib.suppress(OSError, sqlite3.Error, FileUnavailable):  # then no head known
            await self._on_index(write)

    async def served(self, endpoint: Endpoint) -> Served | None:
        """Return the chain an endpoint served when last verified (and its head), or None."""

        def read(db: sqlite3.Connection) -> Any:
            query = (
                "SELECT chain_id, genesis, endpoints.seen, head, heads.seen FROM endpoints "
                "LEFT JOIN heads USING (endpoint) WHERE endpoint = ?"
            )
            return db.execute(query, (_salted_id(db, endpoint),)).fetchone()

        try:
            row = await self._on_index(read)
        except (OSError, sqlite3.Error, FileUnavailable):
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


def _salted_id(db: sqlite3.Connection, endpoint: Endpoint) -> str:
    """Return the id an endpoint is kept under: its id hashed with the index's salt."""
    return salted(salt_of(db), endpoint_id(endpoint))
