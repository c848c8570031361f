"""Benchmark the devnet: start-up (cold and from snapshot), snapshot size, heavy calls' latency."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from eth_abi.abi import encode
from eth_utils.abi import function_signature_to_4byte_selector
from eth_utils.crypto import keccak

from explorer.devnet.process import DevnetOptions, DevnetProcess, default_cache_dir

TRANSFER = "0x" + keccak(text="Transfer(address,address,uint256)").hex()


async def timed_start(options: DevnetOptions) -> tuple[DevnetProcess, float]:
    """Start a devnet child; return it and the seconds until READY."""
    process = DevnetProcess(options)
    began = time.perf_counter()
    await process.start(timeout=900)
    return process, time.perf_counter() - began


async def latency(call: Callable[[], Awaitable[Any]], repeats: int) -> dict[str, float]:
    """Median, min and max milliseconds of repeated awaited calls (after one warm-up)."""
    await call()
    samples = []
    for _ in range(repeats):
        began = time.perf_counter()
        await call()
        samples.append((time.perf_counter() - began) * 1000)
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


class Client:
    """A JSON-RPC caller that also remembers the size of the last response."""

    def __init__(self, http: httpx.AsyncClient, url: str) -> None:
        self.http, self.url, self.last_size = http, url, 0

    async def answer(self, method: str, *params: Any) -> dict[str, Any]:
        """Call a method and return the whole JSON-RPC envelope."""
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
        response = await self.http.post(self.url, json=body)
        self.last_size = len(response.content)
        envelope: dict[str, Any] = response.json()
        return envelope

    async def __call__(self, method: str, *params: Any) -> Any:
        """Call a method; raise on an error answer."""
        envelope = await self.answer(method, *params)
        if "error" in envelope:
            raise RuntimeError(envelope["error"])
        return envelope["result"]

    async def failing(self, method: str, *params: Any) -> int:
        """Call a method that must fail; return the error code (raise on a result)."""
        envelope = await self.answer(method, *params)
        if "error" not in envelope:
            raise RuntimeError(f"{method} answered instead of failing")
        return int(envelope["error"]["code"])


async def measure_calls(process: DevnetProcess, manifest: dict[str, Any]) -> None:
    """Latency of the 1,000-transaction block, eth_call and eth_getLogs (short, whole history)."""
    async with httpx.AsyncClient(timeout=120) as http:
        rpc = Client(http, process.url("testnet"))
        big, head = hex(manifest["big_block"]), manifest["head_at_build"]
        balance_of = function_signature_to_4byte_selector("balanceOf(address)")
        data = "0x" + (balance_of + encode(["address"], [manifest["accounts"][1]])).hex()
        window = {"fromBlock": "0x0", "toBlock": hex(1999)}
        history = {"fromBlock": "0x0", "toBlock": hex(head)}
        transfers = {**history, "topics": [TRANSFER]}
        quiet = {"fromBlock": hex(head - 1999), "toBlock": hex(head), "topics": [TRANSFER]}
        nfts = {**history, "address": manifest["collectible"]}
        cases: dict[str, tuple[Callable[[], Awaitable[Any]], int]] = {
            f"eth_getBlockByNumber({big}, true) [{manifest['big_block_tx_count']} txs]": (
                lambda: rpc("eth_getBlockByNumber", big, True),
                10,
            ),
            "eth_call balanceOf": (
                lambda: rpc("eth_call", {"to": manifest["token"], "data": data}, "latest"),
                50,
            ),
            "eth_getLogs blocks 0..1999 (all logs)": (lambda: rpc("eth_getLogs", window), 5),
            f"eth_getLogs last 2,000 blocks, Transfer (quiet tail, head {head})": (
                lambda: rpc("eth_getLogs", quiet),
                20,
            ),
            "eth_getLogs whole history, collectible": (lambda: rpc("eth_getLogs", nfts), 20),
            "eth_getLogs whole history, Transfer (over the limits: -32012)": (
                lambda: rpc.failing("eth_getLogs", transfers),
                5,
            ),
            "eth_getLogs whole history, Transfer, in 2,000-block requests one by one": (
                lambda: sweep(rpc, transfers, head),
                3,
            ),
        }
        for name, (call, repeats) in cases.items():
            result = await latency(call, repeats)
            size = rpc.last_size / 1024
            print(
                f"  {name}: median {result['median']:.1f} ms "
                f"(min {result['min']:.1f}, max {result['max']:.1f}; {size:.0f} KiB)"
            )
        logs = await rpc("eth_getLogs", window)
        swept = await sweep(rpc, transfers, head)
        print(f"  (blocks 0..1999: {len(logs)} logs; the sweep: {swept} Transfer logs)")


async def sweep(rpc: Client, log_filter: dict[str, Any], head: int) -> int:
    """eth_getLogs over blocks 0..head in 2,000-block requests, one after another; the count."""
    found = 0
    for start in range(0, head + 1, 2000):
        window = {**log_filter, "fromBlock": hex(start), "toBlock": hex(min(start + 1999, head))}
        found += len(await rpc("eth_getLogs", window))
    return found


def snapshot_sizes(cache_dir: Path) -> str:
    """Return the snapshot files in a cache dir and their sizes."""
    files = sorted(cache_dir.glob("devnet-*.pickle"))
    return ", ".join(f"{f.name.split('-')[1]}: {f.stat().st_size / 2**20:.1f} MiB" for f in files)


async def main(args: argparse.Namespace) -> None:
    """Run the benchmark and print the numbers."""
    network = args.network
    with tempfile.TemporaryDirectory(prefix="devnet-bench-") as scratch:
        cold_dir = Path(scratch) if not args.skip_cold else default_cache_dir()
        manifest_file = Path(scratch) / "manifest.json"
        options = DevnetOptions(cache_dir=cold_dir, network=network, manifest_file=manifest_file)
        if not args.skip_cold:
            process, cold = await timed_start(options)
            await process.stop()
            print(f"start-up, cold (empty cache, network {network}): {cold:.1f} s")
            print(f"snapshots (chain id: size): {snapshot_sizes(cold_dir)}")
        process, warm = await timed_start(options)
        print(f"start-up, from snapshot (network {network}): {warm:.1f} s")
        try:
            manifest = json.loads(manifest_file.read_text())["testnet"]
            await measure_calls(process, manifest)
        finally:
            await process.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--network", choices=["test", "both"], default="both")
    parser.add_argument("--skip-cold", action="store_true", help="use the user cache, no cold run")
    parser.add_argument("--quick", action="store_true", help="the test network, no cold run")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.skip_cold, arguments.network = True, "test"
    asyncio.run(main(arguments))
