"""Composition root: QApplication, the one qasync loop, settings, sessions, the window."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

os.environ.setdefault("QT_API", "pyside6")

import qasync
from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QApplication

from explorer import __version__
from explorer import settings as keys
from explorer.devnet.process import DevnetProcess, DevnetStartError
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import BUILTIN, DEVNET, GET_A_KEY, Network
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.settings import Settings
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow


class Application:
    """Owns the window, the current session and the devnet child process."""

    def __init__(self, settings: Settings, use_devnet: bool) -> None:
        self.settings = settings
        self.shell = ShellViewModel()
        self.navigator = Navigator()
        self.search = SearchViewModel(settings.get_list(keys.RECENT_SEARCHES))
        self.window = MainWindow(self.shell, self.navigator, self.search)
        self.shell.session_changed.connect(self._bind_search)
        self.devnet: DevnetProcess | None = None
        self.use_devnet = use_devnet
        self._restore()

    def _restore(self) -> None:
        """Restore window geometry and open tabs."""
        geometry = self.settings.get(keys.WINDOW_GEOMETRY)
        if geometry:
            self.window.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        for text in self.settings.get_list(keys.OPEN_TABS)[:20]:
            try:
                self.navigator.go(Route.parse(text), new_tab=True)
            except ValueError:
                continue
        if self.navigator.count > 1:
            self.navigator.close_tab(0)

    def save(self) -> None:
        """Remember geometry, open tabs and recent searches."""
        geometry = bytes(self.window.saveGeometry().toBase64().data()).decode()
        self.settings.set(keys.WINDOW_GEOMETRY, geometry)
        self.settings.set_list(keys.OPEN_TABS, self.navigator.routes())
        self.settings.set_list(keys.RECENT_SEARCHES, self.search.recent_searches())

    def _bind_search(self) -> None:
        """Point the search at the current session."""
        self.search.session = self.shell.session

    def chosen_network(self) -> Network | None:
        """Return the stored network when it has what it needs, else None (devnet)."""
        wanted = self.settings.get(keys.NETWORK)
        for network in BUILTIN:
            usable = self.settings.api_key(network.id) or self.settings.get(keys.USE_PUBLIC_NODE)
            if network.id == wanted and network is not DEVNET and usable:
                return network
        return None

    async def start(self) -> None:
        """Connect to the chosen network, or start the local devnet."""
        network = None if self.use_devnet else self.chosen_network()
        if network is not None:
            key = self.settings.api_key(network.id) or None
            self.shell.set_session(Session(network, network.endpoint(key)))
            return
        await self.start_devnet(
            ""
            if self.use_devnet
            else "No API key is configured, so this is the Local devnet. " + GET_A_KEY
        )

    async def start_devnet(self, info: str) -> None:
        """Start the devnet child process, showing progress, then open a session on it."""
        self.shell.on_network(DEVNET.name)
        self.shell.on_status("Starting the local devnet…")
        self.devnet = DevnetProcess(on_progress=self._on_devnet_progress)
        try:
            await self.devnet.start()
        except (DevnetStartError, TimeoutError, OSError) as error:
            self.shell.set_banner(f"The local devnet did not start: {error}")
            self.shell.on_status("Devnet failed")
            return
        endpoint = Endpoint.parse(self.devnet.url("testnet"))
        self.shell.set_session(Session(DEVNET, endpoint), info)

    def _on_devnet_progress(self, network: str, stage: str, fraction: float) -> None:
        """Show devnet start-up progress in the status bar."""
        self.shell.on_status(f"Starting the local devnet ({network}): {stage} {fraction:.0%}")

    async def aclose(self) -> None:
        """Close the session and stop the devnet."""
        self.save()
        session = self.shell.session
        if session is not None:
            await session.aclose()
        if self.devnet is not None:
            await self.devnet.stop()


def run(options: argparse.Namespace) -> int:
    """Open the main window and run the event loop until it closes."""
    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("explorer")
    qt_app.setOrganizationName("explorer")
    qt_app.setApplicationVersion(__version__)
    if options.smoke_test:
        window = MainWindow(ShellViewModel())
        window.show()
        qt_app.processEvents()
        print(f"explorer {__version__}: window {window.windowTitle()!r} opened")
        window.close()
        return 0
    loop = qasync.QEventLoop(qt_app)
    asyncio.set_event_loop(loop)
    app = Application(Settings(), use_devnet=options.devnet)
    app.window.show()
    closed = asyncio.Event()
    qt_app.lastWindowClosed.connect(closed.set)

    async def main() -> None:
        starting = asyncio.ensure_future(app.start())
        await closed.wait()
        starting.cancel()
        await app.aclose()

    with loop:
        loop.run_until_complete(main())
    return 0
