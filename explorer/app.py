"""Composition root: QApplication, the one qasync loop, settings, sessions, the window."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_API", "pyside6")

import qasync
from PySide6.QtCore import QByteArray, QTimer
from PySide6.QtWidgets import QApplication

from explorer import __version__
from explorer import settings as keys
from explorer.devnet.process import (
    DevnetOptions,
    DevnetProcess,
    DevnetStartError,
    devnet_command,
)
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.transport import make_http_client
from explorer.services.networks import DEVNET, Network
from explorer.services.nodeinfo import default_daily_quota
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.settings import Settings
from explorer.viewmodels.document import Tone
from explorer.viewmodels.labels import LabelsViewModel
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.bookmarks_view import install_labels
from explorer.views.collector import MainThreadCollector
from explorer.views.icons import app_icon
from explorer.views.main_window import MainWindow
from explorer.views.settings_dialog import SettingsDialog

#: The app's own devnet lives: a block every few seconds, with a few transactions in each.
APP_DEVNET = DevnetOptions(block_time=5.0, traffic=True)


class Application:
    """Owns the window, the current session and the devnet child process."""

    def __init__(self, settings: Settings, use_devnet: bool) -> None:
        self.settings = settings
        self.http = make_http_client()
        self.networks = NetworksViewModel(settings)
        self.shell = ShellViewModel()
        self.shell.pages.token_store = settings
        self.shell.pages.quota_store = settings
        self.navigator = Navigator()
        self.search = SearchViewModel(settings.get_list(keys.RECENT_SEARCHES))
        self.window = MainWindow(self.shell, self.navigator, self.search)
        self.window.attach_networks(self.networks, self._settings_dialog)
        self.labels = LabelsViewModel()
        self.bookmarks_dock = install_labels(self.window, self.labels)
        self.networks.current_changed.connect(self._on_network_choice)
        self.networks.networks_changed.connect(self._on_network_choice)
        self.shell.session_changed.connect(self._bind_search)
        self.devnet: DevnetProcess | None = None
        self.use_devnet = use_devnet
        self.manifest_file = Path(tempfile.mkdtemp(prefix="explorer-")) / "devnet-manifest.json"
        self._starting: asyncio.Future[None] | None = None
        self._restore()

    def _settings_dialog(self) -> SettingsDialog:
        """Return a new Settings dialog over the networks model."""
        model = NetworkSettingsViewModel(self.networks, safe=self.settings)
        return SettingsDialog(model, self.window)

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

    async def start(self) -> None:
        """Connect to the chosen network, or start the local devnet (no key, or --devnet)."""
        network, info = (DEVNET, "") if self.use_devnet else self.networks.startup()
        if network is DEVNET:
            await self.start_devnet(info)
            return
        self._connect(network, info)

    def _connect(self, network: Network, info: str = "") -> None:
        """Open a session on a network whose endpoint is usable; otherwise say why."""
        endpoint = self.networks.endpoint_for(network)
        if endpoint is None:
            reason = self.networks.unavailable_reason(network)
            self.shell.show_notice(f"{network.name} cannot be used: {reason}", Tone.BAD)
            return
        current = self.shell.session
        if current is not None and current.endpoint == endpoint and current.network == network:
            return
        self._open(Session(network, endpoint, self.http), info)

    def _open(self, session: Session, info: str = "") -> None:
        """Show a new session, counting its key's requests across sessions and restarts."""
        self._count_usage()
        session.earlier_today = self.settings.requests_today(session.usage_id)
        default = default_daily_quota(session.network, session.endpoint)
        session.daily_quota = self.settings.daily_quota(session.network.id, default)
        self.shell.set_session(session, info)

    def _count_usage(self) -> None:
        """Store the current session's requests of today with its key's earlier ones."""
        session = self.shell.session
        if session is not None:
            self.settings.add_requests(session.usage_id, session.client.stats.today)
            session.earlier_today += session.client.stats.today
            session.client.stats.by_day.clear()

    def _on_network_choice(self, *_: object) -> None:
        """Follow the network the user picked (toolbar or Settings)."""
        network = self.networks.current
        if network is DEVNET and self.devnet is None:
            self._starting = asyncio.ensure_future(self.start_devnet(""))
            return
        self._connect(network)

    async def start_devnet(self, info: str) -> None:
        """Start the devnet child process, showing progress, then open a session on it."""
        self.shell.show_network(DEVNET.name)
        self.shell.show_progress("Starting the local devnet…")
        command = [*devnet_command(), "--manifest-file", str(self.manifest_file)]
        self.devnet = DevnetProcess(
            APP_DEVNET, on_progress=self._on_devnet_progress, command=command
        )
        try:
            await self.devnet.start()
        except (DevnetStartError, TimeoutError, OSError) as error:
            self.shell.show_notice(f"The local devnet did not start: {error}", Tone.BAD)
            self.shell.show_progress("Devnet failed")
            return
        endpoint = Endpoint.parse(self.devnet.url("testnet"))
        self.networks.set_devnet_endpoint(endpoint)
        self._open(self._devnet_session(endpoint), info)

    def _devnet_session(self, endpoint: Endpoint) -> Session:
        """Return a session on the devnet that knows its seeded tokens and Multicall3."""
        session = Session(DEVNET, endpoint, self.http)
        manifest = self.devnet_manifest()
        tokens = (manifest.get("token"), manifest.get("collectible"))
        session.extra_tokens = tuple(str(token) for token in tokens if token)
        session.multicall = str(manifest.get("multicall") or session.multicall)
        return session

    def devnet_manifest(self) -> dict[str, Any]:
        """Return the devnet test network's seed manifest ({} when unknown)."""
        try:
            manifests = json.loads(self.manifest_file.read_text())
        except (OSError, ValueError):
            return {}
        testnet = manifests.get("testnet") if isinstance(manifests, dict) else None
        return testnet if isinstance(testnet, dict) else {}

    def _on_devnet_progress(self, network: str, stage: str, fraction: float) -> None:
        """Show devnet start-up progress in the status bar."""
        self.shell.show_progress(f"Starting the local devnet ({network}): {stage} {fraction:.0%}")

    async def screenshots(self, directory: Path) -> None:
        """Wait for the devnet session and its head, then render every screen to PNG."""
        from explorer.screenshots import take_screenshots, wait_for

        ready = await wait_for(lambda: self.shell.head is not None, timeout=600)
        manifest = self.devnet_manifest()
        if not ready or not manifest:
            print("screenshots: the devnet did not become ready", file=sys.stderr)
            self.window.close()
            return
        written = await take_screenshots(
            self.window, manifest, directory, settings_dialog=self._settings_dialog
        )
        print(f"screenshots: {len(written)} PNG files in {directory}")

    async def aclose(self) -> None:
        """Close the session and stop the devnet."""
        self.save()
        self._count_usage()
        await self.labels.aclose()
        session = self.shell.session
        if session is not None:
            await session.aclose()
        if self.devnet is not None:
            await self.devnet.stop()
        await self.http.aclose()


def run(options: argparse.Namespace) -> int:
    """Open the main window and run the event loop until it closes."""
    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("explorer")
    qt_app.setOrganizationName("explorer")
    qt_app.setApplicationVersion(__version__)
    qt_app.setDesktopFileName("explorer")  # packaging/explorer.desktop: Wayland takes its Icon=
    qt_app.setWindowIcon(app_icon())
    if options.smoke_test:
        window = MainWindow(ShellViewModel())
        window.show()
        qt_app.processEvents()
        sizes = ", ".join(str(size.width()) for size in window.windowIcon().availableSizes())
        print(f"explorer {__version__}: window {window.windowTitle()!r} opened, icon {sizes} px")
        window.close()
        return 0
    loop = qasync.QEventLoop(qt_app)
    asyncio.set_event_loop(loop)
    collector = MainThreadCollector(qt_app)
    settings, notices = Settings.for_app()  # private (0600), a damaged file moved aside
    app = Application(settings, use_devnet=options.devnet)
    app.shell.show_startup_notices(notices)
    app.window.show()
    QTimer.singleShot(0, collector.freeze_survivors)  # after the first frame: it takes ~50 ms
    closed = asyncio.Event()
    qt_app.setQuitOnLastWindowClosed(False)  # the loop must outlive the window to shut down
    qt_app.lastWindowClosed.connect(closed.set)

    async def main() -> None:
        starting = asyncio.ensure_future(app.start())
        if options.screenshot is not None:
            await app.screenshots(options.screenshot)
        await closed.wait()
        starting.cancel()
        await app.aclose()

    with loop:
        loop.run_until_complete(main())
    collector.stop()
    return 0
