"""The one way the app keeps a SQLite file: private, WAL, its schema versioned and migrated.

Every store (each chain's saved data and their index, labels and bookmarks, request counts,
transactions seen) opens its file here, on its worker thread (`sqlite_worker.py`): created
0600 in a folder made 0700, a busy timeout, WAL, and `PRAGMA user_version` brought up to the
store's version by its migrations, all of them in one transaction. The version is the number
of migrations; a store's first migration is its schema as first released, written so that it
adopts a file from before versions were kept (version 0, tables already there) as it is. A
file of a newer version is left untouched (`NewerSchema`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from explorer.saved.files import PRIVATE_DIRECTORY, create_private

BUSY_TIMEOUT_SECONDS = 5.0  # another process's transaction is waited for this long
Step = str | Callable[[sqlite3.Connection], None]  # one SQL statement, or work on the file
_BUSY_CODES = frozenset((sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED))
_DAMAGE_CODES = frozenset((sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB))


@dataclass(frozen=True)
class Migration:
    """One version of a file's schema: the steps that bring the version before it here."""

    summary: str
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class FileSchema:
    """A store's file: its name in messages, its migrations, pragmas only an empty file takes."""

    name: str
    migrations: tuple[Migration, ...]
    new_file: tuple[str, ...] = ()  # e.g. auto_vacuum, which must precede the first table

    @property
    def version(self) -> int:
        """Return the version this explorer writes: one per migration."""
        return len(self.migrations)


def statements(script: str) -> tuple[str, ...]:
    """Return a script's statements, one step each (a migration runs in one transaction)."""
    return tuple(part.strip() for part in script.split(";") if part.strip())


class NewerSchema(sqlite3.DatabaseError):
    """The file was written by a newer explorer: it is left untouched."""

    @classmethod
    def of(cls, schema: FileSchema, found: int, path: Path | None = None) -> NewerSchema:
        """Return the error of a file at version found, newer than the schema's."""
        where = f" {path}" if path is not None else ""
        return cls(
            f"{schema.name[:1].upper()}{schema.name[1:]}{where} was written by a newer explorer "
            f"(version {found}; this one knows {schema.version}); it was left untouched"
        )


def locked(error: BaseException) -> bool:
    """Tell whether an error says another connection holds the file (it was waited for)."""
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _BUSY_CODES
    text = str(error)
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def damaged(error: BaseException) -> bool:
    """Tell whether an error says the file is no sound database (rather than busy or refused)."""
    if not isinstance(error, sqlite3.DatabaseError) or isinstance(error, NewerSchema):
        return False
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in _DAMAGE_CODES
    return not isinstance(error, sqlite3.OperationalError)


def migrate(db: sqlite3.Connection, schema: FileSchema) -> int:
    """Bring a file to the schema's version in one transaction; return the version it had.

    A current file is only read; two processes opening an old file at once migrate it once:
    the second waits for the first's transaction and then finds the file current.
    """
    if int(db.execute("PRAGMA user_version").fetchone()[0]) == schema.version:
        return schema.version
    db.execute("BEGIN IMMEDIATE")
    try:
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        if found > schema.version:
            raise NewerSchema.of(schema, found)
        for migration in schema.migrations[found:]:
            for step in migration.steps:
                if isinstance(step, str):
                    db.execute(step)
                else:
                    step(db)
        if found != schema.version:
            db.execute(f"PRAGMA user_version = {schema.version}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return found


def open_database(
    path: Path, schema: FileSchema, busy_timeout: float = BUSY_TIMEOUT_SECONDS
) -> sqlite3.Connection:
    """Open a store's file, created private, in WAL, at its schema's version (worker thread).

    A missing folder is made 0700 (an existing one is its owner's to tighten); the file and
    the WAL and shared-memory files SQLite makes beside it are 0600.
    """
    path.parent.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    db = sqlite3.connect(create_private(path), timeout=busy_timeout, isolation_level=None)
    try:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        if found > schema.version:  # before WAL, which would change the file
            raise NewerSchema.of(schema, found, path)
        if db.execute("PRAGMA page_count").fetchone()[0] == 0:
            for pragma in schema.new_file:
                db.execute(pragma)
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        migrate(db, schema)
    except BaseException:
        db.close()
        raise
    return db


def move_aside(path: Path) -> Path:
    """Rename a damaged file (with its WAL and shared memory) beside itself; return the name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.broken-{stamp}")
    if path.exists():
        path.replace(aside)
    for suffix in ("-wal", "-shm"):
        companion = path.with_name(path.name + suffix)
        if companion.exists():
            companion.replace(aside.with_name(aside.name + suffix))
    return aside
