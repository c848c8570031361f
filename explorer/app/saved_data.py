"""The window's saved data, request counts and request journal, shared by its sessions.

Composition only: the cache directory (size limit and confirmations from Settings), the
shared file of request counts (each session's requests added to its key's day, every 30 s
and when it ends), the network's quota mirrored there for the command line, and the journal
the Requests view lists.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import httpx
from PySide6.QtCore import QObject, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.journal import RequestJournal
from explorer.saved.directory import CacheDirectory
from explorer.saved.usage import UsageStore
from explorer.services.genesis import GenesisBook
from explorer.services.networks import Network
from explorer.services.nodeinfo import default_daily_quota
from explorer.services.session import Session
from explorer.services.usage import UsageTally
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.saved_data import SavedDataViewModel
from explorer.views.main_window import MainWindow
from explorer.views.requests_view import install_requests_view
from explorer.views.saved_data_dialog import SavedDataDialog

MB = 1024 * 1024
FLUSH_MS = 30_000  # the day's count is written this often (other processes see it)


class SavedData(QObject):
    """Makes the window's sessions and keeps their request counts."""

    def __init__(self, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.directory = CacheDirectory(
            size_limit=settings.get(keys.CACHE_SIZE_MB) * MB, confirmations=self.confirmations
        )
        self.usage = UsageStore()
        self.journal = RequestJournal()
        self._tallies: dict[int, UsageTally] = {}
        self._tasks: set[asyncio.Future[None]] = set()
        self._timer = QTimer(self)
        self._timer.setInterval(FLUSH_MS)
        self._timer.timeout.connect(lambda: self._start(self.flush()))
        self._timer.start()

    def session(
        self,
        network: Network,
        endpoint: Endpoint,
        http: httpx.AsyncClient,
        genesis: GenesisBook | None = None,
    ) -> Session:
        """Return a session that keeps and reads saved data and lists its requests."""
        return Session(
            network, endpoint, http, genesis=genesis, saved=self.directory, journal=self.journal
        )

    def bind(self, session: Session, on_counted: Callable[[], None]) -> None:
        """Count a session's requests against its key's day; set its quota from Settings."""
        network = session.network
        session.daily_quota = self.daily_quota(
            network.id, default_daily_quota(network, session.endpoint)
        )
        tally = self._tallies[id(session)] = UsageTally(self.usage, session)
        earlier = self.settings.take_legacy_requests(session.usage_id)

        async def first() -> None:
            with contextlib.suppress(OSError, sqlite3.Error):
                if earlier:
                    await self.usage.add(session.usage_id, earlier)
                await self.usage.set_quota(network.id, session.daily_quota)
                await tally.flush()
            on_counted()

        self._start(first())

    def count_closed(self, session: Session) -> None:
        """Add a finished session's last requests (the other networks' lookups too)."""
        tally = self._tallies.pop(id(session), None) or UsageTally(self.usage, session)
        self._start(_quietly(tally.flush()))

    def set_quota(self, network: str, quota: int) -> None:
        """Store a network's quota (Settings, and the shared file for the command line)."""
        key = keys.daily_quota(network, 0)
        self.settings.set(key, quota)
        self._start(_quietly(self.usage.set_quota(network, key.bounded(quota))))

    def daily_quota(self, network: str, default: int) -> int:
        """Return a network's quota from Settings."""
        return self.settings.get(keys.daily_quota(network, default))

    def cache_size_mb(self) -> int:
        """Return the size limit of saved data in MB (Settings)."""
        return self.settings.get(keys.CACHE_SIZE_MB)

    def set_cache_size_mb(self, megabytes: int) -> None:
        """Store the size limit of saved data in MB (Settings)."""
        self.settings.set(keys.CACHE_SIZE_MB, megabytes)

    def confirmations(self, network: str) -> int:
        """Return a network's confirmations before data is saved as settled (Settings)."""
        return self.settings.get(keys.confirmations(network))

    def set_confirmations(self, network: str, count: int) -> None:
        """Store a network's confirmations (Settings)."""
        self.settings.set(keys.confirmations(network), count)

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a network's quota (the node page's QuotaStore face)."""
        self.set_quota(network, quota)

    async def flush(self) -> None:
        """Add every live session's new requests to the shared counts."""
        for tally in list(self._tallies.values()):
            await _quietly(tally.flush())

    async def drain(self) -> None:
        """Wait until the counts being written are written."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def _start(self, work: Coroutine[Any, Any, None]) -> None:
        """Run a coroutine in a task kept until it ends."""
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def aclose(self) -> None:
        """Write the last counts and close the files."""
        self._timer.stop()
        await self.flush()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.directory.aclose()
        await self.usage.aclose()


async def _quietly(work: Awaitable[object]) -> None:
    """Await work; a count that cannot be written is left out (the pages stand without it)."""
    with contextlib.suppress(OSError, sqlite3.Error):
        await work


def install_saved_data_views(
    window: MainWindow, saved: SavedData, networks: NetworksViewModel
) -> Callable[[QDialog], None]:
    """Add Tools › Requests… and Tools › Saved data and requests… to the window.

    Return a function that gives a Settings dialog a button opening the latter.
    """
    install_requests_view(window)

    def open_saved_data() -> None:
        model = SavedDataViewModel(
            networks.networks, saved, saved.directory, networks.endpoint_for, networks.current
        )
        dialog = SavedDataDialog(model, window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()

    action = QAction("Saved data and requests…", window)
    action.triggered.connect(open_saved_data)
    window.tools_menu.addAction(action)

    def add_button(dialog: QDialog) -> None:
        buttons = getattr(dialog, "buttons", None)
        if isinstance(buttons, QDialogButtonBox):
            button = buttons.addButton(
                "Saved data and requests…", QDialogButtonBox.ButtonRole.ActionRole
            )
            button.clicked.connect(open_saved_data)

    return add_button
