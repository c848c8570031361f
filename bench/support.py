"""The support desk's diagnoses: requests and time for a pending, a not-found and a replaced one.

Run: .venv/bin/python bench/support.py  (starts its own devnet child processes).

Each diagnosis is measured against a devnet on this machine and one answering 100 ms later
(about as far as the hosted service), as the time of one round trip (an eth_blockNumber) and
the requests counted by the clients. Goals (issue 12): a pending diagnosis in at most 6
requests and 2 round trips once the transaction is known; a not-found lookup on three other
networks within 1.2 × one round trip (they go out together).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from _quick import latencies, rounds  # bench/_quick.py, beside this
from eth_account import Account

from explorer.chain.pooled import PooledTx
from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenTx
from explorer.services.diagnosis import diagnose_pending
from explorer.services.elsewhere import OtherNetworks
from explorer.services.fate import Fate, diagnose_missing
from explorer.services.networks import Network, custom_network
from explorer.services.reader import ChainReader

ROUNDS = rounds(5)
LATENCIES = latencies((0.0, 0.1))
SECOND_KEY = "bench-second-key-0001"
SENDER = -7  # a seeded account the benchmark sends from
BLOCKS_AFTER = 60  # blocks mined after the replacement, for the search to cross


@dataclass
class Devnet:
    """A running devnet with both networks, two keys, and its manifests."""

    process: DevnetProcess
    manifests: dict[str, dict[str, Any]]

    def url(self, network: str, key: str | None = None) -> str:
        """Return a network's URL with the main key or another."""
        return f"{self.process.base_urls[network]}/{key or self.process.key}"


@contextlib.asynccontextmanager
async def running_devnet(latency: float) -> AsyncIterator[Devnet]:
    """Run both networks answering after `latency` s, with a second key."""
    options = DevnetOptions(latency=latency, extra_keys=(SECOND_KEY,))
    devnet = DevnetProcess(options)
    print(f"starting the devnet (latency {latency * 1000:.0f} ms)…", file=sys.stderr)
    await devnet.start(timeout=900)
    try:
        yield Devnet(devnet, devnet.manifests)  # as the child wrote them
    finally:
        await devnet.stop()


async def timed(action: Callable[[], Awaitable[object]]) -> float:
    """Return the seconds an awaitable takes."""
    started = time.perf_counter()
    await action()
    return time.perf_counter() - started


async def round_trip(client: RpcClient) -> float:
    """Return the median time of one eth_blockNumber on a warm connection."""
    await client.block_number()
    return statistics.median([await timed(client.block_number) for _ in range(ROUNDS)])


class Wallet:
    """Signs and sends transfers from the seeded sender over a client."""

    def __init__(self, client: RpcClient, manifest: dict[str, Any]) -> None:
        self.client = client
        self.manifest = manifest
        self.account = Account.from_key(manifest["private_keys"][SENDER])
        self.receiver = Account.from_key(manifest["private_keys"][0]).address

    async def send(self, nonce: int, price: int) -> str:
        """Sign and send a 1-wei transfer; return its hash."""
        fields = {
            "nonce": nonce,
            "gasPrice": price,
            "gas": 21_000,
            "to": self.receiver,
            "value": 1,
            "data": b"",
            "chainId": self.manifest["chain_id"],
        }
        raw = bytes(self.account.sign_transaction(fields).raw_transaction)
        return await self.client.send_raw_transaction(raw)

    async def nonce(self) -> int:
        """Return the sender's next nonce."""
        return await self.client.get_transaction_count(self.account.address.lower(), "pending")


async def bench_pending(client: RpcClient, wallet: Wallet) -> tuple[float, int]:
    """Return (median s, requests) of a pending transaction's diagnosis once it is known."""
    await client.call("evm_stopMining", [])
    try:
        tx_hash = await wallet.send(await wallet.nonce(), 66_000_000)
        tx = await client.get_transaction_by_hash(tx_hash)
        assert tx is not None
        candidate = PooledTx.of_tx(tx)
        times, spent = [], 0
        for _ in range(ROUNDS):
            reader = ChainReader(client)  # nothing cached: every round reads afresh
            before = client.stats.total
            times.append(
                await timed(functools.partial(diagnose_pending, reader, candidate, None, 0))
            )
            spent = client.stats.total - before
        return statistics.median(times), spent
    finally:
        await client.call("evm_startMining", [])


async def bench_not_found(devnet: Devnet, current: Endpoint) -> tuple[float, float, int]:
    """Return (cold s, warm median s, warm requests) of a lookup on three other networks."""
    others: list[tuple[Network, Endpoint]] = [
        (custom_network("Main", 30), Endpoint.parse(devnet.url("mainnet"))),
        (custom_network("Main, second key", 30), Endpoint.parse(devnet.url("mainnet", SECOND_KEY))),
        (custom_network("Test, second key", 31), Endpoint.parse(devnet.url("testnet", SECOND_KEY))),
    ]
    elsewhere = OtherNetworks(lambda: others)
    missing = "0x" + "ab" * 32
    try:
        cold = await timed(lambda: elsewhere.look_up(missing, current))
        sessions = [elsewhere.session_for(n, e) for n, e in others]
        times, spent = [], 0
        for _ in range(ROUNDS):
            before = sum(s.client.stats.total for s in sessions)
            times.append(await timed(lambda: elsewhere.look_up(missing, current)))
            spent = sum(s.client.stats.total for s in sessions) - before
        return cold, statistics.median(times), spent
    finally:
        await elsewhere.aclose()


async def bench_replaced(client: RpcClient, wallet: Wallet) -> tuple[float, int, int]:
    """Return (s, requests, blocks searched) to find what replaced a transaction seen pending."""
    reader = ChainReader(client)
    await client.call("evm_stopMining", [])
    try:
        nonce = await wallet.nonce()
        original = await wallet.send(nonce, 66_000_000)
        head = await client.block_number()
        sender = wallet.account.address.lower()
        pooled = PooledTx(original, sender, nonce, 66_000_000, 21_000, 1)
        seen = SeenTx(31, pooled, time.time(), head, time.time(), head)
        await wallet.send(nonce, 100_000_000)
    finally:
        await client.call("evm_startMining", [])
    for _ in range(BLOCKS_AFTER):
        await client.call("evm_mine", [])
    before = client.stats.total
    started = time.perf_counter()
    missing = await diagnose_missing(reader, seen, time.time())
    took = time.perf_counter() - started
    assert missing.fate is Fate.REPLACED, missing.fate
    assert missing.search is not None
    return took, client.stats.total - before, missing.search.last - missing.search.first + 1


async def measure(latency: float) -> None:
    """Run every benchmark against one devnet and print the numbers."""
    async with running_devnet(latency) as devnet:
        current = Endpoint.parse(devnet.url("testnet"))
        client = RpcClient(current)
        try:
            rtt = await round_trip(client)
            wallet = Wallet(client, devnet.manifests["testnet"])
            pending, pending_requests = await bench_pending(client, wallet)
            cold, warm, lookup_requests = await bench_not_found(devnet, current)
            replaced, replaced_requests, searched = await bench_replaced(client, wallet)
        finally:
            await client.aclose()
    print(f"\n== latency {latency * 1000:.0f} ms: one round trip {rtt * 1000:.1f} ms")
    print(
        f"pending diagnosis: {pending_requests} requests, {pending * 1000:.1f} ms = "
        f"{pending / rtt:.2f} round trips (goal ≤ 6 requests, ≤ 2 round trips)"
    )
    print(
        f"not found, three other networks: warm {warm * 1000:.1f} ms = {warm / rtt:.2f} × one "
        f"round trip, {lookup_requests} requests (goal ≤ 1.2 ×, 3 requests); cold (chain checks "
        f"included, once per endpoint) {cold * 1000:.1f} ms = {cold / rtt:.2f} ×"
    )
    print(
        f"replaced, found {searched} blocks back: {replaced_requests} requests, "
        f"{replaced * 1000:.1f} ms = {replaced / rtt:.2f} round trips (nonces and balance at "
        "once, a binary search on the sender's nonce, one block read)"
    )


def main() -> None:
    """Measure at every latency."""
    for latency in LATENCIES:
        asyncio.run(measure(latency))


if __name__ == "__main__":
    main()
