"""What a long operation will cost in requests, against what is left of the key's day."""

from __future__ import annotations

import math
from dataclasses import dataclass

from explorer.services.logplan import GROWTH, MAX_BLOCKS


@dataclass(frozen=True)
class Estimate:
    """The requests an operation is expected to send (saved ranges may make it fewer)."""

    requests: int
    what: str  # e.g. "This log scan of 12,000 blocks"

    def text(self) -> str:
        """Return `about 7 requests`."""
        return f"about {self.requests:,} request{'' if self.requests == 1 else 's'}"


def log_scan(
    blocks: int,
    passes: int = 1,
    what: str = "This log scan",
    first_blocks: int = MAX_BLOCKS,
    growth: float = GROWTH,
) -> Estimate:
    """Return the cost of scanning blocks for logs (passes filters, one after the other).

    Ranges start at first_blocks and grow by growth up to MAX_BLOCKS where logs are sparse
    (the scanner's sizing); denser logs make them smaller, saved ranges make them fewer.
    """
    requests, left, size = 0, blocks, max(first_blocks, 1)
    while left > 0:
        requests += 1
        left -= size
        size = min(MAX_BLOCKS, math.ceil(size * growth))
    return Estimate(passes * max(requests, 1), f"{what} of {blocks:,} blocks")


def block_scan(blocks: int) -> Estimate:
    """Return the cost of reading every block of a range (one request each)."""
    return Estimate(blocks, f"Reading {blocks:,} blocks")


def balance_samples(samples: int) -> Estimate:
    """Return the cost of sampling a balance (one eth_getBalance a sample)."""
    return Estimate(samples, f"Sampling the balance at {samples:,} blocks")


def crosses(spent: int, quota: int, estimate: Estimate) -> bool:
    """Tell whether the operation would take the key past its quota (none: never)."""
    return quota > 0 and spent + estimate.requests > quota


def question(spent: int, quota: int, estimate: Estimate) -> str:
    """Return the question asked before an operation that would cross the quota."""
    left = max(quota - spent, 0)
    return (
        f"{estimate.what} will cost {estimate.text()}, but this key has {left:,} of its "
        f"{quota:,} requests left today (UTC). The service may refuse requests past its quota. "
        "Start it anyway?"
    )
