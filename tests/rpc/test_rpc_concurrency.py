"""Concurrency cap, shared in-flight calls, cancellation and request counters."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.stats import utc_today
from explorer.services.networks import TESTNET_GENESIS
from tests.helpers.rpc import with_client
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, result, rpc_error, slow
from tests.helpers.testnet_node import ADDRESS, TX_HASH, serve_testnet


def test_concurrency_cap_per_endpoint(server: ScriptedServer, endpoint: Endpoint) -> None:
    """No more than max_in_flight requests reach the server at once."""
    server.fallback = slow(0.15, result("0x1"))

    async def use(client: RpcClient) -> list[int]:
        addresses = [f"0x{i:040x}" for i in range(20)]
        return await asyncio.gather(*(client.get_balance(a) for a in addresses))

    assert with_client(endpoint, use, max_in_flight=3) == [1] * 20
    assert server.max_concurrent == 3
    assert len(server.requests) == 20


def test_identical_requests_in_flight_share_one_call(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """Ten identical reads at once cost one request; different params do not share."""
    server.fallback = slow(0.1, serve_testnet)

    async def use(client: RpcClient) -> list[Any]:
        same = [client.get_transaction_receipt(TX_HASH) for _ in range(10)]
        spelled = client.get_transaction_receipt(TX_HASH.upper().replace("0X", "0x"))
        other = client.get_balance(ADDRESS)
        return await asyncio.gather(*same, spelled, other)

    answers = with_client(endpoint, use)
    assert all(answer == answers[0] for answer in answers[:11])
    assert sorted(map(str, server.rpc_methods)) == ["eth_getBalance", "eth_getTransactionReceipt"]


def test_finished_calls_are_not_reused(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Sharing lasts only while a call is in flight; later calls ask again."""

    async def use(client: RpcClient) -> None:
        await client.block_number()
        await client.block_number()

    with_client(endpoint, use)
    assert server.rpc_methods == ["eth_blockNumber", "eth_blockNumber"]


def test_submissions_are_never_shared(server: ScriptedServer, endpoint: Endpoint) -> None:
    """Two identical eth_sendRawTransaction calls are two requests."""
    server.fallback = slow(0.1, serve_testnet)

    async def use(client: RpcClient) -> list[str]:
        return await asyncio.gather(*(client.send_raw_transaction("0x01") for _ in range(2)))

    assert with_client(endpoint, use) == [TX_HASH, TX_HASH]
    assert server.rpc_methods == ["eth_sendRawTransaction"] * 2


def test_one_waiter_cancelling_does_not_cancel_the_others(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """Cancelling one caller of a shared call leaves the other's answer intact."""
    server.fallback = slow(0.2, serve_testnet)

    async def use(client: RpcClient) -> Any:
        first = asyncio.ensure_future(client.block_number())
        second = asyncio.ensure_future(client.block_number())
        await asyncio.sleep(0.05)
        first.cancel()
        with pytest.raises(asyncio.CancelledError):
            await first
        return await second

    assert with_client(endpoint, use) == 0x2EC6B8
    assert len(server.requests) == 1


def test_last_waiter_cancelling_cancels_the_call(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """When every caller has gone, the shared call is cancelled and forgotten."""
    server.fallback = slow(0.3, serve_testnet)

    async def use(client: RpcClient) -> tuple[int, int]:
        task = asyncio.ensure_future(client.block_number())
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        for _ in range(200):
            if not client._in_flight:
                break
            await asyncio.sleep(0.01)
        in_flight = len(client._in_flight)
        return in_flight, await client.block_number()

    assert with_client(endpoint, use) == (0, 0x2EC6B8)
    assert len(server.requests) == 2


def test_a_new_caller_right_after_the_last_cancel_gets_a_fresh_call(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """A call cancelled by its last waiter is not handed to a caller arriving just after."""
    server.fallback = slow(0.2, serve_testnet)

    async def use(client: RpcClient) -> int:
        task = asyncio.ensure_future(client.block_number())
        await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.sleep(0)
        fresh = asyncio.ensure_future(client.block_number())
        with pytest.raises(asyncio.CancelledError):
            await task
        return await fresh

    assert with_client(endpoint, use) == 0x2EC6B8


def test_stats_count_requests_per_method_and_day(
    server: ScriptedServer, endpoint: Endpoint
) -> None:
    """Counters: total, per method, per UTC day; retries count, shared calls once."""
    server.script(slow(0.1, result("0x5")))
    server.fallback = serve_testnet
    clients: list[RpcClient] = []

    async def use(client: RpcClient) -> None:
        clients.append(client)
        await asyncio.gather(client.block_number(), client.block_number())
        await client.get_balance(ADDRESS)
        await client.get_balance(ADDRESS)

    with_client(endpoint, use)
    stats = clients[0].stats
    assert stats.total == 3 == len(server.requests)
    assert stats.by_method == {"eth_blockNumber": 1, "eth_getBalance": 2}
    assert stats.by_day == {utc_today(): 3}
    assert stats.today == 3


def test_probe_reports_chain_and_latency(server: ScriptedServer, endpoint: Endpoint) -> None:
    """probe() reads chain id, net_version and the client version; matches 31, not 30."""

    async def use(client: RpcClient) -> Any:
        return await client.probe(31), await client.probe(30), await client.probe()

    testnet, mainnet, anything = with_client(endpoint, use)
    assert (testnet.chain_id, testnet.net_version) == (31, "31")
    assert testnet.client_version
    assert testnet.client_version.startswith("RskJ/")
    assert testnet.matches
    assert testnet.mismatch() is None
    assert testnet.latency > 0
    assert anything.matches
    assert not mainnet.matches
    error = mainnet.mismatch()
    assert error is not None
    assert (error.expected, error.actual) == (30, 31)
    assert "chain 31" in error.message


def test_probe_without_client_version(server: ScriptedServer, endpoint: Endpoint) -> None:
    """A node that refuses web3_clientVersion still probes; net_version must agree too."""
    answers = {"eth_chainId": "0x1e", "net_version": "31"}

    def node(request: Recorded) -> Reply:
        if request.rpc_method in answers:
            return result(answers[request.rpc_method])(request)
        return rpc_error(-32601, "method not found")(request)

    server.fallback = node

    async def use(client: RpcClient) -> Any:
        return await client.probe(30)

    probe = with_client(endpoint, use)
    assert probe.client_version is None
    assert probe.chain_id == 30
    assert not probe.matches


def test_probe_asks_its_four_questions_at_once(server: ScriptedServer, endpoint: Endpoint) -> None:
    """The chain check costs one round trip: no answer comes until all four have arrived.

    Chain id, network id, client version and the genesis block (block 0, without its
    transactions): a chain is its chain id and its genesis hash.
    """
    genesis = {"hash": TESTNET_GENESIS, "parentHash": "0x" + "00" * 32, "number": "0x0"}
    genesis |= {"gasLimit": "0x0", "gasUsed": "0x0", "timestamp": "0x0"}
    answers = {
        "eth_chainId": "0x1f",
        "net_version": "31",
        "web3_clientVersion": "RskJ/9.0.0",
        "eth_getBlockByNumber": genesis,
    }
    all_arrived = threading.Barrier(len(answers), timeout=10)

    def node(request: Recorded) -> Reply:
        all_arrived.wait()  # a question asked only after another's answer breaks the barrier
        return result(answers[str(request.rpc_method)])(request)

    server.fallback = node
    probe = with_client(endpoint, lambda client: client.probe(31, TESTNET_GENESIS))
    assert probe.matches
    assert probe.client_version == "RskJ/9.0.0"
    assert probe.genesis_hash == TESTNET_GENESIS
    (block_zero,) = [r for r in server.requests if r.rpc_method == "eth_getBlockByNumber"]
    assert block_zero.params == ["0x0", False]
