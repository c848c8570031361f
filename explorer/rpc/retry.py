"""When to try a failed call again, and how long to wait first."""

from __future__ import annotations

import random
from dataclasses import dataclass

from explorer.rpc.errors import ErrorKind, RateLimited, RpcError, ServerError, TransportError


@dataclass(frozen=True)
class Attempt:
    """One try of a call waiting for the node: which, of how many, since when, why again."""

    method: str
    number: int  # 1 for the first try
    of: int  # tries the retry policy allows
    started: float  # time.monotonic() when the call's first try began
    error: ErrorKind | None = None  # why the try before this one failed

    def waited(self, now: float) -> float:
        """Return the seconds the call has waited so far."""
        return max(0.0, now - self.started)


@dataclass(frozen=True)
class RetryPolicy:
    """Capped exponential backoff with jitter; `attempts` counts the first try too."""

    attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 4.0
    max_retry_after: float = 30.0

    def backoff(self, retry: int) -> float:
        """Return the jittered delay before retry number `retry` (0-based)."""
        ceiling = min(self.max_delay, self.base_delay * 2.0**retry)
        return ceiling * random.uniform(0.5, 1.0)

    def delay(self, retry: int, error: RpcError, resendable: bool) -> float | None:
        """Return seconds to wait before retrying after error, or None to give up."""
        if retry + 1 >= self.attempts or not may_retry(error, resendable):
            return None
        if isinstance(error, RateLimited) and error.retry_after is not None:
            if error.retry_after > self.max_retry_after:
                return None
            return max(error.retry_after, self.backoff(retry))
        return self.backoff(retry)


NO_RETRY = RetryPolicy(attempts=1)


def may_retry(error: RpcError, resendable: bool) -> bool:
    """Tell whether error is transient and a resend is safe for this method."""
    if isinstance(error, TransportError):
        return resendable or not error.maybe_sent
    if isinstance(error, ServerError):
        return resendable and error.is_transient
    return isinstance(error, RateLimited) and resendable
