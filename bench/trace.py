"""Inside a transaction: a replay's requests and round trips against its floor; the node's trace.

Run: .venv/bin/python bench/trace.py [--quick]  (starts two devnet children, 100 ms late each;
--quick: the ERC-20 transfer alone, at no added latency).

On the devnet's test network as the hosted service (no trace method), for a plain ERC-20
transfer, the Payout contract's payout and the deepest seeded transaction: requests against the
floor (the distinct accounts and slots the replay touched), round trips against the call depth,
wall and CPU time, then the same transactions through the node's own trace on the rskj profile
(`--trace`), a warm look (saved data) and the CPU time of the ~50-frame transaction. Goals
(issue 28): requests ≤ 1.2 × the floor + 3; round trips ≤ the call depth + 2; a warm look 0
requests; a 50-frame transaction replayed in ≤ 1.5 s of CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from _quick import QUICK  # bench/_quick.py, beside this script

from explorer.chain.trace import TraceResult
from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.services.networks import custom_network
from explorer.services.reader import ChainReader
from explorer.services.session import Session
from explorer.services.trace import TraceChoice, Tracer, tracer_of

LATENCY = 0.0 if QUICK else 0.1
FIRST_READS = 2  # eth_getTransactionByHash, eth_getTransactionReceipt (the block: when read)
CPU_GOAL = 1.5


@dataclass
class Look:
    """One trace: what it cost and how long it took."""

    result: TraceResult
    seconds: float
    cpu: float

    @property
    def floor(self) -> int:
        """The distinct accounts and slots the replay touched."""
        return self.result.accounts_read + self.result.slots_read

    @property
    def depth(self) -> int:
        """The call depth: how many frames deep the tree goes (the transaction itself is 1)."""
        return (self.result.root.max_depth + 1) if self.result.root else 1


@contextlib.asynccontextmanager
async def devnet(profile: str, *extra: str) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """Run the test network 100 ms late; yield its URL and manifest."""
    options = DevnetOptions(network="test", latency=LATENCY, profile=profile, extra_arguments=extra)
    process = DevnetProcess(options)
    print(f"starting the {profile} devnet…", file=sys.stderr)
    await process.start(timeout=900)
    try:
        url = process.base_urls["testnet"] if profile == "rskj" else process.url("testnet")
        yield url, process.manifests["testnet"]
    finally:
        await process.stop()


async def look(url: str, tx_hash: str, choice: TraceChoice) -> Look:
    """Trace a transaction with a cold client (no saved data)."""
    client = RpcClient(Endpoint.parse(url))
    try:
        chain_id = int(await client.request("eth_chainId"), 16)
        tracer = Tracer(client, ChainReader(client), chain_id, None)
        started, cpu = time.perf_counter(), time.process_time()
        result = await tracer.trace(tx_hash, choice, allowed=None)
        return Look(result, time.perf_counter() - started, time.process_time() - cpu)
    finally:
        await client.aclose()


async def saved_looks(url: str, tx_hash: str) -> tuple[int, int]:
    """Trace twice in two sessions over one saved data folder: requests each time."""
    spent = []
    with tempfile.TemporaryDirectory(prefix="bench-trace-saved-") as root:
        for _ in range(2):
            directory = CacheDirectory(Path(root))
            session = Session(custom_network("bench", 31), Endpoint.parse(url), saved=directory)
            try:
                await session.settled_check()
                assert session.cache is not None
                await session.cache.usable()
                spent.append((await tracer_of(session).trace(tx_hash, allowed=None)).requests)
            finally:
                await session.aclose()
                await directory.aclose()
    return spent[0], spent[1]


def verdict(ok: bool, miss: str) -> str:
    """Return `met` or the miss in words."""
    return "met" if ok else f"MISSED ({miss})"


def report(name: str, replay: Look, node: Look) -> None:
    """Print one transaction's numbers against the goals."""
    r = replay.result
    bound, trips = 1.2 * replay.floor + 3, replay.depth + 2
    print(f"\n{name}: {r.tx[:12]}…, {r.root.frame_count if r.root else 0} frames, "
          f"call depth {replay.depth}, faithful {r.faithful}")  # fmt: skip
    print(f"  replay: {r.requests} requests (floor {replay.floor}: {r.accounts_read} accounts, "
          f"{r.slots_read} slots; goal ≤ {bound:.1f}: "
          f"{verdict(r.requests <= bound, f'{r.requests - bound:+.1f}')})")  # fmt: skip
    print(f"          of which {FIRST_READS} read the transaction and receipt and "
          f"{r.requests - FIRST_READS} the state at N−1 (an account that receives RBTC takes two: "
          "its code and its balance; the block only when the run reads its header)")  # fmt: skip
    print(f"          {r.round_trips} round trips (goal ≤ {trips}: "
          f"{verdict(r.round_trips <= trips, f'{r.round_trips - trips:+d}')}), "
          f"{replay.seconds * 1000:.0f} ms wall, {replay.cpu * 1000:.0f} ms CPU")  # fmt: skip
    print(f"  node trace (rskj --trace): {node.result.requests} requests, "
          f"{node.result.round_trips} round trips, {node.seconds * 1000:.0f} ms wall "
          f"(replay / node trace: {replay.seconds / node.seconds:.1f}x the time)")  # fmt: skip


async def main() -> None:
    """Measure each transaction on both profiles."""
    async with devnet("service") as (url, manifest), devnet("rskj", "--trace") as (traced, _):
        cases = {
            "plain ERC-20 transfer": manifest["token_transfer"],
            "the Payout contract's payout": manifest["inside"]["payroll_call"],
            "the deepest seeded transaction": manifest["inside"]["deep_call"],
        }
        for name, tx_hash in list(cases.items())[: 1 if QUICK else None]:
            replay = await look(url, tx_hash, TraceChoice.REPLAY)
            node = await look(traced, tx_hash, TraceChoice.NODE)
            report(name, replay, node)
        wide = await look(url, manifest["inside"]["wide_call"], TraceChoice.REPLAY)
        frames = wide.result.root.frame_count if wide.result.root else 0
        met = verdict(wide.cpu <= CPU_GOAL, f"{wide.cpu - CPU_GOAL:+.2f} s")
        print(f"\n{frames}-frame transaction: {wide.cpu:.2f} s of CPU for the whole replay "
              f"(goal ≤ {CPU_GOAL} s: {met}), {wide.result.requests} requests, "
              f"{wide.result.round_trips} round trips")  # fmt: skip
        cold, warm = await saved_looks(url, manifest["inside"]["deep_call"])
        print(f"\nsaved data: first look {cold} requests, second look {warm} "
              f"(goal 0: {verdict(warm == 0, f'{warm} requests')})")  # fmt: skip
        print("\nGUI stalls while a tree streams in (goal < 33 ms): the Inside tab's bench")


if __name__ == "__main__":
    asyncio.run(main())
