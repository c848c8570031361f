"""The balance over time as exact change points: a step line, not samples (Qt-free)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from explorer.chain.history import HistoryEntry


@dataclass(frozen=True)
class BalanceStep:
    """The balance from block `block` on (until the next step)."""

    block: int
    balance: int
    timestamp: int | None
    note: str = ""


@dataclass(frozen=True)
class BalanceSteps:
    """The change points of one address's balance over blocks first..last."""

    first: int
    last: int
    opening: int  # the balance before block first
    steps: tuple[BalanceStep, ...] = ()

    @property
    def empty(self) -> bool:
        """Tell whether the balance never changed in the range."""
        return not self.steps

    def balance_at(self, block: int) -> int:
        """Return the balance after a block."""
        balance = self.opening
        for step in self.steps:
            if step.block > block:
                break
            balance = step.balance
        return balance

    def highest(self) -> int:
        """Return the highest balance shown (at least the opening one)."""
        return max([self.opening, *(step.balance for step in self.steps)])


def balance_steps(
    entries: Iterable[HistoryEntry], first: int, last: int, opening: int
) -> BalanceSteps:
    """Return the change points of native entries (the last entry of each block sets it)."""
    by_block: dict[int, HistoryEntry] = {}
    for entry in entries:
        if entry.is_native and entry.balance_after is not None and first <= entry.block <= last:
            known = by_block.get(entry.block)
            if known is None or entry.sort_key > known.sort_key:
                by_block[entry.block] = entry
    steps = tuple(
        BalanceStep(block, entry.balance_after or 0, entry.timestamp, entry.kind.value)
        for block, entry in sorted(by_block.items())
    )
    return BalanceSteps(first, last, opening, steps)
