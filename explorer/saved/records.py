"""Derived records: what other services work out and keep per chain beside the node's answers.

Token metadata and units, whether Multicall3 is deployed, revert reasons, address histories:
each a JSON value under its service's own kind and key, in the chain's saved data. A record
resting on a block is written once that block is N deep (held in memory until then) and is
dropped with it in a reorganisation.
"""

from __future__ import annotations

import json
from typing import Any

from explorer.saved.state import SessionState


class DerivedRecords:
    """A session's derived records: read from and kept in its chain's saved data."""

    def __init__(self, state: SessionState) -> None:
        self.state = state
        self._waiting: dict[tuple[str, str], tuple[Any, int]] = {}  # until N deep

    async def get(self, kind: str, key: str) -> Any:
        """Return a record kept for this chain (its JSON value), or None."""
        store = await self.state.usable()
        if store is None:
            return None
        body = await store.record(kind, key)
        try:
            return None if body is None else json.loads(body)
        except ValueError:
            return None

    def keep(self, kind: str, key: str, value: Any, number: int | None = None) -> None:
        """Keep a record resting on block `number` (None: on no block)."""
        state = self.state
        if number is not None and not state.settled(number):
            self._waiting[(kind, key)] = (value, number)
            return
        if state.store is not None and state.writable:
            state.store.put_record(kind, key, json.dumps(value).encode(), number)

    def promote(self) -> None:
        """Write the records held in memory whose block the head has now settled."""
        for (kind, key), (value, number) in list(self._waiting.items()):
            if self.state.settled(number):
                del self._waiting[(kind, key)]
                self.keep(kind, key, value, number)

    def forget_from(self, number: int) -> None:
        """Forget the records held in memory from a replaced height up."""
        self._waiting = {k: item for k, item in self._waiting.items() if item[1] < number}
