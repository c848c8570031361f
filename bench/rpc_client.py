"""Benchmark: mixed reads, 16 in flight, via RpcClient, web3.py and bare aiohttp (issue 2 §5)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any

import aiohttp
from _quick import rounds, sized  # bench/_quick.py, beside this
from web3 import AsyncHTTPProvider, AsyncWeb3

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint

CALLS = sized(2400, 240)
IN_FLIGHT = 16
ROUNDS = rounds(2)
RESPONDER = Path(__file__).with_name("_rpc_responder.py")

Job = Callable[[int], Awaitable[object]]


def address(i: int) -> str:
    """Return a distinct address for call i."""
    return "0x" + f"{i:040x}"


def tx_hash(i: int) -> str:
    """Return a distinct transaction hash for call i."""
    return "0x" + f"{i:064x}"


async def drive(job: Job) -> float:
    """Run CALLS jobs with IN_FLIGHT workers; return calls per second."""
    counter = iter(range(CALLS))

    async def worker() -> None:
        """Take the next call number until none are left."""
        for i in counter:
            await job(i)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return CALLS / (time.perf_counter() - started)


def request(i: int) -> tuple[str, list[object]]:
    """Return the method and JSON params of call i: a full block, a balance or a receipt."""
    kind = i % 3
    if kind == 0:
        return "eth_getBlockByNumber", [hex(i), True]
    if kind == 1:
        return "eth_getBalance", [address(i), "latest"]
    return "eth_getTransactionReceipt", [tx_hash(i)]


async def bench_rpc_client(url: str) -> float:
    """Our client: typed wrappers, parsed into chain records (Block, Receipt, int)."""
    client = RpcClient(Endpoint.parse(url), max_in_flight=IN_FLIGHT)

    async def job(i: int) -> object:
        kind = i % 3
        if kind == 0:
            return await client.get_block_by_number(i, full=True)
        if kind == 1:
            return await client.get_balance(address(i))
        return await client.get_transaction_receipt(tx_hash(i))

    try:
        return await drive(job)
    finally:
        await client.aclose()


async def bench_rpc_raw(url: str) -> float:
    """Our client's raw `call`: the node's JSON result, no records."""
    client = RpcClient(Endpoint.parse(url), max_in_flight=IN_FLIGHT)

    async def job(i: int) -> object:
        return await client.call(*request(i))

    try:
        return await drive(job)
    finally:
        await client.aclose()


async def bench_web3(url: str) -> float:
    """web3.py's AsyncHTTPProvider with its default formatters."""
    w3 = AsyncWeb3(AsyncHTTPProvider(url))

    async def job(i: int) -> object:
        kind = i % 3
        if kind == 0:
            return await w3.eth.get_block(i, full_transactions=True)
        if kind == 1:
            return await w3.eth.get_balance(AsyncWeb3.to_checksum_address(address(i)))
        return await w3.eth.get_transaction_receipt(tx_hash(i))  # type: ignore[arg-type]

    try:
        return await drive(job)
    finally:
        await w3.provider.disconnect()


async def bench_aiohttp(url: str) -> float:
    """Time a bare aiohttp loop: POST the envelope, json.loads the answer."""
    async with aiohttp.ClientSession() as session:

        async def job(i: int) -> object:
            method, params = request(i)
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
            headers = {"Content-Type": "application/json"}
            async with session.post(url, data=body, headers=headers) as response:
                return json.loads(await response.read())["result"]

        return await drive(job)


def start_responder() -> tuple[subprocess.Popen[str], str]:
    """Start the static responder in another process; return it and its URL."""
    process = subprocess.Popen([sys.executable, str(RESPONDER)], stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    port = int(process.stdout.readline())
    return process, f"http://127.0.0.1:{port}/benchkey0123456789"


def measure(bench: Callable[[str], Coroutine[Any, Any, float]], url: str) -> tuple[float, float]:
    """Run one bench; return calls/s and this process's CPU microseconds per call."""
    started = time.process_time()
    rate = asyncio.run(bench(url))
    return rate, (time.process_time() - started) / CALLS * 1e6


def main() -> int:
    """Run each client ROUNDS times, interleaved (best round counts); print rates and ratios."""
    process, url = start_responder()
    benches = {
        "RpcClient": bench_rpc_client,
        "RpcClient raw call": bench_rpc_raw,
        "web3.py": bench_web3,
        "aiohttp": bench_aiohttp,
    }
    best = dict.fromkeys(benches, 0.0)
    cpu = dict.fromkeys(benches, float("inf"))
    try:
        for _ in range(ROUNDS):
            for name, bench in benches.items():
                rate, micros = measure(bench, url)
                best[name], cpu[name] = max(best[name], rate), min(cpu[name], micros)
    finally:
        process.terminate()
        process.wait()
    print(f"{CALLS} mixed reads (full blocks, balances, receipts), {IN_FLIGHT} in flight")
    for name in benches:
        print(f"  {name:<18} {best[name]:8.0f} calls/s  {cpu[name]:6.0f} µs CPU/call (client)")
    for ours in ("RpcClient", "RpcClient raw call"):
        vs_web3 = best[ours] / best["web3.py"]
        vs_bare = best[ours] / best["aiohttp"]
        print(f"  {ours} / web3.py = {vs_web3:.2f}x (goal >= 2)")
        print(f"  {ours} / aiohttp = {vs_bare:.2f}x (goal >= 0.5)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
