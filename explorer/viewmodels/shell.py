"""The main window's state: network, connection, head block, devnet start-up."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal


class ShellViewModel(QObject):
    """State of the window frame (title, status bar).

    Signals:
        status_changed: the status-bar text changed.
        network_changed: the network name changed.
    """

    status_changed = Signal(str)
    network_changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._status = "Not connected"
        self._network = "No network"

    @property
    def status(self) -> str:
        """The status-bar text."""
        return self._status

    @property
    def network(self) -> str:
        """The name of the network the window shows."""
        return self._network

    def on_status(self, text: str) -> None:
        """Show a new status line."""
        if text != self._status:
            self._status = text
            self.status_changed.emit(text)

    def on_network(self, name: str) -> None:
        """Show the network the window is bound to."""
        if name != self._network:
            self._network = name
            self.network_changed.emit(name)
