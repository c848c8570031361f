"""AgeLabel: "3 min ago", local and UTC time on hover, refreshed by one shared timer."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from explorer.viewmodels.observable import TypedSignal
from explorer.views.widgets.menus import build_context_menu

Clock = Callable[[], float]


def _span(seconds: int) -> str:
    """Return a duration in its largest one or two units, e.g. `45 s`, `2 h 5 min`, `3 days`."""
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3_600:
        return f"{seconds // 60} min"
    if seconds < 86_400:
        hours, rest = divmod(seconds, 3_600)
        return f"{hours} h {rest // 60} min" if rest >= 60 else f"{hours} h"
    days, rest = divmod(seconds, 86_400)
    day_text = f"{days} day" if days == 1 else f"{days} days"
    return f"{day_text} {rest // 3_600} h" if days < 30 and rest >= 3_600 else day_text


def age_text(timestamp: int, now: float) -> str:
    """Return how long ago timestamp was, e.g. `45 s ago`, `3 min ago`, `2 days 4 h ago`."""
    delta = int(now - timestamp)
    if -60 <= delta < 1:
        return "just now"
    return f"in {_span(-delta)}" if delta < 0 else f"{_span(delta)} ago"


def time_tooltip(timestamp: int) -> str:
    """Return the local and UTC times of a Unix timestamp, one a line."""
    try:
        utc = datetime.fromtimestamp(timestamp, UTC)
        local = utc.astimezone()
    except (OverflowError, OSError, ValueError):
        return f"Unix time {timestamp} (out of range)"
    return (
        f"{local:%Y-%m-%d %H:%M:%S} {local.tzname()} (local, UTC{local:%z})\n"
        f"{utc:%Y-%m-%d %H:%M:%S} UTC\nUnix time {timestamp}"
    )


class AgeTicker(QObject):
    """The one timer that refreshes every AgeLabel.

    Signals:
        tick(): about once a second.
    """

    tick = TypedSignal[()]()
    INTERVAL_MS = 1000
    _shared: AgeTicker | None = None

    def __init__(self, parent: QObject | None = None):
        """Create the ticker with its single timer."""
        super().__init__(parent)
        self.timer = QTimer(self)
        self.timer.setInterval(self.INTERVAL_MS)
        self.timer.timeout.connect(self.tick)
        self.timer.start()

    @classmethod
    def shared(cls) -> AgeTicker:
        """Return the application's ticker, creating it on first use."""
        if cls._shared is None or not shiboken6.isValid(cls._shared):
            cls._shared = AgeTicker(QCoreApplication.instance())
        return cls._shared


class AgeLabel(QLabel):
    """A timestamp shown as its age, refreshed by the shared AgeTicker."""

    def __init__(self, timestamp: int, parent: QWidget | None = None, *, clock: Clock = time.time):
        """Show timestamp's age; clock gives "now" (injectable for tests)."""
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self._clock = clock
        self.timestamp = 0
        self.set_timestamp(timestamp)
        AgeTicker.shared().tick.connect(self.refresh)

    def set_timestamp(self, timestamp: int) -> None:
        """Show another timestamp."""
        self.timestamp = timestamp
        self.setToolTip(time_tooltip(timestamp))
        self.refresh()

    def refresh(self) -> None:
        """Recompute the age text."""
        self.setText(age_text(self.timestamp, self._clock()))

    def copy_text(self) -> str:
        """Copy the UTC time."""
        return self.toolTip().splitlines()[1] if "\n" in self.toolTip() else str(self.timestamp)

    def json_value(self) -> object:
        """Return {"timestamp"}."""
        return {"timestamp": self.timestamp}

    def context_menu(self) -> QMenu:
        """Build the context menu: Copy, Copy as JSON."""
        return build_context_menu(self, self.copy_text(), self.json_value())

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """Show the context menu."""
        self.context_menu().exec(event.globalPos())
