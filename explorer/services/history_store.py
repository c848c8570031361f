"""What is settled of an address's history, kept so that a revisit asks only for newer blocks.

One small interface (`HistoryStore`: load, save). Until the persistent per-chain cache of
issue 21 holds these records, `SqliteHistoryStore` keeps them in one SQLite file in the user
data directory, every call on one worker thread (never the GUI thread); `MemoryHistoryStore`
keeps them for the run. A record names the hash of its newest block; one whose block the chain
no longer holds (a reorganisation, another chain) is searched again from the start.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Protocol

import platformdirs

from explorer.chain.history import Direction, EntryKind, HistoryEntry
from explorer.services.probes import AccountState

FILE_NAME = "address-history.sqlite3"
_CREATE = """
CREATE TABLE IF NOT EXISTS history (
    chain TEXT NOT NULL,
    address TEXT NOT NULL CHECK (length(address) = 42),
    record TEXT NOT NULL,
    PRIMARY KEY (chain, address)
)
"""


@dataclass(frozen=True)
class StoredHistory:
    """An address's history, complete from block `first` to block `until`.

    `opening` is the state after block first − 1 and `state` the one after `until`; token
    transfers are complete up to `tokens_until` (−1: never scanned).
    """

    first: int
    until: int
    opening: AccountState
    state: AccountState
    has_code: bool
    entries: tuple[HistoryEntry, ...]
    tokens_until: int = -1
    until_hash: str = ""  # the hash of block `until`: the chain must still hold it

    def to_json(self) -> str:
        """Return the record as JSON text (amounts as decimal strings)."""
        data = asdict(self)
        data["entries"] = [_entry_json(entry) for entry in self.entries]
        return json.dumps(data, default=str)

    @classmethod
    def from_json(cls, text: str) -> StoredHistory:
        """Read a record written by to_json; ValueError when it is not one."""
        try:
            data = json.loads(text)
            return cls(
                first=int(data["first"]),
                until=int(data["until"]),
                opening=AccountState(
                    int(data["opening"]["balance"]), int(data["opening"]["nonce"])
                ),
                state=AccountState(int(data["state"]["balance"]), int(data["state"]["nonce"])),
                has_code=bool(data["has_code"]),
                entries=tuple(_entry_of(item) for item in data["entries"]),
                tokens_until=int(data.get("tokens_until", -1)),
                until_hash=str(data.get("until_hash", "")),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"not a stored history: {exc}") from None


def _state_of(data: dict[str, Any]) -> AccountState:
    """Read a stored state."""
    return AccountState(int(data["balance"]), int(data["nonce"]))


_INTS = ("block", "timestamp", "amount", "balance_after", "fee", "log_index", "token_id", "order")


def _entry_json(entry: HistoryEntry) -> dict[str, Any]:
    """Return an entry as JSON values."""
    data = asdict(entry)
    data["kind"], data["direction"] = entry.kind.value, entry.direction.value
    return {k: str(v) if k in _INTS and v is not None else v for k, v in data.items()}


def _entry_of(data: dict[str, Any]) -> HistoryEntry:
    """Read an entry written by _entry_json."""
    values: dict[str, Any] = {
        k: int(v) if k in _INTS and v is not None else v for k, v in data.items()
    }
    values["kind"], values["direction"] = EntryKind(data["kind"]), Direction(data["direction"])
    return HistoryEntry(**values)


class HistoryStore(Protocol):
    """Where settled histories are kept between visits."""

    async def load(self, chain: str, address: str) -> StoredHistory | None:
        """Return the stored history of an address on a chain, if any."""

    async def save(self, chain: str, address: str, history: StoredHistory) -> None:
        """Keep an address's history (replacing what was kept)."""


class MemoryHistoryStore:
    """Histories kept for the run only."""

    def __init__(self) -> None:
        self._records: dict[tuple[str, str], StoredHistory] = {}

    async def load(self, chain: str, address: str) -> StoredHistory | None:
        """Return the history kept for the address, if any."""
        return self._records.get((chain, address))

    async def save(self, chain: str, address: str, history: StoredHistory) -> None:
        """Keep the history."""
        self._records[(chain, address)] = history


def default_path() -> Path:
    """Return the file in the user data directory."""
    return Path(platformdirs.user_data_dir("explorer", "explorer")) / FILE_NAME


class SqliteHistoryStore:
    """Histories in one SQLite file, read and written on one worker thread."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="history-store")
        self._db: sqlite3.Connection | None = None

    def _connection(self) -> sqlite3.Connection:
        """Open the file on the worker thread (first use)."""
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False)
            self._db.execute(_CREATE)
        return self._db

    def _load(self, chain: str, address: str) -> StoredHistory | None:
        """Read one record (a damaged one is as good as none)."""
        row = (
            self._connection()
            .execute("SELECT record FROM history WHERE chain = ? AND address = ?", (chain, address))
            .fetchone()
        )
        if row is None:
            return None
        try:
            return StoredHistory.from_json(str(row[0]))
        except ValueError:
            return None

    def _save(self, chain: str, address: str, record: str) -> None:
        """Write one record."""
        with self._connection() as db:
            db.execute(
                "INSERT OR REPLACE INTO history (chain, address, record) VALUES (?, ?, ?)",
                (chain, address, record),
            )

    async def load(self, chain: str, address: str) -> StoredHistory | None:
        """Return the stored history, read on the worker thread."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._worker, self._load, chain, address)
        except sqlite3.Error:
            return None

    async def save(self, chain: str, address: str, history: StoredHistory) -> None:
        """Write the history on the worker thread (a failure only costs the next visit)."""
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._worker, self._save, chain, address, history.to_json())
        except sqlite3.Error:
            return

    def close(self) -> None:
        """Close the file and the worker."""
        if self._db is not None:
            db, self._db = self._db, None
            self._worker.submit(db.close).result()
        self._worker.shutdown(wait=True)
