"""Sessions with saved data over a relay that counts what reaches the node (a pytest plugin)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from explorer.devnet.process import DevnetOptions
from explorer.presentation.loaders import load_tx
from explorer.presentation.tx_document import TxFacts
from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.saved.sharing import SHARED_SCOPE
from explorer.services.networks import DEVNET, Network
from explorer.services.session import Session
from tests.helpers.devnet import Devnet, devnet_cache_dir, shared_loop, start_devnet
from tests.helpers.relay import Relay

T = TypeVar("T")
CHECK = ("eth_chainId", "net_version", "web3_clientVersion")
LOCK_HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA locking_mode = EXCLUSIVE")
db.execute("BEGIN EXCLUSIVE")
db.execute("CREATE TABLE IF NOT EXISTS held (x)")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
db.close()
"""
GENESIS = ("eth_getBlockByNumber", ["0x0", False])


def post(url: str, method: str, *params: Any) -> Any:
    """Ask a node directly with a plain HTTP POST (an independent path); return the result."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    return httpx.post(url, json=body, timeout=10).json()["result"]


def sent(relay: Relay, since: int = 0) -> Counter[str]:
    """Return the requests that reached the relay (from the since-th), by method."""
    return Counter(str(r.rpc_method) for r in relay.server.requests[since:])


def beyond_check(relay: Relay, since: int = 0) -> Counter[str]:
    """Return the requests beyond the chain check and the genesis read, by method."""
    counted: Counter[str] = Counter()
    for request in relay.server.requests[since:]:
        method = str(request.rpc_method)
        if method in CHECK or (method, request.params) == GENESIS:
            continue
        counted[method] += 1
    return counted


async def ready(session: Session) -> None:
    """Wait for the chain check and for the saved data to be opened (or given up)."""
    await session.settled_check()
    assert session.cache is not None
    await session.cache.usable()


def with_saved_session(
    url: str,
    root: Path,
    use: Callable[[Session], Awaitable[T]],
    network: Network = DEVNET,
    notices: list[str] | None = None,
    **options: Any,
) -> T:
    """Run use(session) on a fresh loop with a session keeping saved data under root.

    The directory's messages go into notices; everything queued is written before it returns
    (as when the app closes).
    """

    async def main() -> T:
        directory = CacheDirectory(root, **options)
        if notices is not None:
            directory.notice_listeners.append(notices.append)
        session = Session(network, Endpoint.parse(url), saved=directory)
        try:
            await ready(session)
            return await use(session)
        finally:
            await session.aclose()
            await directory.aclose()

    return asyncio.run(main())


def offline_answers(url: str, root: Path, network: Network) -> bool:
    """Tell whether a session on network may answer from the saved data with the node gone."""

    async def main() -> bool:
        directory = CacheDirectory(root)
        session = Session(network, Endpoint.parse(url), saved=directory)
        try:
            assert session.cache is not None
            return await session.cache.go_offline(network.chain_id)
        finally:
            await session.aclose()
            await directory.aclose()

    return asyncio.run(main())


@contextlib.contextmanager
def locked_file(path: Path) -> Iterator[Callable[[], None]]:
    """Hold a SQLite file locked from another process; yield the function that lets it go."""
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None
    assert holder.stdout is not None
    stdin = holder.stdin

    def release() -> None:
        if not stdin.closed:
            stdin.close()  # the holder reads the end of its input, rolls back and exits
            holder.wait(timeout=30)

    try:
        assert holder.stdout.readline().strip() == "locked"
        yield release
    finally:
        release()
        holder.stdout.close()


@pytest.fixture
def relay(devnet: Devnet) -> Iterator[Relay]:
    """Yield a relay to the devnet's test network that records every request."""
    running = Relay(devnet.url("testnet"))
    yield running
    running.close()


@pytest.fixture
def stoppable(tmp_path: Path) -> Iterator[Devnet]:
    """Yield a devnet of the test network of its own, which the test may stop."""
    options = DevnetOptions(cache_dir=devnet_cache_dir(), network="test")
    running = start_devnet(shared_loop(), tmp_path, options)
    yield running
    shared_loop().run(running.process.stop())


def tx_page(tx_hash: str) -> Callable[[Session], Awaitable[TxFacts]]:
    """Return a use(session) that loads a mined transaction's page facts."""

    async def page(session: Session) -> TxFacts:
        facts = await load_tx(session.reader, session.network, tx_hash)
        assert isinstance(facts, TxFacts)
        return facts

    return page


def endpoint_files(folder: Path, chain_id: int) -> list[Path]:
    """Return the endpoints' own files of a chain in a folder (not its shared, verified file)."""
    shared = f"-{SHARED_SCOPE}.sqlite3"
    return [p for p in folder.glob(f"chain-{chain_id}-*.sqlite3") if not p.name.endswith(shared)]
