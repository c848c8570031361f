"""Exact formatting and parsing of token amounts (wei, gwei, RBTC); no floats."""

from __future__ import annotations

import re

RBTC_DECIMALS = 18
GWEI_DECIMALS = 9
_AMOUNT = re.compile(r"(?P<sign>[-+]?)(?P<whole>\d[\d,_]*)?(?:\.(?P<fraction>\d*))?", re.ASCII)


def format_units(value: int, decimals: int, *, grouping: bool = True) -> str:
    """Format an integer amount of base units with `decimals` places, zeros trimmed."""
    if decimals < 0:
        raise ValueError("decimals cannot be negative")
    whole, fraction = divmod(abs(value), 10**decimals)
    text = f"{whole:,}" if grouping else str(whole)
    digits = str(fraction).rjust(decimals, "0").rstrip("0") if fraction else ""
    return ("-" if value < 0 else "") + text + (f".{digits}" if digits else "")


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
