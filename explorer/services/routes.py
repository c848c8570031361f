"""Routes: where a link or a search leads (`block/123`, `tx/0x…`, `address/0x…`)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Page(enum.Enum):
    """The kinds of page the explorer shows."""

    HOME = "home"
    BLOCK = "block"
    TX = "tx"
    ADDRESS = "address"
    LOGS = "logs"
    BROADCAST = "broadcast"
    NODE = "node"
    TOOL = "tool"
    WATCHLIST = "watchlist"
    BRIDGE = "bridge"  # the 2-way peg's Bridge
    PEGIN = "pegin"  # a peg-in's status by its Bitcoin txid


@dataclass(frozen=True)
class Route:
    """One page and the entity it shows (block number, tag or hash; tx hash; address)."""

    page: Page
    target: str = ""

    def __str__(self) -> str:
        """Return the route as text, e.g. `tx/0xabc…`."""
        return self.page.value if self.page in TARGETLESS else f"{self.page.value}/{self.target}"

    @classmethod
    def parse(cls, text: str) -> Route:
        """Parse a route's text form; ValueError when it is not one."""
        page_name, _, target = text.partition("/")
        try:
            page = Page(page_name)
        except ValueError:
            raise ValueError(f"not a route: {text!r}") from None
        if (page in TARGETLESS) != (target == ""):
            raise ValueError(f"not a route: {text!r}")
        return cls(page, target)


TARGETLESS = frozenset(
    {Page.HOME, Page.LOGS, Page.NODE, Page.BROADCAST, Page.BRIDGE, Page.WATCHLIST}
)
HOME = Route(Page.HOME)
LOGS = Route(Page.LOGS)
NODE = Route(Page.NODE)
BROADCAST = Route(Page.BROADCAST)
WATCHLIST = Route(Page.WATCHLIST)
BRIDGE_PAGE = Route(Page.BRIDGE)


def block_route(number_or_hash: int | str) -> Route:
    """Return the route of a block by number, tag or hash."""
    return Route(Page.BLOCK, str(number_or_hash))


def tx_route(tx_hash: str) -> Route:
    """Return the route of a transaction."""
    return Route(Page.TX, tx_hash)


def tx_at_route(block: int | str, index: int) -> Route:
    """Return the route of transaction `index` of a block (by number, tag or hash): `tx/B/N`."""
    return Route(Page.TX, f"{block}/{index}")


def tx_position(route: Route) -> tuple[int | str, int] | None:
    """Return (block, index) of a `tx/B/N` route, or None for a route by hash."""
    block, slash, index = route.target.partition("/")
    if route.page is not Page.TX or not slash or not index.isdigit():
        return None
    return (int(block) if block.isdigit() else block), int(index)


def address_route(address: str) -> Route:
    """Return the route of an address."""
    return Route(Page.ADDRESS, address.lower())


def pegin_route(btc_txid: str) -> Route:
    """Return the route of a peg-in's status (64 hex digits, the txid as explorers show it)."""
    return Route(Page.PEGIN, btc_txid.lower().removeprefix("0x"))


def tool_route(tool: str, text: str = "") -> Route:
    """Return the route of a tool (`tool/units`), with what to put in it (`tool/units:1 rbtc`)."""
    return Route(Page.TOOL, f"{tool}:{text}" if text else tool)


def route_words(route: Route) -> str:
    """Return what a route shows, in words: `block 4,660`, `transaction 0x…`, `address 0x…`."""
    target = route.target
    position = tx_position(route)
    if position is not None:
        block, index = position
        return f"transaction {index:,} of {_block_words(block)}"
    words = {
        Page.BLOCK: _block_words(int(target) if target.isdigit() else target),
        Page.TX: f"transaction {target}",
        Page.ADDRESS: f"address {target}",
        Page.PEGIN: f"the peg-in of Bitcoin transaction {target.removeprefix('0x')}",
    }
    return words.get(route.page, f"the {route.page.value} page")


def _block_words(block: int | str) -> str:
    """Return a block by number, tag or hash in words."""
    if isinstance(block, int):
        return f"block {block:,}"
    return f"the {block} block" if not block.startswith("0x") else f"block {block}"
