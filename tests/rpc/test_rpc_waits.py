"""What a waiting screen reads from the client, and a quota of requests that left.

Each call's attempt, retries as they start, and a quota that counts only requests that left
this machine.
"""

from __future__ import annotations

import asyncio

import pytest

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RateLimited, TransportError
from explorer.rpc.retry import Attempt
from tests.helpers.rpc import API_KEY, FAST_RETRY, run
from tests.helpers.scripted_server import ScriptedServer, raw, result, scripted_server, slow


def test_each_retry_is_heard_with_its_number_and_the_reason(server: ScriptedServer) -> None:
    """Rate-limited three times, then answered: attempts 2, 3 and 4 of 4, each after a 429."""
    server.script(raw(429), raw(429), raw(429))
    heard: list[Attempt] = []

    async def main() -> int:
        client = RpcClient(Endpoint.parse(f"{server.url}/{API_KEY}"), retry=FAST_RETRY)
        client.attempt_listeners.append(heard.append)
        try:
            return await client.block_number()
        finally:
            await client.aclose()

    assert run(main()) == 0x2EC6B8
    assert [(a.number, a.of) for a in heard] == [(2, 4), (3, 4), (4, 4)]
    assert {a.error for a in heard} == {ErrorKind.RATE_LIMITED}
    assert {a.method for a in heard} == {"eth_blockNumber"}


def test_a_call_in_flight_is_listed_until_it_ends(server: ScriptedServer) -> None:
    """`waits` names the call while the node thinks, and forgets it after; so does longest_wait."""
    server.script(slow(0.3, result("0x1f")))
    seen: list[Attempt | None] = []

    async def main() -> None:
        client = RpcClient(Endpoint.parse(f"{server.url}/{API_KEY}"), retry=FAST_RETRY)
        try:
            call = asyncio.ensure_future(client.chain_id())
            await asyncio.sleep(0.1)
            seen.append(client.longest_wait())
            await call
            seen.append(client.longest_wait())
        finally:
            await client.aclose()

    run(main())
    first, after = seen
    assert first is not None
    assert first.method == "eth_chainId"
    assert first.number == 1
    assert after is None


def test_requests_that_never_left_cost_no_quota() -> None:
    """A refused connection, retried four times: four tries, none counted against the day."""
    with scripted_server() as gone:
        endpoint = Endpoint.parse(f"{gone.url}/{API_KEY}")

    async def main() -> RpcClient:
        client = RpcClient(endpoint, retry=FAST_RETRY)
        with pytest.raises(TransportError):
            await client.block_number()
        await client.aclose()
        return client

    stats = run(main()).stats
    assert stats.total == 4
    assert stats.unsent == 4
    assert stats.today == 0


def test_a_name_that_does_not_resolve_costs_no_quota() -> None:
    """DNS failure: nothing was sent, so nothing is counted."""
    endpoint = Endpoint.parse(f"https://no-such-host.invalid/{API_KEY}")

    async def main() -> RpcClient:
        client = RpcClient(endpoint, retry=FAST_RETRY)
        with pytest.raises(TransportError):
            await client.block_number()
        await client.aclose()
        return client

    stats = run(main()).stats
    assert stats.unsent == stats.total
    assert stats.today == 0


def test_requests_that_reached_the_node_count_even_when_refused(server: ScriptedServer) -> None:
    """A 429 reached the service: it counts, like any answer."""
    server.fallback = raw(429)

    async def main() -> RpcClient:
        client = RpcClient(Endpoint.parse(f"{server.url}/{API_KEY}"), retry=FAST_RETRY)
        with pytest.raises(RateLimited):
            await client.block_number()
        await client.aclose()
        return client

    stats = run(main()).stats
    assert stats.today == 4
    assert stats.unsent == 0
