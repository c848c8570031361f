"""The eth_getLogs limits of the two profiles: a light module (the server imports no EVM)."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class LogRule(enum.Enum):
    """How the two limits combine."""

    SERVICE = "service"  # §8: a range over max_blocks may return at most max_logs logs
    RSKJ = "rskj"  # LogFilter.java: never over max_blocks, never over max_logs


@dataclass(frozen=True)
class LogLimits:
    """The eth_getLogs limits: the service's (§8) by default, rskj's with LogRule.RSKJ."""

    max_blocks: int = 2000
    max_logs: int = 10000
    rule: LogRule = LogRule.SERVICE

    def span_failure(self, first: int, last: int) -> str | None:
        """Return rskj's words when a range is longer than it allows (to − from over max_blocks)."""
        if self.rule is LogRule.RSKJ and last - first > self.max_blocks:
            return f"Cannot query more than {self.max_blocks} blocks at once"
        return None

    def count_failure(self, blocks: int, count: int) -> str | None:
        """Return the words for `count` logs over `blocks` blocks when too many, else None."""
        if count <= self.max_logs:
            return None
        if self.rule is LogRule.RSKJ:
            return f"Filter returned more than {self.max_logs} logs."
        if blocks > self.max_blocks:
            return (
                f"Cannot query more than {self.max_blocks} blocks at once. "
                f"Filter returned more than {self.max_logs} logs."
            )
        return None
