"""Crash safety of the window: an exception or a Qt error opens a report; the app goes on."""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import traceback
from types import TracebackType
from typing import Any

from PySide6.QtCore import (
    QMessageLogContext,
    QObject,
    Qt,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QWidget

from explorer.diagnostics.log import Diagnostics, previous_crash_report
from explorer.viewmodels.observable import TypedSignal
from explorer.views.crash_dialog import PREVIOUS_RUN, CrashDialog

log = logging.getLogger("explorer.diagnostics.crash")
QT_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}


def describe(error: BaseException) -> str:
    """Return the traceback of an exception as text."""
    return "".join(traceback.format_exception(type(error), error, error.__traceback__))


class CrashReporter(QObject):
    """Route uncaught exceptions (slots, tasks, threads) and Qt errors to a report dialog.

    Signals:
        reported(str, str): a title and its report, delivered on the GUI thread.
    """

    reported = TypedSignal[str, str]()

    def __init__(self, diagnostics: Diagnostics, parent_window: QWidget | None = None) -> None:
        super().__init__()
        self.diagnostics = diagnostics
        self.parent_window = parent_window
        self.dialog: CrashDialog | None = None
        self._previous: dict[str, Any] = {}
        # Queued: a report may come from another thread, or from inside Qt's message handler.
        self.reported.connect(self.show_report, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        """Take over sys.excepthook, threading.excepthook and Qt's message handler."""
        self._previous = {"sys": sys.excepthook, "threading": threading.excepthook}
        sys.excepthook = self._excepthook
        threading.excepthook = self._thread_excepthook
        self._previous["qt"] = qInstallMessageHandler(self._qt_message)

    def uninstall(self) -> None:
        """Give the hooks back."""
        if self._previous:
            sys.excepthook = self._previous["sys"]
            threading.excepthook = self._previous["threading"]
            qInstallMessageHandler(self._previous["qt"])
            self._previous = {}

    def watch_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """Report what the asyncio loop reports: failed tasks and callbacks."""
        loop.set_exception_handler(self._loop_exception)

    def _excepthook(
        self, kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        """Report an exception that reached the top (a slot, a callback from Qt)."""
        if issubclass(kind, KeyboardInterrupt):
            self._previous["sys"](kind, error, trace)
            return
        self.report_exception("An unexpected error occurred", error.with_traceback(trace))

    def _thread_excepthook(self, args: threading.ExceptHookArgs) -> None:
        """Report an exception that ended a thread."""
        if args.exc_value is not None:
            name = args.thread.name if args.thread else "a thread"
            self.report_exception(f"An error ended {name}", args.exc_value)

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """Report a failed task or callback of the event loop."""
        error = context.get("exception")
        message = str(context.get("message", "asyncio error"))
        if isinstance(error, asyncio.CancelledError):
            return
        if isinstance(error, BaseException):
            self.report_exception(f"A background task failed: {message}", error)
        else:
            log.error("%s", message)
            self.reported.emit(message, self.diagnostics.report(message, message))

    def _qt_message(self, mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        """Log Qt's messages; report those at error level (critical and fatal)."""
        level = QT_LEVELS.get(mode, logging.WARNING)
        logging.getLogger("qt").log(level, "%s", message)
        if level >= logging.ERROR:
            where = f"{context.file}:{context.line} {context.function}" if context.file else ""
            details = f"Qt reported an error: {message}\n{where}".rstrip()
            self.reported.emit("Qt reported an error", self.diagnostics.report(message, details))

    def report_exception(self, title: str, error: BaseException) -> None:
        """Log an exception with its traceback and report it (from any thread)."""
        log.error("%s", title, exc_info=(type(error), error, error.__traceback__))
        report = self.diagnostics.report(f"{title}: {type(error).__name__}", describe(error))
        self.reported.emit(title, report)

    def show_report(self, title: str, report: str, explanation: str = "") -> None:
        """Save the report and show it: in the open dialog, or in a new one."""
        saved = self.diagnostics.save_report(report)
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.add_report(title, report)
            return
        dialog = CrashDialog(title, report, saved, self.parent_window)
        if explanation:
            dialog.explanation.setText(explanation)
        self.dialog = dialog
        dialog.show()

    def offer_previous_report(self) -> bool:
        """Show the report of a previous run that ended without closing; tell if there was one."""
        report = previous_crash_report(self.diagnostics)
        if report is None:
            return False
        self.show_report("The previous run ended unexpectedly", report, PREVIOUS_RUN)
        return True
