"""The devnet's clock: the seeded history's newest blocks are dated to the devnet's start.

The seeded history is built once, at fixed times (January 2025), so that its blocks and their
hashes stay the same from build to build. Served as they are, the newest of them would be
months or years old beside the blocks a devnet mines now. So when a devnet serves the seeded
history afresh (not a kept chain), its newest DATED_COUNT blocks are moved forward, once, so
that its head is dated to the moment the devnet started, each block still BLOCK_INTERVAL after
its parent; their uncles, merge-mining fields and hashes are made again (transactions, receipts
and state stay). The blocks before them, the genesis block among them, keep their dates: the
step between the two sits DATED_COUNT blocks deep, below what the home page shows. The blocks
a devnet mines then follow at the time they are mined.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence

from explorer.devnet.blockdata import DevBlock
from explorer.devnet.blocks import retimed_block
from explorer.devnet.seed import seeded_timestamp

DATED_COUNT = 128  # the shipped recent blocks (recent.py): served dated from the first second


@functools.cache
def started_at() -> int:
    """Return the Unix time this process first asked: one clock for all its networks and nodes."""
    return int(time.time())


def is_seeded(blocks: Sequence[DevBlock], head_at_build: int) -> bool:
    """Tell whether blocks end with the seeded history's head at its seeded time (not moved)."""
    head = blocks[-1]
    return head.number == head_at_build and head.timestamp == seeded_timestamp(head.number)


def dated_to_start(blocks: Sequence[DevBlock], now: int | None = None) -> list[DevBlock]:
    """Return the seeded blocks given (the newest of a history) moved so the last one is at now.

    The first block keeps its parent; every later one is chained to the block moved before it.
    """
    if not blocks:
        return []
    shift = (started_at() if now is None else now) - blocks[-1].timestamp
    moved: list[DevBlock] = []
    parent_hash = blocks[0].parent_hash
    for block in blocks:
        moved.append(retimed_block(block, parent_hash, block.timestamp + shift))
        parent_hash = moved[-1].hash
    return moved


def dated_chain(blocks: list[DevBlock], head_at_build: int) -> list[DevBlock]:
    """Return a whole chain with its newest seeded blocks dated to the start (if not yet)."""
    if not is_seeded(blocks, head_at_build):
        return blocks  # a kept chain: moved when it was first served, or mined on since
    first = max(1, len(blocks) - DATED_COUNT)
    return [*blocks[:first], *dated_to_start(blocks[first:])]
