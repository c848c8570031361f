"""Import what the pages need ahead of time, once the window rests, without freezing it.

The first transaction or address page imported py-evm (about a second, 2.5 s on a busy
machine) and some 180 ms of the app's own modules before it could show: the window froze.
py-evm imports none of the app's modules (nor does explorer.vm, which imports it), so a
worker thread imports it; the app's own modules are imported here, on the GUI thread (two
threads importing them could take their locks in two orders), one per tick and bottom-up so
each step is short.
"""

from __future__ import annotations

import importlib
import logging
import sys
import threading

from PySide6.QtCore import QObject, QTimer

from explorer.chain.signatures import bundled_table

#: py-evm, which the replayer behind the Inside tab and History needs; through explorer.vm,
#: whose own import (py-evm alone) keeps Python's recursion limit where it is.
WORKER_MODULES = ("explorer.vm", "eth.vm.forks", "eth.vm.spoof")
#: The pages' own modules, bottom-up: each one's imports mostly done by the steps before it.
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
REST_MS = 1000  # after the first head: Home's first blocks come first
STEP_MS = 40  # between two imports: the window stays free for input between them

_log = logging.getLogger(__name__)
worker_done = threading.Event()  # py-evm imported (or failed to: the page says so when opened)
pages_warmed = threading.Event()  # every page module imported too


def _import_on_worker() -> None:
    """Import py-evm and build the bundled signature table (the worker thread's work)."""
    try:
        for name in WORKER_MODULES:
            importlib.import_module(name)
        bundled_table()  # ~50 ms of hashing, else paid by the first call decoded
    except Exception as error:  # the page that needs them says so when opened
        _log.warning("could not import the replayer's modules ahead of time: %s", error)
    finally:
        worker_done.set()


class PageWarmer(QObject):
    """Start the worker once, then import the page modules one per timer tick."""

    _worker: threading.Thread | None = None  # one per process, whichever window starts it

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._left = [name for name in PAGE_MODULES if name not in sys.modules]
        self._timer = QTimer(self)
        self._timer.setInterval(STEP_MS)
        self._timer.timeout.connect(self._step)
        self._asked = False

    def start(self, *_: object) -> None:
        """Warm up in a moment (the first head is known: the window is up); once only."""
        if not self._asked and not pages_warmed.is_set():
            self._asked = True
            QTimer.singleShot(REST_MS, self, self._begin)

    def _begin(self) -> None:
        """Start the worker (once per process) and the ticks."""
        if PageWarmer._worker is None:
            PageWarmer._worker = threading.Thread(
                target=_import_on_worker, name="warm-up", daemon=True
            )
            PageWarmer._worker.start()
        self._timer.start()

    def _step(self) -> None:
        """Import the next module once py-evm is in (else this import would wait for it)."""
        if not worker_done.is_set():
            return
        if self._left:
            importlib.import_module(self._left.pop(0))
        if not self._left:
            self._timer.stop()
            pages_warmed.set()
