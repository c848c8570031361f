"""What each number a node sends can be on a real chain, checked where it is parsed."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.hexutil import HexFormatError, parse_quantity

LATEST_TIMESTAMP = 253_402_128_000  # 9999-12-30 UTC: shown in any time zone, a day before the end


class OutOfRange(HexFormatError):
    """A quantity is well formed but cannot be what its field says on a real chain."""


@dataclass(frozen=True)
class Bound:
    """The largest value a kind of quantity can take, and how to name that kind."""

    maximum: int
    meaning: str

    def check(self, value: int, what: str, text: object = None) -> int:
        """Return value if it is within the bound, else raise OutOfRange naming the field."""
        if 0 <= value <= self.maximum:
            return value
        value_text = shown(text if text is not None else hex(value))
        raise OutOfRange(f"{what} {value_text} {self.meaning}".strip())

    def parse(self, value: object, what: str = "") -> int:
        """Parse a hex quantity and check it against the bound."""
        return self.check(parse_quantity(value, what or "quantity"), what, value)

    def parse_optional(self, value: object, what: str = "") -> int | None:
        """Parse a hex quantity that may be `null`, checked against the bound."""
        return None if value is None else self.parse(value, what)


def shown(text: object, keep: int = 10) -> str:
    """Return a node's value short enough for a message: its ends and its length when long."""
    value = str(text)
    if len(value) <= 2 * keep + 2:
        return value
    return f"{value[:keep]}…{value[-4:]} ({len(value) - 2:,} digits)"


BLOCK_NUMBER = Bound(2**63 - 1, "is not a block number (more than 63 bits)")
TIMESTAMP = Bound(LATEST_TIMESTAMP, "is not a block time (after the year 9999)")
INDEX = Bound(2**32 - 1, "is not a position in a block (more than 32 bits)")
COUNT = Bound(2**32 - 1, "is not a count of things in a block (more than 32 bits)")
SIZE = Bound(2**32 - 1, "is not a block size (4 GiB or more)")
GAS = Bound(2**63 - 1, "is not an amount of gas (more than 63 bits)")
NONCE = Bound(2**64 - 1, "is not a nonce (more than 64 bits)")
CHAIN_ID = Bound(2**63 - 1, "is not a chain id (more than 63 bits)")
WORD = Bound(2**256 - 1, "does not fit in 256 bits")  # amounts, prices, difficulties, v, r, s
STATUS = Bound(1, "is not a status (0 or 1)")
TX_TYPE = Bound(0xFF, "is not a transaction type (one byte)")
