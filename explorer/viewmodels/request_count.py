"""A session's count of requests today, followed as it changes (once per event-loop turn)."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer

from explorer.services.session import Session
from explorer.viewmodels.observable import TypedSignal


class RequestCount(QObject):
    """Tells when a session's request count changed, once per turn of the event loop.

    The status bar and the home page's Requests card both follow it, so they show the same
    number at the same moment; a burst of requests is one change.

    Signals:
        changed(): requests were counted (or taken back) since the last change.
    """

    changed = TypedSignal[()]()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._session: Session | None = None
        self._due = QTimer(self)
        self._due.setSingleShot(True)
        self._due.setInterval(0)
        self._due.timeout.connect(self.changed)

    def follow(self, session: Session | None) -> None:
        """Follow another session's count (None: none)."""
        if self._session is not None:
            listeners = self._session.client.stats.listeners
            if self._on_count in listeners:
                listeners.remove(self._on_count)
        self._session = session
        if session is not None:
            session.client.stats.listeners.append(self._on_count)

    def _on_count(self) -> None:
        """Note a change; `changed` follows at the next turn of the loop."""
        if not self._due.isActive():
            self._due.start()
