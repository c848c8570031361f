"""Before an address's history is searched: the range, what is already known, and the cost.

The opening request asks, in one batch, the code at the newest block and the account's state
at both ends of the range still to search (with a stored history, the end it stopped at, to
check that the chain it knew is still this one). From the change of nonce it estimates what
the search will cost, so that a search costing more than a few hundred requests is asked
for first; and a node that cannot tell an old state is found out before anything else.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from explorer.services.balance_search import search_bound
from explorer.services.probes import (
    PROBES_PER_BATCH,
    AccountState,
    Contradiction,
    OldStateMissing,
)
from explorer.services.token_history import FIRST_SEGMENT, segments

CONFIRM_ABOVE = 300  # requests: a search costing more is shown with its cost and asked for


class Scope(enum.Enum):
    """Which assets a history covers (`--assets`)."""

    ALL = "all"
    NATIVE = "native"
    TOKENS = "tokens"

    @property
    def native(self) -> bool:
        """Tell whether native balance changes are searched."""
        return self is not Scope.TOKENS

    @property
    def tokens(self) -> bool:
        """Tell whether token transfers are scanned."""
        return self is not Scope.NATIVE


@dataclass(frozen=True)
class Estimate:
    """What the search is expected to cost, in requests (and reads, a read being one call).

    `changes_known` says whether the number of changes is known (from a stored history) or only
    guessed from the nonce (then the cost is a lower bound).
    """

    blocks: int
    changes: int
    changes_known: bool
    native_reads: int
    native_requests: int
    token_requests: int
    scan_requests: int  # reading every block instead (the fallback without old state)

    @property
    def requests(self) -> int:
        """Return the requests the whole search should take."""
        return self.native_requests + self.token_requests

    @property
    def needs_confirmation(self) -> bool:
        """Tell whether the search costs more than a few hundred requests."""
        return self.requests > CONFIRM_ABOVE

    def text(self) -> str:
        """Return the estimate as a sentence."""
        about = "about" if self.changes_known else "at least"
        return (
            f"Searching {self.blocks:,} blocks costs {about} {self.requests:,} requests "
            f"({self.native_reads:,} balance and nonce reads, {self.token_requests:,} log "
            f"queries, one block read per change); reading every block would take "
            f"{self.scan_requests:,}."
        )


@dataclass(frozen=True)
class OldStateVerdict:
    """Balance and nonce answers cannot be used: why, and what the block scan would cost.

    Either the node keeps no old state, or (`contradicts`) it contradicted itself.
    """

    reason: str
    blocks: int
    contradicts: bool = False

    @classmethod
    def of(cls, missing: OldStateMissing, blocks: int) -> OldStateVerdict:
        """Return the verdict on what stopped a search over blocks."""
        if isinstance(missing, Contradiction):
            return cls(missing.reason, blocks, contradicts=True)
        return cls(f"block {missing.block:,}: {missing.reason}", blocks)

    def text(self) -> str:
        """Return the verdict as the sentence the page and the command line show."""
        if self.contradicts:
            why = (
                f"This node contradicts itself ({self.reason}), so its balances and nonces "
                "cannot be searched."
            )
        else:
            why = (
                f"This node does not serve old state ({self.reason}), so balance changes cannot "
                "be found by search."
            )
        return (
            f"{why} Reading every block instead costs {self.blocks:,} requests; it finds the "
            "address's transactions, not value moved by contracts or REMASC."
        )


@dataclass(frozen=True)
class Opening:
    """What the opening request found: the range to search and the states at its ends."""

    low: int  # the search covers blocks low+1..high
    high: int
    first: AccountState | None  # after block low (None without old state)
    last: AccountState
    has_code: bool
    old_state: OldStateVerdict | None = None

    @classmethod
    def without_old_state(
        cls, low: int, high: int, last: AccountState, code: bool, missing: OldStateMissing
    ) -> Opening:
        """Return the opening of a node that cannot tell the state after block low."""
        return cls(low, high, None, last, code, OldStateVerdict.of(missing, high - low))


def estimate(
    blocks: int,
    first: AccountState | None,
    last: AccountState,
    scope: Scope,
    known_changes: int | None = None,
    token_blocks: int | None = None,
) -> Estimate:
    """Return the cost of searching `blocks` blocks whose end states are first and last."""
    changes_known = known_changes is not None
    if known_changes is not None:
        changes = known_changes
    elif first is None or first == last:
        changes = 0
    else:
        changes = max(1, last.nonce - first.nonce)
    reads = search_bound(changes, blocks) if scope.native and changes else 0
    probes = reads // 2
    per_request = min(PROBES_PER_BATCH, max(1, changes))
    native = math.ceil(probes / per_request) + 2 * changes if scope.native else 0
    span = blocks if token_blocks is None else token_blocks
    tokens = 2 * len(segments(1, span)) if scope.tokens and span > 0 else 0
    return Estimate(blocks, changes, changes_known, reads, native, tokens, blocks)


def token_window_fits(blocks: int) -> bool:
    """Tell whether new blocks are few enough for their transfers to ride in the opening batch."""
    return 0 < blocks <= FIRST_SEGMENT
