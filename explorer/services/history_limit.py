"""The most an address's history run spends before it stops to ask again (its estimate's limit).

Before a probe request goes out, the run's spending so far plus what the work under way may
still take must stay within the limit: the probes in flight and the changes they may pin (a
piece one block wide between two probed blocks), the changes pinned and not attributed yet
(PER_CHANGE each) and the sent transactions' receipts not read yet. Work in flight is waited
for; when nothing is in flight and the next request would still pass the limit, the run
pauses and says so, until `raise_to` gives a new limit.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from explorer.services.balance_search import SearchProgress, search_bound
from explorer.services.history_plan import PER_CHANGE, allowed_changes, probe_limit


class SearchLimit:
    """Holds a run's requests below a limit; pauses it there (None: no limit)."""

    def __init__(
        self, spent: Callable[[], int], limit: int | None, on_pause: Callable[[], None]
    ) -> None:
        self.spent = spent
        self.limit = limit
        self.on_pause = on_pause
        self.paused = False
        self.probing = 0  # probes sent and not answered
        self.may_pin = 0  # changes the probes in flight may pin
        self.pinned = 0  # changes pinned and not attributed yet
        self.receipts_left = 0  # receipts of sent transactions not read yet
        self._changed = asyncio.Condition()

    def reserve(self, probes: int = 0, may_pin: int = 0) -> int:
        """Return what the work under way, and a request of more probes, may still cost."""
        pins = self.may_pin + may_pin + self.pinned
        return 2 * (self.probing + probes) + PER_CHANGE * pins + self.receipts_left

    def fits(self, probes: int, may_pin: int) -> bool:
        """Tell whether a request of probes stays within the limit, whatever it finds."""
        limit = self.limit
        return limit is None or self.spent() + self.reserve(probes, may_pin) <= limit

    async def admit(self, probes: int, may_pin: int) -> None:
        """Wait until a request of probes fits; pause when nothing else can free room."""
        async with self._changed:
            while not self.fits(probes, may_pin):
                if not self.probing and not self.pinned and not self.paused:
                    self.paused = True
                    self.on_pause()
                await self._changed.wait()
            self.probing += probes
            self.may_pin += may_pin

    async def answered(self, probes: int, may_pin: int, pinned: int) -> None:
        """Note a probe request answered, and the changes it pinned."""
        async with self._changed:
            self.probing -= probes
            self.may_pin -= may_pin
            self.pinned += pinned
            self._changed.notify_all()

    async def attributed(self, changes: int, receipts: int) -> None:
        """Note changes attributed (their blocks, logs and `receipts` sent receipts read)."""
        async with self._changed:
            self.pinned -= changes
            self.receipts_left = max(0, self.receipts_left - receipts)
            self._changed.notify_all()

    async def raise_to(self, limit: int | None) -> None:
        """Go on with a new limit (None: none)."""
        async with self._changed:
            self.limit = limit
            self.paused = False
            self._changed.notify_all()


@dataclass(frozen=True)
class Continuation:
    """What going on past a limit costs: guessed from the changes found in the blocks settled."""

    spent: int
    found: int
    ahead: int  # changes at least still to pin (one in each range still to split)
    fraction: float  # of the blocks settled
    expected: int  # requests to the end, about
    limit: int  # the next limit (spent included)

    def text(self) -> str:
        """Return the pause as a sentence (the page and the command line show it)."""
        return (
            f"The balance changed in more blocks than the account's transactions explain: "
            f"{self.found:,} changes pinned and at least {self.ahead:,} more ahead after "
            f"{self.spent:,} requests, {self.fraction:.0%} of the blocks searched. "
            f"Going on costs about {self.expected:,} more requests; it stops again before "
            f"{self.limit:,} in all."
        )


def continuation(progress: SearchProgress, spent: int, limit: SearchLimit) -> Continuation:
    """Return the cost of going on: the unsettled blocks at the density found so far.

    Each range still to split holds a change at least, so the changes ahead are at least those
    ranges, and as many as the settled blocks' density promises for the rest.
    """
    fraction = progress.fraction
    left = max(progress.blocks_total - progress.blocks_done, 1)
    settled = max(progress.blocks_done, 1)
    changes = max(1, progress.open_ranges, round(progress.changes * left / settled))
    expected = search_bound(changes, left) + PER_CHANGE * changes
    allowed = allowed_changes(changes)
    more = 2 * probe_limit(allowed, left) + PER_CHANGE * allowed + limit.reserve()
    ahead = progress.open_ranges
    return Continuation(spent, progress.changes, ahead, fraction, expected, spent + more)
