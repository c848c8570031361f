"""A session's requests added to its key's day in the shared counts, and the quota warning.

The counts themselves are kept in `saved/usage.py` (every window and command line adds to
the same file); `Session.usage_id` names a key there without holding it.
"""

from __future__ import annotations

from datetime import date

from explorer.rpc.stats import utc_today
from explorer.saved.usage import UsageStore
from explorer.services.session import Session

WARN_SHARE = 0.8  # the status bar warns from this share of the quota


class UsageTally:
    """Adds one session's requests to the shared counts, each day's new ones once.

    After a flush the session's `requests_today` is the key's whole day: this session's
    requests and every other process's.
    """

    def __init__(self, store: UsageStore, session: Session) -> None:
        self.store = store
        self.session = session
        self._flushed: dict[date, int] = {}

    async def flush(self) -> int:
        """Add the requests sent since the last flush; return the key's total today."""
        session, today = self.session, utc_today()
        by_day = dict(session.client.stats.by_day)
        total = 0
        for day, count in sorted(by_day.items()):
            new = count - self._flushed.get(day, 0)
            if new > 0 or day == today:
                added = await self.store.add(session.usage_id, max(new, 0), day)
                self._flushed[day] = count
                if day == today:
                    total = added
        if today not in by_day:
            total = await self.store.today(session.usage_id)
        session.earlier_today = total - by_day.get(today, 0)
        return total


def near_quota(spent: int, quota: int) -> bool:
    """Tell whether a key has spent the warning share of its quota (none: never)."""
    return quota > 0 and spent >= WARN_SHARE * quota
