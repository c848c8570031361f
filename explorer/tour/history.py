"""The address-history screens for `--screenshot`: the History tab, its chart, the watchlist.

The busy account's history (its cost asked for first, then searched), the contract-paid
account's (value moved by contract execution), the balance chart of an account with a hundred
changes,
and the Watchlist screen once the devnet's demo traffic has moved a watched address (its
notice shown; the desktop notification goes to the tray, which an offscreen run has not).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from explorer.services.history_store import MemoryHistoryStore
from explorer.services.routes import WATCHLIST, address_route
from explorer.tour.passes import Helpers
from explorer.viewmodels.watchlist import MemoryListStore
from explorer.views.address.page import AddressView
from explorer.views.main_window import MainWindow
from explorer.views.watchlist_view import WatchlistView

WATCHED = (("busy", "busy_account"), ("contract-paid", "contract_paid"))


async def shoot_history(window: MainWindow, address: str, path: Path, helpers: Helpers) -> Path:
    """Open an address, run its history to the end (giving the go), save the History tab."""
    shoot, settle, wait_for = helpers
    pages = window.shell.pages
    kept, pages.history_store = pages.history_store, MemoryHistoryStore()  # each pass cold:
    try:  # its estimate is asked every time, not only before the first pass
        await shoot(window, address_route(address), path)
    finally:
        pages.history_store = kept
    view = window.current_page()
    if isinstance(view, AddressView):
        history = view.address_model.history
        view.content.setCurrentWidget(view.history_tab)  # the search starts when it is chosen
        await wait_for(
            lambda: bool(history.estimate_text) or history.result.startswith("Complete"), 120
        )
        if history.estimate_text:
            await settle(window)
            window.grab().save(str(path.with_name(path.stem + "-estimate.png")))
        while history.estimate_text:  # the go, then on past each pause at a limit
            history.on_action()
            await wait_for(
                lambda: history.result.startswith("Complete") or bool(history.estimate_text), 300
            )
        await settle(window)
        window.grab().save(str(path))
    return path


async def shoot_chart(window: MainWindow, address: str, path: Path, helpers: Helpers) -> Path:
    """Shoot an address's History tab with the balance chart given most of the room."""
    await shoot_history(window, address, path, helpers)
    view = window.current_page()
    if isinstance(view, AddressView):
        splitter = view.history_tab.chart.parentWidget()
        sizes = getattr(splitter, "setSizes", None)
        if sizes is not None:
            sizes([520, 200])
        await helpers.settle(window)
        window.grab().save(str(path))
    return path


async def shoot_watchlist(
    window: MainWindow, manifest: dict[str, Any], path: Path, helpers: Helpers
) -> Path:
    """Watch the story accounts and three traffic users; shoot the screen once one moved."""
    _shoot, settle, wait_for = helpers
    watchlist = window.shell.pages.watchlist
    session = window.shell.session
    if watchlist is None or session is None:
        return path
    watchlist.store = MemoryListStore()  # the user's own settings stay untouched
    watchlist.bind(session)
    for name, key in WATCHED:
        if manifest.get(key):
            watchlist.add(str(manifest[key]), name)
    for index, address in enumerate(manifest.get("accounts", [])[1:4], start=1):
        watchlist.add(str(address), f"user {index}")
    window.navigator.go(WATCHLIST)
    await settle(window)
    await wait_for(lambda: any(entry.unseen for entry in watchlist.entries), 120)
    view = window.tabs.currentWidget()
    if isinstance(view, WatchlistView):
        await settle(window)
    window.grab().save(str(path))
    return path


async def take_history_screenshots(
    window: MainWindow,
    manifest: dict[str, Any],
    directory: Path,
    mode: str,
    helpers: Helpers,
) -> list[Path]:
    """Shoot the history screens of one palette."""
    written = []
    for stem, key in (("history-busy", "busy_account"), ("history-contract-paid", "contract_paid")):
        if manifest.get(key):
            path = directory / f"{stem}-{mode}.png"
            written.append(await shoot_history(window, str(manifest[key]), path, helpers))
    counted = dict(manifest.get("counted_accounts") or [])
    if counted.get(100):  # a hundred changes: a chart of steps worth looking at
        path = directory / f"history-chart-{mode}.png"
        written.append(await shoot_chart(window, str(counted[100]), path, helpers))
    path = directory / f"watchlist-{mode}.png"
    written.append(await shoot_watchlist(window, manifest, path, helpers))
    return written
