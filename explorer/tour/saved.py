"""Screenshots of saved data and the request budget: offline, the quota warning, Requests."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from explorer.services.routes import tx_route
from explorer.services.session import Session
from explorer.tour.passes import Helpers, Settle
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.requests import RequestsViewModel
from explorer.viewmodels.saved_data import MemoryChoices, SavedDataViewModel
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow
from explorer.views.requests_view import RequestsView
from explorer.views.saved_data_dialog import SavedDataDialog


class Relay:
    """A local TCP relay to a node: pages are read through it, then it closes (the node is gone)."""

    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []

    async def start(self) -> int:
        """Listen on a free local port and return it."""
        self._server = await asyncio.start_server(self._pipe, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy one connection's bytes both ways until either side closes."""
        node_reader, node_writer = await asyncio.open_connection(*self._target)
        self._writers += [writer, node_writer]

        async def copy(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError):
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            sink.close()

        await asyncio.gather(copy(reader, node_writer), copy(node_reader, writer))

    async def close(self) -> None:
        """Stop listening and drop every connection."""
        if self._server is not None:
            self._server.close()
        for writer in self._writers:
            writer.close()
        if self._server is not None:
            await self._server.wait_closed()


async def shoot_offline(
    window: MainWindow, tx_hash: str, path: Path, helpers: Helpers
) -> Path | None:
    """Shoot a window whose node went away after a page was read: the bar over a saved page.

    Saved data is kept per endpoint: the page is read through a relay (an endpoint of its own)
    first, then the relay closes and a new session on the same endpoint finds the node gone.
    """
    shoot, _settle, wait_for = helpers
    session = window.shell.session
    cache = session.cache if session is not None else None
    if session is None or cache is None or cache.store is None:
        return None
    node = urlsplit(session.endpoint.base_url)
    relay = Relay(node.hostname or "127.0.0.1", node.port or 80)
    through = replace(session.endpoint, base_url=f"http://127.0.0.1:{await relay.start()}")
    shell = ShellViewModel()
    other = MainWindow(shell, Navigator(), SearchViewModel())
    other.resize(window.size())
    attached = getattr(window, "attached", None)
    if attached is not None:  # the network menu and Settings, as the user's window has them
        other.attach_networks(*attached)
    online = Session(session.network, through, saved=cache.directory)
    shell.set_session(online)
    other.show()
    await wait_for(lambda: online.readable, timeout=30)
    await shoot(other, tx_route(tx_hash), path)  # read (and saved), then shot again offline
    if online.cache is not None and online.cache.store is not None:
        await online.cache.store.flush()
    await relay.close()
    await online.aclose()
    offline = Session(session.network, through, saved=cache.directory)
    shell.set_session(offline)
    await wait_for(lambda: offline.offline, timeout=30)
    await shoot(other, tx_route(tx_hash), path)
    other.close()
    await offline.aclose()
    return path


async def shoot_quota_warning(
    window: MainWindow, tx_hash: str, path: Path, helpers: Helpers
) -> Path | None:
    """Shoot the status bar past 80 % of a quota (set for the picture, then put back)."""
    shoot, _settle, _wait = helpers
    session = window.shell.session
    if session is None:
        return None
    quota, spent = session.daily_quota, session.requests_today
    session.daily_quota = max(int(spent / 0.86), 1)
    window.shell.refresh_status()
    await shoot(window, tx_route(tx_hash), path)
    session.daily_quota = quota
    window.shell.refresh_status()
    return path


async def shoot_requests(window: MainWindow, path: Path, settle: Settle) -> Path:
    """Shoot the Requests window after the pages so far, filtered to transaction reads."""
    view = RequestsView(RequestsViewModel(window.shell), window)
    view.show()
    view.filter.setText("eth_getTransaction")
    await settle(view)
    view.grab().save(str(path))
    view.close()
    return path


async def shoot_saved_data_settings(window: MainWindow, path: Path, settle: Settle) -> Path | None:
    """Shoot Settings › Saved data and requests for the window's network."""
    session = window.shell.session
    cache = session.cache if session is not None else None
    if session is None or cache is None:
        return None

    endpoint = session.endpoint
    model = SavedDataViewModel(
        [session.network], MemoryChoices(), cache.directory, lambda _network: endpoint
    )
    dialog = SavedDataDialog(model, window)
    dialog.show()
    for _ in range(50):
        if model.saved_bytes is not None:
            break
        await asyncio.sleep(0.05)
    await settle(dialog)
    dialog.grab().save(str(path))
    dialog.close()
    return path


async def take_saved_data_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    mode: str,
    helpers: Helpers,
) -> list[Path]:
    """Render the offline bar, the quota warning, Requests and the saved-data settings."""
    tx_hash = str(manifest.get("token_transfer", ""))
    if not tx_hash:
        return []
    settle = helpers.settle
    shots = [
        await shoot_quota_warning(
            window, tx_hash, directory / f"quota-warning-{mode}.png", helpers
        ),
        await shoot_requests(window, directory / f"requests-{mode}.png", settle),
        await shoot_saved_data_settings(window, directory / f"saved-data-{mode}.png", settle),
        await shoot_offline(window, tx_hash, directory / f"offline-{mode}.png", helpers),
    ]
    return [shot for shot in shots if shot is not None]
