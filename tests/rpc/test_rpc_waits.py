"""What a waiting screen reads from the client, and a quota of requests that left.

Each call's attempt, retries as they start, and a quota that counts only requests that left
this machine.
"""

from __future__ import annotations

import asyncio

import pytest

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RateLimited, RpcError, TransportError
from explorer.rpc.retry import Attempt
from explorer.rpc.stats import RequestStats
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


def failed_stats(endpoint: Endpoint, error: type[RpcError]) -> RequestStats:
    """Ask for the block number (four tries), expect error, return what was counted."""

    async def main() -> RpcClient:
        client = RpcClient(endpoint, retry=FAST_RETRY)
        with pytest.raises(error):
            await client.block_number()
        await client.aclose()
        return client

    return run(main()).stats


def refused_endpoint() -> Endpoint:
    """Return an endpoint on a loopback port nothing listens on any more."""
    with scripted_server() as gone:
        return Endpoint.parse(f"{gone.url}/{API_KEY}")


@pytest.mark.parametrize(
    "endpoint",
    [refused_endpoint(), Endpoint.parse(f"https://no-such-host.invalid/{API_KEY}")],
    ids=["connection refused", "name does not resolve"],
)
def test_requests_that_never_left_cost_no_quota(endpoint: Endpoint) -> None:
    """Four tries, none of which left this machine: none counted against the day."""
    stats = failed_stats(endpoint, TransportError)
    assert stats.total == 4
    assert stats.unsent == 4
    assert stats.today == 0


def test_requests_that_reached_the_node_count_even_when_refused(server: ScriptedServer) -> None:
    """A 429 reached the service: it counts, like any answer."""
    server.fallback = raw(429)
    stats = failed_stats(Endpoint.parse(f"{server.url}/{API_KEY}"), RateLimited)
    assert stats.today == 4
    assert stats.unsent == 0
