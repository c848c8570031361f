"""What a page says while it waits, when it finds nothing and after the user stopped waiting."""

from __future__ import annotations

from explorer.rpc.retry import Attempt
from explorer.services.networks import Network
from explorer.services.routes import Page, Route

NAMES = {Page.BLOCK: "block", Page.TX: "transaction", Page.ADDRESS: "address"}


def not_found_text(route: Route, network_name: str) -> str:
    """Return `No transaction 0x… on Rootstock Testnet.` for a route that found nothing."""
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
