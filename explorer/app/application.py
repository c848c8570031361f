"""Composition root: QApplication, the one qasync loop, settings, sessions, the window."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_API", "pyside6")

from PySide6.QtCore import QByteArray
from PySide6.QtWidgets import QApplication, QWidget

from explorer.app.contracts import keep_signature_list
from explorer.app.early_devnet import app_devnet, chain_arguments
from explorer.app.saved_data import SavedData, install_saved_data_views
from explorer.app.watching import install_watchlist
from explorer.devnet.process import DevnetProcess, DevnetStartError, default_cache_dir
from explorer.diagnostics.log import SECRETS, Diagnostics, versions
from explorer.presentation.document import Tone
from explorer.presentation.missing import TxSupport
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.transport import make_http_client
from explorer.saved.seen import SeenStore
from explorer.services.elsewhere import OtherNetworks
from explorer.services.genesis import GenesisBook
from explorer.services.networks import DEVNET, Network
from explorer.services.routes import Route
from explorer.services.session import Session
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.viewmodels.bitcoin_links import BitcoinLinksViewModel
from explorer.viewmodels.devnet_start import DevnetStartViewModel
from explorer.viewmodels.labels import LabelsViewModel
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.viewmodels.wait_option import CallTimeoutOption
from explorer.views.about_dialog import AboutDialog, licence_texts
from explorer.views.bookmarks_view import install_labels
from explorer.views.devnet_progress import DevnetProgressView
from explorer.views.help_dialog import GuideDialog
from explorer.views.icons import app_icon
from explorer.views.main_window import MainWindow
from explorer.views.settings_dialog import SettingsDialog
from explorer.views.theme import apply_theme
from explorer.views.widgets.bitcoin import set_bitcoin_links


class Application:
    """Owns the window, the current session and the devnet child process."""

    def __init__(self, settings: Settings, use_devnet: bool) -> None:
        self.settings = settings
        self.genesis = GenesisBook(settings)  # which block 0 each network's node must have
        self.http = make_http_client()
        self.networks = NetworksViewModel(settings)
        self.shell = ShellViewModel()
        self.shell.pages.token_store = settings
        self.saved = SavedData(settings)
        self.saved.directory.notice_listeners.append(lambda text: self.shell.show_notice(text))
        elsewhere = OtherNetworks(self.networks.reachable, self.http, self.saved.count_closed)
        self.shell.pages.support = TxSupport(SeenStore(), elsewhere, self.networks.set_current)
        self.shell.pages.quota_store = self.saved
        self.navigator = Navigator()
        self.search = SearchViewModel(list(settings.get(keys.RECENT_SEARCHES)))
        self.search.known_keys = self.stored_keys
        wire_view_models(self.shell, self.navigator, self.search)
        self.window = MainWindow(self.shell, self.navigator, self.search)
        self.window.attach_networks(self.networks, self._settings_dialog)
        self.labels = LabelsViewModel()
        self.bookmarks_dock = install_labels(self.window, self.labels)
        self._saved_data_button = install_saved_data_views(self.window, self.saved, self.networks)
        self.networks.current_changed.connect(self._on_network_choice)
        self.networks.networks_changed.connect(self._on_network_choice)
        self.devnet: DevnetProcess | None = None
        self.use_devnet = use_devnet
        self.devnet_arguments = chain_arguments(reset=False)
        self.early_devnet: DevnetProcess | None = None  # started before the window's imports
        self._starting: asyncio.Future[None] | None = None
        self._standing_in = False  # the devnet is made current at start, in place of another
        self.devnet_networks = "test"
        self.devnet_start = DevnetStartViewModel(str(default_cache_dir()))
        self.devnet_progress = DevnetProgressView(self.devnet_start, self.window.centralWidget())
        self.watchlist, self.tray = install_watchlist(self.window, self.shell, settings)
        self.system_palette = QApplication.palette()  # View > Theme > System
        self.window.theme_chosen.connect(self.set_theme)
        set_bitcoin_links(BitcoinLinksViewModel(self.settings, keys.BTC_EXPLORERS).url)
        keep_signature_list(settings)
        self.diagnostics: Diagnostics | None = None  # set by run(): the log and crash reports
        self._restore()

    def _settings_dialog(self) -> SettingsDialog:
        """Return a new Settings dialog over the networks model."""
        model = NetworkSettingsViewModel(self.networks, safe=self.settings)
        bitcoin = BitcoinLinksViewModel(self.settings, keys.BTC_EXPLORERS)
        call_timeout = CallTimeoutOption(self.settings)
        call_timeout.applied.connect(self._apply_call_timeout)
        dialog = SettingsDialog(model, self.window, bitcoin=bitcoin, call_timeout=call_timeout)
        self._saved_data_button(dialog)
        return dialog

    def _apply_call_timeout(self, seconds: int) -> None:
        """Give the open session the call timeout just chosen in Settings."""
        if self.shell.session is not None:
            self.shell.session.set_call_timeout(seconds)

    def _restore(self) -> None:
        """Restore window geometry and open tabs."""
        geometry = self.settings.get(keys.WINDOW_GEOMETRY)
        if geometry:
            self.window.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        for text in self.settings.get(keys.OPEN_TABS)[:20]:
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
        self.settings.set(keys.OPEN_TABS, tuple(self.navigator.routes()))
        self.settings.set(keys.RECENT_SEARCHES, tuple(self.search.recent_searches()))

    async def start(self) -> None:
        """Connect to the chosen network, or start the local devnet (no key, or --devnet)."""
        await self._read_keyring()
        self.networks.book.move_keys_out_of_entries()  # keys read: this reads no keyring
        self._know_keys()
        network, info = (DEVNET, "") if self.use_devnet else self.networks.startup()
        if self.settings.keyring_error:
            info = f"The system keyring gave no API key ({self.settings.keyring_error}). {info}"
        if network is DEVNET:
            if not self.use_devnet and self.networks.current is not DEVNET:
                self._standing_in = True  # the devnet stands in: the selector and what is saved
                self.networks.set_current(DEVNET.id)  # say so (it starts here, not there)
                self._standing_in = False
            await self.start_devnet(info)
            return
        if self.early_devnet is not None:  # started for nothing: this start opens another network
            await self.early_devnet.stop()
            self.early_devnet = None
        self._connect(network, info)

    async def _read_keyring(self) -> None:
        """Read the keys kept in the system keyring in a worker (it may block, or prompt)."""
        unread = self.settings.unread_keyring_keys()
        if unread:
            self.shell.show_progress("Reading the API keys from the system keyring…")
            await asyncio.to_thread(self.settings.read_keyring_keys, unread)

    def _know_keys(self) -> None:
        """Scrub every stored key, by value, from the log and reports (not only the one used)."""
        for network in self.networks.networks:
            SECRETS.add(self.settings.api_key(network.id))

    def stored_keys(self) -> list[str]:
        """Return every stored API key (the search never takes one for a query, nor shows it)."""
        return [self.settings.api_key(network.id) for network in self.networks.networks]

    def _connect(self, network: Network, info: str = "") -> None:
        """Open a session on a network whose endpoint is usable; otherwise say why."""
        endpoint = self.networks.endpoint_for(network)
        if endpoint is None:  # the old session ends: nothing of it is shown as this network
            if self.shell.session is not None:
                self.saved.count_closed(self.shell.session)
            self.shell.set_no_session(network.name, self.networks.unavailable_reason(network))
            return
        current = self.shell.session
        if current is not None and current.endpoint == endpoint and current.network == network:
            return
        self._open(self.saved.session(network, endpoint, self.http, self.genesis), info)

    def _open(self, session: Session, info: str = "") -> None:
        """Show a new session, counting its key's requests across sessions and restarts."""
        SECRETS.add(session.endpoint.api_key or "")  # never in the log file or a report
        if self.shell.session is not None:
            self.saved.count_closed(self.shell.session)
        self.saved.bind(session, self.shell.refresh_status)
        session.set_call_timeout(self.settings.call_timeout())
        self.shell.set_session(session, info)

    def _on_network_choice(self, *_: object) -> None:
        """Follow the network the user picked (toolbar or Settings)."""
        self._know_keys()  # a key saved in Settings is scrubbed from then on
        if self._standing_in:
            return
        network = self.networks.current
        if network is DEVNET and self.devnet is None:
            self._starting = asyncio.ensure_future(self.start_devnet(""))
            return
        self._connect(network)

    async def start_devnet(self, info: str) -> None:
        """Start the devnet child process, showing progress, then open a session on it."""
        self.shell.show_network(DEVNET.name)
        self.shell.show_progress("Starting the local devnet…")
        self.devnet_start.start()
        early, self.early_devnet = self.early_devnet, None
        self.devnet = early or app_devnet(self.devnet_arguments, self.devnet_networks)
        self.devnet.on_progress = self._on_devnet_progress
        SECRETS.add(self.devnet.key)
        try:
            if early is None:
                await self.devnet.spawn()
            await self.devnet.ready(timeout=DEVNET_START_TIMEOUT)
        except (DevnetStartError, TimeoutError, OSError) as error:
            self.shell.show_notice(f"The local devnet did not start: {error}", Tone.BAD)
            self.shell.show_progress("Devnet failed")
            self.devnet_start.fail(f"The local devnet did not start: {error}")
            return
        self.devnet_start.finish()
        endpoint = Endpoint.parse(self.devnet.url("testnet"))
        self.networks.set_devnet_endpoint(endpoint)
        self._open(self._devnet_session(endpoint), info)

    def _devnet_session(self, endpoint: Endpoint) -> Session:
        """Return a session on the devnet that knows its seeded tokens and Multicall3."""
        session = self.saved.session(DEVNET, endpoint, self.http, self.genesis)
        manifest = self.devnet_manifest()
        tokens = (manifest.get("token"), manifest.get("collectible"))
        session.extra_tokens = tuple(str(token) for token in tokens if token)
        session.multicall = str(manifest.get("multicall") or session.multicall)
        return session

    def devnet_manifest(self, network: str = "testnet") -> dict[str, Any]:
        """Return a devnet network's seed manifest ({} when unknown)."""
        found = self.devnet.manifests.get(network) if self.devnet is not None else None
        return found if isinstance(found, dict) else {}

    def _on_devnet_progress(self, network: str, stage: str, fraction: float) -> None:
        """Show the devnet's start (progress view, status bar), then its older history (banner)."""
        self.devnet_start.on_progress(network, stage, fraction)
        if self.devnet_start.notice is not None:
            self.shell.show_notice(self.devnet_start.notice, Tone.WAITING)
        else:
            self.shell.show_progress(self.devnet_start.status)

    async def screenshots(self, directory: Path) -> bool:
        """Wait for the devnet session and its head, render every screen to PNG; say if done."""
        from explorer.tour.screens import (
            sample_crash_dialog,
            sample_progress_view,
            take_screenshots,
            wait_for,
        )

        ready = await wait_for(lambda: self.shell.head is not None, timeout=600)
        manifest = self.devnet_manifest()
        if not ready or not manifest:
            print("screenshots: the devnet did not become ready", file=sys.stderr)
            self.window.close()
            return False
        dialogs: dict[str, Callable[[], QWidget]] = {
            "settings": self._settings_dialog,
            "about": self.about_dialog,
            "devnet-progress": sample_progress_view,
            "guide": lambda: GuideDialog(self.window),
            "shortcuts": self.window.show_shortcuts,
        }
        if self.diagnostics is not None:
            dialogs["crash-report"] = partial(sample_crash_dialog, self.diagnostics, self.window)
        main = None
        if self.devnet is not None and "mainnet" in self.devnet.base_urls:
            main = (Endpoint.parse(self.devnet.url("mainnet")), self.devnet_manifest("mainnet"))
        written = await take_screenshots(self.window, manifest, directory, dialogs, main)
        print(f"screenshots: {len(written)} PNG files in {directory}")
        return True

    async def aclose(self) -> None:
        """Close the session and stop the devnet."""
        self.save()
        await self.labels.aclose()
        await self.watchlist.aclose()
        await self.shell.pages.support.aclose()
        session = self.shell.session
        if session is not None:
            await session.aclose()
            self.saved.count_closed(session)
        await self.saved.aclose()
        if self.early_devnet is not None:  # closed before it was used
            await self.early_devnet.stop()
        if self.devnet is not None:
            await self.devnet.stop(grace=DEVNET_STOP_GRACE)  # it saves its chain as it stops
        await self.http.aclose()

    def set_theme(self, name: str) -> None:
        """Use a colour theme (system, light or dark) now and at the next start."""
        apply_theme(name, self.system_palette)
        self.window.show_theme(name)
        self.settings.set(keys.THEME, name)

    def about_dialog(self) -> AboutDialog:
        """Return the About dialog: versions, the licence and the third-party notices."""
        return AboutDialog(app_icon(), versions(), licence_texts(), self.window)

    def endpoint_text(self) -> str:
        """Return the current session's endpoint, redacted (for crash reports)."""
        session = self.shell.session
        return "none" if session is None else f"{session.network.name}: {session.endpoint.redacted}"

    def home_shows_blocks(self) -> bool:
        """Tell whether the current tab is the home page with its latest blocks listed."""
        home = self.window.tabs.currentWidget()
        model = getattr(home, "model", None)
        blocks = getattr(model, "blocks", None)
        return blocks is not None and blocks.rowCount() > 0


def wire_view_models(shell: ShellViewModel, navigator: Navigator, search: SearchViewModel) -> None:
    """Connect the window's view models to one another (the window binds each to widgets).

    A search opens its route in the navigator and runs on the shell's session; the search bar
    shows the query of the page in front, as a browser's address bar does.
    """
    search.navigation_requested.connect(lambda route, new_tab: navigator.go(route, new_tab=new_tab))
    navigator.location_changed.connect(search.show_route)
    shell.session_changed.connect(lambda: setattr(search, "session", shell.session))


# --- start-up: after the first frame (explorer/app/startup.py) -----------------------------------

DEVNET_START_TIMEOUT = 600.0  # a cold start builds the history (tens of seconds; slow machines)
DEVNET_STOP_GRACE = 30.0  # it saves its chain as it stops
