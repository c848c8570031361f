"""Fixtures for the client tests: scripted servers over real sockets and endpoints for them."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Iterator
from typing import Any, TypeVar

import httpx
import pytest
from scripted_server import ScriptedServer
from testnet_node import testnet_node

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy

T = TypeVar("T")
API_KEY = "s3cr3tK3yABCDEFGHIJKLmnop1234"
FAST_RETRY = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.01, max_retry_after=5)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    """A scripted server whose fallback answers like a testnet node."""
    node = ScriptedServer(testnet_node)
    yield node
    node.close()


@pytest.fixture
def endpoint(server: ScriptedServer) -> Endpoint:
    """An endpoint with the secret key in the path, pointing at the server."""
    return Endpoint.parse(f"{server.url}/{API_KEY}")


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on a fresh asyncio loop."""
    return asyncio.run(coro)


def with_client(
    endpoint: Endpoint,
    use: Callable[[RpcClient], Awaitable[T]],
    *,
    plain_httpx: bool = False,
    **options: Any,
) -> T:
    """Create a client (fast retries unless given), run use(client), close it.

    plain_httpx=True hands the client an httpx client on httpx's own transport, so the
    generic path is used instead of the aiohttp fast path.
    """
    options.setdefault("retry", FAST_RETRY)

    async def main() -> T:
        http = httpx.AsyncClient() if plain_httpx else None
        client = RpcClient(endpoint, http=http, **options)
        try:
            return await use(client)
        finally:
            await client.aclose()
            if http is not None:
                await http.aclose()

    return run(main())


@pytest.fixture(params=["aiohttp", "httpx"])
def plain_httpx(request: pytest.FixtureRequest) -> bool:
    """Run a test over both HTTP paths: the aiohttp fast path and plain httpx."""
    return bool(request.param == "httpx")
