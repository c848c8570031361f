"""What the home page says about itself: its state and the status line (no widgets)."""

from __future__ import annotations

import enum
import time

from explorer.services.chaincheck import Verification


class HomeState(enum.Enum):
    """What the home page shows."""

    CHECKING = "checking"  # nothing is read until the node's chain is confirmed
    LOADING = "loading"
    LIVE = "live"  # following new heads
    PAUSED = "paused"  # the user stopped following
    STALE = "stale"  # the last poll or read failed: what is shown may be behind
    ERROR = "error"  # nothing could be loaded


UNCHECKED_MESSAGES: dict[Verification | None, str] = {
    Verification.MISMATCH: "This node serves another chain: nothing from it is shown here.",
    Verification.UNREACHABLE: "The node's chain id could not be checked yet: see the banner.",
    Verification.STOPPED: "You stopped checking the node: nothing from it is shown here.",
    None: "Checking that the node serves this network's chain…",
}


def clock(at: float | None) -> str:
    """Return a wall-clock time as HH:MM:SS ('—' when never)."""
    return "—" if at is None else time.strftime("%H:%M:%S", time.localtime(at))


def checked_again_text(reason: str) -> str:
    """Return the status line while the chain is checked again, the blocks read before kept."""
    return (
        f"Checking the node's chain again ({reason}): the blocks listed were read before; "
        "nothing newer is shown until it answers."
    )


def status_text(
    state: HomeState,
    verification: Verification,
    failure: str,
    last_good: float | None,
    poll_seconds: float | None,
) -> str:
    """Return the status line: live and how often, paused, stale since when, or why not."""
    if state is HomeState.CHECKING:
        return UNCHECKED_MESSAGES.get(verification, UNCHECKED_MESSAGES[None])
    if state is HomeState.LOADING:
        return "Loading the latest blocks…"
    if state is HomeState.ERROR:
        return f"Could not load the latest blocks: {failure}"
    updated = f"updated {clock(last_good)}"
    if state is HomeState.STALE:
        return f"Stale: {failure} Last good data at {clock(last_good)}."
    if state is HomeState.PAUSED:
        return f"Paused · {updated} · press Live to follow new blocks"
    pace = f"asking for the head every {poll_seconds:.0f} s" if poll_seconds else "not polling"
    return f"Live · {pace} · {updated}"
