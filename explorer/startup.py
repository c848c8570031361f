"""Paint first: the QApplication and a first frame of the window, then the heavy imports.

The window's modules pull in the chain libraries, the HTTP stack and qasync (most of a second
of imports). This module imports only Qt and a few light modules of the explorer, shows a first
frame of the window (title, icon, size, "Starting…"), and only then imports `explorer.app`,
whose window takes the frame's place.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_API", "pyside6")

from PySide6.QtCore import QByteArray, Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from explorer import __version__, diagnostics
from explorer import settings as keys
from explorer.views.icons import app_icon

TITLE = "Rootstock Explorer"


class FirstFrame(QWidget):
    """The window as it first appears: its title, icon and geometry, and a word of progress."""

    def __init__(self, geometry: str) -> None:
        super().__init__()
        self.painted_at: float | None = None
        self.setWindowTitle(TITLE)
        self.resize(1200, 800)
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        label = QLabel(f"{TITLE} {__version__}\nStarting…")
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        QVBoxLayout(self).addWidget(label)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Paint, and note when the first frame was painted."""
        super().paintEvent(event)
        if self.painted_at is None:
            self.painted_at = time.perf_counter()


def make_application() -> QApplication:
    """Return the QApplication, named and with its icon."""
    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("explorer")
    qt_app.setOrganizationName("explorer")
    qt_app.setApplicationVersion(__version__)
    qt_app.setDesktopFileName("explorer")  # packaging/explorer.desktop: Wayland takes its Icon=
    qt_app.setWindowIcon(app_icon())
    return qt_app


def show_first_frame(qt_app: QApplication) -> FirstFrame:
    """Show the first frame and return once it has been painted."""
    frame = FirstFrame(keys.Settings().get(keys.WINDOW_GEOMETRY))
    frame.show()
    deadline = time.perf_counter() + 5.0
    while frame.painted_at is None and time.perf_counter() < deadline:
        qt_app.processEvents()
    return frame


def write_modules(path: Path) -> None:
    """Write the names of the modules imported so far, one a line."""
    path.write_text("\n".join(sorted(sys.modules)) + "\n")


def run(options: argparse.Namespace) -> int:
    """Start logging, paint the first frame, then import and run the app."""
    found = diagnostics.setup(options.log_level, options.log_file)
    qt_app = make_application()
    frame = show_first_frame(qt_app)
    if options.first_frame_modules is not None or options.until_home:
        if options.first_frame_modules is not None:
            write_modules(options.first_frame_modules)
        print("first frame painted", flush=True)  # bench/startup.py times this line
    from explorer import app  # the heavy part: chain libraries, HTTP stack, qasync, views

    return app.run(options, frame, found)
