"""The cells the Inside tab's tables show: text, the exact value on hover and copy, a sort key."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from explorer.chain.checksum import to_checksum_address
from explorer.chain.known import known_label
from explorer.chain.units import format_rbtc, readable_rbtc

#: The user's own label of a lowercase address, or None (the app's labels view model).
LabelOf = Callable[[str], str | None]


@dataclass(frozen=True)
class Cell:
    """One cell: its text, the exact value (tooltip and copy), a sort key, an address it links."""

    text: str
    exact: str = ""
    sort: float | str | None = None
    address: str | None = None  # lowercase: a click opens its page

    @property
    def copy(self) -> str:
        """Return what Copy puts on the clipboard: the exact value, else the text."""
        return self.exact or self.text

    @property
    def key(self) -> float | str:
        """Return the sort key: the given one, else the text."""
        return self.text if self.sort is None else self.sort


EMPTY = Cell("")


class Labels:
    """Names addresses as the app does: the user's label, else the well-known one."""

    def __init__(self, chain_id: int | None, user: LabelOf | None = None) -> None:
        self.chain_id, self.user = chain_id, user

    def label(self, address: str) -> str | None:
        """Return an address's label, or None."""
        own = self.user(address) if self.user is not None else None
        return own or known_label(address, self.chain_id)

    def checksum(self, address: str) -> str:
        """Return an address in the chain's checksum."""
        return to_checksum_address(address, self.chain_id)

    def cell(self, address: str | None, empty: str = "—") -> Cell:
        """Return an address cell: label and short address, the checksummed one exact."""
        if not address:
            return Cell(empty)
        full = self.checksum(address)
        short = f"{full[:8]}…{full[-6:]}"
        label = self.label(address)
        text = f"{label} · {short}" if label else short
        return Cell(text, full, sort=(label or "") + full, address=address)

    def words(self, address: str) -> str:
        """Return an address in a sentence: its label, else the checksummed address."""
        return self.label(address) or self.checksum(address)


def amount_cell(wei: int, currency: str, empty: str = "") -> Cell:
    """Return an RBTC amount as people read it (readable_rbtc), the exact one on hover and copy."""
    if not wei and empty:
        return Cell(empty, sort=0)
    exact = format_rbtc(wei, currency)
    return Cell(readable_rbtc(wei, currency), exact, sort=wei)


def signed_cell(wei: int, currency: str) -> Cell:
    """Return a running total: signed, as people read it, the exact one on hover."""
    cell = amount_cell(abs(wei), currency)
    sign = "+" if wei > 0 else "−" if wei < 0 else ""
    return Cell(sign + cell.text, sign + cell.exact, sort=wei)


def count_cell(value: int) -> Cell:
    """Return a count (gas, depth) grouped, sorted as a number."""
    return Cell(f"{value:,}", str(value), sort=value)
