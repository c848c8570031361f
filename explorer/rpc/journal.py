"""The last requests a client sent or answered from saved data: what the Requests view lists."""

from __future__ import annotations

import contextvars
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from explorer.chain.secrets import scrub

KEEP = 500  # entries the journal keeps (the Requests view's last 500)


@dataclass(frozen=True)
class JournalEntry:
    """One request: to the node, or answered from the saved data (from_cache)."""

    at: float  # wall-clock time it was made
    network: str  # the endpoint's redacted form
    method: str
    params: str  # the parameters as JSON, the API key redacted
    size: int  # bytes of the answer (0: none came)
    from_cache: bool
    seconds: float  # how long it took
    error: str = ""  # the error kind, when it failed

    def to_json(self) -> dict[str, Any]:
        """Return the entry as a JSON object (for copying)."""
        return asdict(self)


class RequestJournal:
    """The last KEEP requests of every client that shares it; listeners hear each new one."""

    def __init__(self, keep: int = KEEP) -> None:
        self._entries: deque[JournalEntry] = deque(maxlen=keep)
        self.listeners: list[Callable[[JournalEntry], None]] = []

    def record(self, entry: JournalEntry) -> None:
        """Keep an entry (the oldest goes beyond KEEP) and tell the listeners."""
        self._entries.append(entry)
        for listener in list(self.listeners):
            listener(entry)

    def entries(self) -> list[JournalEntry]:
        """Return the entries kept, oldest first."""
        return list(self._entries)

    def __len__(self) -> int:
        """Return how many entries are kept."""
        return len(self._entries)


def redact(text: str, secret: str | None) -> str:
    """Return text with the secret (the API key) replaced by `<key>`, in any form."""
    return scrub(text, [secret])


@dataclass
class Spending:
    """What one piece of work cost: requests sent to the node and answers from saved data."""

    requests: int = 0
    from_cache: int = 0

    def text(self) -> str:
        """Return `3 requests, 5 from cache` (`no requests` when nothing was asked)."""
        sent = f"{self.requests:,} request{'' if self.requests == 1 else 's'}"
        if self.requests == 0:
            sent = "no requests"
        return f"{sent}, {self.from_cache:,} from cache" if self.from_cache else sent


_spending: contextvars.ContextVar[Spending | None] = contextvars.ContextVar(
    "spending", default=None
)


@contextmanager
def counting(spending: Spending) -> Iterator[Spending]:
    """Count the requests made in this context (and the tasks it starts) into spending."""
    token = _spending.set(spending)
    try:
        yield spending
    finally:
        _spending.reset(token)


def note_sent() -> None:
    """Count one request sent to the node in the current context's spending."""
    spending = _spending.get()
    if spending is not None:
        spending.requests += 1


def note_cached() -> None:
    """Count one answer from saved data in the current context's spending."""
    spending = _spending.get()
    if spending is not None:
        spending.from_cache += 1
