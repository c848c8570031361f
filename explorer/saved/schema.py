"""A chain's saved-data file: its tables and their versions, its identity, eviction, drops."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from explorer.saved.sqlite_file import FileSchema, Migration, statements

IDENTITY_VERSION = "1"  # the `schema` row older explorers check beside the chain's identity
EVICT_TO = 0.9  # beyond the limit, the least recently used go until this share of it is left
EVICT_STEP = 200  # rows deleted per step of an eviction

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    key TEXT NOT NULL UNIQUE,
    number INTEGER,
    block_hash TEXT,
    body BLOB NOT NULL,
    json_size INTEGER NOT NULL,
    used REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS answers_number ON answers (number);
CREATE INDEX IF NOT EXISTS answers_used ON answers (used);
CREATE TABLE IF NOT EXISTS canon (number INTEGER PRIMARY KEY, hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS log_segments (
    filter TEXT NOT NULL,
    first INTEGER NOT NULL,
    last INTEGER NOT NULL,
    body BLOB NOT NULL,
    json_size INTEGER NOT NULL,
    used REAL NOT NULL,
    UNIQUE (filter, first)
);
CREATE INDEX IF NOT EXISTS log_segments_last ON log_segments (last);
CREATE INDEX IF NOT EXISTS log_segments_used ON log_segments (used);
CREATE TABLE IF NOT EXISTS records (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    number INTEGER,
    body BLOB NOT NULL,
    json_size INTEGER NOT NULL,
    used REAL NOT NULL,
    UNIQUE (kind, key)
);
CREATE INDEX IF NOT EXISTS records_number ON records (number);
CREATE INDEX IF NOT EXISTS records_used ON records (used);
"""


@dataclass(frozen=True)
class Row:
    """An answer to keep: its key, the block it rests on, the body as the node sent it.

    `canonical`: the block is settled, so its height → hash goes into the map.
    """

    key: str
    number: int | None
    block_hash: str | None
    body: bytes
    canonical: bool = False


@dataclass(frozen=True)
class Segment:
    """A filter's logs over a settled range of blocks, as `{"result": [...]}` JSON."""

    filter_key: str
    first: int
    last: int
    body: bytes


CHAIN_FILE = FileSchema(
    "the saved data",
    (
        Migration(
            "answers, the number → hash map, log ranges, derived records", statements(_TABLES)
        ),
    ),
    new_file=("PRAGMA auto_vacuum = INCREMENTAL",),  # evicted pages go back to the disk
)


class WrongChain(sqlite3.DatabaseError):
    """The file holds another chain's data (a name clash): it must not be read."""


def check_identity(db: sqlite3.Connection, chain_id: int, genesis_hash: str) -> None:
    """Write a new file's chain identity, or check an old file's is this chain's (WrongChain)."""
    expected = {"schema": IDENTITY_VERSION, "chain_id": str(chain_id), "genesis": genesis_hash}
    db.execute("BEGIN IMMEDIATE")
    try:
        found = dict(
            db.execute("SELECT name, value FROM meta WHERE name IN (?, ?, ?)", tuple(expected))
        )
        if not found:
            db.executemany("INSERT INTO meta VALUES (?, ?)", expected.items())
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    if found and found != expected:
        raise WrongChain(f"the file holds {found}, not {expected}")


def used_bytes(db: sqlite3.Connection) -> int:
    """Return the bytes of the pages in use (the file less its free pages)."""
    pages = db.execute("PRAGMA page_count").fetchone()[0]
    free = db.execute("PRAGMA freelist_count").fetchone()[0]
    size = db.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def evict(db: sqlite3.Connection, limit: int) -> int:
    """Delete the least recently used rows until the file is within the limit; return how many."""
    if limit <= 0 or used_bytes(db) <= limit:
        return 0
    deleted = 0
    while used_bytes(db) > limit * EVICT_TO:
        oldest = db.execute(
            "SELECT 'answers', rowid, used FROM answers UNION ALL "
            "SELECT 'log_segments', rowid, used FROM log_segments UNION ALL "
            "SELECT 'records', rowid, used FROM records ORDER BY used LIMIT ?",
            (EVICT_STEP,),
        ).fetchall()
        if not oldest:
            break
        db.execute("BEGIN IMMEDIATE")
        for table, rowid, _used in oldest:
            db.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
        db.execute("COMMIT")
        deleted += len(oldest)
    db.execute("PRAGMA incremental_vacuum")
    return deleted


def drop_from(db: sqlite3.Connection, number: int) -> None:
    """Delete everything resting on a height or above: answers, map, log ranges, records."""
    db.execute("DELETE FROM answers WHERE number >= ?", (number,))
    db.execute("DELETE FROM canon WHERE number >= ?", (number,))
    db.execute("DELETE FROM log_segments WHERE last >= ?", (number,))
    db.execute("DELETE FROM records WHERE number >= ?", (number,))
