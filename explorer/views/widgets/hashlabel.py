"""HashLabel: a transaction or block hash elided in the middle, copy full, link."""

from __future__ import annotations

from typing import Literal

from PySide6.QtWidgets import QWidget

from explorer.services.routes import Page, Route
from explorer.views.theme import plain_tooltip
from explorer.views.widgets.links import ElidedLinkLabel
from explorer.views.widgets.value import LinkedValue

HashKind = Literal["tx", "block", "hash"]  # "hash": shown and copied, not a link
_KIND_NAMES = {"tx": "Transaction ", "block": "Block ", "hash": ""}


class HashLabel(LinkedValue):
    """A 32-byte hash, elided in the middle to fit, with copy; links to tx/… or block/….

    Signals:
        link_activated(route, new_tab): route is "tx/0x…" or "block/0x…".
    """

    def __init__(self, hash_: str, kind: HashKind, parent: QWidget | None = None):
        """Show hash_ (shown and routed in lowercase) for kind "tx", "block" or "hash"."""
        super().__init__(ElidedLinkLabel(), "hash", parent)
        self.kind: HashKind = kind
        self.hash = ""
        self.set_hash(hash_)

    @property
    def elided(self) -> ElidedLinkLabel:
        """Return the link label, typed as the eliding one."""
        assert isinstance(self.link, ElidedLinkLabel)
        return self.link

    def set_hash(self, hash_: str) -> None:
        """Show another hash of the same kind."""
        self.hash = hash_.lower()
        self.elided.set_full_text(self.hash)
        linked = self.hash and self.kind != "hash"
        self.link.set_route(Route(Page(self.kind), self.hash) if linked else None)
        self.link.setToolTip(plain_tooltip(f"{_KIND_NAMES[self.kind]}{self.hash}"))
        self.link.setAccessibleName(f"{_KIND_NAMES[self.kind]}hash {self.hash}".capitalize())
        self._refresh_copy()

    def copy_text(self) -> str:
        """Copy the full hash."""
        return self.hash

    def json_value(self) -> object:
        """Return {"hash", "kind"}."""
        return {"hash": self.hash, "kind": self.kind}
