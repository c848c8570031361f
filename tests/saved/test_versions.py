"""Every SQLite store opens each schema it ever had and migrates it without losing data.

The old files are built from the schemas as released (tests/fixtures/saved-schemas, verbatim
from the commits they name), set up as their code then set them up (WAL), filled, and then
opened through today's stores.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import sqlite3
import time
import zlib
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar

import pytest

from explorer.chain.pooled import PooledTx
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.stats import utc_today
from explorer.saved.directory import INDEX_FILE, CacheDirectory, endpoint_id
from explorer.saved.rules import block_key
from explorer.saved.schema import CHAIN_FILE
from explorer.saved.seen import SEEN_FILE, SeenStore, SeenTx, seen_by
from explorer.saved.sqlite_file import FileSchema, Migration, NewerSchema, open_database
from explorer.saved.store import ChainIdentity, ChainStore
from explorer.saved.usage import USAGE_FILE, UsageStore
from explorer.services.label_entries import Bookmark
from explorer.services.labels import LABELS_FILE, LabelStore
from explorer.services.routes import Route

T = TypeVar("T")
SCHEMAS = Path(__file__).resolve().parents[1] / "fixtures" / "saved-schemas"
GENESIS = "0x" + "ab" * 32
BLOCK = "0x" + "cd" * 32
ENDPOINT = Endpoint.parse("https://rpc.example.org/v2/a-key-of-some-length")
ALICE = "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"


def run(work: Callable[[], Awaitable[T]]) -> T:
    """Run a coroutine function on a fresh loop."""
    return asyncio.run(_call(work))


async def _call(work: Callable[[], Awaitable[T]]) -> T:
    """Await work (a coroutine function) on the running loop."""
    return await work()


@contextlib.contextmanager
def old_file(path: Path, schema: str, version: int = 0) -> Iterator[sqlite3.Connection]:
    """Yield a file set up as its code did then: WAL, the schema as released, its version."""
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(path, isolation_level=None)
    try:
        if schema == "chain-v0":
            db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        db.execute("PRAGMA journal_mode = WAL")
        db.executescript((SCHEMAS / f"{schema}.sql").read_text())
        db.execute(f"PRAGMA user_version = {version}")
        yield db
    finally:
        db.close()


def version_of(path: Path) -> int:
    """Return a file's PRAGMA user_version."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def every_value(path: Path) -> bytes:
    """Return the bytes of a file and its WAL (to look for a value anywhere in them)."""
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


def test_a_chain_file_from_before_versions_is_adopted_with_everything_it_held(
    tmp_path: Path,
) -> None:
    """Answers, the block map, log ranges, records and the saved time stay readable."""
    identity = ChainIdentity(31, GENESIS)
    path = tmp_path / identity.file_name()
    body = b'{"jsonrpc":"2.0","id":1,"result":{"number":"0x64","hash":"%s"}}' % BLOCK.encode()
    logs = b'{"result":[{"blockNumber":"0x5"}]}'
    with old_file(path, "chain-v0") as db:
        meta = {"schema": "1", "chain_id": "31", "genesis": GENESIS, "saved_at": "1700000000.5"}
        db.executemany("INSERT INTO meta VALUES (?, ?)", [*meta.items(), ("head", "130")])
        db.execute(
            "INSERT INTO answers VALUES (?, 100, ?, ?, ?, 1.0)",
            (block_key(BLOCK, False), BLOCK, zlib.compress(body), len(body)),
        )
        db.execute("INSERT INTO canon VALUES (100, ?)", (BLOCK,))
        db.execute(
            "INSERT INTO log_segments VALUES ('f', 1, 9, ?, ?, 1.0)",
            (zlib.compress(logs), len(logs)),
        )
        db.execute(
            "INSERT INTO records VALUES ('token', 'a', 100, ?, 4, 1.0)", (zlib.compress(b'"x"'),)
        )

    async def read() -> tuple[Any, ...]:
        store = ChainStore(path, identity, 10**9)
        try:
            return (
                await store.block_at(100, False),
                [segment.body for segment in await store.segments("f", 1, 9)],
                await store.record("token", "a"),
                await store.state(),
            )
        finally:
            await store.aclose()

    block, segments, record, state = run(read)
    assert block == body
    assert segments == [logs]
    assert record == b'"x"'
    assert (state.saved_at, state.head) == (1700000000.5, 130)
    assert version_of(path) == CHAIN_FILE.version == 1


def test_the_index_of_endpoints_keeps_which_chain_each_served_under_salted_ids(
    tmp_path: Path,
) -> None:
    """Offline browsing still knows the endpoint; its bare id is gone from the file."""
    bare = endpoint_id(ENDPOINT)
    with old_file(tmp_path / "endpoints.sqlite3", "index-v0") as db:
        db.execute("INSERT INTO endpoints VALUES (?, 31, ?, 1700000000.0)", (bare, GENESIS))

    async def served() -> Any:
        directory = CacheDirectory(tmp_path)
        try:
            return await directory.served(ENDPOINT)
        finally:
            await directory.aclose()

    found = run(served)
    assert found is not None
    assert (found.identity, found.seen) == (ChainIdentity(31, GENESIS), 1700000000.0)
    assert (found.head, found.answered) == (None, None)  # no head noted before the heads table
    assert bare.encode() not in every_value(tmp_path / "endpoints.sqlite3")
    assert version_of(tmp_path / "endpoints.sqlite3") == INDEX_FILE.version == 3


def test_the_request_counts_keep_every_day_and_quota_under_salted_ids(tmp_path: Path) -> None:
    """Today's and yesterday's counts add up as before; the bare hash of URL and key is gone."""
    path = tmp_path / "usage.sqlite3"
    usage_id = hashlib.sha256(ENDPOINT.url.encode()).hexdigest()[:16]  # Session.usage_id
    yesterday = (utc_today() - timedelta(days=1)).isoformat()
    with old_file(path, "usage-v0") as db:
        db.executemany(
            "INSERT INTO usage VALUES (?, ?, ?)",
            [(usage_id, utc_today().isoformat(), 120), (usage_id, yesterday, 7)],
        )
        db.execute("INSERT INTO quotas VALUES ('testnet', 500)")

    async def counts() -> tuple[int, int, int]:
        store = UsageStore(path)
        try:
            today = await store.today(usage_id)
            earlier = await store.add(usage_id, 1, utc_today() - timedelta(days=1))
            return today, earlier, await store.quota("testnet", 25_000)
        finally:
            await store.aclose()

    assert run(counts) == (120, 8, 500)
    assert usage_id.encode() not in every_value(path)
    assert version_of(path) == USAGE_FILE.version == 2


def test_the_transactions_seen_are_found_again(tmp_path: Path) -> None:
    """A record written by the first release reads back whole."""
    path = tmp_path / "seen-transactions.sqlite3"
    now = time.time()
    pooled = PooledTx("0x" + "ef" * 32, ALICE, 4, 66_000_000, 21_000, 10**30)
    row = (31, pooled.hash, ALICE, 4, "66000000", 21_000, str(10**30), now, 10, now, 12, 1)
    with old_file(path, "seen-v0") as db:
        db.execute(f"INSERT INTO seen VALUES ({', '.join('?' * len(row))})", row)

    async def find() -> SeenTx | None:
        store = SeenStore(path)
        try:
            return await store.find(31, pooled.hash, "")
        finally:
            await store.aclose()

    assert run(find) == SeenTx(31, pooled, now, 10, now, 12, sent_here=True)
    assert version_of(path) == SEEN_FILE.version == 2


def test_transactions_seen_before_endpoints_were_told_apart_stay_only_when_sent_here(
    tmp_path: Path,
) -> None:
    """Rows of the first release name no endpoint: only those sent from here are found."""
    path = tmp_path / "seen-transactions.sqlite3"
    now = time.time()
    sent = PooledTx("0x" + "ef" * 32, ALICE, 4, 66_000_000, 21_000, 1)
    sighted = PooledTx("0x" + "cd" * 32, ALICE, 5, 66_000_000, 21_000, 1)
    rows = [
        (31, sent.hash, ALICE, 4, "66000000", 21_000, "1", now, 10, now, 12, 1),
        (31, sighted.hash, ALICE, 5, "66000000", 21_000, "1", now, 10, now, 12, 0),
    ]
    with old_file(path, "seen-v0") as db:
        db.executemany(f"INSERT INTO seen VALUES ({', '.join('?' * 12)})", rows)
    endpoint = seen_by(Endpoint.parse("https://public-node.testnet.rsk.co"))

    async def find() -> tuple[SeenTx | None, SeenTx | None]:
        store = SeenStore(path)
        try:
            return await store.find(31, sent.hash, endpoint), await store.find(
                31, sighted.hash, endpoint
            )
        finally:
            await store.aclose()

    assert run(find) == (SeenTx(31, sent, now, 10, now, 12, sent_here=True), None)
    assert version_of(path) == 2


def test_labels_and_bookmarks_of_the_first_release_read_back(tmp_path: Path) -> None:
    """The label database has kept its version since its first release: nothing to migrate."""
    path = tmp_path / "testnet.sqlite3"
    with old_file(path, "labels-v1", version=1) as db:
        db.execute("INSERT INTO labels VALUES (?, 'Alice', 1.0)", (ALICE,))
        db.execute("INSERT INTO bookmarks VALUES ('block/5', 'Block 5', 2.0)")

    async def read() -> tuple[dict[str, str], list[Bookmark]]:
        store = LabelStore(path)
        await store.open()
        try:
            return await store.labels(), await store.bookmarks()
        finally:
            await store.aclose()

    assert run(read) == ({ALICE: "Alice"}, [Bookmark(Route.parse("block/5"), "Block 5", 2.0)])
    assert version_of(path) == LABELS_FILE.version == 1


@pytest.mark.parametrize("schema", [CHAIN_FILE, USAGE_FILE, SEEN_FILE, LABELS_FILE])
def test_a_newer_explorers_file_is_left_untouched(tmp_path: Path, schema: FileSchema) -> None:
    """A file of a later version than this explorer knows: refused, not a byte changed."""
    path = tmp_path / "newer.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE later (x)")
        db.execute(f"PRAGMA user_version = {schema.version + 1}")
    before = path.read_bytes()
    with pytest.raises(NewerSchema, match="newer explorer"):
        open_database(path, schema)
    assert path.read_bytes() == before


def test_a_failed_migration_leaves_the_file_at_its_version(tmp_path: Path) -> None:
    """All of a file's migrations run in one transaction: one that fails undoes the others."""

    def fail(_db: sqlite3.Connection) -> None:
        raise sqlite3.OperationalError("disk full, say")

    schema = FileSchema(
        "a store",
        (
            Migration("one", ("CREATE TABLE one (x)",)),
            Migration("two", ("CREATE TABLE two (x)", fail)),
        ),
    )
    path = tmp_path / "store.sqlite3"
    with pytest.raises(sqlite3.OperationalError, match="disk full"):
        open_database(path, schema)
    with contextlib.closing(sqlite3.connect(path)) as db:
        tables = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    assert tables == []
    assert version_of(path) == 0
