"""Screenshots of saved data and the request budget: offline, the quota warning, Requests."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

from explorer.rpc.endpoint import Endpoint
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


def closed_port() -> int:
    """Return a local port nothing listens on (a node that is gone)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def shoot_offline(
    window: MainWindow, tx_hash: str, path: Path, helpers: Helpers
) -> Path | None:
    """Shoot a second window on the chain whose node is gone: the bar over a saved page."""
    shoot, _settle, wait_for = helpers
    session = window.shell.session
    cache = session.cache if session is not None else None
    if session is None or cache is None or cache.store is None:
        return None
    await cache.store.flush()
    gone = Endpoint.parse(f"http://127.0.0.1:{closed_port()}")
    await cache.directory.remember(gone, cache.store.identity)
    offline = Session(session.network, gone, saved=cache.directory)
    shell = ShellViewModel()
    other = MainWindow(shell, Navigator(), SearchViewModel())
    other.resize(window.size())
    attached = getattr(window, "attached", None)
    if attached is not None:  # the network menu and Settings, as the user's window has them
        other.attach_networks(*attached)
    shell.set_session(offline)
    other.show()
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
