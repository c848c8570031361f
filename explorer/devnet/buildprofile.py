"""The seeded history's build time, measured block by block: progress shown as time, not blocks.

Blocks cost very different times to build (the big block and the airdrops take as long as
thousands of quiet ones), so the part of the build done is read off a profile measured when
`make devnet-recent` last built the history: the share of the build's time spent when each
hundredth block was mined. A changed history only makes the profile a little less exact.
"""

from __future__ import annotations

import bisect
import json
import time
from collections.abc import Callable
from pathlib import Path

from explorer.devnet.seed import SeedSize

PROFILE_DIR = Path(__file__).resolve().parent / "recent"


def profile_path(size: SeedSize, directory: Path = PROFILE_DIR) -> Path:
    """Where the measured build profile of a seed size is kept."""
    return directory / f"build-time-{size.name}.json"


class BuildProfile:
    """The share of build time spent when each measured block number was mined."""

    def __init__(self, numbers: list[int], shares: list[float]) -> None:
        self.numbers = numbers
        self.shares = shares

    @classmethod
    def load(cls, size: SeedSize, directory: Path = PROFILE_DIR) -> BuildProfile | None:
        """Read the profile of a seed size; None when there is none or it is unreadable."""
        try:
            data = json.loads(profile_path(size, directory).read_text())
            numbers, shares = [int(n) for n in data["numbers"]], [float(s) for s in data["shares"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None
        if len(numbers) < 2 or len(numbers) != len(shares) or numbers != sorted(numbers):
            return None
        return cls(numbers, shares)

    def share(self, number: int) -> float:
        """Return the part of the build done once block number is mined (interpolated)."""
        at = bisect.bisect_right(self.numbers, number)
        if at == 0:
            return 0.0
        if at == len(self.numbers):
            return 1.0
        low, high = self.numbers[at - 1], self.numbers[at]
        low_share, high_share = self.shares[at - 1], self.shares[at]
        return low_share + (high_share - low_share) * (number - low) / (high - low)


class Stopwatch:
    """Notes when each block reported was mined, to make a build profile.

    In the process's CPU time: other work on the machine while it builds does not skew it.
    """

    def __init__(self, clock: Callable[[], float] = time.process_time) -> None:
        self._clock = clock
        self._started = clock()
        self.marks: list[tuple[int, float]] = [(0, 0.0)]

    def mark(self, number: int) -> None:
        """Note that block number was just mined."""
        self.marks.append((number, self._clock() - self._started))

    def save(self, size: SeedSize, directory: Path = PROFILE_DIR) -> Path:
        """Write the profile of the build timed so far."""
        total = self.marks[-1][1] or 1.0
        path = profile_path(size, directory)
        path.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "numbers": [number for number, _ in self.marks],
            "shares": [round(seconds / total, 4) for _, seconds in self.marks],
        }
        path.write_text(json.dumps(data) + "\n")
        return path
