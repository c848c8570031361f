"""Labels and bookmarks: a real SQLite file per network, schema versions, JSON import/export."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError
from explorer.services.label_entries import Bookmark, canonical_route, default_title
from explorer.services.labels import LabelStore, LabelStoreError, database_path
from explorer.services.labels_file import (
    EXPORT_FORMAT,
    ImportData,
    ImportFormatError,
    export_text,
    parse_export,
    read_import_file,
)
from explorer.services.routes import Route

T = TypeVar("T")
ALICE = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"
BOB = "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"
TX = "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110"


def run(factory: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine on a fresh asyncio loop."""

    async def main() -> T:
        return await factory()

    return asyncio.run(main())


async def opened(path: Path) -> LabelStore:
    """Return an open store on path."""
    store = LabelStore(path)
    await store.open()
    return store


def file_text(**overrides: Any) -> str:
    """Return an export file's text with some members replaced."""
    data: dict[str, Any] = {"format": EXPORT_FORMAT, "version": 1, "chainId": 31}
    data.update(overrides)
    return json.dumps(data)


def test_database_path_is_safe_and_distinct_per_network(tmp_path: Path) -> None:
    assert database_path("testnet", tmp_path) == tmp_path / "testnet.sqlite3"
    odd = database_path("custom:../../My Node", tmp_path)
    assert odd.parent == tmp_path
    assert odd.name.startswith("custom-my-node-")
    assert database_path("custom:my node", tmp_path) != database_path("custom:My Node", tmp_path)
    assert "explorer" in str(database_path("mainnet"))


def test_labels_and_bookmarks_persist_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "testnet.sqlite3"

    async def scenario() -> tuple[dict[str, str], list[Bookmark]]:
        store = await opened(path)
        await store.set_label(ALICE.upper().replace("0X", "0x"), "  Alice\n the   miner ")
        await store.set_label(BOB, "Bob")
        await store.set_label(BOB, "")  # empty removes
        await store.save_bookmark(Bookmark(Route.parse(f"tx/{TX}"), "first", 100.0))
        await store.save_bookmark(Bookmark(Route.parse("block/7"), "seven", 200.0))
        await store.save_bookmark(Bookmark(Route.parse(f"tx/{TX}"), "renamed", 999.0))
        await store.aclose()
        again = await opened(path)
        try:
            return await again.labels(), await again.bookmarks()
        finally:
            await again.aclose()

    labels, bookmarks = run(scenario)
    assert labels == {ALICE: "Alice the miner"}
    assert bookmarks == [
        Bookmark(Route.parse("block/7"), "seven", 200.0),
        Bookmark(Route.parse(f"tx/{TX}"), "renamed", 100.0),
    ]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == 1


def test_bad_labels_are_refused(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = await opened(tmp_path / "n.sqlite3")
        try:
            with pytest.raises(HexFormatError):
                await store.set_label("0x1234", "short")
            with pytest.raises(ValueError, match="longer than 100"):
                await store.set_label(ALICE, "x" * 101)
            assert await store.labels() == {}
        finally:
            await store.aclose()

    run(scenario)


def test_newer_schema_or_foreign_file_is_left_untouched(tmp_path: Path) -> None:
    newer = tmp_path / "newer.sqlite3"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 7")
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not a database at all" * 100)
    before = {p: p.read_bytes() for p in (newer, garbage)}
    for path, message in ((newer, "newer explorer"), (garbage, "unusable")):
        with pytest.raises(LabelStoreError, match=message):
            run(lambda path=path: opened(path))  # type: ignore[misc]
    assert {p: p.read_bytes() for p in before} == before


def test_store_calls_never_stall_the_event_loop(tmp_path: Path) -> None:
    """Another process holds the write lock for 0.6 s: set_label waits, the loop keeps ticking."""
    path = tmp_path / "locked.sqlite3"
    run(lambda: opened(path))  # creates the schema
    holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    holder.execute("BEGIN EXCLUSIVE")
    threading.Timer(0.6, lambda: holder.execute("COMMIT")).start()

    async def scenario() -> tuple[float, float]:
        store = await opened(path)
        stalls: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            last = time.perf_counter()
            while not done.is_set():
                await asyncio.sleep(0.005)
                now = time.perf_counter()
                stalls.append(now - last)
                last = now

        tick = asyncio.ensure_future(ticker())
        started = time.perf_counter()
        await store.set_label(ALICE, "waited")
        waited = time.perf_counter() - started
        done.set()
        await tick
        await store.aclose()
        return waited, max(stalls)

    waited, longest_stall = run(scenario)
    holder.close()
    assert waited >= 0.5
    # The write waited on another process's lock off the loop: a blocked loop would record
    # one stall as long as the wait itself.
    assert longest_stall < waited / 2, f"the loop stalled {longest_stall * 1000:.0f} ms"


def test_export_then_import_counts_every_outcome(tmp_path: Path) -> None:
    async def scenario() -> list[str]:
        source = await opened(tmp_path / "a.sqlite3")
        await source.set_label(ALICE, "Alice")
        await source.set_label(BOB, "Bob")
        await source.save_bookmark(Bookmark(Route.parse(f"tx/{TX}"), "payment", 5.0))
        text = export_text(await source.labels(), await source.bookmarks(), "testnet", 31)
        await source.aclose()
        data = parse_export(text)
        target = await opened(tmp_path / "b.sqlite3")
        await target.set_label(BOB, "Robert")
        summaries = []
        for overwrite in (False, False, True):
            report = await target.import_data(data, overwrite=overwrite)
            summaries.append(report.summary())
        assert await target.labels() == {ALICE: "Alice", BOB: "Bob"}
        assert [b.title for b in await target.bookmarks()] == ["payment"]
        await target.aclose()
        return summaries

    first, second, third = run(scenario)
    assert first == ("Imported: 2 added, 0 updated, 1 skipped (1 kept your different entry)")
    assert second.startswith("Imported: 0 added, 0 updated, 3 skipped")
    assert "2 already the same, 1 kept" in second
    assert third.startswith("Imported: 0 added, 1 updated, 2 skipped")


def test_export_uses_the_network_checksum_and_round_trips() -> None:
    text = export_text(
        {ALICE: "Alice"}, [Bookmark(Route.parse("block/1"), "one", 1.0)], "mainnet", 30
    )
    data = json.loads(text)
    assert data["labels"] == [{"address": to_checksum_address(ALICE, 30), "label": "Alice"}]
    assert data["network"] == "mainnet"
    assert data["chainId"] == 30
    back = parse_export(text)
    assert back == ImportData(
        {ALICE: "Alice"},
        {Route.parse("block/1"): Bookmark(Route.parse("block/1"), "one", 1.0)},
        (),
        "mainnet",
        30,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "Bad file: not JSON"),
        ("[]", "expected a JSON object"),
        (json.dumps({"format": "other", "version": 1}), "Not an explorer labels file"),
        (file_text(version=2), "Wrong version: the file is version 2"),
        (file_text(version="1"), "Wrong version"),
        (file_text(version=True), "Wrong version"),
        (file_text(labels={"0x": "x"}), "'labels' must be a list"),
    ],
)
def test_bad_files_are_refused_whole(text: str, message: str) -> None:
    with pytest.raises(ImportFormatError, match=message):
        parse_export(text)


def test_bad_entries_are_skipped_with_reasons() -> None:
    wrong_case = to_checksum_address(ALICE, 31)
    wrong_case = wrong_case[:2] + wrong_case[2:].swapcase()[:3] + wrong_case[5:]
    labels = [
        {"address": ALICE, "label": "ok"},
        {"address": "0x1234", "label": "short"},
        {"address": wrong_case, "label": "bad checksum"},
        {"address": to_checksum_address(BOB, 30), "label": "mainnet checksum is fine"},
        {"address": ALICE, "label": "again"},
        {"address": ALICE[:-1] + "1", "label": ""},
        "text",
    ]
    bookmarks = [
        {"route": "home"},
        {"route": "block/0x12"},
        {"route": f"tx/{TX.upper()[2:]}"},
        {"route": "block/latest", "created": -1},
        {"route": "address/" + BOB},
    ]
    data = parse_export(file_text(labels=labels, bookmarks=bookmarks))
    assert data.labels == {ALICE: "ok", BOB: "mainnet checksum is fine"}
    assert list(data.bookmarks) == [Route.parse(f"address/{BOB}")]
    assert (
        data.bookmarks[Route.parse(f"address/{BOB}")].title
        == f"Address {to_checksum_address(BOB, 31)}"
    )
    reasons = "\n".join(data.invalid)
    for expected in (
        "labels[1]: not an address",
        "labels[2]: checksum wrong",
        "labels[4]: " + ALICE + " appears twice",
        "labels[5]: empty label",
        "labels[6]: not an object",
        "bookmarks[0]: the home page cannot be bookmarked",
        "bookmarks[1]: not a block",
        "bookmarks[2]: not a route",
        "bookmarks[3]: created is not a Unix time",
    ):
        assert expected in reasons
    assert len(data.invalid) == 9


def test_read_import_file_reports_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"Cannot read missing\.json"):
        read_import_file(tmp_path / "missing.json")
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ImportFormatError, match="not UTF-8"):
        read_import_file(binary)
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + file_text().encode())
    assert read_import_file(bom).labels == {}


@pytest.mark.parametrize(
    ("text", "route"),
    [
        (f"address/{ALICE.upper().replace('0X', '0x')}", f"address/{ALICE}"),
        (f"tx/{TX.upper().replace('0X', '0x')}", f"tx/{TX}"),
        ("block/007", "block/7"),
        ("block/Latest", "block/latest"),
        (f"block/{TX}", f"block/{TX}"),
    ],
)
def test_canonical_routes(text: str, route: str) -> None:
    assert canonical_route(Route.parse(text)) == Route.parse(route)


def test_default_titles() -> None:
    assert default_title(Route.parse("block/1234"), 31) == "Block 1,234"
    assert default_title(Route.parse(f"tx/{TX}"), 31) == "Transaction 0x359f6010…8ea110"
    assert (
        default_title(Route.parse(f"address/{ALICE}"), 30)
        == f"Address {to_checksum_address(ALICE, 30)}"
    )


def test_importing_ten_thousand_labels_is_quick(tmp_path: Path) -> None:
    labels = {"0x" + format(n, "040x"): f"label {n}" for n in range(10_000)}
    text = export_text(labels, [], "testnet", 31)

    async def scenario() -> float:
        store = await opened(tmp_path / "big.sqlite3")
        started = time.perf_counter()
        report = await store.import_data(parse_export(text), overwrite=False)
        elapsed = time.perf_counter() - started
        assert report.added == 10_000
        assert len(await store.labels()) == 10_000
        await store.aclose()
        return elapsed

    elapsed = run(scenario)
    print(f"parse + import of 10,000 labels: {elapsed * 1000:.0f} ms (measured, not asserted)")


def test_a_stored_bookmark_that_is_no_route_is_left_out(tmp_path: Path) -> None:
    """A row another program wrote with a bad route does not break the list."""
    path = tmp_path / "odd.sqlite3"
    run(lambda: opened(path))  # creates the schema
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO bookmarks VALUES ('nowhere/1', 'odd', 1.0)")
        db.execute("INSERT INTO bookmarks VALUES ('block/1', 'one', 2.0)")

    async def scenario() -> list[Bookmark]:
        store = await opened(path)
        try:
            return await store.bookmarks()
        finally:
            await store.aclose()

    assert run(scenario) == [Bookmark(Route.parse("block/1"), "one", 2.0)]
