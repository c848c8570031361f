"""Settings › Saved data and requests: the size limit; per network N, quota, size and Clear."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from PySide6.QtCore import QObject

from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.services.networks import Network
from explorer.services.nodeinfo import default_daily_quota
from explorer.viewmodels.observable import TypedSignal

MB = 1024 * 1024


class SavedDataSettings(Protocol):
    """Where the choices are kept (the app's Settings)."""

    def cache_size_mb(self) -> int:
        """Return the size limit in MB."""

    def set_cache_size_mb(self, megabytes: int) -> None:
        """Store the size limit in MB."""

    def confirmations(self, network: str) -> int:
        """Return a network's confirmations."""

    def set_confirmations(self, network: str, count: int) -> None:
        """Store a network's confirmations."""

    def daily_quota(self, network: str, default: int) -> int:
        """Return a network's daily quota (0: none)."""

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a network's daily quota (0: none)."""


class MemoryChoices:
    """SavedDataSettings that forget on exit: the defaults (screenshots, tests)."""

    def __init__(self) -> None:
        self.size_mb = 500
        self.counts: dict[str, int] = {}
        self.quotas: dict[str, int] = {}

    def cache_size_mb(self) -> int:
        """Return the size limit in MB."""
        return self.size_mb

    def set_cache_size_mb(self, megabytes: int) -> None:
        """Store the size limit in MB."""
        self.size_mb = megabytes

    def confirmations(self, network: str) -> int:
        """Return a network's confirmations."""
        return self.counts.get(network, 12)

    def set_confirmations(self, network: str, count: int) -> None:
        """Store a network's confirmations."""
        self.counts[network] = count

    def daily_quota(self, network: str, default: int) -> int:
        """Return a network's daily quota (0: none)."""
        return self.quotas.get(network, default)

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a network's daily quota (0: none)."""
        self.quotas[network] = quota


class SavedDataViewModel(QObject):
    """The saved data and request budget choices, applied as they are made.

    Signals:
        changed(): a value, the chosen network or the message changed.
    """

    changed = TypedSignal[()]()

    def __init__(
        self,
        networks: list[Network],
        settings: SavedDataSettings,
        directory: CacheDirectory,
        endpoint_for: Callable[[Network], Endpoint | None],
        current: Network | None = None,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.networks = networks
        self.settings = settings
        self.directory = directory
        self.endpoint_for = endpoint_for
        self.network = current if current in networks else networks[0]
        self.message = ""
        self.saved_bytes: int | None = None
        self._task: asyncio.Task[None] | None = None
        self._measure()

    @property
    def size_mb(self) -> int:
        """Return the size limit of all saved data, in MB."""
        return self.settings.cache_size_mb()

    @property
    def confirmations(self) -> int:
        """Return the chosen network's confirmations before data is saved as settled."""
        return self.settings.confirmations(self.network.id)

    @property
    def default_quota(self) -> int:
        """Return the chosen network's default quota: the hosted service's, else none."""
        endpoint = self.endpoint_for(self.network)
        return default_daily_quota(self.network, endpoint) if endpoint is not None else 0

    @property
    def quota(self) -> int:
        """Return the chosen network's daily quota per key (0: none)."""
        return self.settings.daily_quota(self.network.id, self.default_quota)

    @property
    def saved_text(self) -> str:
        """Return how much is saved for the chosen network."""
        if self.saved_bytes is None:
            return "Measuring…"
        if self.saved_bytes == 0:
            return "Nothing saved for this network yet."
        return f"{self.saved_bytes / MB:,.1f} MB saved for this network."

    def choose(self, network_id: str) -> None:
        """Show another network's choices."""
        chosen = next((n for n in self.networks if n.id == network_id), None)
        if chosen is not None and chosen != self.network:
            self.network, self.message = chosen, ""
            self._measure()
            self.changed.emit()

    def set_size_mb(self, megabytes: int) -> None:
        """Keep at most this much saved data (applies from the next write)."""
        self.settings.set_cache_size_mb(megabytes)
        self.directory.set_size_limit(self.size_mb * MB)
        self.changed.emit()

    def set_confirmations(self, count: int) -> None:
        """Store the chosen network's confirmations (applies from the next connection)."""
        self.settings.set_confirmations(self.network.id, count)
        self.changed.emit()

    def set_quota(self, quota: int) -> None:
        """Store the chosen network's daily quota (0: none)."""
        self.settings.set_daily_quota(self.network.id, quota)
        self.changed.emit()

    def clear(self) -> None:
        """Empty the chosen network's saved data."""
        self._start(self._clear(self.network))

    async def _clear(self, network: Network) -> None:
        """Clear, then say what was cleared."""
        endpoint = self.endpoint_for(network)
        cleared = await self.directory.clear_endpoint(endpoint) if endpoint is not None else None
        if cleared is None:
            self.message = f"Nothing is saved for {network.name}."
        else:
            self.message = (
                f"The saved data of {network.name} (chain {cleared.chain_id}) was cleared."
            )
        await self._size(network)

    def _measure(self) -> None:
        """Read how much is saved for the chosen network (off the GUI thread)."""
        self.saved_bytes = None
        self._start(self._size(self.network))

    async def _size(self, network: Network) -> None:
        """Measure the saved data of a network."""
        endpoint = self.endpoint_for(network)
        size = await self.directory.size_of(endpoint) if endpoint is not None else 0
        if network == self.network:
            self.saved_bytes = size
            self.changed.emit()

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        """Run one piece of work at a time (the newest wins)."""
        if self._task is not None:
            self._task.cancel()
        self._task = asyncio.ensure_future(work)

    def dispose(self) -> None:
        """Stop what runs."""
        if self._task is not None:
            self._task.cancel()
