"""The shared request counts: per key and UTC day, added to by every process, never the key."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from explorer.rpc.stats import utc_today
from explorer.saved.usage import UsageStore
from explorer.services.networks import TESTNET
from explorer.services.session import Session
from explorer.services.usage import UsageTally, near_quota

KEY = "secret-key-0123456789abcdef"


def test_counts_add_up_per_key_and_day_and_never_hold_the_key(tmp_path: Path) -> None:
    """Two stores on one file (two processes) add up; another key and another day count apart."""
    path = tmp_path / "usage.sqlite3"
    first = Session(TESTNET, TESTNET.endpoint(KEY))
    other = Session(TESTNET, TESTNET.endpoint("another-key-0123456789abcdef"))
    assert first.usage_id != other.usage_id

    async def main() -> tuple[int, int, int, int]:
        window, command_line = UsageStore(path), UsageStore(path)
        try:
            await window.add(first.usage_id, 7)
            await command_line.add(first.usage_id, 5)
            await window.add(other.usage_id, 1)
            await window.add(first.usage_id, 30, utc_today() - timedelta(days=1))
            return (
                await command_line.today(first.usage_id),
                await window.today(other.usage_id),
                await window.quota(TESTNET.id, 25_000),
                await _quota_set(window, command_line),
            )
        finally:
            await window.aclose()
            await command_line.aclose()

    assert asyncio.run(main()) == (12, 1, 25_000, 40_000)
    assert KEY.encode() not in path.read_bytes()


async def _quota_set(window: UsageStore, command_line: UsageStore) -> int:
    """Set a quota in one store and read it from the other."""
    await window.set_quota(TESTNET.id, 40_000)
    return await command_line.quota(TESTNET.id, 25_000)


def test_a_tally_adds_only_new_requests_and_shows_the_whole_day(tmp_path: Path) -> None:
    """Flushing twice adds each request once; requests_today includes the other processes'."""
    session = Session(TESTNET, TESTNET.endpoint(KEY))

    async def main() -> tuple[int, int, int]:
        store = UsageStore(tmp_path / "usage.sqlite3")
        try:
            await store.add(session.usage_id, 100)  # another process, earlier today
            tally = UsageTally(store, session)
            for _ in range(3):
                session.client.stats.record("eth_blockNumber")
            first = await tally.flush()
            again = await tally.flush()
            session.client.stats.record("eth_blockNumber")
            return first, again, session.requests_today
        finally:
            await store.aclose()

    assert asyncio.run(main()) == (103, 103, 104)


def test_the_warning_starts_at_eighty_percent() -> None:
    """80 % of the quota warns; no quota never does."""
    assert not near_quota(19_999, 25_000)
    assert near_quota(20_000, 25_000)
    assert not near_quota(10**9, 0)
