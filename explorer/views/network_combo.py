"""The toolbar's network switcher: a combo box listing the networks, choosing the current one."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QWidget

from explorer.viewmodels.networks import NetworksViewModel
from explorer.views.theme import plain_tooltip


class NetworkCombo(QComboBox):
    """A toolbar combo box listing the networks; choosing one makes it current."""

    def __init__(self, model: NetworksViewModel, parent: QWidget | None = None) -> None:
        """Follow the model's networks and current network."""
        super().__init__(parent)
        self.networks = model
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.activated.connect(self._on_activated)
        model.networks_changed.connect(self.refill)
        model.current_changed.connect(self.on_current_changed)
        self.refill()

    def refill(self) -> None:
        """List the networks again (their tooltips are made when the list opens)."""
        self.blockSignals(True)
        self.clear()
        for network in self.networks.networks:
            self.addItem(network.name, network.id)
        self.blockSignals(False)
        self.on_current_changed(self.networks.current_id)

    def showPopup(self) -> None:  # noqa: N802 (Qt override)
        """Open the list, each network with where it connects (key masked) as tooltip.

        Made here, not when listed: a key kept in the system keyring is read at start in a
        worker thread, and reading it on the GUI thread could block (or prompt).
        """
        for index, network in enumerate(self.networks.networks):
            tip = plain_tooltip(self.networks.where(network))
            self.setItemData(index, tip, Qt.ItemDataRole.ToolTipRole)
        super().showPopup()

    def on_current_changed(self, network_id: str) -> None:
        """Select the current network."""
        index = self.findData(network_id)
        if index >= 0:
            self.setCurrentIndex(index)

    def _on_activated(self, index: int) -> None:
        """Make the chosen network current."""
        self.networks.set_current(str(self.itemData(index)))


def network_combo(model: NetworksViewModel, parent: QWidget | None = None) -> QComboBox:
    """Return a combo box for the toolbar that lists networks and sets the current one."""
    return NetworkCombo(model, parent)
