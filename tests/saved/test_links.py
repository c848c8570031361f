"""Parent links walked down a saved run: where it breaks, and each block read once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from explorer.saved import sql
from explorer.saved.links import BrokenLink, RunMemo, broken_link
from explorer.saved.rules import block_key
from explorer.saved.schema import CHAIN_FILE, Row
from explorer.saved.sqlite_file import open_database


def hashed(mark: int, number: int) -> str:
    """Return the hash of a branch's block (mark 0: the honest chain)."""
    return f"0x{mark:02x}{number:062x}"


def save(db: sqlite3.Connection, number: int, mark: int = 0, parent_mark: int = 0) -> None:
    """Save a block of a branch whose parent is of parent_mark's branch."""
    block = {"number": hex(number), "hash": hashed(mark, number)}
    block["parentHash"] = hashed(parent_mark, number - 1)
    body = json.dumps({"result": block}).encode()
    row = Row(block_key(block["hash"], False), number, block["hash"], body, canonical=True)
    sql.put_rows(db, [row], None)


def saved_run(tmp_path: Path) -> sqlite3.Connection:
    """Return a file holding the honest blocks 90 to 110."""
    db = open_database(tmp_path / "chain.sqlite3", CHAIN_FILE, 1.0)
    for number in range(90, 111):
        save(db, number)
    return db


def test_a_run_that_links_all_the_way_down_is_not_broken(tmp_path: Path) -> None:
    """Block 111's parent is 110, whose ancestors link down to 90: nothing to drop."""
    assert broken_link(saved_run(tmp_path), 111, hashed(0, 110), RunMemo()) is None


def test_a_block_deep_in_the_run_that_is_not_its_childs_parent_is_found(tmp_path: Path) -> None:
    """Block 95 replaced by a forgery under an honest 96: found from 111, 16 blocks above."""
    db = saved_run(tmp_path)
    save(db, 95, mark=0xF0)
    found = broken_link(db, 111, hashed(0, 110), RunMemo())
    assert found == BrokenLink(95, hashed(0xF0, 95), hashed(0, 95))


def test_a_walked_run_is_not_read_again_but_a_block_saved_below_it_is_checked(
    tmp_path: Path,
) -> None:
    """The memo jumps to the run's bottom; a forged block saved under the bottom is still found."""
    db = saved_run(tmp_path)
    memo = RunMemo()
    assert broken_link(db, 111, hashed(0, 110), memo) is None
    assert memo.bottoms[hashed(0, 110)] == (90, hashed(0, 89))
    save(db, 89, mark=0xF0)
    found = broken_link(db, 111, hashed(0, 110), memo)
    assert found == BrokenLink(89, hashed(0xF0, 89), hashed(0, 89))


def test_a_run_whose_bottom_body_was_evicted_ends_there_and_is_walked_once(
    tmp_path: Path,
) -> None:
    """Block 95's body went (evicted), its height → hash kept: the walk stops at it, twice.

    The memo once sent the second walk back to 95 itself: it went round for 100,000 steps
    (about 2 s of the saved data's thread for every block read under a small size limit).
    """
    db = saved_run(tmp_path)
    db.execute("DELETE FROM answers WHERE key = ?", (block_key(hashed(0, 95), False),))
    memo = RunMemo()
    assert broken_link(db, 111, hashed(0, 110), memo) is None
    reads: list[str] = []
    db.set_trace_callback(reads.append)
    assert broken_link(db, 111, hashed(0, 110), memo) is None
    assert len(reads) < 10
