"""The local record of transactions seen pending or sent: kept across sightings, off the loop."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

import pytest

from explorer.chain.pooled import PooledTx
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import KEEP_SECONDS, SeenStore, SeenStoreError, SeenTx, seen_by

T = TypeVar("T")
SEEN = SeenTx(
    chain_id=31,
    tx=PooledTx(
        hash="0x" + "ab" * 32,
        sender="0x" + "cd" * 20,
        nonce=7,
        gas_price=66_000_000,
        gas=21_000,
        value=10**30,  # wider than SQLite's integers: kept as text
    ),
    first_seen=1_000.0,
    first_block=100,
    last_seen=1_000.0,
    last_block=100,
)


def run_with(path: Path, work: Callable[[SeenStore], Awaitable[T]]) -> T:
    """Run a coroutine function with a store on path, closing it after."""

    async def main() -> T:
        store = SeenStore(path)
        try:
            return await work(store)
        finally:
            await store.aclose()

    return asyncio.run(main())


def test_a_second_sighting_keeps_the_first_and_moves_the_last(tmp_path: Path) -> None:
    later = replace(SEEN, first_seen=2_000.0, first_block=110, last_seen=2_000.0, last_block=110)

    async def work(store: SeenStore) -> tuple[SeenTx, SeenTx | None, SeenTx | None]:
        await store.note(SEEN)
        kept = await store.note(later)
        return (
            kept,
            await store.find(31, SEEN.tx.hash.upper(), ""),
            await store.find(30, SEEN.tx.hash, ""),
        )

    kept, found, other_chain = run_with(tmp_path / "seen.sqlite3", work)
    assert kept == replace(SEEN, last_seen=2_000.0, last_block=110)
    assert found == kept
    assert other_chain is None


def test_sent_here_sticks_and_unknown_blocks_fill_in(tmp_path: Path) -> None:
    blind = replace(SEEN, first_block=None, last_block=None, sent_here=True)

    async def work(store: SeenStore) -> SeenTx:
        await store.note(blind)
        return await store.note(replace(SEEN, last_seen=1_500.0, last_block=105))

    kept = run_with(tmp_path / "seen.sqlite3", work)
    assert kept.sent_here
    assert (kept.first_block, kept.last_block) == (100, 105)


def test_records_survive_reopening_and_old_ones_are_pruned(tmp_path: Path) -> None:
    path = tmp_path / "deeper" / "seen.sqlite3"
    run_with(path, lambda store: store.note(replace(SEEN, first_seen=0.0, last_seen=0.0)))
    now = time.time()
    fresh = replace(SEEN, tx=replace(SEEN.tx, hash="0x" + "ef" * 32), first_seen=now, last_seen=now)
    run_with(path, lambda store: store.note(fresh))
    found = run_with(path, lambda store: store.find(31, "0x" + "ef" * 32, ""))
    assert found is not None
    assert found.tx.value == 10**30
    assert (
        run_with(path, lambda store: store.find(31, SEEN.tx.hash, "")) is None
    )  # older than a month
    assert KEEP_SECONDS >= 24 * 3600


def test_the_file_is_used_on_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    original = sqlite3.connect

    def recording(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        threads.append(threading.current_thread().name)
        connection: sqlite3.Connection = original(*args, **kwargs)
        return connection

    monkeypatch.setattr(sqlite3, "connect", recording)
    run_with(tmp_path / "seen.sqlite3", lambda store: store.find(31, SEEN.tx.hash, ""))
    assert len(threads) == 1
    assert threads[0].startswith("seen-db")
    assert threads[0] != threading.main_thread().name


def test_an_unusable_file_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with pytest.raises(SeenStoreError, match="cannot be used"):
        run_with(blocker / "seen.sqlite3", lambda store: store.find(31, SEEN.tx.hash, ""))


ENDPOINT_A = seen_by(Endpoint.parse("https://a.example/v2/key-of-a"))
ENDPOINT_B = seen_by(Endpoint.parse("https://b.example/v2/key-of-b"))


def test_what_one_endpoint_saw_pending_is_never_found_for_another(tmp_path: Path) -> None:
    """A sighting through endpoint A is A's alone; endpoint B finds nothing of it."""

    async def work(store: SeenStore) -> tuple[SeenTx | None, SeenTx | None]:
        await store.note(replace(SEEN, seen_by=ENDPOINT_A))
        return await store.find(31, SEEN.tx.hash, ENDPOINT_A), await store.find(
            31, SEEN.tx.hash, ENDPOINT_B
        )

    own, other = run_with(tmp_path / "seen.sqlite3", work)
    assert own == replace(SEEN, seen_by=ENDPOINT_A)
    assert other is None


def test_a_transaction_sent_from_here_is_found_through_any_endpoint(tmp_path: Path) -> None:
    """Sent through A: this app's own record, found through B; B's own sighting comes first."""
    sent = replace(SEEN, sent_here=True, seen_by=ENDPOINT_A)
    later = replace(SEEN, first_seen=3_000.0, last_seen=3_000.0, seen_by=ENDPOINT_B)

    async def work(store: SeenStore) -> tuple[SeenTx | None, SeenTx | None]:
        await store.note(sent)
        before = await store.find(31, SEEN.tx.hash, ENDPOINT_B)
        await store.note(later)
        return before, await store.find(31, SEEN.tx.hash, ENDPOINT_B)

    before, after = run_with(tmp_path / "seen.sqlite3", work)
    assert before == replace(sent, seen_by="")  # not B's word: no endpoint named
    assert after == later


def test_endpoints_are_kept_hashed_with_the_files_salt(tmp_path: Path) -> None:
    """The file holds no endpoint id as given (it could be recomputed from a guessed URL)."""
    path = tmp_path / "seen.sqlite3"
    run_with(path, lambda store: store.note(replace(SEEN, seen_by=ENDPOINT_A)))
    assert ENDPOINT_A.encode() not in path.read_bytes()
