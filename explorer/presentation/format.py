"""Small display formatters shared by the page documents."""

from __future__ import annotations

import itertools
import math
from datetime import UTC, datetime
from typing import Any

from explorer.chain.checksum import to_checksum_address
from explorer.chain.units import format_gwei, format_rbtc, readable_rbtc
from explorer.presentation.document import Field, Kind, Tone, facts
from explorer.services.routes import address_route, block_route, tx_route

YEAR = 365 * 86_400
DURATION_UNITS = ((86_400, "d"), (3_600, "h"), (60, "min"), (1, "s"))  # largest first


def age(seconds: float) -> str:
    """Return a short age such as `42 s ago`, `5 min ago`, `3 h 2 min ago`, `4 days ago`."""
    if seconds < 0:
        return "in the future"
    if seconds < 60:
        return f"{int(seconds)} s ago"
    minutes = int(seconds // 60)
    if minutes < 60:
        return f"{minutes} min ago"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min ago" if minutes else f"{hours} h ago"
    days = hours // 24
    return f"{days} day ago" if days == 1 else f"{days} days ago"


def utc_text(timestamp: int) -> str:
    """Return a Unix time as `YYYY-MM-DD HH:MM:SS UTC`."""
    return datetime.fromtimestamp(timestamp, tz=UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def timestamp_text(timestamp: int, now: float) -> tuple[str, str]:
    """Return (`age · UTC time`, tooltip with local and UTC time)."""
    utc = utc_text(timestamp)
    local = datetime.fromtimestamp(timestamp, tz=UTC).astimezone().strftime("%Y-%m-%d %H:%M:%S %Z")
    return f"{age(now - timestamp)} · {utc}", f"Local: {local}\nUTC: {utc}\nUnix: {timestamp}"


def time_field(label: str, timestamp: int, now: float) -> Field:
    """Return a time field with age, UTC and local time."""
    text, tooltip = timestamp_text(timestamp, now)
    return Field(label, text, Kind.TIME, timestamp, tooltip)


def amount_field(label: str, wei: int, symbol: str, **more: Any) -> Field:
    """Return an amount field as people read it; the exact RBTC on hover and Copy, and wei."""
    text, exact = readable_rbtc(wei, symbol), format_rbtc(wei, symbol)
    return Field(label, text, Kind.AMOUNT, wei, f"{wei:,} wei", exact=exact, facts=facts(**more))


def exact_tooltip(wei: int, symbol: str) -> str:
    """Return a cell's tooltip for an amount: the exact RBTC and the wei."""
    return f"{format_rbtc(wei, symbol)}\n{wei:,} wei"


def price_field(label: str, wei: int, symbol: str) -> Field:
    """Return a gas-price field in gwei and RBTC (a price per gas: exact, it is small)."""
    return Field(
        label, f"{format_gwei(wei)} ({format_rbtc(wei, symbol)})", Kind.AMOUNT, wei, f"{wei:,} wei"
    )


def address_field(
    label: str, address: str | None, chain_id: int, name: str | None = None, empty: str = "—"
) -> Field:
    """Return an address field in the chain's EIP-1191 checksum, with a known name if any."""
    if address is None:
        return Field(label, empty, Kind.ADDRESS, tone=Tone.MUTED)
    shown = to_checksum_address(address, chain_id)
    text = f"{shown} ({name})" if name else shown
    return Field(label, text, Kind.ADDRESS, address, link=address_route(address))


def hash_field(label: str, value: str | None, kind: Kind, empty: str = "—") -> Field:
    """Return a hash field linking to its transaction or block when kind says so."""
    if value is None:
        return Field(label, empty, kind, tone=Tone.MUTED)
    link = {Kind.TX_HASH: tx_route(value), Kind.BLOCK: block_route(value)}.get(kind)
    return Field(label, value, kind, value, link=link)


def block_field(label: str, number: int | None, empty: str = "pending") -> Field:
    """Return a block-number field linking to the block."""
    if number is None:
        return Field(label, empty, Kind.BLOCK, tone=Tone.WAITING)
    return Field(label, f"{number:,}", Kind.BLOCK, number, link=block_route(number))


def gas_used_text(used: int, limit: int) -> str:
    """Return `used of limit (pct %)`."""
    share = f" ({used / limit:.2%})" if limit else ""
    return f"{used:,} of {limit:,}{share}"


def hex_field(label: str, data: bytes | None, empty: str = "0x") -> Field:
    """Return a hex field; long data are shown in the hex viewer."""
    if data is None:
        return Field(label, "—", Kind.HEX, tone=Tone.MUTED)
    text = "0x" + data.hex() if data else empty
    return Field(label, text, Kind.HEX, data, f"{len(data):,} bytes")


def text_field(
    label: str, text: str, tone: Tone = Tone.NORMAL, tooltip: str = "", **more: Any
) -> Field:
    """Return a field of words (a sentence, a name): in JSON no value, the words as `text`.

    more: numbers the words rest on (JSON-ready), given beside them in JSON.
    """
    return Field(label, text, Kind.TEXT, tooltip=tooltip, tone=tone, facts=facts(**more))


def quantity_field(
    label: str,
    value: int | None,
    text: str | None = None,
    tone: Tone = Tone.NORMAL,
    unit: str = "",
    **more: Any,
) -> Field:
    """Return an integer field: `1,234`, or text saying more (`21,000 of 6,800,000 (0.3 %)`).

    more: data the text says beside the number (JSON-ready), given beside it in JSON.
    """
    if value is None:
        shown, tone = ("—", Tone.MUTED) if text is None else (text, tone)
        return Field(label, shown, Kind.QUANTITY, tone=tone, unit=unit, facts=facts(**more))
    shown, tooltip = (f"{value:,}", hex(value)) if text is None else (text, "")
    return Field(label, shown, Kind.QUANTITY, value, tooltip, tone, unit=unit, facts=facts(**more))


def boolean_field(label: str, value: bool, text: str, tone: Tone = Tone.NORMAL) -> Field:
    """Return a yes-or-no field: a boolean in JSON, the page's words as its text."""
    return Field(label, text, Kind.BOOLEAN, value, tone=tone)


def status_field(label: str, word: str, text: str, tone: Tone = Tone.NORMAL, **more: Any) -> Field:
    """Return a verdict: a fixed lowercase word in JSON (its schema's enum), the sentence as text.

    more: the numbers the sentence rests on (e.g. confirmations), given beside the word.
    """
    return Field(label, text, Kind.STATUS, word, tone=tone, facts=facts(**more))


def utc_field(label: str, timestamp: int, text: str = "", tone: Tone = Tone.NORMAL) -> Field:
    """Return a time shown in UTC (`2025-01-01 00:02:00 UTC`, or text saying more)."""
    tooltip = f"Unix: {timestamp}"
    return Field(label, text or utc_text(timestamp), Kind.TIME, timestamp, tooltip, tone)


def difficulty_text(difficulty: float) -> str:
    """Return a Bitcoin difficulty readably, tiny regtest values included."""
    return f"{difficulty:,.2f}" if difficulty >= 0.01 else f"{difficulty:.3g}"


def duration_text(seconds: float) -> str:
    """Return seconds as `0.4 s`, `42 s`, `3 min 5 s`, `5 min`, `2 h 10 min`, `3 d 4 h`, `95 years`.

    Two units at most; the second is left out when it is zero.
    """
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    whole = round(seconds)
    if whole >= YEAR:
        return f"{whole / YEAR:,.0f} years"
    for (big, big_name), (small, small_name) in itertools.pairwise(DURATION_UNITS):
        if whole >= big:
            count, rest = divmod(whole, big)
            rest //= small
            return f"{count:,} {big_name}" + (f" {rest} {small_name}" if rest else "")
    return f"{whole} s"


FLOAT_DIGITS = 15  # the significant digits a float keeps exactly


def chart_amount(wei: float, currency: str) -> str:
    """Return a chart's balance (a float) as people read it, its float noise rounded away."""
    places = int(math.log10(abs(wei))) - FLOAT_DIGITS if wei else 0
    unit = 10 ** max(0, places)
    return readable_rbtc(round(wei / unit) * unit, currency)
