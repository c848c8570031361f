"""The watchlist: addresses followed while the app runs, each new head checked in one request.

One view model for the whole app (the star on address pages and the Watchlist screen share
it). Each new head: one batch for every watched address (services/watchlist.py); who moved is
told with the history search from the last block checked, marked unseen and announced
(`activity`, which the app shows as a desktop notification). After a restart the first head
catches up the same way. Checks pause while today's requests are at the daily quota.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Protocol

from PySide6.QtCore import QObject

from explorer.chain.checksum import to_checksum_address
from explorer.chain.history import HistoryEntry
from explorer.presentation.history_text import activity_text
from explorer.rpc.errors import RpcError
from explorer.services.address_history import AddressHistory
from explorer.services.history_plan import Scope
from explorer.services.probes import takes_batches
from explorer.services.session import Session
from explorer.services.watchlist import Watched, check_head, cost_per_block, with_activity
from explorer.viewmodels.observable import TypedSignal, qproperty
from explorer.viewmodels.watchlist_table import WatchlistTableModel

LIST_PREFIX = "watchlist/"


class ListStore(Protocol):
    """Where lists of strings are kept (explorer.settings.store.Settings fits)."""

    def get_list(self, name: str) -> list[str]:
        """Return a stored list."""
        ...

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list."""
        ...


class MemoryListStore:
    """Lists kept for the run (tests, screenshots)."""

    def __init__(self) -> None:
        self.lists: dict[str, list[str]] = {}

    def get_list(self, name: str) -> list[str]:
        """Return a stored list."""
        return list(self.lists.get(name, []))

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list."""
        self.lists[name] = list(values)


class WatchlistViewModel(QObject):
    """The watched addresses of the session's network, checked at every new head.

    Signals:
        changed(): the list or an entry changed.
        activity(str, str): new activity: a title and a sentence (for a notification).
        status_changed(str): what the watch does and costs per new block.
    """

    changed = TypedSignal[()]()
    activity = TypedSignal[str, str]()
    status_changed = TypedSignal[str]()

    def __init__(self, store: ListStore, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.session: Session | None = None
        self.table = WatchlistTableModel(self)
        self.checks = 0  # heads checked (tests, the benchmark)
        self._status = "No session yet."
        self._task: asyncio.Task[None] | None = None
        self._next_head: int | None = None
        self._caught_up = False
        self._keep_in_tray = False
        self.tray_choice: Callable[[], bool] = lambda: self._keep_in_tray
        self.set_tray_choice: Callable[[bool], None] = self._remember_tray_choice

    status = qproperty(lambda self: self._status, status_changed)

    def _remember_tray_choice(self, keep: bool) -> None:
        """Keep the tray choice for the run (the app keeps it in its settings instead)."""
        self._keep_in_tray = keep

    @property
    def entries(self) -> tuple[Watched, ...]:
        """Return the watched addresses."""
        return tuple(self.table.entries)

    def bind(self, session: Session | None) -> None:
        """Watch the addresses kept for the session's network."""
        self._cancel()
        self.session, self._caught_up = session, False
        loaded = []
        if session is not None:
            for text in self.store.get_list(self._key()):
                entry = Watched.from_json(text)
                if entry is not None:
                    loaded.append(entry)
            self.table.chain_id, self.table.currency = (
                session.network.chain_id,
                session.network.currency,
            )
        self.table.replace_all(loaded)
        self._publish_cost()
        self.changed.emit()

    def _key(self) -> str:
        """Return the settings key of the network's list."""
        return LIST_PREFIX + (self.session.network.id if self.session else "")

    def _save(self) -> None:
        """Keep the list."""
        if self.session is not None:
            self.store.set_list(self._key(), [entry.to_json() for entry in self.table.entries])
        self.changed.emit()

    # --- the list -----------------------------------------------------------------------------

    def is_watched(self, address: str) -> bool:
        """Tell whether an address is watched."""
        return any(entry.address == address for entry in self.table.entries)

    def add(self, address: str, name: str = "") -> None:
        """Watch an address (its state is read at the next head)."""
        if not self.is_watched(address):
            self.table.replace_all([*self.table.entries, Watched(address, name)])
            self._publish_cost()
            self._save()

    def remove(self, address: str) -> None:
        """Stop watching an address."""
        self.table.replace_all([e for e in self.table.entries if e.address != address])
        self._publish_cost()
        self._save()

    def toggle(self, address: str) -> None:
        """Watch an address, or stop watching it."""
        if self.is_watched(address):
            self.remove(address)
        else:
            self.add(address)

    def rename(self, address: str, name: str) -> None:
        """Name a watched address."""
        self._update([replace(e, name=name) if e.address == address else e for e in self.entries])

    def mark_seen(self) -> None:
        """Note that the user has looked at every entry's activity."""
        self._update([replace(e, unseen=False) for e in self.entries])

    def _update(self, entries: Sequence[Watched]) -> None:
        """Replace the entries and keep them."""
        self.table.replace_all(list(entries))
        self._save()

    # --- the heads ----------------------------------------------------------------------------

    def on_head(self, head: int) -> None:
        """Check every watched address at a new head (one at a time; the newest head wins)."""
        if self.session is None or not self.table.entries:
            return
        if self._task is not None and not self._task.done():
            self._next_head = head
            return
        if self._over_quota():
            self._set_status("Paused: today's requests have reached the daily quota.")
            return
        self._task = asyncio.ensure_future(self._check(self.session, head))

    def _over_quota(self) -> bool:
        """Tell whether one more check would pass the session's daily quota."""
        session = self.session
        if session is None or session.daily_quota <= 0:
            return False
        requests, _reads = self.cost()
        return session.requests_today + requests > session.daily_quota

    async def _check(self, session: Session, head: int) -> None:
        """Catch up after a restart (first head), then check the head; tell who moved."""
        try:
            if not self._caught_up:
                self._caught_up = True
                await self._catch_up(session, head)
            before = {entry.address: entry for entry in self.entries}
            result = await check_head(session.client, self.entries, head)
            self.checks += 1
            current = {entry.address: entry for entry in self.entries}  # edits meanwhile win
            merged = [checked if checked.address in current else None for checked in result.watched]
            self._update([e for e in merged if e is not None])
            for address in result.moved:
                since = before[address].checked
                await self._tell(session, address, (since or head - 1) + 1, head)
            self._publish_cost()
        except RpcError as error:
            self._set_status(f"The last check failed: {error.message}")
        finally:
            if self._next_head is not None and self._next_head > head:
                upcoming, self._next_head = self._next_head, None
                self._task = None
                self.on_head(upcoming)

    async def _catch_up(self, session: Session, head: int) -> None:
        """Tell what happened since each address's last check (the history search)."""
        for entry in self.entries:
            if entry.checked is not None and entry.checked < head - 1:
                await self._tell(session, entry.address, entry.checked + 1, head - 1)

    async def _tell(self, session: Session, address: str, first: int, last: int) -> None:
        """Search an address's blocks first..last; mark and announce what it finds."""
        history = AddressHistory(session.reader, address, chain=str(session.network.chain_id),
                                 scope=Scope.ALL)  # fmt: skip
        await history.prepare(first, last)
        news: list[HistoryEntry] = []
        units: dict[str, tuple[int, str]] = {}
        async for update in history.updates():
            news += [entry for entry in update.entries if not entry.provisional]
            units |= update.units
        if not news:
            return
        newest = max(news, key=lambda e: e.sort_key)
        currency = session.network.currency
        text = activity_text(newest, units, currency)
        more = f" (and {len(news) - 1} more)" if len(news) > 1 else ""
        entry = next(e for e in self.entries if e.address == address)
        self._update([with_activity(e, news, text + more) if e is entry else e
                      for e in self.entries])  # fmt: skip
        name = entry.name or to_checksum_address(address, session.network.chain_id)
        self.activity.emit(f"Watchlist: {name}", f"{text}{more} in block {newest.block:,}")

    def cost(self) -> tuple[int, int]:
        """Return (requests, reads) one new head costs."""
        client = self.session.client if self.session else None
        return cost_per_block(len(self.table.entries), takes_batches(client))

    def _publish_cost(self) -> None:
        """Say what a new block costs."""
        count = len(self.table.entries)
        if not count:
            self._set_status("Star an address on its page to watch it here.")
            return
        requests, reads = self.cost()
        session = self.session
        today = f" · {session.requests_today:,} requests today" if session else ""
        quota = f" of {session.daily_quota:,}" if session and session.daily_quota else ""
        self._set_status(
            f"Watching {count} address{'es' if count > 1 else ''}: each new block costs "
            f"{requests} request{'s' if requests > 1 else ''} ({reads} reads: balance and nonce "
            f"of each, one eth_getLogs){today}{quota}."
        )

    def _set_status(self, text: str) -> None:
        """Set the status line."""
        self._status = text
        self.status_changed.emit(text)

    def _cancel(self) -> None:
        """Stop a check in progress."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    async def aclose(self) -> None:
        """Stop checking."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class WatchlistPageViewModel(QObject):
    """The Watchlist screen's page: the app's watchlist in a tab (closing the tab stops nothing).

    `keep_in_tray` and `set_keep_in_tray` read and keep the tray choice (the app's settings).
    """

    def __init__(self, watchlist: WatchlistViewModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.watchlist = watchlist

    @property
    def keep_in_tray(self) -> bool:
        """Tell whether the app keeps watching from the tray when its window closes."""
        return self.watchlist.tray_choice()

    def set_keep_in_tray(self, keep: bool) -> None:
        """Keep watching from the tray when the window closes (or not)."""
        self.watchlist.set_tray_choice(keep)

    def dispose(self) -> None:
        """Leave the watchlist running: it belongs to the app."""
