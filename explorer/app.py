"""Composition root: QApplication, the one qasync loop, settings, the window; orderly shutdown."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

os.environ.setdefault("QT_API", "pyside6")

import qasync
from PySide6.QtWidgets import QApplication

from explorer import __version__
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow


def run(options: argparse.Namespace) -> int:
    """Open the main window and run the event loop until it closes."""
    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("explorer")
    qt_app.setApplicationVersion(__version__)
    shell = ShellViewModel()
    window = MainWindow(shell)
    window.show()
    if options.smoke_test:
        qt_app.processEvents()
        print(f"explorer {__version__}: window {window.windowTitle()!r} opened")
        window.close()
        return 0
    loop = qasync.QEventLoop(qt_app)
    asyncio.set_event_loop(loop)
    closed = asyncio.Event()
    qt_app.lastWindowClosed.connect(closed.set)
    with loop:
        loop.run_until_complete(closed.wait())
    return 0
