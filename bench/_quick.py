"""`--quick`, which every bench takes: each measurement once and small, to show it still runs.

tests/test_benches.py starts every bench so, so that none can rot unseen; a quick run's numbers
mean little. Imported by the benches (beside them on sys.path), never run.
"""

from __future__ import annotations

import sys

QUICK = "--quick" in sys.argv[1:]


def rounds(full: int) -> int:
    """Return the rounds to run: one when quick."""
    return 1 if QUICK else full


def latencies(full: tuple[float, ...]) -> tuple[float, ...]:
    """Return the latencies to measure at: the first alone when quick."""
    return full[:1] if QUICK else full


def sized(full: int, quick: int) -> int:
    """Return a size: the small one when quick."""
    return quick if QUICK else full
