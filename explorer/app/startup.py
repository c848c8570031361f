"""Paint first: the QApplication and a first frame of the window, then the heavy imports.

The window's modules pull in the chain libraries, the HTTP stack and qasync (most of a second
of imports). This module imports only Qt and a few light modules of the explorer, shows a first
frame of the window (title, icon, size, "Starting…"), and only then imports `explorer.app.run`,
whose window takes the frame's place.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from importlib import import_module
from pathlib import Path

import platformdirs

os.environ.setdefault("QT_API", "pyside6")

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QIcon, QPaintEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from explorer import __version__
from explorer.app.qtdeps import window_can_open
from explorer.settings import store as keys

TITLE = "Rootstock Explorer"
# The app icon's PNGs as explorer.views.icons names them (app_icon_png), read from their files:
# that module, and the Qt namespace it imports (20 ms), come after the first frame.
ICON_FILES = Path(import_module("explorer.resources").__file__ or ".").parent / "icons" / "hicolor"
ICON_SIZES = (16, 32, 48, 64, 128, 256)


class FirstFrame(QWidget):
    """The window as it first appears: its title, icon and geometry, and a word of progress."""

    def __init__(self, geometry: str) -> None:
        super().__init__()
        self.painted_at: float | None = None
        self.setWindowTitle(TITLE)
        self.resize(1200, 800)
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode()))
        row = QHBoxLayout()  # centred by stretches: no alignment flags, no Qt namespace
        row.addStretch(1)
        row.addWidget(QLabel(f"{TITLE} {__version__}: starting…"))
        row.addStretch(1)
        column = QVBoxLayout(self)
        column.addStretch(1)
        column.addLayout(row)
        column.addStretch(1)

    def paintEvent(self, event: QPaintEvent) -> None:
        """Paint, and note when the first frame was painted."""
        super().paintEvent(event)
        if self.painted_at is None:
            self.painted_at = time.perf_counter()


def first_frame_icon() -> QIcon:
    """Return the app icon from its PNG files (loaded when first drawn)."""
    icon = QIcon()
    for size in ICON_SIZES:
        icon.addFile(str(ICON_FILES / f"{size}x{size}" / "apps" / "explorer.png"))
    return icon


def make_application() -> QApplication:
    """Return the QApplication, named and with the icon of its first frame."""
    qt_app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(qt_app, QApplication)
    qt_app.setApplicationName("explorer")
    qt_app.setOrganizationName("explorer")
    qt_app.setApplicationVersion(__version__)
    qt_app.setDesktopFileName("explorer")  # packaging/explorer.desktop: Wayland takes its Icon=
    qt_app.setWindowIcon(first_frame_icon())
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
    """Run the window; with --screenshot on a throwaway profile (nothing of the user's changes)."""
    if options.screenshot is None:
        return run_window(options)
    from explorer.app.throwaway import throwaway_profile

    with throwaway_profile() as user_devnet_cache:
        options.read_devnet_cache = user_devnet_cache
        return run_window(options)


def run_window(options: argparse.Namespace) -> int:
    """Paint the first frame, start logging, then import and run the app."""
    if not window_can_open(Path(platformdirs.user_cache_dir("explorer"))):
        return 1  # Qt would abort on the X11 plugin's missing libraries: named, with the fix
    qt_app = make_application()
    frame = show_first_frame(qt_app)
    if options.first_frame_modules is not None or options.until_home:
        if options.first_frame_modules is not None:
            write_modules(options.first_frame_modules)
        print("first frame painted", flush=True)  # bench/startup.py times this line
    from explorer.diagnostics import (
        log as diagnostics,  # logging and its handlers: after the first frame
    )

    found = diagnostics.setup(options.log_level, options.log_file)
    import qasync

    from explorer.app.early_devnet import spawn_early

    loop = None if options.smoke_test else qasync.QEventLoop(qt_app)
    devnet = None if loop is None else spawn_early(loop, options, keys.Settings())
    from explorer.app import (
        run as app_run,  # the heavy part: chain libraries, HTTP stack, views
    )

    return app_run.run(options, frame, found, loop, devnet)
