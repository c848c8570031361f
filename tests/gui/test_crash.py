"""Crash safety: a failing slot, task or Qt error opens a report; the app goes on; no key leaks."""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QObject, QTimer, Signal, qCritical
from pytestqt.qtbot import QtBot

from explorer.diagnostics import log as diagnostics
from explorer.diagnostics.crash import CrashReporter
from explorer.diagnostics.log import SECRETS, Diagnostics
from tests.helpers.timing import WAIT

KEY = "k3y0f7h3u53r5h0u1dn3v3r1eak"  # a key-like secret
URL = f"https://rpc.testnet.example/v2/{KEY}"


class Emitter(QObject):
    """A signal to connect a failing slot to."""

    fired = Signal()


@pytest.fixture
def found(tmp_path: Path) -> Iterator[Diagnostics]:
    """Diagnostics logging into a temporary folder; the root logger restored afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield diagnostics.setup("INFO", tmp_path / "explorer.log")
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
            handler.close()
    root.setLevel(level)


@pytest.fixture
def reporter(found: Diagnostics) -> Iterator[CrashReporter]:
    """Return a crash reporter with its hooks installed for the test."""
    crash = CrashReporter(found)
    crash.install()
    yield crash
    crash.uninstall()
    if crash.dialog is not None:
        crash.dialog.close()


def report_text(reporter: CrashReporter) -> str:
    """Return the text the open crash dialog shows."""
    assert reporter.dialog is not None
    return reporter.dialog.report.toPlainText()


def failing_slot() -> None:
    """Raise, as a slot with a bug does."""
    raise ZeroDivisionError("a slot divided by zero")


def test_a_slot_that_raises_opens_the_report_and_the_app_goes_on(
    qtbot: QtBot, reporter: CrashReporter
) -> None:
    emitter = Emitter()
    emitter.fired.connect(failing_slot)
    later: list[bool] = []
    QTimer.singleShot(0, emitter.fired.emit)
    QTimer.singleShot(50, lambda: later.append(True))
    qtbot.waitUntil(
        lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=WAIT
    )
    text = report_text(reporter)
    assert "ZeroDivisionError: a slot divided by zero" in text
    assert "in failing_slot" in text
    assert "Python: " in text
    assert "Qt: " in text
    qtbot.waitUntil(lambda: later == [True], timeout=WAIT)  # the event loop kept running


def test_a_task_that_raises_opens_the_report(
    qtbot: QtBot, qloop: qasync.QEventLoop, reporter: CrashReporter
) -> None:
    reporter.watch_loop(qloop)

    async def failing_task() -> None:
        await asyncio.sleep(0)
        raise LookupError("a task found nothing")

    asyncio.ensure_future(failing_task())  # noqa: RUF006 (the point: nobody awaits it)
    qtbot.waitUntil(
        lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=WAIT
    )
    assert "LookupError: a task found nothing" in report_text(reporter)
    assert "A background task failed" in reporter.dialog.headline.text()  # type: ignore[union-attr]


def test_a_qt_error_message_opens_the_report(qtbot: QtBot, reporter: CrashReporter) -> None:
    qCritical("a critical Qt message")
    qtbot.waitUntil(
        lambda: reporter.dialog is not None and reporter.dialog.isVisible(), timeout=WAIT
    )
    assert "Qt reported an error: a critical Qt message" in report_text(reporter)


def test_later_errors_go_into_the_open_dialog(qtbot: QtBot, reporter: CrashReporter) -> None:
    for message in ("first", "second"):
        reporter.report_exception(message, RuntimeError(message))
    qtbot.waitUntil(
        lambda: reporter.dialog is not None and "second" in report_text(reporter), timeout=WAIT
    )
    assert "RuntimeError: first" in report_text(reporter)


def test_the_report_is_copied_whole(qtbot: QtBot, reporter: CrashReporter) -> None:
    reporter.report_exception("copy me", ValueError("copy me"))
    qtbot.waitUntil(lambda: reporter.dialog is not None, timeout=WAIT)
    assert reporter.dialog is not None
    reporter.dialog.copy_button.click()
    clipboard = reporter.dialog.report.toPlainText()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == clipboard


def test_the_key_is_never_in_the_report_or_the_log_file(
    qtbot: QtBot, found: Diagnostics, reporter: CrashReporter
) -> None:
    SECRETS.add(KEY)
    found.endpoint = lambda: URL  # even if a caller forgot to redact
    logging.getLogger("explorer.test").warning("connecting to %s", URL)
    reporter.report_exception("failed", ConnectionError(f"cannot reach {URL}"))
    qtbot.waitUntil(lambda: reporter.dialog is not None, timeout=WAIT)
    text = report_text(reporter)
    assert "ConnectionError" in text
    assert "https://rpc.testnet.example/v2/k3y0…" in text
    assert found.log_file is not None
    for handler in logging.getLogger().handlers:
        handler.flush()
    written = found.log_file.read_text()
    saved = [path.read_text() for path in found.directory.glob("crash-*.txt")]
    assert "connecting to https://rpc.testnet.example/v2/k3y0…" in written
    assert saved
    for where in (text, written, *saved):
        assert KEY not in where


def test_an_unregistered_key_in_a_url_is_redacted_too() -> None:
    unknown = "abcdefghijklmnopqrstuvwxyz0123"
    assert unknown not in SECRETS.scrub(f"GET https://node.example/{unknown} failed")


def test_the_previous_run_left_running_is_offered(qtbot: QtBot, tmp_path: Path) -> None:
    (tmp_path / "explorer.log").write_text("last words of the previous run\n")
    (tmp_path / diagnostics.RUNNING_MARKER).write_text("1\n")
    found = diagnostics.setup("INFO", tmp_path / "explorer.log")
    crash = CrashReporter(found)
    try:
        assert crash.offer_previous_report()
        qtbot.waitUntil(lambda: crash.dialog is not None, timeout=WAIT)
        assert "last words of the previous run" in report_text(crash)
    finally:
        if crash.dialog is not None:
            crash.dialog.close()
        for handler in list(logging.getLogger().handlers):
            if getattr(handler, "baseFilename", "").startswith(str(tmp_path)):
                logging.getLogger().removeHandler(handler)
                handler.close()


def test_a_clean_exit_offers_nothing(tmp_path: Path) -> None:
    found = Diagnostics(None, diagnostics.TailHandler(), tmp_path)
    found.mark_running()
    found.mark_clean_exit()
    assert not (tmp_path / diagnostics.RUNNING_MARKER).exists()


NATIVE_CRASH = """
import faulthandler, sys
from pathlib import Path
from explorer.diagnostics import log as diagnostics
found = diagnostics.setup("INFO", Path(sys.argv[1]))
found.mark_running()
faulthandler._sigsegv()
"""


def test_a_native_crash_is_written_to_the_log_and_reported_next_time(tmp_path: Path) -> None:
    log_file = tmp_path / "explorer.log"
    crashed = subprocess.run(
        [sys.executable, "-c", NATIVE_CRASH, str(log_file)], capture_output=True, check=False
    )
    assert crashed.returncode != 0
    assert "Segmentation fault" in log_file.read_text()
    found = Diagnostics(None, diagnostics.TailHandler(), tmp_path)
    found.previous_lines = diagnostics.last_lines(log_file)
    report = diagnostics.previous_crash_report(found)
    assert report is not None
    assert "Segmentation fault" in report
