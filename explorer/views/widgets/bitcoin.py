"""BitcoinValue: a Bitcoin txid, address or block hash: copy it, open it in a Bitcoin explorer."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from explorer.services.routes import Route
from explorer.views.theme import plain_tooltip
from explorer.views.widgets.links import ElidedLinkLabel
from explorer.views.widgets.value import LinkedValue

OPEN_BITCOIN = "Open in a Bitcoin explorer"
UrlFor = Callable[[str, str, str], str]  # (Bitcoin network "main"/"test", kind, value) -> URL
_NAMES = {"tx": "Bitcoin transaction", "address": "Bitcoin address", "block": "Bitcoin block"}


class _Links:
    """Holds where Bitcoin values open (the app installs the Settings' templates)."""

    url_for: UrlFor | None = None


def set_bitcoin_links(url_for: UrlFor | None) -> None:
    """Install how a Bitcoin value's explorer URL is made (None: no explorer links)."""
    _Links.url_for = url_for


class BitcoinValue(LinkedValue):
    """A Bitcoin value with copy and "open in a Bitcoin explorer" (the desktop's browser).

    Signals:
        link_activated(route, new_tab): a peg-in's txid links to its status page.
    """

    def __init__(
        self,
        value: str,
        kind: str,
        network: str,
        route: Route | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """Show value (kind tx, address or block) of a Bitcoin network ("main" or "test")."""
        super().__init__(ElidedLinkLabel(), "value", parent)
        self.value, self.kind, self.network = value, kind, network
        label = self.link
        assert isinstance(label, ElidedLinkLabel)
        label.set_full_text(value)
        label.set_route(route)
        label.setToolTip(plain_tooltip(f"{_NAMES[kind]} {value}"))
        label.setAccessibleName(f"{_NAMES[kind]} {value}")
        self.open_button = QToolButton(self)
        self.open_button.setText("↗")
        self.open_button.setAutoRaise(True)
        self.open_button.setToolTip(OPEN_BITCOIN)
        self.open_button.setAccessibleName(OPEN_BITCOIN)
        self.open_button.clicked.connect(self.open_in_explorer)
        self.open_button.setEnabled(_Links.url_for is not None)
        self._row.insertWidget(2, self.open_button, 0, Qt.AlignmentFlag.AlignVCenter)
        self._refresh_copy()

    def url(self) -> str | None:
        """Return where the value opens, or None when no explorer is set."""
        return _Links.url_for(self.network, self.kind, self.value) if _Links.url_for else None

    def open_in_explorer(self) -> None:
        """Open the value in the Bitcoin explorer, in the desktop's browser."""
        url = self.url()
        if url is not None:
            QDesktopServices.openUrl(QUrl(url))

    def copy_text(self) -> str:
        """Copy the value itself."""
        return self.value

    def json_value(self) -> object:
        """Return {"bitcoin": kind, "value", "network"}."""
        return {"bitcoin": self.kind, "value": self.value, "network": self.network}

    def context_menu(self) -> QMenu:
        """Build the shared menu, with "Open in a Bitcoin explorer" first."""
        menu = super().context_menu()
        action = menu.addAction(OPEN_BITCOIN)
        action.setEnabled(_Links.url_for is not None)
        action.triggered.connect(self.open_in_explorer)
        first = menu.actions()[0]
        menu.insertAction(first, action)
        menu.insertSeparator(first)
        return menu
