"""Work done a piece per turn of the event loop: no one turn holds the GUI thread for long."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

GAP_MS = 1  # between pieces: what they made dirty is painted in between, timers get their turn


class Slices(QObject):
    """Runs pieces of work one per turn of the event loop; a new run replaces what is left."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pending: list[Callable[[], None]] = []
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._next)

    @property
    def pending(self) -> int:
        """How many pieces are still to run."""
        return len(self._pending)

    def run(self, first: Callable[[], None], *later: Callable[[], None]) -> None:
        """Run first now and the others in later turns, in order (dropping any still pending)."""
        self._pending = list(later)
        first()
        if self._pending:
            self._timer.start(GAP_MS)

    def stop(self) -> None:
        """Drop what is still to run."""
        self._pending.clear()
        self._timer.stop()

    def _next(self) -> None:
        """Run the next piece; schedule the one after."""
        if self._pending:
            self._pending.pop(0)()
        if self._pending:
            self._timer.start(GAP_MS)
