"""The Settings dialog's call timeout: how long a call to a node may take before it gives up."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QObject

from explorer.rpc.calltime import CALL_TIMEOUT_RANGE
from explorer.viewmodels.observable import TypedSignal


class TimeoutStore(Protocol):
    """Where the choice is kept; explorer.settings.store.Settings is one."""

    def call_timeout(self) -> int:
        """Return the saved seconds."""

    def set_call_timeout(self, seconds: int) -> None:
        """Save the seconds (kept within range)."""


class CallTimeoutOption(QObject):
    """The call timeout as a draft until apply(); applied, it reaches the open session.

    Signals:
        applied(int): the saved number of seconds changed.
    """

    applied = TypedSignal[int]()
    seconds_range = CALL_TIMEOUT_RANGE

    def __init__(self, store: TimeoutStore, parent: QObject | None = None) -> None:
        """Draft the saved choice."""
        super().__init__(parent)
        self._store = store
        self.seconds = store.call_timeout()

    def choose(self, seconds: int) -> None:
        """Draft another number of seconds."""
        self.seconds = seconds

    def apply(self) -> None:
        """Save the draft; tell the app when it differs from what was saved."""
        before = self._store.call_timeout()
        self._store.set_call_timeout(self.seconds)
        self.seconds = self._store.call_timeout()
        if self.seconds != before:
            self.applied.emit(self.seconds)
