"""Request accounting per endpoint: total, per method, per UTC day (the service's quota)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime


def utc_today() -> date:
    """Return today's date in UTC, the day the service's quota counts by."""
    return datetime.now(UTC).date()


@dataclass
class RequestStats:
    """Counts of HTTP requests tried (retries included, shared in-flight calls once).

    `by_day` is what the service's quota counts: a request that never left this machine
    (the name did not resolve, the connection was refused) is taken off it again (`unsent`).
    """

    total: int = 0
    by_method: Counter[str] = field(default_factory=Counter)
    by_day: Counter[date] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)
    unsent: int = 0
    cached: int = 0  # calls answered from saved data (no request, no quota)
    cached_by_method: Counter[str] = field(default_factory=Counter)
    #: Called after the day's count changed (the status bar and the home page's card show it).
    listeners: list[Callable[[], None]] = field(default_factory=list, compare=False, repr=False)

    def record(self, method: str, day: date | None = None) -> date:
        """Count one request of method; return the day it was counted on."""
        counted_on = day or utc_today()
        self.total += 1
        self.by_method[method] += 1
        self.by_day[counted_on] += 1
        self._changed()
        return counted_on

    def record_unsent(self, day: date) -> None:
        """Take a request that never reached the server off the quota of the day it counted on."""
        if self.by_day[day] > 0:
            self.by_day[day] -= 1
        self.unsent += 1
        self._changed()

    def _changed(self) -> None:
        """Tell the listeners the count changed."""
        for listener in self.listeners:
            listener()

    def record_cached(self, method: str) -> None:
        """Count one call answered from saved data (it costs no request)."""
        self.cached += 1
        self.cached_by_method[method] += 1

    def record_failure(self, kind: str) -> None:
        """Count one failed attempt (retried or not) by error kind."""
        self.failures[kind] += 1

    @property
    def today(self) -> int:
        """Return the number of requests sent today (UTC)."""
        return self.by_day[utc_today()]
