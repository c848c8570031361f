"""Import the pages' own modules on the GUI thread, one per tick, once the window rests.

The first transaction or address page imported some 180 ms of modules before it could show
(a stall the user saw as a frozen window). They are the app's own modules, so they are
imported here, on the GUI thread (two threads importing them could take their locks in two
orders), one at a time, bottom-up so each step is short, after the worker thread has
imported py-evm (viewmodels/warm_up.py).
"""

from __future__ import annotations

import importlib
import sys
import threading

from PySide6.QtCore import QObject, QTimer

from explorer.viewmodels.warm_up import warm_up, warmed

#: Bottom-up: each module's own imports mostly done by the step before it.
PAGE_MODULES = (
    "explorer.vm.replay",
    "explorer.services.trace",
    "explorer.presentation.tx_document",
    "explorer.presentation.loaders",
    "explorer.viewmodels.page",
    "explorer.viewmodels.tx_inside",
    "explorer.viewmodels.tx_page",
    "explorer.views.page_view",
    "explorer.views.tx_page_view",
    "explorer.viewmodels.address.history",
    "explorer.viewmodels.address.page",
    "explorer.views.address.page",
    "explorer.services.broadcast",
    "explorer.viewmodels.broadcast",
    "explorer.views.broadcast_view",
    "explorer.viewmodels.logs",
    "explorer.views.logs_view",
    "explorer.views.node_view",
    "explorer.views.tools_view",
    "explorer.views.watchlist_view",
)
STEP_MS = 40  # between two imports: the window stays free for input between them

pages_warmed = threading.Event()  # set once every page module is imported


class PageWarmer(QObject):
    """Import the page modules one per timer tick, after the worker's heavy imports."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._left = [name for name in PAGE_MODULES if name not in sys.modules]
        self._timer = QTimer(self)
        self._timer.setInterval(STEP_MS)
        self._timer.timeout.connect(self._step)

    def start(self, *_: object) -> None:
        """Start warming (the first head is known: the window is up); later calls do nothing."""
        if not self._timer.isActive() and not pages_warmed.is_set():
            warm_up()
            self._timer.start()

    def _step(self) -> None:
        """Import the next module, once py-evm is in (else its import would wait for it here)."""
        if not warmed.is_set():
            return
        if self._left:
            importlib.import_module(self._left.pop(0))
        if not self._left:
            self._timer.stop()
            pages_warmed.set()
