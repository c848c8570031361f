"""A saved-data file another program holds locked: skipped, written to once it is free."""

from __future__ import annotations

import asyncio
from pathlib import Path

from explorer.saved.store import RETRY_SECONDS
from explorer.services.networks import custom_network
from explorer.services.session import Session
from tests.helpers.cache import endpoint_files, locked_file, with_saved_session
from tests.helpers.scripted_server import scripted_server
from tests.helpers.testnet_node import TX_HASH, serve_testnet

SAMPLES = custom_network("samples", 31)


def test_what_is_read_while_the_file_is_locked_is_written_once_it_is_free(
    tmp_path: Path,
) -> None:
    """A session open while the file is locked: its writes wait, tried again, then land."""

    async def block(session: Session) -> None:
        await session.reader.latest_number()
        await session.reader.block(436, full=False)

    async def receipt_then_wait(session: Session) -> None:
        await session.reader.latest_number()
        assert await session.reader.receipt(TX_HASH) is not None  # from the node
        assert session.cache is not None
        store = session.cache.store
        assert store is not None
        await asyncio.sleep(2 * RETRY_SECONDS + 1)  # a retry or two meet the lock
        assert store.file.locked
        release()
        await asyncio.wait_for(store.written(), 30)  # the next retry writes

    async def again(session: Session) -> None:
        await session.reader.latest_number()
        await session.reader.block(436, full=False)
        await session.reader.receipt(TX_HASH)

    with scripted_server(serve_testnet) as node:
        url = f"{node.url}/locked-key-0001"
        with_saved_session(url, tmp_path, block, network=SAMPLES)  # the file exists
        (chain_file,) = endpoint_files(tmp_path, 31)
        with locked_file(chain_file) as release:
            with_saved_session(url, tmp_path, receipt_then_wait, SAMPLES, busy_timeout=0.5)
        before = len(node.requests)
        with_saved_session(url, tmp_path, again, network=SAMPLES)
        asked = [str(r.rpc_method) for r in node.requests[before:]]
    assert "eth_getTransactionReceipt" not in asked  # written after the lock went
    assert asked.count("eth_getBlockByNumber") == 1  # the genesis; block 436 was kept
    assert not list(tmp_path.glob("*.broken-*"))
