"""A SQLite connection used on a worker thread of its own, never on the GUI thread."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class SqliteWorker:
    """One connection, opened on first use by open_db, every call on one thread."""

    def __init__(self, open_db: Callable[[], sqlite3.Connection], name: str) -> None:
        self._open_db = open_db
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._db: sqlite3.Connection | None = None

    def connection(self) -> sqlite3.Connection:
        """Return the connection, opening it first (worker thread)."""
        if self._db is None:
            self._db = self._open_db()
        return self._db

    @property
    def is_open(self) -> bool:
        """Tell whether the connection is open."""
        return self._db is not None

    def forget(self) -> None:
        """Close the connection; the next call opens it again (worker thread)."""
        if self._db is not None:
            self._db.close()
            self._db = None

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run function(connection, *args) on the worker thread and return its result."""
        return await self.call(lambda: function(self.connection(), *args))

    async def call(self, function: Callable[[], T]) -> T:
        """Run function() on the worker thread (it may use connection() and forget())."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, function)

    async def aclose(self) -> None:
        """Close the connection and stop the thread."""
        await self.call(self.forget)
        self._executor.shutdown(wait=False)
