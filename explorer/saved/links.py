"""Parent links walked back through a saved run: a block deep in it that breaks the chain.

A new block's parent is compared with the saved block at its height, and so on down: each
saved block's own parent hash with the saved block below it, for as long as the saved run of
settled heights goes. The first height whose saved block is not the parent the block above it
names is where the run is broken (a forged or replaced block): everything from there up is
dropped. No request: only the saved bodies are read, each once per process (`RunMemo`).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from dataclasses import dataclass, field

from explorer.chain.hexutil import HexFormatError, parse_hash
from explorer.saved.rules import block_key

WALK_LIMIT = 100_000  # saved blocks walked at most per new block (far beyond any file's run)
#: Where a walk goes on below a saved block whose body is gone: nowhere (a memo's bottom at 0).
RUN_ENDS = (-1, "")


@dataclass
class RunMemo:
    """Saved blocks already walked: each one's run bottom (height, the parent it names)."""

    bottoms: dict[str, tuple[int, str]] = field(default_factory=dict)


def saved_parent(db: sqlite3.Connection, block_hash: str) -> str | None:
    """Return the parent hash a saved block names (its bare or its full body), or None."""
    for full in (False, True):
        row = db.execute("SELECT body FROM answers WHERE key = ?", (block_key(block_hash, full),))
        found = row.fetchone()
        if found is None:
            continue
        try:
            parent = json.loads(zlib.decompress(found[0]))["result"]["parentHash"]
            return parse_hash(parent, "parent hash")
        except (ValueError, KeyError, TypeError, HexFormatError, zlib.error):
            return None
    return None


@dataclass(frozen=True)
class BrokenLink:
    """A saved block that is not the parent the saved (or new) block above it names."""

    number: int
    saved_hash: str
    named_hash: str


def broken_link(
    db: sqlite3.Connection, number: int, parent_hash: str, memo: RunMemo
) -> BrokenLink | None:
    """Walk a block's saved ancestors down; return the first link that breaks.

    None when the run links all the way down (or nothing is saved below the block).
    """
    walked: list[str] = []
    height, expected = number - 1, parent_hash
    for _step in range(WALK_LIMIT):
        if height < 0:
            break
        row = db.execute("SELECT hash FROM canon WHERE number = ?", (height,)).fetchone()
        if row is None:
            break  # the end of the saved run
        saved = str(row[0])
        if saved != expected:
            return BrokenLink(height, saved, expected)
        walked.append(saved)
        bottom = memo.bottoms.get(saved)
        if bottom is not None:
            height, expected = bottom[0] - 1, bottom[1]  # walked before: on from its bottom
            continue
        parent = saved_parent(db, saved)
        if parent is None:  # the map without its block (evicted): the run ends here
            height, expected = RUN_ENDS
            break
        height, expected = height - 1, parent
    end = (height + 1, expected)
    for block_hash in walked:
        memo.bottoms[block_hash] = end
    return None
