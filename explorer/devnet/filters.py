"""eth_newFilter and its kin as rskj 9 keeps them (FilterManager, LogFilter, NewBlockFilter).

A filter holds events: log objects, block hashes or pending transaction hashes. A log filter
starts with the logs its range already holds (as eth_getLogs answers them), then takes the
logs of each new block when its range ends at `latest`; one that starts at `latest` keeps the
newest block's logs only. eth_getFilterChanges answers what came since the last poll,
eth_getFilterLogs everything held. A filter nobody asked about for 5 minutes is dropped (looked
for at most once a minute); an unknown id is -32000 "filter not found".
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from explorer.devnet.errors import RpcFailure

FILTER_TIMEOUT = 5 * 60.0  # FilterManager: 5 minutes without access
CLEANUP_PERIOD = 60.0  # and expired filters are looked for at most once a minute
FILTER_NOT_FOUND = -32000  # RskJsonRpcRequestException.filterNotFound

Json = Any
#: The logs of one block that match a log filter, as JSON objects in block order.
BlockLogs = Callable[[Any], Sequence[Json]]


@dataclass
class Filter:
    """One installed filter: the events it holds, how many were answered, when it was used."""

    kind: str  # "logs", "blocks" or "pending"
    accessed: float
    events: list[Json] = field(default_factory=list)
    answered: int = 0
    matching: BlockLogs | None = None  # logs: picks a new block's matching logs
    from_latest: bool = False  # logs: keeps only the newest block's logs
    to_latest: bool = False  # logs: takes the logs of every new block

    def new_events(self) -> list[Json]:
        """Return the events since the last poll, and remember they were answered."""
        fresh = self.events[self.answered :]
        self.answered = len(self.events)
        return fresh


class FilterBook:
    """The installed filters of one node; not thread-safe (the node's lock guards it)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._filters: dict[str, Filter] = {}
        self._last_cleanup = clock()

    def __len__(self) -> int:
        """How many filters are installed."""
        return len(self._filters)

    def install_logs(
        self,
        historic: Sequence[Json],
        matching: BlockLogs,
        *,
        from_latest: bool,
        to_latest: bool,
    ) -> str:
        """Install a log filter holding the logs already found; return its id."""
        log_filter = self._new("logs")
        log_filter.events.extend(historic)
        log_filter.matching = matching
        log_filter.from_latest, log_filter.to_latest = from_latest, to_latest
        return self._register(log_filter)

    def install(self, kind: str) -> str:
        """Install a filter of new block hashes ("blocks") or pending transactions ("pending")."""
        return self._register(self._new(kind))

    def uninstall(self, filter_id: str) -> bool:
        """Remove a filter; tell whether there was one."""
        return self._filters.pop(filter_id, None) is not None

    def changes(self, filter_id: str) -> list[Json]:
        """Return the events since the last poll of a filter."""
        return self._get(filter_id).new_events()

    def everything(self, filter_id: str) -> list[Json]:
        """Return every event a filter holds."""
        return list(self._get(filter_id).events)

    def on_block(self, block: Any, block_hash: str) -> None:
        """Tell the filters a block was added to the chain."""
        self._cleanup()
        for installed in self._filters.values():
            if installed.kind == "blocks":
                installed.events.append(block_hash)
            elif installed.kind == "logs" and installed.matching is not None:
                if installed.from_latest:
                    installed.events.clear()
                    installed.answered = 0
                if installed.from_latest or installed.to_latest:
                    installed.events.extend(installed.matching(block))

    def on_pending(self, tx_hashes: Sequence[str]) -> None:
        """Tell the filters transactions became pending."""
        self._cleanup()
        for installed in self._filters.values():
            if installed.kind == "pending":
                installed.events.extend(tx_hashes)

    def _new(self, kind: str) -> Filter:
        """Return a filter of a kind, used now."""
        return Filter(kind=kind, accessed=self._clock())

    def _register(self, installed: Filter) -> str:
        """Keep a filter under a new id, as rskj makes them: the hex of a random UUID's text."""
        self._cleanup()
        filter_id = "0x" + str(uuid.uuid4()).encode().hex()
        self._filters[filter_id] = installed
        return filter_id

    def _get(self, filter_id: str) -> Filter:
        """Return an installed filter, marked as used now; -32000 for an unknown id."""
        self._cleanup()
        installed = self._filters.get(filter_id)
        if installed is None:
            raise RpcFailure(FILTER_NOT_FOUND, "filter not found")
        installed.accessed = self._clock()
        return installed

    def _cleanup(self) -> None:
        """Drop the filters unused for FILTER_TIMEOUT, at most once every CLEANUP_PERIOD."""
        now = self._clock()
        if now < self._last_cleanup + CLEANUP_PERIOD:
            return
        self._last_cleanup = now
        expired = [key for key, f in self._filters.items() if f.accessed + FILTER_TIMEOUT <= now]
        for key in expired:
            del self._filters[key]
