"""The line under the search bar: what a search is doing, or why it led nowhere."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel

from explorer.viewmodels.search import SearchViewModel
from explorer.views.theme import tone_palette

BUSY_SHOWN_AFTER_MS = 150  # a search says it is busy once it has taken this long


class SearchMessage(QObject):
    """Binds a search's busy text (with its stop action) and its message to a label.

    A search says it is busy only once it has taken BUSY_SHOWN_AFTER_MS: a quick one never
    lays the window out again while its requests are on their way.
    """

    def __init__(
        self, search: SearchViewModel, label: QLabel, stop: QAction, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.search, self.label, self.stop = search, label, stop
        self._busy_shown = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(BUSY_SHOWN_AFTER_MS)
        self._timer.timeout.connect(self._on_still_busy)
        search.message_changed.connect(self.show)
        search.busy_changed.connect(self.show)

    def _on_still_busy(self) -> None:
        """Say the search is busy: it has taken a while."""
        if self.search.busy:
            self._busy_shown = True
            self.show()

    def show(self, *_: object) -> None:
        """Show what the search is doing (busy, with its stop button) or its last message."""
        busy = self.search.busy
        if busy and not self._busy_shown:
            if not self._timer.isActive():
                self._timer.start()
            return
        if not busy:
            self._timer.stop()
            self._busy_shown = False
        text, tone = self.search.notice
        self.label.setText(text)
        self.label.setVisible(bool(text))
        tone_palette(self.label, tone)
        self.stop.setVisible(busy)
