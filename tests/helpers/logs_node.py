"""A scripted node serving one synthetic log per block, and ways to scan it in tests."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

from explorer.chain.records import Log
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy
from explorer.services.logquery import LogQuery
from explorer.services.logresults import ScanProgress
from explorer.services.logscan import LogScanner
from tests.helpers.scripted_server import Action, Recorded, ScriptedServer, json_reply

T = TypeVar("T")
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
NO_RETRY = RetryPolicy(attempts=1)


def with_client(url: str, use: Callable[[RpcClient], Awaitable[T]], **options: Any) -> T:
    """Run use(client) on a fresh loop and client."""

    async def main() -> T:
        client = RpcClient(Endpoint.parse(url), **options)
        try:
            return await use(client)
        finally:
            await client.aclose()

    return asyncio.run(main())


async def collect(
    scanner: LogScanner, query: LogQuery, progress: list[ScanProgress] | None = None
) -> list[Log]:
    """Run a scan to the end and return every log."""
    found: list[Log] = []
    async for batch in scanner.scan(query, None if progress is None else progress.append):
        found.extend(batch)
    return found


def synthetic_log(block: int) -> dict[str, Any]:
    """Return the one log of a block in the scripted node."""
    return {
        "address": "0x" + "aa" * 20,
        "topics": [TRANSFER],
        "data": "0x",
        "blockNumber": hex(block),
        "blockHash": "0x" + f"{block:064x}",
        "transactionHash": "0x" + f"{block + 1:064x}",
        "transactionIndex": "0x0",
        "logIndex": "0x0",
    }


def answer_logs(request: Recorded) -> Any:
    """Answer eth_getLogs with the synthetic logs of the asked range.

    The head is block 999; any other call (a token's decimals, Multicall3's code) gets `0x`.
    """
    if request.rpc_method == "eth_blockNumber":
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": "0x3e7"})
    if request.rpc_method != "eth_getLogs":
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": "0x"})
    flt = request.params[0]
    start, end = int(flt["fromBlock"], 16), int(flt["toBlock"], 16)
    logs = [synthetic_log(b) for b in range(start, end + 1)]
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": logs})


def scripted(action: Action) -> Iterator[ScriptedServer]:
    """Run a scripted server with the given fallback."""
    server = ScriptedServer(action)
    try:
        yield server
    finally:
        server.close()


def ranges(server: ScriptedServer) -> list[tuple[int, int]]:
    """Return the block ranges of the eth_getLogs requests received."""
    return [
        (int(r.params[0]["fromBlock"], 16), int(r.params[0]["toBlock"], 16))
        for r in server.requests
        if r.rpc_method == "eth_getLogs"
    ]
