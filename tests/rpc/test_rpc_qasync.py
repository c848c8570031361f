"""The client on the app's qasync loop under pytest-qt: the aiohttp transport works there."""

from __future__ import annotations

import asyncio
from typing import Any

from pytestqt.qtbot import QtBot

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy
from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import ScriptedServer, drop, slow
from tests.helpers.testnet_node import TX_HASH, serve_testnet


def test_client_runs_on_the_qasync_loop(qloop: Any, qtbot: QtBot, server: ScriptedServer) -> None:
    """Concurrent calls, a shared call, a retry after a drop and a probe, all on qasync."""
    server.script(drop())
    server.fallback = slow(0.05, serve_testnet)
    endpoint = Endpoint.parse(f"{server.url}/{API_KEY}")

    async def use() -> Any:
        assert asyncio.get_running_loop() is qloop
        client = RpcClient(endpoint, retry=RetryPolicy(base_delay=0.001))
        try:
            receipts = await asyncio.gather(
                *(client.get_transaction_receipt(TX_HASH) for _ in range(3)),
                client.block_number(),
            )
            return receipts, await client.probe(31)
        finally:
            await client.aclose()

    future = asyncio.ensure_future(use())
    qtbot.waitUntil(future.done, timeout=10_000)
    (first, second, third, number), probe = future.result()
    assert first == second == third
    assert first.transaction_hash == TX_HASH
    assert number == 0x2EC6B8
    assert probe.matches
    assert sorted(map(str, server.rpc_methods[1:3])) == [
        "eth_blockNumber",
        "eth_getTransactionReceipt",
    ]
