"""The SQL a chain's saved data runs on its worker thread: reads, writes, the map, clearing."""

from __future__ import annotations

import sqlite3
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from explorer.saved.rules import block_key
from explorer.saved.schema import CHAIN_FILE, Row, Segment
from explorer.saved.sqlite_file import open_database


@dataclass(frozen=True)
class SavedState:
    """What the file says about itself: when data was last saved, and the head then."""

    saved_at: float | None
    head: int | None


def compress(body: bytes) -> bytes:
    """Return a body as kept on disk."""
    return zlib.compress(body, 6)


def get(db: sqlite3.Connection, key: str) -> tuple[int, bytes] | None:
    """Read and unpack one answer with its row id (worker thread)."""
    row = db.execute("SELECT rowid, body FROM answers WHERE key = ?", (key,)).fetchone()
    return None if row is None else (int(row[0]), zlib.decompress(row[1]))


def has(db: sqlite3.Connection, key: str) -> bool:
    """Tell whether an answer is kept under key (worker thread)."""
    return db.execute("SELECT 1 FROM answers WHERE key = ?", (key,)).fetchone() is not None


def get_or_known(db: sqlite3.Connection, key: str, known: str) -> tuple[int, bytes] | None:
    """Read the answer under key; when there is none but one under known, a null answer."""
    found = get(db, key)
    if found is None and has(db, known):
        return (-1, NULL_ANSWER)
    return found


NULL_ANSWER = b'{"result":null}'


def write_touches(db: sqlite3.Connection, touched: list[tuple[str, int]]) -> None:
    """Write the recent uses of rows read since the last write (worker thread)."""
    now = time.time()
    for table in ("answers", "log_segments"):
        rowids = [(now, rowid) for kind, rowid in touched if kind == table]
        db.executemany(f"UPDATE {table} SET used = ? WHERE rowid = ?", rowids)


@dataclass(frozen=True)
class Anchored:
    """A kept answer with the block it rests on (height and hash, either possibly unknown)."""

    number: int | None
    block_hash: str | None
    body: bytes


def anchored(db: sqlite3.Connection, key: str) -> Anchored | None:
    """Read one answer with the block it rests on (worker thread)."""
    query = "SELECT number, block_hash, body FROM answers WHERE key = ?"
    row = db.execute(query, (key,)).fetchone()
    return None if row is None else Anchored(row[0], row[1], zlib.decompress(row[2]))


def anchored_block_at(db: sqlite3.Connection, number: int, full: bool) -> Anchored | None:
    """Read the settled block at a height with its hash, through the map (worker thread)."""
    row = db.execute("SELECT hash FROM canon WHERE number = ?", (number,)).fetchone()
    return None if row is None else anchored(db, block_key(str(row[0]), full))


def block_at(db: sqlite3.Connection, number: int, full: bool) -> tuple[int, bytes] | None:
    """Read the settled block at a height through the map (worker thread)."""
    row = db.execute("SELECT hash FROM canon WHERE number = ?", (number,)).fetchone()
    return None if row is None else get(db, block_key(str(row[0]), full))


def contradicted(db: sqlite3.Connection, sighted: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """Return the map's pairs at sighted heights whose hash differs (worker thread)."""
    found: list[tuple[int, str]] = []
    for number, block_hash in sighted:
        row = db.execute("SELECT hash FROM canon WHERE number = ?", (number,)).fetchone()
        if row is not None and row[0] != block_hash:
            found.append((number, str(row[0])))
    return found


def segments(
    db: sqlite3.Connection, filter_key: str, first: int, last: int
) -> list[tuple[int, Segment]]:
    """Return the segments of a filter overlapping first..last, unpacked (worker thread)."""
    rows = db.execute(
        "SELECT rowid, first, last, body FROM log_segments "
        "WHERE filter = ? AND first <= ? AND last >= ? ORDER BY first",
        (filter_key, last, first),
    ).fetchall()
    return [(r[0], Segment(filter_key, r[1], r[2], zlib.decompress(r[3]))) for r in rows]


def record(db: sqlite3.Connection, kind: str, key: str) -> bytes | None:
    """Read one derived record (worker thread)."""
    row = db.execute("SELECT body FROM records WHERE kind = ? AND key = ?", (kind, key)).fetchone()
    return None if row is None else zlib.decompress(row[0])


def saved_state(db: sqlite3.Connection) -> SavedState:
    """Read the saved time and head (worker thread)."""
    meta = dict(db.execute("SELECT name, value FROM meta WHERE name IN ('saved_at', 'head')"))
    saved_at = float(meta["saved_at"]) if "saved_at" in meta else None
    head = int(meta["head"]) if "head" in meta else None
    return SavedState(saved_at, head)


def json_size(db: sqlite3.Connection) -> int:
    """Return the uncompressed bytes of every body kept (worker thread)."""
    total = 0
    for table in ("answers", "log_segments", "records"):
        total += int(db.execute(f"SELECT coalesce(sum(json_size), 0) FROM {table}").fetchone()[0])
    return total


def put_rows(db: sqlite3.Connection, rows: list[Row], head: int | None) -> None:
    """Write answers and their blocks' heights (worker thread)."""
    now = time.time()
    for row in rows:
        packed = compress(row.body)
        db.execute(
            "INSERT OR REPLACE INTO answers (key, number, block_hash, body, json_size, used) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (row.key, row.number, row.block_hash, packed, len(row.body), now),
        )
        if row.canonical and row.number is not None and row.block_hash is not None:
            db.execute("INSERT OR REPLACE INTO canon VALUES (?, ?)", (row.number, row.block_hash))
    if head is not None:
        db.execute(
            "INSERT INTO meta VALUES ('head', ?) ON CONFLICT (name) DO UPDATE SET value = "
            "max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
            (str(head),),
        )


def put_segment(db: sqlite3.Connection, segment: Segment) -> None:
    """Write one filter's settled range (worker thread)."""
    packed = compress(segment.body)
    db.execute(
        "INSERT OR REPLACE INTO log_segments (filter, first, last, body, json_size, used) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (segment.filter_key, segment.first, segment.last, packed, len(segment.body), time.time()),
    )


def put_record(
    db: sqlite3.Connection, kind: str, key: str, body: bytes, number: int | None
) -> None:
    """Write one derived record (worker thread)."""
    db.execute(
        "INSERT OR REPLACE INTO records (kind, key, number, body, json_size, used) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (kind, key, number, compress(body), len(body), time.time()),
    )


def clear_file(path: Path, busy_timeout: float) -> None:
    """Empty a chain's database that this process has not opened (blocking: a worker thread)."""
    db = open_database(path, CHAIN_FILE, busy_timeout)
    try:
        db.execute("BEGIN IMMEDIATE")
        clear(db)
        db.execute("COMMIT")
        db.execute("PRAGMA incremental_vacuum")
    finally:
        db.close()


def clear(db: sqlite3.Connection) -> None:
    """Delete every kept answer, map entry, segment and record (worker thread)."""
    for table in ("answers", "canon", "log_segments", "records"):
        db.execute(f"DELETE FROM {table}")
    db.execute("DELETE FROM meta WHERE name IN ('head', 'saved_at')")
