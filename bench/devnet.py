"""Benchmark the devnet: start-up (cold and from snapshot) and latency of heavy calls."""

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
from eth_abi import encode
from eth_utils import function_signature_to_4byte_selector

from explorer.devnet.process import DevnetOptions, DevnetProcess, default_cache_dir


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

    async def __call__(self, method: str, *params: Any) -> Any:
        """Call a method; raise on an error answer."""
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
        response = await self.http.post(self.url, json=body)
        self.last_size = len(response.content)
        envelope = response.json()
        if "error" in envelope:
            raise RuntimeError(envelope["error"])
        return envelope["result"]


async def measure_calls(process: DevnetProcess, manifest: dict[str, Any]) -> None:
    """Latency of the 1,000-transaction block, eth_call and eth_getLogs over 2,000 blocks."""
    async with httpx.AsyncClient(timeout=120) as http:
        rpc = Client(http, process.url("testnet"))
        big = hex(manifest["big_block"])
        balance_of = function_signature_to_4byte_selector("balanceOf(address)")
        data = "0x" + (balance_of + encode(["address"], [manifest["accounts"][1]])).hex()
        window = {"fromBlock": "0x0", "toBlock": hex(1999)}
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
        }
        for name, (call, repeats) in cases.items():
            result = await latency(call, repeats)
            size = rpc.last_size / 1024
            print(
                f"  {name}: median {result['median']:.1f} ms "
                f"(min {result['min']:.1f}, max {result['max']:.1f}; {size:.0f} KiB)"
            )
        logs = await rpc("eth_getLogs", window)
        print(f"  (eth_getLogs returned {len(logs)} logs)")


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
    asyncio.run(main(parser.parse_args()))
