"""What a page says while it waits, when it finds nothing and after the user stopped waiting."""

from __future__ import annotations

from explorer.chain.peg import BLOCK_SECONDS
from explorer.presentation.format import duration_text
from explorer.rpc.retry import Attempt
from explorer.services.networks import Network
from explorer.services.routes import Page, Route

NAMES = {Page.BLOCK: "block", Page.TX: "transaction", Page.ADDRESS: "address"}


def not_found_text(route: Route, network_name: str, head: int | None = None) -> str:
    """Return `No transaction 0x… on Rootstock Testnet.`; a block after the head says when."""
    if route.page is Page.BLOCK and route.target.isdigit() and head is not None:
        number = int(route.target)
        if number > head:
            ahead = number - head
            when = duration_text(ahead * BLOCK_SECONDS)
            return (
                f"Block {number:,} is not mined yet on {network_name}: the newest is #{head:,}, "
                f"{ahead:,} blocks before it (about {when} at a block every {BLOCK_SECONDS} s)."
            )
    return f"No {NAMES.get(route.page, 'page')} {route.target} on {network_name}."


def checking_text(network: Network, attempt: int) -> str:
    """Return what a page says while the node's chain is being checked (which try)."""
    tries = f" (try {attempt})" if attempt > 1 else ""
    return (
        f"Checking that the node serves {network.name} (chain id {network.chain_id})"
        f"{tries}… nothing is read from it before."
    )


def still_waiting_text(waited: float, attempt: Attempt | None, retry_in: float | None) -> str:
    """Return how long a page has waited, and for which attempt of which request."""
    if attempt is None:
        later = f"; the next check is in {retry_in:.0f} s" if retry_in else ""
        return f"Still waiting for the node ({waited:.0f} s){later}."
    return (
        f"Still waiting for the node — attempt {attempt.number} of {attempt.of} "
        f"({attempt.method}, {waited:.0f} s so far)."
    )


def cancelled_text(waited: float) -> str:
    """Return what a page says after the user stopped waiting."""
    return f"You stopped waiting for the node after {waited:.0f} s. Retry asks it again."
