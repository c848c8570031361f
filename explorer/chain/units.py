"""Formatting and parsing of token amounts (wei, gwei, RBTC), exact or readable; no floats."""

from __future__ import annotations

import re

RBTC_DECIMALS = 18
GWEI_DECIMALS = 9
PLACES = 4  # decimals (or significant digits below one) an amount is shown with
_AMOUNT = re.compile(r"(?P<sign>[-+]?)(?P<whole>\d[\d,_]*)?(?:\.(?P<fraction>\d*))?", re.ASCII)


def format_units(value: int, decimals: int, *, grouping: bool = True) -> str:
    """Format an integer amount of base units with `decimals` places, zeros trimmed."""
    if decimals < 0:
        raise ValueError("decimals cannot be negative")
    whole, fraction = divmod(abs(value), 10**decimals)
    text = f"{whole:,}" if grouping else str(whole)
    digits = str(fraction).rjust(decimals, "0").rstrip("0") if fraction else ""
    return ("-" if value < 0 else "") + text + (f".{digits}" if digits else "")


def readable_units(value: int, decimals: int, *, places: int = PLACES) -> str:
    """Format an amount as people read it: `places` decimals, or as many significant digits.

    At or above one whole unit, `places` decimals (`1,019.3652`); below it, `places`
    significant digits (`0.1833`, `0.00002104`), so nothing that is not zero shows as zero.
    An amount with no more digits than that is exact (`0.5`); a rounded one keeps the
    zeros it was rounded to (`5.0000`), so it never passes for an exact round number.
    """
    exact = format_units(value, decimals)
    fraction = exact.partition(".")[2]
    whole = abs(value) >= 10**decimals
    keep = places if whole else len(fraction) - len(fraction.lstrip("0")) + places
    if len(fraction) <= keep:
        return exact
    unit = 10 ** (decimals - keep)
    units_kept, digits = divmod((abs(value) + unit // 2) // unit, 10**keep)
    return f"{'-' if value < 0 else ''}{units_kept:,}.{str(digits).rjust(keep, '0')}"


def readable_rbtc(wei: int, symbol: str = "RBTC") -> str:
    """Format wei as RBTC as people read it (readable_units), e.g. `1,019.3652 RBTC`."""
    return f"{readable_units(wei, RBTC_DECIMALS)} {symbol}".rstrip()


def format_rbtc(wei: int, symbol: str = "RBTC") -> str:
    """Format wei as RBTC exactly, e.g. `1,234.5 RBTC`."""
    return f"{format_units(wei, RBTC_DECIMALS)} {symbol}".rstrip()


def format_gwei(wei: int) -> str:
    """Format wei as gwei exactly, e.g. `0.06 gwei`."""
    return f"{format_units(wei, GWEI_DECIMALS)} gwei"


def parse_units(text: str, decimals: int) -> int:
    """Parse a decimal amount like `1,234.5` into base units; ValueError if not exact."""
    match = _AMOUNT.fullmatch(text.strip())
    if match is None or not (match["whole"] or match["fraction"]):
        raise ValueError(f"{text.strip()!r} is not a decimal amount")
    fraction = (match["fraction"] or "").rstrip("0")
    if len(fraction) > decimals:
        raise ValueError(f"at most {decimals} decimal places")
    whole = int((match["whole"] or "0").replace(",", "").replace("_", ""))
    scale: int = 10**decimals
    value = whole * scale + int(fraction.ljust(decimals, "0") or "0")
    return -value if match["sign"] == "-" else value


def parse_rbtc(text: str) -> int:
    """Parse an RBTC amount (an optional trailing `RBTC`/`tRBTC` is ignored) into wei."""
    amount = re.sub(r"\s*t?RBTC\s*$", "", text.strip(), flags=re.IGNORECASE)
    return parse_units(amount, RBTC_DECIMALS)
