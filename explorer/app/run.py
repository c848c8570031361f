"""The window's run after the first frame: the qasync loop, crash reports, the app, its close.

explorer/app/startup.py paints the first frame, then imports this module (and with it the chain
libraries, the HTTP stack and the views) and calls `run`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from collections.abc import Callable

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QWidget

from explorer import __version__
from explorer.app.application import DEVNET_START_TIMEOUT, Application
from explorer.app.early_devnet import chain_arguments
from explorer.devnet.process import DevnetProcess
from explorer.diagnostics.crash import CrashReporter
from explorer.diagnostics.log import Diagnostics
from explorer.settings import store as keys
from explorer.settings.store import Settings
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.collector import MainThreadCollector
from explorer.views.icons import app_icon
from explorer.views.main_window import MainWindow

#: Signals that ask the app to stop (on Windows, where the loop takes none, they kill it as before).
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT") if hasattr(signal, name)
)


def smoke_test(frame: QWidget) -> int:
    """Open the window (with no session), say so with its icon sizes, and close."""
    window = MainWindow(ShellViewModel())
    window.show()
    frame.close()
    QApplication.processEvents()
    sizes = ", ".join(str(size.width()) for size in window.windowIcon().availableSizes())
    print(f"explorer {__version__}: window {window.windowTitle()!r} opened, icon {sizes} px")
    window.close()
    return 0


def stop_on_signals(loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> None:
    """Stop cleanly on SIGTERM, SIGHUP or SIGINT (a logout, `kill`, Ctrl+C), as on closing.

    The loop's own handlers wake the Qt loop (a wakeup fd), so the window closes, the app
    shuts down and the running marker goes: the next start offers no crash report.
    """
    for number in STOP_SIGNALS:
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop)


def run(
    options: argparse.Namespace,
    frame: QWidget,
    found: Diagnostics,
    loop: qasync.QEventLoop | None,
    devnet: DevnetProcess | None = None,
) -> int:
    """Replace the first frame with the main window and run the event loop until it closes.

    loop: the event loop (None for --smoke-test); devnet: the app's devnet, already started
    beside the imports (explorer/app/early_devnet.py), or None.
    """
    qt_app = QApplication.instance()
    assert isinstance(qt_app, QApplication)
    qt_app.setWindowIcon(app_icon())  # every size rendered and checked (the first frame's: files)
    if options.smoke_test or loop is None:
        return smoke_test(frame)
    asyncio.set_event_loop(loop)
    started = loop.time()
    reporter = CrashReporter(found)
    reporter.install()
    reporter.watch_loop(loop)
    collector = MainThreadCollector(qt_app)
    settings, notices = Settings.for_app()  # private (0600), a damaged file moved aside
    app = Application(settings, use_devnet=options.devnet or options.until_home)
    if options.screenshot is not None:  # the support desk's pictures look on the main network
        app.devnet_networks = "both"  # (a throwaway profile: explorer/app/throwaway.py)
        app.devnet_arguments = ("--also-read", str(options.read_devnet_cache))
    elif options.reset_devnet:
        app.devnet_arguments = chain_arguments(reset=True)
    app.early_devnet = devnet
    app.shell.show_startup_notices(notices)
    # --- crash reports, About, and the first frame's place (explorer/app/startup.py) ---
    reporter.parent_window = app.window
    app.diagnostics = found
    found.endpoint = app.endpoint_text
    app.window.help.about.triggered.connect(lambda: app.about_dialog().show())
    if options.screenshot is None:  # pictures are taken in both themes, from the default
        app.set_theme(app.settings.get(keys.THEME))
    if not app.settings.get(keys.WINDOW_GEOMETRY):
        app.window.setGeometry(frame.geometry())  # where the first frame was put
    app.window.show()
    frame.close()
    found.mark_running()
    QTimer.singleShot(0, collector.freeze_survivors)  # after the first frame: it takes ~50 ms
    QTimer.singleShot(0, reporter.offer_previous_report)
    closed = asyncio.Event()
    qt_app.setQuitOnLastWindowClosed(False)  # the loop must outlive the window to shut down
    qt_app.lastWindowClosed.connect(closed.set)

    def stop() -> None:  # a stop signal: closed for good, even into the tray
        app.window.close_to_tray = lambda: False
        app.window.close()
        closed.set()

    stop_on_signals(loop, stop)

    pictures_taken = True

    async def main() -> None:
        nonlocal pictures_taken
        starting = asyncio.ensure_future(app.start())
        if options.screenshot is not None:
            pictures_taken = await app.screenshots(options.screenshot)
        elif options.until_home:
            from explorer.tour.screens import until_home  # benchmarks only: loaded then

            await until_home(app, started, DEVNET_START_TIMEOUT)
        await closed.wait()
        starting.cancel()
        await app.aclose()

    with loop:
        loop.run_until_complete(main())
    collector.stop()
    reporter.uninstall()
    found.mark_clean_exit()
    return 0 if pictures_taken else 1  # a tour that took no pictures has failed
