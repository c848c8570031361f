"""Request accounting per endpoint: total, per method, per UTC day (the service's quota)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, date, datetime


def utc_today() -> date:
    """Return today's date in UTC, the day the service's quota counts by."""
    return datetime.now(UTC).date()


@dataclass
class RequestStats:
    """Counts of HTTP requests sent (retries included, shared in-flight calls once)."""

    total: int = 0
    by_method: Counter[str] = field(default_factory=Counter)
    by_day: Counter[date] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)

    def record(self, method: str, day: date | None = None) -> None:
        """Count one request of method."""
        self.total += 1
        self.by_method[method] += 1
        self.by_day[day or utc_today()] += 1

    def record_failure(self, kind: str) -> None:
        """Count one failed attempt (retried or not) by error kind."""
        self.failures[kind] += 1

    @property
    def today(self) -> int:
        """Return the number of requests sent today (UTC)."""
        return self.by_day[utc_today()]
