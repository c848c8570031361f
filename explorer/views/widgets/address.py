"""AddressLabel: an address with the network's EIP-1191 checksum, user or known label, link."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.known import known_label
from explorer.services.routes import address_route
from explorer.viewmodels.observable import TypedSignal
from explorer.views.theme import plain_tooltip
from explorer.views.widgets.links import LinkLabel
from explorer.views.widgets.value import LinkedValue


class LabelLookup(Protocol):
    """Where the user's own labels come from (the app injects its labels view model)."""

    def get(self, address: str, default: str | None = None) -> str | None:
        """Return the user's label of an address, or default."""
        ...


class UserLabels(QObject):
    """The process-wide source of user labels that every AddressLabel follows.

    Signals:
        changed(): the labels changed; every AddressLabel redraws its tag.
    """

    changed = TypedSignal[()]()

    def __init__(self) -> None:
        super().__init__()
        self.lookup: LabelLookup | None = None

    def get(self, address: str) -> str | None:
        """Return the user's label of a canonical address, if a lookup is set."""
        return None if self.lookup is None else self.lookup.get(address)


USER_LABELS = UserLabels()


def set_label_lookup(lookup: LabelLookup | None) -> None:
    """Install (or remove) the user-label lookup and redraw every AddressLabel."""
    USER_LABELS.lookup = lookup
    USER_LABELS.changed.emit()


class AddressLabel(LinkedValue):
    """An address shown checksummed for its chain, with a label; links to address/….

    The label is the user's own label if there is one, else the explicit label given,
    else the known-address table's; the tooltip shows the others too.

    Signals:
        link_activated(route, new_tab): route is "address/0x<lowercase>".
    """

    def __init__(
        self,
        address: str,
        chain_id: int | None,
        label: str | None = None,
        parent: QWidget | None = None,
    ):
        """Show address (any case) for chain_id; label overrides the known-address table."""
        super().__init__(LinkLabel(), "address", parent)
        self.address = ""
        self.chain_id: int | None = None
        self.label: str | None = None
        self.user_label: str | None = None
        self._shown = ""
        self._given_label: str | None = label
        self.set_address(address, chain_id, label)
        USER_LABELS.changed.connect(self._on_labels_changed)

    def set_address(self, address: str, chain_id: int | None, label: str | None = None) -> None:
        """Show another address (or the same one for another chain)."""
        self.chain_id = chain_id
        self._given_label = label
        try:
            self.address = parse_address(address)
        except HexFormatError:
            self.address = self._shown = address
            self.link.set_route(None)
        else:
            self._shown = to_checksum_address(self.address, chain_id)
            self.link.set_route(address_route(self.address))
        self.link.setText(self._shown)
        self.link.setAccessibleName(f"Address {self._shown}")
        self._show_label()
        self._refresh_copy()

    def _show_label(self) -> None:
        """Show the user's, the given or the known label in the tag and tooltip."""
        if self.link.route() is None:
            self.label, self.user_label = self._given_label, None
            self.link.setToolTip(plain_tooltip(f"{self.address}\nNot a 20-byte address"))
            self._set_tag(self.label)
            return
        given = self._given_label
        other = given if given is not None else known_label(self.address, self.chain_id)
        self.user_label = USER_LABELS.get(self.address)
        self.label = self.user_label or other
        scheme = "EIP-55" if self.chain_id is None else f"EIP-1191, chain {self.chain_id}"
        lines = [self._shown]
        if self.user_label:
            lines.append(f"Your label: {self.user_label}")
        if other and other != self.user_label:
            lines.append(f"Known as: {other}" if self.user_label else other)
        self.link.setToolTip(plain_tooltip("\n".join([*lines, f"Checksum: {scheme}"])))
        self._set_tag(self.label)

    def _on_labels_changed(self) -> None:
        """Redraw the label when the user's label of this address changed."""
        if USER_LABELS.get(self.address) != self.user_label:
            self._show_label()

    def display_text(self) -> str:
        """Return the address as shown: checksummed for the chain when valid."""
        return self._shown

    def copy_text(self) -> str:
        """Copy the checksummed address."""
        return self.display_text()

    def json_value(self) -> object:
        """Return {"address", "chainId", "label"}."""
        return {"address": self.display_text(), "chainId": self.chain_id, "label": self.label}
