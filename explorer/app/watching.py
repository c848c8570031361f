"""The app's watchlist wired: its lists in Settings, new heads, the tray, the window's close.

Composition only: the view model (viewmodels/watchlist.py) and the views (views/watchlist_view.py)
know nothing of the settings file.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSystemTrayIcon

from explorer.services.routes import WATCHLIST
from explorer.settings.store import KEEP_IN_TRAY, Settings
from explorer.settings.store import watchlist as watchlist_key
from explorer.viewmodels.shell import ShellViewModel
from explorer.viewmodels.watchlist import LIST_PREFIX, WatchlistViewModel
from explorer.views.icons import app_icon
from explorer.views.main_window import MainWindow
from explorer.views.watchlist_view import WatchTray


class SettingsLists:
    """The watchlist's lists kept in the app's settings, one declared key per network."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def get_list(self, name: str) -> list[str]:
        """Return a stored list (name is `watchlist/<network>`)."""
        return list(self.settings.get(watchlist_key(name.removeprefix(LIST_PREFIX))))

    def set_list(self, name: str, values: list[str]) -> None:
        """Store a list."""
        self.settings.set(watchlist_key(name.removeprefix(LIST_PREFIX)), tuple(values))


def install_watchlist(
    window: MainWindow, shell: ShellViewModel, settings: Settings
) -> tuple[WatchlistViewModel, WatchTray]:
    """Make the app's watchlist and wire it: pages and heads, the tray, the window's close.

    Its addresses are kept in settings; the window hides into the tray on closing while the
    KEEP_IN_TRAY setting says so and a tray exists; the tray's Quit closes it for good.
    """
    watchlist = WatchlistViewModel(SettingsLists(settings))
    watchlist.tray_choice = lambda: settings.get(KEEP_IN_TRAY)
    watchlist.set_tray_choice = lambda keep: settings.set(KEEP_IN_TRAY, keep)
    keep_in_tray = watchlist.tray_choice
    shell.pages.watchlist = watchlist
    shell.session_changed.connect(lambda: watchlist.bind(shell.session))
    shell.head_changed.connect(watchlist.on_head)
    quitting: list[bool] = []

    def show_window() -> None:
        window.show()
        window.raise_()
        window.activateWindow()

    def quit_app() -> None:
        quitting.append(True)
        tray.hide()
        window.close()

    def open_watchlist() -> None:
        show_window()
        window.navigator.open_tab(WATCHLIST)

    tray = WatchTray(app_icon(), watchlist, show_window, open_watchlist, quit_app)
    tray.setVisible(bool(watchlist.entries))
    window.close_to_tray = lambda: (
        keep_in_tray() and not quitting and QSystemTrayIcon.isSystemTrayAvailable()
    )
    return watchlist, tray
