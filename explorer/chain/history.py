"""An address's history entries: each native balance change or token transfer, attributed."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace

NATIVE = "native"


class EntryKind(enum.Enum):
    """Why an address's balance moved (the `kind` of `explorer history`'s JSON)."""

    SENT = "sent"
    RECEIVED = "received"
    SELF = "self"
    CONTRACT = "contract"  # value moved by a contract's execution, no transaction of the address
    REWARD = "reward"  # a REMASC payment
    PEGIN = "pegin"  # RBTC credited by the Bridge for bitcoin locked
    TOKEN = "token"


class Direction(enum.Enum):
    """Which way the amount went, seen from the address."""

    IN = "in"
    OUT = "out"
    SELF = "self"


@dataclass(frozen=True)
class HistoryEntry:
    """One line of an address's history.

    `amount` is positive, in wei or the token's base units (for an ERC-721, 1); `fee` is what
    a sent transaction cost its sender; `balance_after` is the native balance after the entry
    (native entries only); `order` places entries of one block (transaction index, then the
    changes no transaction of the address explains); `failed` marks a sent transaction that
    reverted (its value did not move). A contract execution found inside a transaction's
    trace names its counterparty (the frame that paid or was paid), the `depth` of that frame
    and the transaction's sender (`caller`).
    """

    block: int
    timestamp: int | None
    tx_hash: str | None
    kind: EntryKind
    asset: str  # NATIVE or the token contract's address
    counterparty: str | None
    amount: int
    direction: Direction
    balance_after: int | None = None
    fee: int | None = None
    log_index: int | None = None
    token_id: int | None = None
    order: int = 0
    failed: bool = False
    provisional: bool = False  # pinned by the search, not explained yet (replaced soon)
    depth: int | None = None  # a contract execution's: the call depth that moved the value
    caller: str | None = None  # … and the sender of the transaction it moved inside

    @property
    def is_native(self) -> bool:
        """Tell whether the entry moves RBTC (not a token)."""
        return self.asset == NATIVE

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Return the entry's place in the chain (block, place in block, log index)."""
        return (self.block, self.order, self.log_index or 0)

    @property
    def identity(self) -> tuple[object, ...]:
        """Return what tells two entries apart (to merge a revisit with what was known)."""
        return (
            self.block,
            self.kind,
            self.asset,
            self.tx_hash,
            self.log_index,
            self.order,
            self.provisional,
        )

    @property
    def signed_amount(self) -> int:
        """Return the balance change the entry stands for (fees included), in its units."""
        fee = self.fee or 0
        if self.direction is Direction.IN:
            return self.amount
        if self.direction is Direction.OUT:
            return -self.amount - fee
        return -fee

    def timed(self, timestamp: int | None) -> HistoryEntry:
        """Return the entry with its block's time."""
        return replace(self, timestamp=timestamp)


def newest_first(entries: list[HistoryEntry]) -> list[HistoryEntry]:
    """Return entries newest first (the order of the History table and the command line)."""
    return sorted(entries, key=lambda entry: entry.sort_key, reverse=True)
