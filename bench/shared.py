"""Saved data shared by the endpoints of one chain: the requests a second endpoint spends.

Run: .venv/bin/python bench/shared.py  (starts its own devnet; no Qt).

Endpoint A (the devnet at 127.0.0.1) browses settled blocks with transactions: each block
with its transactions, every receipt, then each transaction's page (transaction and
receipt). Endpoint B (the same devnet at localhost: another endpoint of the same chain) then
browses the same pages twice in the same run: on an empty saved-data folder (no sharing:
what B would spend with A's data kept apart) and on A's folder (sharing: A's verified data,
each height confirmed by one header read of B's). Printed against issue 29 §4: sharing must
save requests (goal: B with sharing < 1.0x B without), and what each confirmation costs.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.services.networks import DEVNET
from explorer.services.session import Session

BLOCKS = 20  # settled blocks with transactions browsed
GOAL = 1.0  # B's requests with sharing against without: less is the goal (issue 29 §4)


async def busy_blocks(session: Session, head: int) -> list[int]:
    """Return BLOCKS settled heights with at least one transaction (read outside the count)."""
    found: list[int] = []
    number = head - 40
    while len(found) < BLOCKS and number > 0:
        block = await session.reader.block(number, full=False)
        if block is not None and block.transaction_hashes:
            found.append(number)
        number -= 1
    return found


async def browse(session: Session, numbers: list[int]) -> None:
    """Open each block page (its transactions and every receipt), then each transaction's."""
    reader = session.reader
    hashes: list[str] = []
    for number in numbers:
        block = await reader.block(number, full=True)
        assert block is not None
        hashes += block.transaction_hashes
        for tx_hash in block.transaction_hashes:
            await reader.receipt(tx_hash)
    for tx_hash in hashes:
        await reader.transaction(tx_hash)
        await reader.receipt(tx_hash)


async def spent(url: str, root: Path, numbers: list[int]) -> tuple[int, int]:
    """Browse through url with saved data under root; return (requests, answered from saved)."""
    directory = CacheDirectory(root)
    session = Session(DEVNET, Endpoint.parse(url), saved=directory)
    try:
        await session.settled_check()
        assert session.cache is not None
        await session.cache.usable()
        await session.reader.latest_number()  # the head: what is settled
        before = session.client.stats.total
        await browse(session, numbers)
        return session.client.stats.total - before, session.client.stats.cached
    finally:
        await session.aclose()
        await directory.aclose()


async def main() -> None:
    """Run the three passes against one devnet and print the ratio against the goal."""
    devnet = DevnetProcess(DevnetOptions(network="test"))
    print("starting the devnet…", file=sys.stderr)
    await devnet.start(timeout=900)
    try:
        first = devnet.url("testnet")
        second = first.replace("127.0.0.1", "localhost")
        with tempfile.TemporaryDirectory() as scratch:
            probe = Session(DEVNET, Endpoint.parse(first))
            try:
                numbers = await busy_blocks(probe, await probe.reader.latest_number())
            finally:
                await probe.aclose()
            shared_root, alone_root = Path(scratch).joinpath("a"), Path(scratch).joinpath("b")
            a_requests, _ = await spent(first, shared_root, numbers)
            alone, _ = await spent(second, alone_root, numbers)
            shared, from_saved = await spent(second, shared_root, numbers)
    finally:
        await devnet.stop()
    report(len(numbers), a_requests, alone, shared, from_saved)


def report(blocks: int, first: int, alone: int, shared: int, from_saved: int) -> None:
    """Print the requests and the ratio against the goal."""
    ratio = shared / alone if alone else float("nan")
    verdict = "met" if ratio < GOAL else f"MISSED by {ratio - GOAL:.2f}x"
    rows: list[tuple[str, Any]] = [
        ("blocks browsed (each with its transactions' pages)", blocks),
        ("endpoint A, first to browse: requests", first),
        ("endpoint B without sharing: requests", alone),
        ("endpoint B with A's verified data: requests", shared),
        ("endpoint B with sharing: calls answered from saved data", from_saved),
        (f"ratio with/without sharing (goal < {GOAL:.1f}x)", f"{ratio:.3f}x  {verdict}"),
    ]
    for label, value in rows:
        print(f"{label:<60} {value}")


if __name__ == "__main__":
    asyncio.run(main())
