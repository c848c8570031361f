"""A saved-data file used on its worker thread: a lock waited out, damage moved aside, both said.

Saved data is a copy of what the node says, so no failure of its file may stop a page: a
call that cannot use the file raises `FileUnavailable` and the caller asks the node instead.
A file another program holds locked (past the busy timeout) is never discarded: calls skip it
at once while it stays locked (`FileLocked`), and the owner's retries (`run(probing=True)`, or
any call once `retry_after` seconds have passed) find it free again. A damaged file (not a
database, corrupt, another chain's) is moved aside with its WAL and started afresh. A file
that cannot be used otherwise (a newer explorer's, a full or read-only disk) is left as it
is. Each is said once through `notice`: in the window's banner, or on stderr on the command
line.
"""

from __future__ import annotations

import sqlite3
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from explorer.saved.sqlite_file import damaged, locked, move_aside
from explorer.saved.sqlite_worker import SqliteWorker

T = TypeVar("T")
NoticeListener = Callable[[str], None]


class FileUnavailable(Exception):
    """The saved data cannot be used now (closed, damaged and rebuilt, or refused)."""


class FileLocked(FileUnavailable):
    """Another program holds the file locked: it is tried again later, never discarded."""


class GuardedFile:
    """One saved-data file, its connection on one worker thread; `what` names it in messages.

    retry_after: seconds after a lock when an ordinary call tries the file again (None: only
    the owner's probes do).
    """

    def __init__(
        self,
        path: Path,
        open_db: Callable[[], sqlite3.Connection],
        what: str,
        notice: NoticeListener,
        retry_after: float | None = None,
    ) -> None:
        self.path = path
        self.what = what
        self.notice = notice
        self.retry_after = retry_after
        self.moved_aside: list[Path] = []
        self.locked = False  # met a lock; calls skip the file until a retry finds it free
        self._locked_at = 0.0
        self.closed = False
        self._worker = SqliteWorker(open_db, "saved-data")
        self._told: set[str] = set()
        self._said: list[tuple[str, str]] = []  # (kind, message) found on the worker thread

    async def run(self, function: Callable[..., T], *args: Any, probing: bool = False) -> T:
        """Run function(db, *args) on the worker thread (opening the file first).

        While the file is known locked only a probing call (the owner's retry) waits for it.
        """
        if self.closed:
            raise FileUnavailable(f"{self.what} is closed")
        if self._skips(probing):
            raise FileLocked(f"{self.what} is locked by another program")
        try:
            return await self._worker.call(lambda: self._guarded(function, args, probing))
        except FileLocked:
            self._tell(
                "locked",
                f"{self.what} is locked by another program: pages are read from the node "
                "meanwhile, and it is used again once it is free.",
            )
            raise
        finally:
            while self._said:  # what the worker thread found, said on this (the loop's) thread
                self._tell(*self._said.pop(0))

    def _guarded(self, function: Callable[..., T], args: Sequence[Any], probing: bool) -> T:
        """Run on the open file: a lock is FileLocked, damage is moved aside (worker thread).

        Calls queued behind the one that met a lock skip the file at once (but a probe).
        """
        if self._skips(probing):
            raise FileLocked(f"{self.what} is locked by another program")
        try:
            result = function(self._worker.connection(), *args)
        except (sqlite3.Error, zlib.error, ValueError) as error:
            if locked(error):
                self.locked, self._locked_at = True, time.monotonic()
                raise FileLocked(f"{self.what} is locked by another program") from None
            self.locked = False  # whatever else went wrong, no lock is waited for any more
            if damaged(error) or not isinstance(error, sqlite3.Error):
                self._move_aside(str(error))
                raise FileUnavailable(f"{self.what} was damaged and is being rebuilt") from None
            self._worker.forget()
            said = f"{self.what} cannot be used ({error}): pages are read from the node."
            self._said.append(("refused", said))
            raise FileUnavailable(f"{self.what} cannot be used: {error}") from None
        except OSError as error:
            self.locked = False
            raise FileUnavailable(f"{self.path} cannot be used: {error}") from None
        self.locked = False
        return result

    def _skips(self, probing: bool) -> bool:
        """Tell whether a call skips the file: it is locked, and this is no time to try it."""
        if not self.locked or probing:
            return False
        after = self.retry_after
        return after is None or time.monotonic() - self._locked_at < after

    def _move_aside(self, reason: str) -> None:
        """Move the file (and its WAL) aside and start afresh (worker thread)."""
        self._worker.forget()
        aside = self.path.with_name(f"{self.path.name}.broken")
        try:
            aside = move_aside(self.path)
            self.moved_aside.append(aside)
            self._worker.connection()
        except (OSError, sqlite3.Error) as error:
            reason = f"{reason}; it could not be moved aside either ({error})"
        said = (
            f"{self.what} could not be used ({reason}). It was moved aside to {aside.name} "
            "and is rebuilt from the node as pages are opened."
        )
        self._said.append((f"moved aside {aside.name}", said))

    def _tell(self, kind: str, message: str) -> None:
        """Say a message of a kind once for this file (on the loop's thread)."""
        if kind not in self._told:
            self._told.add(kind)
            self.notice(message[:1].upper() + message[1:])

    async def aclose(self) -> None:
        """Close the file and stop the worker."""
        self.closed = True
        await self._worker.aclose()
