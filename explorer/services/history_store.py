"""What is settled of an address's history, kept so that a revisit asks only for newer blocks.

One small interface (`HistoryStore`: load, save). `SavedHistoryStore` keeps them as derived
records in the session's saved data (one file per chain, saved/records.py);
`MemoryHistoryStore` keeps them for the run (a session without saved data, tests). A record
names the hash of its newest block; one whose block the chain no longer holds (a
reorganisation, another chain) is searched again from the start.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from explorer.chain.history import Direction, EntryKind, HistoryEntry
from explorer.rpc.wrappers import TypedCalls
from explorer.saved.cache import DerivedRecords, records_of
from explorer.services.probes import AccountState


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


class SavedHistoryStore:
    """Histories kept as derived records in the chain's saved data (the session's cache file).

    A record rests on its newest block: a reorganisation of the saved data below it drops it,
    and a shallower one is caught by the block hash the record carries.
    """

    KIND = "address-history"

    def __init__(self, records: DerivedRecords) -> None:
        self.records = records

    async def load(self, chain: str, address: str) -> StoredHistory | None:
        """Return the record of the address (the cache's file is the chain's own)."""
        value = await self.records.get(self.KIND, address)
        if not isinstance(value, str):
            return None
        try:
            return StoredHistory.from_json(value)
        except ValueError:
            return None

    async def save(self, chain: str, address: str, history: StoredHistory) -> None:
        """Keep the record, resting on its newest block."""
        self.records.keep(self.KIND, address, history.to_json(), history.until)


RUN_STORE = MemoryHistoryStore()  # for sessions without saved data: kept while the app runs


def store_for(client: TypedCalls) -> HistoryStore:
    """Return where histories read through a client are kept: its saved data, else memory."""
    records = records_of(client)
    return SavedHistoryStore(records) if records is not None else RUN_STORE
