"""What users keep per network: bookmarks of canonical routes with titles, and label text."""

from __future__ import annotations

import re
from dataclasses import dataclass

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError, parse_address, parse_hash
from explorer.services.routes import Page, Route

MAX_LABEL = 100
MAX_TITLE = 200
BLOCK_TAGS = ("latest", "earliest", "pending")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Bookmark:
    """A saved route (in canonical form) with the user's title."""

    route: Route
    title: str
    created: float


def clean_text(value: object, limit: int, what: str) -> str:
    """Return user text on one line, trimmed; ValueError when not text or too long."""
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text")
    text = _SPACES.sub(" ", "".join(c if c.isprintable() else " " for c in value)).strip()
    if len(text) > limit:
        raise ValueError(f"{what} is longer than {limit} characters")
    return text


def canonical_route(route: Route) -> Route:
    """Return a bookmarkable route in canonical form; ValueError when it is not one."""
    try:
        if route.page is Page.ADDRESS:
            return Route(Page.ADDRESS, parse_address(route.target))
        if route.page is Page.TX:
            return Route(Page.TX, parse_hash(route.target))
    except HexFormatError as error:
        raise ValueError(f"not a route: {str(route)!r} ({error})") from None
    if route.page is Page.BLOCK:
        target = route.target.lower()
        if target in BLOCK_TAGS or (target.isdecimal() and target.isascii()):
            return Route(Page.BLOCK, target if target in BLOCK_TAGS else str(int(target)))
        try:
            return Route(Page.BLOCK, parse_hash(target))
        except HexFormatError:
            raise ValueError(f"not a block: {route.target!r}") from None
    raise ValueError(f"the {route.page.value} page cannot be bookmarked: {str(route)!r}")


def default_title(route: Route, chain_id: int | None) -> str:
    """Return a canonical route's default title, e.g. `Block 1,234` or `Address 0xAbC…`."""
    target = route.target
    if route.page is Page.ADDRESS:
        return f"Address {to_checksum_address(target, chain_id)}"
    if route.page is Page.TX:
        return f"Transaction {target[:10]}…{target[-6:]}"
    shown = f"{int(target):,}" if target.isdecimal() else target
    if target.startswith("0x"):
        shown = f"{target[:10]}…{target[-6:]}"
    return f"Block {shown}"
