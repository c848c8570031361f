"""The order of the Logs table's rows: a key per row and column, read from the node's JSON.

Rows are kept in the order shown, with their keys beside them, so that rows streaming in go
to their place (`place`); a header click orders every row again, a slice per loop turn for a
big table (`ordered`).
"""

from __future__ import annotations

import asyncio
import bisect
import heapq
import itertools
import json
import time
from collections.abc import Sequence
from typing import Any

from explorer.chain.abi import event_name_of

Key = tuple[Any, ...]
SLICE_SECONDS = 0.008  # work done between two turns of the GUI thread's event loop
CHUNK = 4096  # rows sorted at once before the sorted runs are merged
BLOCK, TX, LOG_INDEX, ADDRESS, EVENT, ARGS, TOPIC0, TOPIC1, TOPIC2, TOPIC3, DATA = range(11)


def row_key(raw: dict[str, Any], column: int) -> Key:
    """Return a row's key in a column; its block and log index break ties."""
    block, index = int(raw.get("blockNumber") or "0x0", 16), int(raw.get("logIndex") or "0x0", 16)
    topics = list(raw.get("topics") or ())
    if column in (BLOCK, -1):
        return (block, index)
    if column == LOG_INDEX:
        return (index, block)
    if column == EVENT:
        value: Any = event_name_of(topics[0], len(topics)) if topics else ""
    elif column == ARGS:  # by event, then the arguments' bytes (amounts by size: fixed width)
        value = (event_name_of(topics[0], len(topics)) if topics else "", topics[1:], raw["data"])
    elif TOPIC0 <= column <= TOPIC3:
        value = topics[column - TOPIC0] if column - TOPIC0 < len(topics) else ""
    else:
        field = {TX: "transactionHash", ADDRESS: "address", DATA: "data"}[column]
        value = str(raw.get(field) or "").lower()
    return (value, block, index)


def place(keys: Sequence[Key], key: Key, descending: bool) -> int:
    """Return where a key goes among keys kept in order (after its equals)."""
    if not descending:
        return bisect.bisect_right(keys, key)
    low, high = 0, len(keys)
    while low < high:
        middle = (low + high) // 2
        if keys[middle] < key:
            high = middle
        else:
            low = middle + 1
    return low


class Slicer:
    """Yields to the event loop once a slice of work has taken SLICE_SECONDS."""

    def __init__(self) -> None:
        self._since = time.perf_counter()

    async def turn(self) -> None:
        """Let the GUI thread run if this slice has lasted long enough."""
        if time.perf_counter() - self._since >= SLICE_SECONDS:
            await asyncio.sleep(0)
            self._since = time.perf_counter()


def ordered_now(
    raws: Sequence[bytes], column: int, descending: bool
) -> tuple[list[int], list[Key]]:
    """Return the order of rows by a column (row numbers) and their keys, at once."""
    keys = [row_key(json.loads(raw), column) for raw in raws]
    order = sorted(range(len(raws)), key=keys.__getitem__, reverse=descending)
    return order, [keys[row] for row in order]


async def ordered(
    raws: Sequence[bytes], column: int, descending: bool
) -> tuple[list[int], list[Key]]:
    """Return the order of rows by a column (row numbers) and their keys, in slices.

    Keys are read a few hundred rows at a time; runs of CHUNK rows are sorted and merged a
    CHUNK at a time, so no step keeps the GUI thread for long.
    """
    slicer = Slicer()
    keys: list[Key] = []
    for first in range(0, len(raws), 256):
        keys.extend(row_key(json.loads(raw), column) for raw in raws[first : first + 256])
        await slicer.turn()
    runs = []
    for first in range(0, len(keys), CHUNK):
        run = range(first, min(first + CHUNK, len(keys)))
        runs.append(sorted(run, key=keys.__getitem__, reverse=descending))
        await slicer.turn()
    merged = heapq.merge(*runs, key=keys.__getitem__, reverse=descending)
    order: list[int] = []
    while chunk := list(itertools.islice(merged, CHUNK)):
        order.extend(chunk)
        await slicer.turn()
    return order, [keys[row] for row in order]
