"""A static JSON-RPC responder (aiohttp) for bench/rpc_client.py; prints its port and serves."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from aiohttp import web

FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "rsk-testnet"
TRANSACTIONS_PER_BLOCK = 8


def _load(name: str) -> object:
    """Return a fixture's JSON."""
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def canned_results() -> dict[str, bytes]:
    """Return each benchmarked method's result, pre-encoded as JSON."""
    block = dict(_load("block-0x1b4-header-only.json"))  # type: ignore[call-overload]
    txs = [_load(name) for name in ("tx-0x359f.json", "tx-0x507e-eip155-chain31.json")]
    block["transactions"] = [txs[i % 2] for i in range(TRANSACTIONS_PER_BLOCK)]
    results = {
        "eth_getBlockByNumber": block,
        "eth_getBalance": "0xde0b6b3a7640000",
        "eth_getTransactionReceipt": _load("receipt-0x359f.json"),
        "eth_chainId": "0x1f",
    }
    return {method: json.dumps(value).encode() for method, value in results.items()}


def make_app() -> web.Application:
    """Return the app: POST / and POST /{key} answer from the canned results."""
    results = canned_results()
    null = b"null"

    async def answer(request: web.Request) -> web.Response:
        """Echo the id with the method's canned result."""
        envelope = json.loads(await request.read())
        body = b'{"jsonrpc":"2.0","id":%d,"result":%s}' % (
            envelope["id"],
            results.get(envelope["method"], null),
        )
        return web.Response(body=body, content_type="application/json")

    app = web.Application()
    app.router.add_post("/", answer)
    app.router.add_post("/{key}", answer)
    return app


async def serve() -> None:
    """Bind a free loopback port, print it for the parent process, serve until killed."""
    runner = web.AppRunner(make_app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=1024)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.Server)
    sys.stdout.write(f"{server.sockets[0].getsockname()[1]}\n")
    sys.stdout.flush()
    await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(serve())
