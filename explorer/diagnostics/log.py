"""Logging to a rotating file, native crashes into it, secrets scrubbed, and crash reports."""

from __future__ import annotations

import contextlib
import faulthandler
import io
import logging
import os
import platform
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import metadata
from logging.handlers import RotatingFileHandler
from pathlib import Path

import platformdirs

from explorer import __version__
from explorer.chain.secrets import SHORTEST, scrub
from explorer.saved.files import create_private, open_private, private_directory, write_private

APP = "explorer"
LOG_NAME = "explorer.log"
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3
TAIL_LINES = 200
RUNNING_MARKER = "running"  # present while the window runs; left behind by a crash
REPORT_PREFIX = "crash-"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: The libraries whose versions a report and the About dialog show (distribution names).
LIBRARIES = ("PySide6-Essentials", "qasync", "httpx", "aiohttp", "eth-abi", "eth-utils", "py-evm")


def log_dir() -> Path:
    """Return the platform's log directory for the app (created on use)."""
    return Path(platformdirs.user_log_dir(APP, appauthor=False))


class Secrets:
    """The secrets to hide from every log line and report; keys are added as they are used."""

    def __init__(self) -> None:
        self._values: set[str] = set()

    def add(self, secret: str) -> None:
        """Remember a secret (empty or very short strings are ignored)."""
        if len(secret) >= SHORTEST:
            self._values.add(secret)

    def scrub(self, text: str) -> str:
        """Return text with no part of a key: known ones in any form, masked ones, key-like URLs."""
        return scrub(text, self._values, masks=True, key_segments=True)


SECRETS = Secrets()


class ScrubbingFormatter(logging.Formatter):
    """A formatter whose output (message and traceback) has the secrets redacted."""

    def format(self, record: logging.LogRecord) -> str:
        """Format the record, then scrub it."""
        return SECRETS.scrub(super().format(record))


class TailHandler(logging.Handler):
    """Keep the last lines logged, for crash reports."""

    def __init__(self, lines: int = TAIL_LINES) -> None:
        super().__init__()
        self.lines: deque[str] = deque(maxlen=lines)

    def emit(self, record: logging.LogRecord) -> None:
        """Remember one formatted record (each of its lines)."""
        with contextlib.suppress(Exception):
            self.lines.extend(self.format(record).splitlines())


class NativeCrashFile(RotatingFileHandler):
    """The rotating log file (each one 0600); faulthandler writes a native crash's stacks in it."""

    def _open(self) -> io.TextIOWrapper:
        """Open the current file, created private."""
        return open_private(Path(self.baseFilename), "a")

    def enable_faulthandler(self) -> None:
        """Point faulthandler at the current file."""
        if self.stream is not None:
            faulthandler.enable(self.stream, all_threads=True)

    def doRollover(self) -> None:  # noqa: N802 (the logging API names it so)
        """Rotate, then follow the new file with faulthandler."""
        super().doRollover()
        self.enable_faulthandler()


@dataclass
class Diagnostics:
    """What logging was set up with: the file, the tail kept for reports, the marker."""

    log_file: Path | None
    tail: TailHandler
    directory: Path
    previous_lines: list[str] | None = None  # the crashed previous run's last log lines
    endpoint: Callable[[], str] = field(default=lambda: "none")

    @property
    def marker(self) -> Path:
        """Return the file present while the window runs."""
        return self.directory / RUNNING_MARKER

    def mark_running(self) -> None:
        """Leave the marker a crash would leave behind."""
        with contextlib.suppress(OSError):
            write_private(self.marker, f"{os.getpid()}\n")

    def mark_clean_exit(self) -> None:
        """Remove the marker: this run ended normally."""
        self.marker.unlink(missing_ok=True)

    def report(self, title: str, details: str) -> str:
        """Compose a report: versions, platform, endpoint, details and the last log lines."""
        lines = [
            f"Rootstock Explorer {__version__}: {title}",
            f"Time: {time.strftime('%Y-%m-%d %H:%M:%S %z')}",
            f"Platform: {platform.platform()} ({platform.machine()})",
            f"Frozen: {'yes' if getattr(sys, 'frozen', False) else 'no'}",
            *(f"{name}: {version}" for name, version in versions().items()),
            f"Endpoint: {self.endpoint()}",
            f"Log file: {self.log_file or 'none'}",
            "",
            details.rstrip(),
            "",
            f"Last {len(self.tail.lines)} log lines:",
            *self.tail.lines,
        ]
        return SECRETS.scrub("\n".join(lines) + "\n")

    def save_report(self, text: str) -> Path | None:
        """Write a report beside the log file, private; return its path (None when it cannot)."""
        path = self.directory / f"{REPORT_PREFIX}{time.strftime('%Y%m%d-%H%M%S')}.txt"
        try:
            private_directory(self.directory)
            write_private(path, SECRETS.scrub(text))
        except OSError:
            return None
        return path


def versions(libraries: Iterable[str] = LIBRARIES) -> dict[str, str]:
    """Return the versions of the app, Python, Qt and the key libraries."""
    found = {"Explorer": __version__, "Python": platform.python_version()}
    with contextlib.suppress(ImportError):
        from PySide6.QtCore import qVersion

        found["Qt"] = qVersion()
    for name in libraries:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def setup(level: str = "INFO", log_file: Path | None = None) -> Diagnostics:
    """Log to a rotating file (and a tail for reports); faulthandler into the same file."""
    path = log_file or log_dir() / LOG_NAME
    directory = path.parent
    previous_lines = last_lines(path) if (directory / RUNNING_MARKER).exists() else None
    formatter = ScrubbingFormatter(LOG_FORMAT)
    tail = TailHandler()
    tail.setFormatter(formatter)
    root = logging.getLogger()
    root.setLevel(level)
    root.addHandler(tail)
    try:
        private_directory(directory)
        for written in (path, *(Path(f"{path}.{n}") for n in range(1, LOG_BACKUPS + 1))):
            if written.exists():
                create_private(written)  # a log an older version left readable to others
        handler = NativeCrashFile(
            path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
        )
    except OSError as error:
        print(f"explorer: cannot write the log file {path}: {error}", file=sys.stderr)
        return Diagnostics(None, tail, directory, previous_lines)
    handler.setFormatter(formatter)
    root.addHandler(handler)
    handler.enable_faulthandler()
    return Diagnostics(path, tail, directory, previous_lines)


def last_lines(path: Path, count: int = TAIL_LINES) -> list[str]:
    """Return the last lines of a text file ([] when it cannot be read)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as handle:
            return list(deque(handle, maxlen=count))
    except OSError:
        return []


def previous_crash_report(diagnostics: Diagnostics) -> str | None:
    """Compose the report of a run that ended without closing (None after a clean exit)."""
    if diagnostics.previous_lines is None:
        return None
    details = (
        "The previous run ended without closing. Its last log lines (and the stacks of a\n"
        "native crash, which faulthandler writes there) follow.\n\n"
    )
    report = diagnostics.report("the previous run ended unexpectedly", details)
    return report + "".join(diagnostics.previous_lines)
