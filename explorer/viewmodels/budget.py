"""The status bar's request budget and the offline bar's time: small display states."""

from __future__ import annotations

import time
from dataclasses import dataclass

from explorer.presentation.document import Tone
from explorer.services.usage import near_quota


def saved_time(at: float | None, now: float | None = None) -> str:
    """Return when data was saved: the time today, else the date and time."""
    if at is None:
        return "an earlier session"
    moment, today = time.localtime(at), time.localtime(time.time() if now is None else now)
    same_day = moment[:3] == today[:3]
    return time.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M", moment)


@dataclass(frozen=True)
class Budget:
    """The status bar's requests today against the quota, and how worried to be."""

    text: str = ""
    tone: Tone = Tone.NORMAL


def budget_of(spent: int, quota: int) -> Budget:
    """Return `1,234 / 25,000 requests today`, warning from 80 % of the quota."""
    if quota <= 0:
        return Budget(f"{spent:,} requests today (no quota set)")
    text = f"{spent:,} / {quota:,} requests today"
    if spent >= quota:
        return Budget(f"{text} — the daily quota is used up", Tone.BAD)
    if near_quota(spent, quota):
        return Budget(f"{text} — {spent / quota:.0%} of the daily quota", Tone.WAITING)
    return Budget(text)
