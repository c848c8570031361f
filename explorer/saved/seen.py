"""Transactions this app saw pending or sent: when first and last, with sender and nonce.

A node forgets a transaction it dropped; this file remembers it, so a hash that is now
unknown can still be explained (dropped, replaced, queued behind a missing nonce). One small
SQLite file in the user data directory, every call on one worker thread (never the GUI
thread); old rows are pruned when it opens. Kept per endpoint (issue 29 §4): what one endpoint
said was pending is never shown for another; a transaction sent from here is this app's own
record, found through any endpoint of its chain. Endpoints are kept by their id (no key),
hashed with the file's salt; rows from before endpoints were told apart have none, and only
those sent from here are still shown.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from explorer.chain.pooled import PooledTx
from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import endpoint_id
from explorer.saved.files import private_directory
from explorer.saved.salt import add_salt, salt_of, salted
from explorer.saved.sqlite_file import FileSchema, Migration, open_database
from explorer.saved.sqlite_worker import SqliteWorker

T = TypeVar("T")
KEEP_SECONDS = 30 * 24 * 3600  # a month: longer than any pool keeps a transaction
FILE_NAME = "seen-transactions.sqlite3"
_COLUMNS = (
    "endpoint",
    "chain_id",
    "hash",
    "sender",
    "nonce",
    "gas_price",
    "gas",
    "value",
    "first_seen",
    "first_block",
    "last_seen",
    "last_block",
    "sent_here",
)

_RECORD = """chain_id INTEGER NOT NULL,
    hash TEXT NOT NULL CHECK (length(hash) = 66),
    sender TEXT NOT NULL CHECK (length(sender) = 42),
    nonce INTEGER NOT NULL,
    gas_price TEXT NOT NULL,
    gas INTEGER NOT NULL,
    value TEXT NOT NULL,
    first_seen REAL NOT NULL,
    first_block INTEGER,
    last_seen REAL NOT NULL,
    last_block INTEGER,
    sent_here INTEGER NOT NULL"""  # a record's columns (the first release's, as it wrote them)


def _per_endpoint(db: sqlite3.Connection) -> None:
    """Key the records by endpoint too; the earlier ones have none (a migration step)."""
    add_salt(db)
    db.execute("ALTER TABLE seen RENAME TO seen_by_chain")
    db.execute(
        f"CREATE TABLE seen (endpoint TEXT NOT NULL, {_RECORD}, "
        "PRIMARY KEY (endpoint, chain_id, hash))"
    )
    db.execute(f"INSERT INTO seen SELECT '', {', '.join(_COLUMNS[1:])} FROM seen_by_chain")
    db.execute("DROP TABLE seen_by_chain")


SEEN_FILE = FileSchema(
    "the file of transactions seen",
    (
        Migration(
            "transactions seen pending or sent, per chain",
            (f"CREATE TABLE IF NOT EXISTS seen ({_RECORD}, PRIMARY KEY (chain_id, hash))",),
        ),
        Migration("transactions seen per endpoint", (_per_endpoint,)),
    ),
)
# A second sighting keeps the first time and block and moves the last ones on.
_UPSERT = f"""
INSERT INTO seen ({", ".join(_COLUMNS)}) VALUES ({", ".join("?" * len(_COLUMNS))})
ON CONFLICT (endpoint, chain_id, hash) DO UPDATE SET
    first_seen = min(first_seen, excluded.first_seen),
    first_block = coalesce(min(first_block, excluded.first_block), first_block,
                           excluded.first_block),
    last_seen = max(last_seen, excluded.last_seen),
    last_block = coalesce(max(last_block, excluded.last_block), last_block, excluded.last_block),
    sent_here = max(sent_here, excluded.sent_here)
"""


class SeenStoreError(Exception):
    """The file cannot be opened or written (the message names the file)."""


@dataclass(frozen=True)
class SeenTx:
    """A transaction this app saw pending (or sent) on a chain, and when.

    Blocks are the head when it was seen (None when unknown).
    """

    chain_id: int
    tx: PooledTx
    first_seen: float
    first_block: int | None
    last_seen: float
    last_block: int | None
    sent_here: bool = False  # broadcast from this app (or `explorer send`)
    seen_by: str = ""  # the id of the endpoint that said so (`seen_by`; "": none known)

    def row(self, endpoint: str) -> tuple[Any, ...]:
        """Return the values in column order (big amounts as decimal text)."""
        tx = self.tx
        return (
            endpoint,
            self.chain_id,
            tx.hash,
            tx.sender,
            tx.nonce,
            str(tx.gas_price),
            tx.gas,
            str(tx.value),
            self.first_seen,
            self.first_block,
            self.last_seen,
            self.last_block,
            int(self.sent_here),
        )

    @classmethod
    def from_row(cls, row: tuple[Any, ...], seen_by: str) -> SeenTx:
        """Return a record from a row in column order (seen_by: its endpoint's id, or "")."""
        _endpoint, chain_id, tx_hash, sender, nonce, gas_price, gas, value, *when, sent = row
        tx = PooledTx(tx_hash, sender, nonce, int(gas_price), gas, int(value))
        first_seen, first_block, last_seen, last_block = when
        return cls(
            chain_id, tx, first_seen, first_block, last_seen, last_block, bool(sent), seen_by
        )


def seen_by(endpoint: Endpoint | None) -> str:
    """Return the id an endpoint's sightings are kept under (no key; "": none known)."""
    return "" if endpoint is None else endpoint_id(endpoint)


def default_path() -> Path:
    """Return the file in the user data directory."""
    return Path(platformdirs.user_data_dir("explorer")) / "support" / FILE_NAME


class SeenStore:
    """Transactions seen pending or sent, in one SQLite file; every call on one worker thread."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self._worker = SqliteWorker(self._open, "seen-db")

    async def _on_worker(self, function: Callable[..., T], *args: Any) -> T:
        """Run a blocking call on the store's thread (opening the file first) and await it."""
        return await self._worker.call(lambda: self._opened(function, *args))

    def _open(self) -> sqlite3.Connection:
        """Open the file, pruning old rows (worker thread)."""
        private_directory(self.path.parent)
        db = open_database(self.path, SEEN_FILE)
        db.execute("DELETE FROM seen WHERE last_seen < ?", (time.time() - KEEP_SECONDS,))
        return db

    def _opened(self, function: Callable[..., T], *args: Any) -> T:
        """Run function on the open file (worker thread)."""
        try:
            return function(self._worker.connection(), *args)
        except (OSError, sqlite3.Error) as error:
            raise SeenStoreError(f"The file {self.path} cannot be used: {error}") from None

    async def note(self, seen: SeenTx) -> SeenTx:
        """Record a sighting and return the record as kept (first sighting's time and block)."""
        return await self._on_worker(_note, seen)

    async def find(self, chain_id: int, tx_hash: str, endpoint: str) -> SeenTx | None:
        """Return what an endpoint (`seen_by`) said of a transaction on a chain, or None.

        A transaction sent from here is found through any endpoint of its chain.
        """
        return await self._on_worker(_find, chain_id, tx_hash.lower(), endpoint)

    async def aclose(self) -> None:
        """Close the file and stop the worker thread."""
        await self._worker.aclose()


def _kept_id(db: sqlite3.Connection, endpoint: str) -> str:
    """Return the id an endpoint is kept under: hashed with the file's salt ("" stays "")."""
    return salted(salt_of(db), endpoint) if endpoint else ""


def _find(db: sqlite3.Connection, chain_id: int, tx_hash: str, endpoint: str) -> SeenTx | None:
    """Read the endpoint's record, else one sent from here (worker thread)."""
    own = _kept_id(db, endpoint)
    row = db.execute(
        f"SELECT {', '.join(_COLUMNS)} FROM seen WHERE chain_id = ? AND hash = ? "
        "AND (endpoint = ? OR sent_here = 1) ORDER BY endpoint = ? DESC, last_seen DESC",
        (chain_id, tx_hash, own, own),
    ).fetchone()
    if row is None:
        return None
    return SeenTx.from_row(row, endpoint if row[0] == own else "")


def _note(db: sqlite3.Connection, seen: SeenTx) -> SeenTx:
    """Upsert one record and read it back (worker thread)."""
    db.execute(_UPSERT, seen.row(_kept_id(db, seen.seen_by)))
    kept = _find(db, seen.chain_id, seen.tx.hash, seen.seen_by)
    return kept or seen
