"""The pause a node asks for with Retry-After: no new call of anyone's is sent until it is over.

The command line's one call waits and retries; a window has many callers (the chain check, the
head poll, every page), each of which would send its own next request. So the client keeps the
pause (capped, as the wait of one call is) and every new call meanwhile fails at once, unsent.
"""

from __future__ import annotations

import time

from explorer.rpc.errors import RateLimited, RpcError


class Pause:
    """When the node last asked to be left alone, and until when."""

    def __init__(self, host: str, cap: float) -> None:
        self.host = host
        self.cap = cap  # the longest pause honoured (RetryPolicy.max_retry_after)
        self._until = 0.0  # monotonic time before which no new call is sent

    def note(self, error: RpcError) -> None:
        """Start (or lengthen) the pause a 429 with Retry-After asks for, capped."""
        if isinstance(error, RateLimited) and error.retry_after is not None:
            self._until = max(self._until, time.monotonic() + min(error.retry_after, self.cap))

    def left(self) -> float:
        """Return the seconds left of the pause (0 when there is none)."""
        return max(0.0, self._until - time.monotonic())

    def error(self, left: float) -> RateLimited:
        """Return the error of a call not sent because of the pause."""
        return RateLimited(
            f"{self.host} asked for a pause (Retry-After): nothing is sent for {left:.0f} s more",
            retry_after=left,
        )
