"""The Watchlist screen, the star on address pages, and the tray that announces activity."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QMenu,
    QSystemTrayIcon,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from explorer.presentation.document import Tone
from explorer.services.routes import Route
from explorer.viewmodels.observable import TypedSignal
from explorer.viewmodels.watchlist import WatchlistPageViewModel, WatchlistViewModel
from explorer.viewmodels.watchlist_table import WatchColumn
from explorer.views.address.controls import button
from explorer.views.theme import plain_label, tone_palette
from explorer.views.widgets.columns import ColumnFitter
from explorer.views.widgets.links import open_clicked_routes

if TYPE_CHECKING:
    pass

TRAY_TEXT = "Keep watching from the system tray when the window is closed"


class WatchlistView(QWidget):
    """Binds the Watchlist screen: cost per block, the newest notice, the table, the tray choice.

    Signals:
        link_activated(Route, bool): an address or block was clicked.
    """

    link_activated = TypedSignal[Route, bool]()

    def __init__(self, model: WatchlistPageViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = model
        watchlist = model.watchlist
        self.status = plain_label(watchlist.status, wrap=True)
        watchlist.status_changed.connect(self.status.setText)
        self.notice = plain_label("", wrap=True)
        tone_palette(self.notice, Tone.GOOD)
        self.notice.setVisible(False)
        watchlist.activity.connect(self.on_activity)
        self.table = QTableView()
        self.table.setModel(watchlist.table)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.columns = ColumnFitter(self.table, (WatchColumn.ADDRESS,))  # the rest read whole
        open_clicked_routes(self.table, self.link_activated.emit)
        self.keep_in_tray = QCheckBox(TRAY_TEXT)
        self.keep_in_tray.setChecked(model.keep_in_tray)
        self.keep_in_tray.toggled.connect(model.set_keep_in_tray)
        actions = QHBoxLayout()
        actions.addWidget(button("Mark all as seen", self.on_seen))
        actions.addWidget(button("Remove selected", self.on_remove))
        actions.addStretch(1)
        actions.addWidget(self.keep_in_tray)
        layout = QVBoxLayout(self)
        layout.addWidget(self.status)
        layout.addWidget(self.notice)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)

    def on_activity(self, title: str, text: str) -> None:
        """Show the newest activity above the table."""
        self.notice.setText(f"{title}: {text}")
        self.notice.setVisible(True)

    def on_seen(self) -> None:
        """Clear every entry's mark."""
        self.model.watchlist.mark_seen()
        self.notice.setVisible(False)

    def on_remove(self) -> None:
        """Stop watching the selected address."""
        row = self.table.currentIndex().row()
        entries = self.model.watchlist.entries
        if 0 <= row < len(entries):
            self.model.watchlist.remove(entries[row].address)


class WatchStar(QToolButton):
    """The star on an address page: watch the address, or stop watching it."""

    def __init__(self, watchlist: WatchlistViewModel, address: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.watchlist = watchlist
        self.address = address
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        self.clicked.connect(lambda: watchlist.toggle(address))
        watchlist.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Show whether the address is watched."""
        watched = self.watchlist.is_watched(self.address)
        self.setText("★ Watching" if watched else "☆ Watch")
        self.setToolTip(
            "Stop watching this address" if watched else "Watch this address (Watchlist screen)"
        )


class WatchTray(QSystemTrayIcon):
    """The tray icon: announces activity; opens the window or the watchlist; quits."""

    def __init__(
        self,
        icon: QIcon,
        watchlist: WatchlistViewModel,
        open_window: Callable[[], None],
        open_watchlist: Callable[[], None],
        quit_app: Callable[[], None],
    ) -> None:
        super().__init__(icon)
        self.setToolTip("Rootstock Explorer — watchlist")
        self.menu = QMenu()
        self.menu.addAction("Open the window", open_window)
        self.menu.addAction("Watchlist", open_watchlist)
        self.keep = QAction(TRAY_TEXT, self.menu)
        self.keep.setCheckable(True)
        self.keep.setChecked(watchlist.tray_choice())
        self.keep.toggled.connect(watchlist.set_tray_choice)
        self.menu.addAction(self.keep)
        self.menu.addSeparator()
        self.menu.addAction("Quit", quit_app)
        self.setContextMenu(self.menu)
        self.messageClicked.connect(open_watchlist)
        self.activated.connect(lambda _reason: open_window())
        watchlist.activity.connect(self.announce)
        watchlist.changed.connect(lambda: self.setVisible(bool(watchlist.entries)))

    def announce(self, title: str, text: str) -> None:
        """Raise a desktop notification (where the desktop has a tray)."""
        if QSystemTrayIcon.isSystemTrayAvailable():
            self.showMessage(title, text, QSystemTrayIcon.MessageIcon.Information, 10_000)
