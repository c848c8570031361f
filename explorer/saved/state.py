"""What one session knows of its saved data, shared by the parts that answer from it.

The mode (waiting for the chain check, online, offline, off), the chain's store in use, the
newest head the node reported and how deep a block must be to be settled. The session cache
(`cache.py`) changes it; the log ranges (`logs.py`), the reorganisation watch (`reorg.py`) and
the derived records (`records.py`) read it.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable

from explorer.rpc.errors import TransportError
from explorer.saved.rules import settled
from explorer.saved.store import ChainStore


class CacheMode(enum.Enum):
    """Where a session's reads are answered from."""

    WAITING = "waiting"  # the chain is not known yet: every read goes to the node
    ONLINE = "online"  # verified: settled reads come from the file first
    OFFLINE = "offline"  # the node cannot be reached: reads come from the file only
    OFF = "off"  # no saved data for this session


class NotSaved(TransportError):
    """Offline, and what was asked is not in the saved data."""

    @classmethod
    def of(cls, method: str) -> NotSaved:
        """Return the error of an offline read of method that is not in the saved data."""
        return cls(f"{method} is not in the saved data (the node cannot be reached)")


class SessionState:
    """One session's mode, store, head and confirmations; `mode_listeners` hear each change."""

    def __init__(self, confirmations: int) -> None:
        self.confirmations = confirmations
        self.mode = CacheMode.WAITING
        self.store: ChainStore | None = None
        self.head: int | None = None
        self.opening: asyncio.Future[None] | None = None  # the store being opened
        self.mode_listeners: list[Callable[[CacheMode], None]] = []

    def set_mode(self, mode: CacheMode, store: ChainStore | None) -> None:
        """Switch mode and store, telling the listeners."""
        self.store = store
        if mode is not self.mode:
            self.mode = mode
            for listener in list(self.mode_listeners):
                listener(mode)

    @property
    def offline(self) -> bool:
        """Tell whether reads are answered from the saved data only."""
        return self.mode is CacheMode.OFFLINE

    @property
    def writable(self) -> bool:
        """Tell whether answers are being saved (online, with a store)."""
        return self.mode is CacheMode.ONLINE and self.store is not None

    def settled(self, number: int | None) -> bool:
        """Tell whether a height is N confirmations deep under the known head."""
        return settled(number, self.head, self.confirmations)

    def advance(self, number: int | None) -> bool:
        """Take a head the node reported; tell whether it is newer than the known one."""
        if number is None or (self.head is not None and number <= self.head):
            return False
        self.head = number
        return True

    async def usable(self) -> ChainStore | None:
        """Return the store to answer from, waiting for one being opened."""
        if self.opening is not None and not self.opening.done():
            await asyncio.shield(self.opening)
        return self.store if self.mode in (CacheMode.ONLINE, CacheMode.OFFLINE) else None
