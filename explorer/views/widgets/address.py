"""AddressLabel: an address with the network's EIP-1191 checksum, known label, copy, link."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.known import known_label
from explorer.views.widgets.links import LinkLabel, plain_tooltip
from explorer.views.widgets.value import LinkedValue


class AddressLabel(LinkedValue):
    """An address shown checksummed for its chain, with its known label; links to address/….

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
        self.set_address(address, chain_id, label)

    def set_address(self, address: str, chain_id: int | None, label: str | None = None) -> None:
        """Show another address (or the same one for another chain)."""
        self.chain_id = chain_id
        try:
            self.address = parse_address(address)
        except HexFormatError:
            self.address = address
            self.label = label
            self.link.setText(address)
            self.link.set_route(None)
            self.link.setToolTip(plain_tooltip(f"{address}\nNot a 20-byte address"))
        else:
            self.label = label if label is not None else known_label(self.address, chain_id)
            shown = self.display_text()
            self.link.setText(shown)
            self.link.set_route(f"address/{self.address}")
            scheme = "EIP-55" if chain_id is None else f"EIP-1191, chain {chain_id}"
            tip = f"{shown}\n{self.label}" if self.label else shown
            self.link.setToolTip(plain_tooltip(f"{tip}\nChecksum: {scheme}"))
        self.link.setAccessibleName(f"Address {self.display_text()}")
        self._set_tag(self.label)
        self._refresh_copy()

    def display_text(self) -> str:
        """Return the address as shown: checksummed for the chain when valid."""
        try:
            return to_checksum_address(self.address, self.chain_id)
        except HexFormatError:
            return self.address

    def copy_text(self) -> str:
        """Copy the checksummed address."""
        return self.display_text()

    def json_value(self) -> object:
        """Return {"address", "chainId", "label"}."""
        return {"address": self.display_text(), "chainId": self.chain_id, "label": self.label}
