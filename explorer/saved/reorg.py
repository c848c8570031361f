"""Reorganisations below the saved data: a settled height reported with another hash.

Every answer's heights and hashes (a block and its parent, a transaction's, receipt's or
log's block) are compared with what this session knows of the settled chain: at once for the
heights it has seen, on the store's worker for the others. A new block's parent link is then
walked down the saved run below it (`links.py`: each saved block's parent hash against the
saved block under it), so a forged block deep in the run is found too, without a request. A
contradiction drops everything resting on that height or above, in memory and in the file;
until the file has dropped it, nothing saved at or above that height is answered.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer.saved import rules
from explorer.saved.state import SessionState
from explorer.saved.store import ChainStore


@dataclass(frozen=True)
class Reorganised:
    """A settled height the node now reports with another hash: saved data from it dropped."""

    number: int
    old_hash: str
    new_hash: str


class ReorgWatch:
    """Watches a session's answers for replaced settled blocks; listeners hear each drop.

    forget_from(number) drops what the session holds in memory from a replaced height up.
    """

    def __init__(self, state: SessionState, forget_from: Callable[[int], None]) -> None:
        self.state = state
        self.forget_from = forget_from
        self.known: dict[int, str] = {}  # settled heights' hashes this session has seen
        self.invalid_from: int | None = None  # saved data from here up is not answered
        self.listeners: list[Callable[[Reorganised], None]] = []
        self._checks: set[asyncio.Future[None]] = set()

    def note(self, number: int | None, block_hash: str | None) -> None:
        """Remember a settled height's hash (saved, or answered from the saved data)."""
        if number is not None and block_hash is not None:
            self.known[number] = block_hash

    def stale(self, number: int | None) -> bool:
        """Tell whether saved data resting on a height may be from a replaced block."""
        return self.invalid_from is not None and number is not None and number >= self.invalid_from

    def watch(self, result: Any) -> None:
        """Compare the heights an answer reports with the known and saved chain.

        Every height, settled or not: a new block whose parent hash contradicts a saved block
        drops that block (and what rests on it), however young the new block is.
        """
        state = self.state
        unknown = []
        for number, block_hash in rules.sightings(result):
            seen = self.known.get(number)
            if seen is None:
                unknown.append((number, block_hash))
            elif seen != block_hash:
                self._replaced(number, seen, block_hash)
                return
        store = state.store
        if unknown and store is not None and state.writable:
            checking = asyncio.ensure_future(self._check(store, unknown, rules.parents(result)))
            self._checks.add(checking)
            checking.add_done_callback(self._checks.discard)

    async def _check(
        self, store: ChainStore, sighted: list[tuple[int, str]], parents: list[tuple[int, str]]
    ) -> None:
        """Compare heights with the saved map, then walk each block's saved ancestors down.

        Both on the store's worker thread; a contradiction drops from its height up.
        """
        contradicted = await store.contradicted(sighted)
        if contradicted:
            number, old_hash = min(contradicted)
            self._replaced(number, old_hash, dict(sighted)[number])
            return
        for number, parent_hash in parents:
            broken = await store.broken_link(number, parent_hash)
            if broken is not None:
                self._replaced(broken.number, broken.saved_hash, broken.named_hash)
                return

    def _replaced(self, number: int, old_hash: str, new_hash: str) -> None:
        """Drop everything from a replaced height: memory at once, the file on its worker."""
        lowest = number if self.invalid_from is None else min(number, self.invalid_from)
        self.invalid_from = lowest
        self.known = {n: h for n, h in self.known.items() if n < number}
        self.forget_from(number)
        store = self.state.store
        if store is not None:
            store.drop_from(number)
            done = asyncio.ensure_future(self._dropped(store, lowest))
            self._checks.add(done)
            done.add_done_callback(self._checks.discard)
        event = Reorganised(number, old_hash, new_hash)
        for listener in list(self.listeners):
            listener(event)

    async def _dropped(self, store: ChainStore, lowest: int) -> None:
        """Answer from the saved data again once the file has dropped what was replaced."""
        await store.written()
        if self.invalid_from == lowest:
            self.invalid_from = None
