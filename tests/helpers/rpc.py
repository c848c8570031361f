"""Helpers for the client tests: the test key, fast retries, and running a fresh client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import httpx

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy

T = TypeVar("T")
API_KEY = "s3cr3tK3yABCDEFGHIJKLmnop1234"
FAST_RETRY = RetryPolicy(attempts=4, base_delay=0.001, max_delay=0.01, max_retry_after=5)


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
    """Run use(client) on a fresh client (fast retries; plain_httpx: httpx's own transport)."""
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
