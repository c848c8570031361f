"""`explorer report`'s saved data on disk: private, salted, a lock waited out, damage said.

Against a node answering from the real testnet samples (tests/helpers/testnet_node.py): block
436 and transaction 0x359f are settled there, so a report keeps them.
"""

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
from tests.helpers.cache import endpoint_files, locked_file
from tests.helpers.cli import REPO, explorer
from tests.helpers.scripted_server import ScriptedServer, scripted_server
from tests.helpers.testnet_node import TX_HASH, serve_testnet

BLOCK = "436"  # 0x1b4


@pytest.fixture
def node() -> Iterator[ScriptedServer]:
    """Yield a node answering as a testnet node from the samples."""
    with scripted_server(serve_testnet) as server:
        yield server


def url_of(node: ScriptedServer) -> str:
    """Return the node's endpoint with a key in its path."""
    return f"{node.url}/saved-files-key-0001"


def report(node: ScriptedServer, query: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer report QUERY` against the node; it must succeed."""
    done = explorer("report", query, "--endpoint", url_of(node))
    assert done.returncode == 0, done.stderr
    return done


def asked_again(node: ScriptedServer, since: int) -> list[str]:
    """Return the reads of block 436 or the transaction's receipt sent since a request.

    (The sample node wraps the transaction itself in an array, which is never kept.)
    """
    wanted = {("eth_getBlockByNumber", "0x1b4"), ("eth_getTransactionReceipt", TX_HASH)}
    return [
        str(request.rpc_method)
        for request in node.requests[since:]
        if (request.rpc_method, (request.params or [None])[0]) in wanted
    ]


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


def test_the_saved_data_folder_is_0700_and_its_files_0600(node: ScriptedServer) -> None:
    """A folder an older explorer left 0755 with a 0644 file: both tightened, new files 0600."""
    folder = saved_folder()
    folder.mkdir(parents=True)
    os.chmod(folder, 0o755)
    older = folder / "chain-30-0123456789abcdef.sqlite3"
    older.write_bytes(b"")
    os.chmod(older, 0o644)
    with umask(0o022):
        report(node, BLOCK)
    usage = Path(os.environ["EXPLORER_USAGE_FILE"])
    files = [*folder.iterdir(), *usage.parent.glob(usage.name + "*")]
    assert mode(folder) == 0o700
    assert {path.name: oct(mode(path)) for path in files if mode(path) != 0o600} == {}
    assert {path.name for path in files} >= {older.name, "endpoints.sqlite3", usage.name}
    assert any(path.name.startswith("chain-31-") for path in files)


def test_no_bare_hash_of_the_url_and_its_key_is_kept(
    node: ScriptedServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two profiles: each keeps the counts under its own salted id, never the URL's plain hash."""
    bare_key_id = hashlib.sha256(url_of(node).encode()).hexdigest()  # the URL holds the key
    bare_endpoint = endpoint_id(Endpoint.parse(url_of(node)))
    kept: list[str] = []
    for profile in ("one", "two"):
        usage = tmp_path / profile / "usage.sqlite3"
        monkeypatch.setenv("EXPLORER_USAGE_FILE", str(usage))
        monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / profile / "chains"))
        report(node, BLOCK)
        with contextlib.closing(sqlite3.connect(usage)) as db:
            (row,) = db.execute("SELECT usage_id, count FROM usage").fetchall()
        assert row[1] > 0  # the requests were counted
        kept.append(row[0])
        written = b"".join(p.read_bytes() for p in (tmp_path / profile).rglob("*.sqlite3*"))
        assert bare_key_id[:16].encode() not in written
        assert bare_endpoint[:16].encode() not in written
    assert kept[0] != kept[1]  # each profile's salt is its own


def test_a_locked_saved_data_file_is_waited_for_and_never_discarded(
    node: ScriptedServer,
) -> None:
    """Locked while a report runs: the node answers, what it read is written once the lock goes.

    The file and what it held stay: the first report's block and the second's transaction are
    both answered from it afterwards.
    """
    report(node, BLOCK)
    (chain_file,) = endpoint_files(saved_folder(), 31)
    with locked_file(chain_file) as release:
        running = subprocess.Popen(
            [sys.executable, "-m", "explorer", "report", TX_HASH, "--endpoint", url_of(node)],
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
    assert TX_HASH in out
    assert not list(saved_folder().glob("*.broken-*"))
    before = len(node.requests)
    report(node, BLOCK)
    report(node, TX_HASH)
    assert asked_again(node, before) == []


def test_a_damaged_saved_data_file_is_moved_aside_and_said_on_stderr(
    node: ScriptedServer,
) -> None:
    """Garbage in the chain's file: the report is right, stderr says where the file went."""
    cold = report(node, BLOCK)
    (chain_file,) = endpoint_files(saved_folder(), 31)
    chain_file.write_bytes(b"not a database, " * 4096)
    done = report(node, BLOCK)
    (aside,) = saved_folder().glob("chain-31-*.sqlite3.broken-*")
    assert f"moved aside to {aside.name}" in done.stderr
    assert "saved data of chain 31" in done.stderr
    assert done.stdout == cold.stdout
    before = len(node.requests)
    report(node, BLOCK)
    assert asked_again(node, before) == []  # the new file was filled
