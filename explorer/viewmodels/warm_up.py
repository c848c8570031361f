"""Import what the first transaction or address page needs, off the GUI thread, once at rest."""

from __future__ import annotations

import importlib
import logging
import threading

from explorer.chain.signatures import bundled_table

#: py-evm, which the replayer behind the Inside tab and History needs: about a second of
#: imports. Imported by the page itself, it froze the window at the first transaction opened.
#: Third-party only: none of them imports the app's modules, so no lock is taken in two orders
#: (the signature table's module is imported with the window's first modules).
HEAVY_MODULES = ("eth.vm.forks", "eth.vm.spoof")

_log = logging.getLogger(__name__)
_lock = threading.Lock()
_started: list[threading.Thread] = []
warmed = threading.Event()  # set once the heavy modules are imported (or failed to)


def _import_all() -> None:
    """Import the heavy modules and build the bundled signature table (the worker's work)."""
    try:
        for name in HEAVY_MODULES:
            importlib.import_module(name)
        bundled_table()  # ~50 ms of hashing, else paid by the first call decoded
    except Exception as error:  # the page that needs them says so when opened
        _log.warning("could not import the replayer's modules ahead of time: %s", error)
    finally:
        warmed.set()


def warm_up() -> None:
    """Start importing the heavy modules on a worker thread, once per process."""
    with _lock:
        if not _started:
            _started.append(threading.Thread(target=_import_all, name="warm-up", daemon=True))
            _started[0].start()
