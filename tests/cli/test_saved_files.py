"""`explorer report`'s saved data on disk: private, salted, a lock waited out, damage said."""

from __future__ import annotations

import contextlib
import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import endpoint_id
from tests.helpers.cache import beyond_check, locked_file
from tests.helpers.cli import REPO, explorer
from tests.helpers.devnet import Devnet
from tests.helpers.relay import Relay


def mode(path: Path) -> int:
    """Return a path's permission bits."""
    return stat.S_IMODE(path.stat().st_mode)


@contextlib.contextmanager
def umask(value: int) -> Iterator[None]:
    """Run the block (and the processes it starts) under a umask, as most desktops have it."""
    before = os.umask(value)
    try:
        yield
    finally:
        os.umask(before)


def saved_folder() -> Path:
    """Return this test's saved-data folder (tests/conftest.py sets it)."""
    return Path(os.environ["EXPLORER_CACHE_DIR"])


def report(relay: Relay, tx_hash: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer report` through the relay; it must succeed."""
    done = explorer("report", tx_hash, "--endpoint", relay.url)
    assert done.returncode == 0, done.stderr
    return done


def test_the_saved_data_folder_is_0700_and_its_files_0600(relay: Relay, devnet: Devnet) -> None:
    """A folder an older explorer left 0755 with a 0644 file: both tightened, new files 0600."""
    folder = saved_folder()
    folder.mkdir(parents=True)
    os.chmod(folder, 0o755)
    older = folder / "chain-30-0123456789abcdef.sqlite3"
    older.write_bytes(b"")
    os.chmod(older, 0o644)
    with umask(0o022):
        report(relay, devnet.manifest()["token_transfer"])
    usage = Path(os.environ["EXPLORER_USAGE_FILE"])
    files = [*folder.iterdir(), *usage.parent.glob(usage.name + "*")]
    assert mode(folder) == 0o700
    assert {path.name: oct(mode(path)) for path in files if mode(path) != 0o600} == {}
    assert {path.name for path in files} >= {older.name, "endpoints.sqlite3", usage.name}
    assert any(path.name.startswith("chain-31-") for path in files)


def test_no_bare_hash_of_the_url_and_its_key_is_kept(
    relay: Relay, devnet: Devnet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two profiles: each keeps the counts under its own salted id, never the URL's plain hash."""
    bare_key_id = hashlib.sha256(relay.url.encode()).hexdigest()  # the URL holds the key
    bare_endpoint = endpoint_id(Endpoint.parse(relay.url))
    kept: list[str] = []
    for profile in ("one", "two"):
        usage = tmp_path / profile / "usage.sqlite3"
        monkeypatch.setenv("EXPLORER_USAGE_FILE", str(usage))
        monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / profile / "chains"))
        report(relay, devnet.manifest()["token_transfer"])
        with contextlib.closing(sqlite3.connect(usage)) as db:
            (row,) = db.execute("SELECT usage_id, count FROM usage").fetchall()
        assert row[1] > 0  # the requests were counted
        kept.append(row[0])
        written = b"".join(p.read_bytes() for p in (tmp_path / profile).rglob("*.sqlite3*"))
        assert bare_key_id[:16].encode() not in written
        assert bare_endpoint[:16].encode() not in written
    assert kept[0] != kept[1]  # each profile's salt is its own


def test_a_locked_saved_data_file_is_waited_for_and_never_discarded(
    relay: Relay, devnet: Devnet
) -> None:
    """Locked while a report runs: the node answers, its reads are written once the lock goes.

    The file and what it held stay: the first report's transaction and the second's are both
    answered from it afterwards.
    """
    manifest = devnet.manifest()
    first, second = manifest["token_transfer"], manifest["failed_tx"]
    report(relay, first)
    (chain_file,) = saved_folder().glob("chain-31-*.sqlite3")
    with locked_file(chain_file) as release:
        running = subprocess.Popen(
            [sys.executable, "-m", "explorer", "report", second, "--endpoint", relay.url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        assert running.stderr is not None
        said = running.stderr.readline()
        release()
        out, rest = running.communicate(timeout=120)
    assert running.returncode == 0, said + rest
    assert "locked by another program" in said
    assert "moved aside" not in said + rest
    assert second in out
    assert not list(saved_folder().glob("*.broken-*"))
    for tx_hash in (first, second):
        before = len(relay.server.requests)
        report(relay, tx_hash)
        assert beyond_check(relay, before) == {"eth_blockNumber": 1}, tx_hash


def test_a_damaged_saved_data_file_is_moved_aside_and_said_on_stderr(
    relay: Relay, devnet: Devnet
) -> None:
    """Garbage in the chain's file: the report is right, stderr says where the file went."""
    tx_hash = devnet.manifest()["token_transfer"]
    cold = report(relay, tx_hash)
    (chain_file,) = saved_folder().glob("chain-31-*.sqlite3")
    chain_file.write_bytes(b"not a database, " * 4096)
    done = report(relay, tx_hash)
    (aside,) = saved_folder().glob("chain-31-*.sqlite3.broken-*")
    assert f"moved aside to {aside.name}" in done.stderr
    assert "saved data of chain 31" in done.stderr
    assert tx_hash in done.stdout
    assert done.stdout.count("\n") == cold.stdout.count("\n")
