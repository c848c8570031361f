"""A file's own random salt, so the ids it keeps of endpoints and keys are hashed with it.

An id derived from a URL (and its API key) is never stored as a bare hash anyone could
recompute from a guessed key: the file keeps a random salt made when the file was (32 bytes,
in the file itself, which is 0600), and stores the keyed hash of the id. Each profile's file
has its own salt, so the same endpoint has unrelated ids in two profiles.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
from collections.abc import Callable

SALT_BYTES = 32
ID_CHARS = 32  # hex characters of a salted id kept
_CREATE = "CREATE TABLE IF NOT EXISTS salt (value BLOB NOT NULL)"


def salted(salt: bytes, text: str) -> str:
    """Return the id kept for text: its keyed hash with the file's salt."""
    return hmac.new(salt, text.encode(), hashlib.sha256).hexdigest()[:ID_CHARS]


def add_salt(db: sqlite3.Connection) -> bytes:
    """Make the file's salt when it has none (a migration step); return it."""
    db.execute(_CREATE)
    found = db.execute("SELECT value FROM salt").fetchone()
    if found is not None:
        return bytes(found[0])
    salt = secrets.token_bytes(SALT_BYTES)
    db.execute("INSERT INTO salt VALUES (?)", (salt,))
    return salt


def salt_of(db: sqlite3.Connection) -> bytes:
    """Return the file's salt (made by its migrations)."""
    return bytes(db.execute("SELECT value FROM salt").fetchone()[0])


def salt_column(table: str, column: str) -> Callable[[sqlite3.Connection], None]:
    """Return a migration step that replaces each bare id in a column by its salted id."""

    def step(db: sqlite3.Connection) -> None:
        salt = add_salt(db)
        bare = [str(row[0]) for row in db.execute(f"SELECT DISTINCT {column} FROM {table}")]
        db.executemany(
            f"UPDATE {table} SET {column} = ? WHERE {column} = ?",
            [(salted(salt, value), value) for value in bare],
        )

    return step
