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

from explorer.services.balance_search import EXPRESS_PROBES, search_bound
from explorer.services.probes import AccountState, Contradiction, OldStateMissing
from explorer.services.token_history import FIRST_SEGMENT, segments

CONFIRM_ABOVE = 300  # requests: a search costing more is shown with its cost and asked for
ALLOWANCE = 100  # balance changes a limit allows for beyond those the nonce explains
PER_CHANGE = 3  # requests attributing a change takes beyond its sent transactions' receipts:
#                 its block, its logs, the receipt of what it received


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
    """What the search should cost and the most it spends before asking again, in requests.

    Requests are counted as the service's quota and the run count them: one per call (a
    batch of twenty reads is twenty). `changes` are the balance changes the estimate rests on:
    known from a stored history, else the transactions the address sent (its nonce's rise),
    though receiving adds changes its nonce does not show. `limit` allows for `allowed`
    changes; the run holds below it and stops to ask before it would pass it.
    """

    blocks: int
    changes: int
    changes_known: bool
    native_reads: int  # balance and nonce reads expected
    expected: int  # requests the whole search should take (the opening included)
    limit: int  # requests the run will not pass without asking again
    allowed: int  # the balance changes the limit allows for
    token_requests: int
    scan_requests: int  # reading every block instead (the fallback without old state)

    @property
    def requests(self) -> int:
        """Return the most the search spends without asking again (the quota's question)."""
        return self.limit

    @property
    def needs_confirmation(self) -> bool:
        """Tell whether the search may cost more than a few hundred requests."""
        return self.limit > CONFIRM_ABOVE

    def text(self) -> str:
        """Return the estimate as a sentence: what it costs, the most, and what it rests on."""
        known = "" if self.changes_known else "at least "
        changes = f"{self.changes:,} balance change{'' if self.changes == 1 else 's'}"
        return (
            f"Searching {self.blocks:,} blocks costs about {self.expected:,} requests for "
            f"{known}{changes} ({self.native_reads:,} balance and nonce reads, one block read "
            f"per change, {self.token_requests:,} log queries). It stops to ask before spending "
            f"more than {self.limit:,} (enough for {self.allowed:,} changes). Reading every "
            f"block would take {self.scan_requests:,}."
        )


def allowed_changes(changes: int) -> int:
    """Return the changes a limit allows for: twice those expected, and a hundred more at least.

    Receiving changes a balance without a trace in the nonce, so the expected count is only
    what sending explains.
    """
    return max(2 * changes, changes + ALLOWANCE)


def probe_limit(changes: int, blocks: int) -> int:
    """Return the most probes a search pinning `changes` changes in `blocks` blocks sends.

    A range is split only while its ends differ, so each level of the binary search probes at
    most min(2^level, changes) ranges: fewer than 2·changes above level ⌈log2 changes⌉ and
    `changes` on each of the at most ⌈log2(blocks/changes)⌉ + 1 levels below; the fan-out
    start and the dense probe of the newest narrow range add EXPRESS_PROBES.
    """
    if changes <= 0 or blocks <= 0:
        return 0
    levels = math.ceil(math.log2(max(blocks / changes, 1.0))) + 1
    return changes * (levels + 2) + EXPRESS_PROBES


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

    @property
    def express_pays(self) -> bool:
        """Tell whether the search's express start pays for itself: a sender of many txs.

        Its cost (EXPRESS_PROBES) must fit in the slack the bound leaves (a fifth of it, less
        a margin) for the changes its nonce promises; a receive-only account gets none.
        """
        if self.first is None or self.has_code:
            return False
        promised = self.last.nonce - self.first.nonce
        slack = 0.15 * search_bound(promised, self.high - self.low) / 2
        return promised > 0 and slack >= EXPRESS_PROBES

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
    spent: int = 0,
) -> Estimate:
    """Return the cost of searching `blocks` blocks whose end states are first and last.

    spent: the requests the run already spent (its opening), counted in both sums.
    """
    changes_known = known_changes is not None
    sent = 0 if first is None else max(0, last.nonce - first.nonce)
    if known_changes is not None:
        changes = known_changes
    elif first is None or first == last:
        changes = 0
    else:
        changes = max(1, sent)
    span = blocks if token_blocks is None else token_blocks
    tokens = 2 * len(segments(1, span)) if scope.tokens and span > 0 else 0
    if not scope.native or not changes:
        cost = spent + tokens
        return Estimate(blocks, changes, changes_known, 0, cost, cost, 0, tokens, blocks)
    reads = search_bound(changes, blocks)
    expected = spent + tokens + reads + changes + sent
    allowed = changes if changes_known else allowed_changes(changes)
    limit = spent + tokens + 2 * probe_limit(allowed, blocks) + PER_CHANGE * allowed + sent
    if expected <= CONFIRM_ABOVE:  # started without asking: it asks before passing that
        limit = max(expected, min(limit, CONFIRM_ABOVE))
    return Estimate(blocks, changes, changes_known, reads, expected, limit, allowed, tokens, blocks)


def token_window_fits(blocks: int) -> bool:
    """Tell whether new blocks are few enough for their transfers to ride in the opening batch."""
    return 0 < blocks <= FIRST_SEGMENT
