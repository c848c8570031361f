"""The peg: requests and time to a peg-in's status and to a peg-out's Bitcoin txid.

Run: .venv/bin/python bench/bridge.py  (starts its own devnet child processes).

Measured against a devnet on this machine and one answering 100 ms later (about as far as the
hosted service). Round trips are the time over one eth_blockNumber's. Goals (issue 23): a
peg-in's status in at most 4 requests and 2 round trips; a peg-out's Bitcoin txid in at most
1.3 × the requests of a scanner told the blocks in advance (transaction, receipt, and the
Bridge's logs of the batch's, the confirmation's and the release's blocks).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, TypeVar

from _quick import latencies, rounds  # bench/_quick.py, beside this

from explorer.chain.known import BRIDGE
from explorer.chain.peg import devnet_peg
from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.params import LogFilter
from explorer.services.pegin import pegin_status
from explorer.services.pegout import pegout_stages
from explorer.services.reader import ChainReader

T = TypeVar("T")
ROUNDS = rounds(5)
LATENCIES = latencies((0.0, 0.1))
PEGIN_GOAL_REQUESTS, PEGIN_GOAL_TRIPS, PEGOUT_GOAL_RATIO = 4, 2, 1.3


@contextlib.asynccontextmanager
async def running_devnet(latency: float) -> AsyncIterator[tuple[str, dict[str, Any]]]:
    """Run the test network answering after `latency` s; yield its URL and peg facts."""
    devnet = DevnetProcess(DevnetOptions(latency=latency, network="test"))
    print(f"starting the devnet (latency {latency * 1000:.0f} ms)…", file=sys.stderr)
    await devnet.start(timeout=900)
    try:
        manifest = devnet.manifests["testnet"]  # as the child wrote it
        yield f"{devnet.base_urls['testnet']}/{devnet.key}", dict(manifest["bridge"])
    finally:
        await devnet.stop()


async def counted(client: RpcClient, action: Callable[[], Awaitable[T]]) -> tuple[T, float, int]:
    """Return what action gives, the seconds it took and the requests it sent."""
    before = client.stats.total
    started = time.perf_counter()
    value = await action()
    return value, time.perf_counter() - started, client.stats.total - before


async def round_trip(client: RpcClient) -> float:
    """Return the median time of one eth_blockNumber on a warm connection."""
    await client.block_number()
    times = [(await counted(client, client.block_number))[1] for _ in range(ROUNDS)]
    return statistics.median(times)


async def pegin(client: RpcClient, txid: str, head_known: bool) -> tuple[float, int, bool]:
    """Return (median s, requests, found) of a peg-in's status from a fresh reader."""
    runs = []
    for _ in range(ROUNDS):
        reader = ChainReader(client)
        if head_known:  # the window's head follower knows it; the command line does not
            reader.note_head(await client.block_number())
        status, took, sent = await counted(
            client, functools.partial(pegin_status, reader, txid, 31)
        )
        runs.append((took, sent, status.found))
    return statistics.median(r[0] for r in runs), runs[-1][1], runs[-1][2]


async def pegout(client: RpcClient, tx_hash: str) -> tuple[float, int, str]:
    """Return (median s, requests, Bitcoin txid) from a transaction hash to its Bitcoin txid."""

    async def follow() -> str:
        reader = ChainReader(client)
        reader.note_head(head)
        tx, receipt = await asyncio.gather(reader.transaction(tx_hash), reader.receipt(tx_hash))
        assert tx is not None
        assert receipt is not None
        final = [s async for s in pegout_stages(reader, tx, receipt, devnet_peg(31))][-1]
        assert final.released is not None
        assert final.released.tx is not None
        return final.released.tx.txid

    head = await client.block_number()
    runs = [await counted(client, follow) for _ in range(ROUNDS)]
    return statistics.median(r[1] for r in runs), runs[-1][2], runs[-1][0]


async def told(client: RpcClient, tx_hash: str, blocks: tuple[int, ...]) -> int:
    """Return the requests of a scanner told the blocks: tx, receipt, one getLogs a block."""

    async def scan() -> None:
        await asyncio.gather(
            client.get_transaction_by_hash(tx_hash), client.get_transaction_receipt(tx_hash)
        )
        await asyncio.gather(
            *(client.get_logs(LogFilter(from_block=b, to_block=b, address=BRIDGE)) for b in blocks)
        )

    return (await counted(client, scan))[2]


def pegin_verdict(sent: int, trips: float, latency: float) -> str:
    """Judge a peg-in against its goal; round trips count only against a distant node.

    Two round trips take a little more than two eth_blockNumber's: the node's own work on
    the calls (so up to 2.5 counts as two). On this machine (0 ms) time is all the node's work.
    """
    if sent > PEGIN_GOAL_REQUESTS:
        return "MISSES"
    if latency == 0:
        return "meets, requests only"
    return "meets" if trips < PEGIN_GOAL_TRIPS + 0.5 else "MISSES"


async def measure(latency: float) -> None:
    """Run every measurement against one devnet and print them against the goals."""
    async with running_devnet(latency) as (url, facts):
        client = RpcClient(Endpoint.parse(url))
        try:
            rtt = await round_trip(client)
            print(f"\nlatency {latency * 1000:.0f} ms: one round trip {rtt * 1000:.1f} ms")
            for key in ("pegin_accepted", "pegin_refunded", "pegin_unrefundable", "pegin_unknown"):
                for head_known in (True, False):
                    took, sent, found = await pegin(client, facts[key], head_known)
                    trips = took / rtt if rtt else 0.0
                    where = "head known (window)" if head_known else "head unknown (report)"
                    verdict = pegin_verdict(sent, trips, latency)

                    print(
                        f"peg-in {key[6:]:<13} {where:<22} {sent} requests, "
                        f"{took * 1000:6.1f} ms = {trips:.2f} round trips "
                        f"(goal ≤ {PEGIN_GOAL_REQUESTS} and ≤ {PEGIN_GOAL_TRIPS}: {verdict}); "
                        f"found: {found}"
                    )
            tx_hash = facts["pegout_batch"][0]
            took, sent, txid = await pegout(client, tx_hash)
            assert txid == facts["pegout_btc_txid"]
            blocks = (
                facts["pegout_batch_block"],
                facts["pegout_confirmed_block"],
                facts["pegout_release_block"],
            )
            baseline = await told(client, tx_hash, blocks)
            ratio = sent / baseline
            verdict = "meets" if ratio <= PEGOUT_GOAL_RATIO else "MISSES"
            print(
                f"peg-out to its Bitcoin txid: {sent} requests, {took * 1000:.1f} ms = "
                f"{took / rtt if rtt else 0:.2f} round trips; a scanner told the blocks: "
                f"{baseline} requests; ratio {ratio:.2f} (goal ≤ {PEGOUT_GOAL_RATIO}: {verdict})"
            )
        finally:
            await client.aclose()


def main() -> None:
    """Measure at each latency."""
    for latency in LATENCIES:
        asyncio.run(measure(latency))


if __name__ == "__main__":
    main()
