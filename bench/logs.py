"""Log scanning.

Pipelined scanner vs a sequential loop, table memory, GUI stalls while streaming and while 100,000
rows are exported; on a bare rskj node, a scanner learning the limits vs one told them in advance.

Run: .venv/bin/python bench/logs.py  (starts its own devnet child processes; Qt offscreen).
Scans run against a devnet on this machine and against one answering 100 ms late, like the
hosted service, then against the devnet's rskj profile (its own limits, Connection: close,
gzip) 100 ms away; garbage is collected as the app does (views.collector, start-up frozen).
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import os
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from _quick import latencies, rounds, sized  # bench/_quick.py, beside this

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

from views import Heartbeat, run_like_the_app, running_devnet, until

from explorer.chain.records import Log
from explorer.chain.signatures import bundled_table
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.logexport import ExportFormat
from explorer.services.logplan import NodeLimits
from explorer.services.logquery import LogQuery
from explorer.services.logscan import LogScanner
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from explorer.viewmodels.log_export import LogExportViewModel
from explorer.viewmodels.log_table import LogTableModel
from explorer.viewmodels.logs import LogsViewModel, ScanState
from explorer.views.logs_view import LogsView

ROUNDS = rounds(7)
STALL_ROUNDS = rounds(5)
ROWS = sized(100_000, 10_000)
LATENCIES = latencies((0.0, 0.1))  # seconds: here, and a node ~100 ms away like a hosted one
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
LEARN_ROUNDS = rounds(9)
#: What a scanner told the limits in advance knows (docs/service.md §8, §11).
KNOWN_LIMITS = {
    "rskj": NodeLimits(span_cap=5000, log_cap=20000),
    "service": NodeLimits(free_span=2000, log_cap=10000),
}


async def sequential(client: RpcClient, query: LogQuery, head: int) -> int:
    """Run the plain loop: one 2,000-block request at a time; return the log count."""
    count = 0
    for start in range(0, head + 1, 2000):
        raw = await client.call("eth_getLogs", [query.filter_json(start, min(head, start + 1999))])
        count += len(Log.many_from_json(raw))  # the same parser the scanner uses
    return count


async def pipelined(client: RpcClient, query: LogQuery) -> int:
    """Run the scanner with 4 requests in flight; return the log count."""
    count = 0
    async for batch in LogScanner(client, concurrency=4).scan(query):
        count += len(batch)
    return count


async def bench_scan(url: str, head: int, expected: int) -> tuple[float, float, dict[str, int]]:
    """Return the median seconds of pipelined and sequential whole-history Transfer scans.

    The eth_getLogs requests each sent (last round) come with them.
    """
    query = LogQuery(topics=((TRANSFER,),), from_block=0, to_block=head)
    warm = RpcClient(Endpoint.parse(url))
    await sequential(warm, query, head)  # untimed: the devnet makes each block's log text once
    await warm.aclose()
    times: dict[str, list[float]] = {"pipelined": [], "sequential": []}
    requests: dict[str, int] = {}
    for _ in range(ROUNDS):
        for name in times:
            client = RpcClient(Endpoint.parse(url))
            await client.block_number()  # warm the connection
            started = time.perf_counter()
            if name == "pipelined":
                found = await pipelined(client, query)
            else:
                found = await sequential(client, query, head)
            times[name].append(time.perf_counter() - started)
            requests[name] = client.stats.by_method.get("eth_getLogs", 0)
            await client.aclose()
            assert found == expected, (name, found, expected)
    return statistics.median(times["pipelined"]), statistics.median(times["sequential"]), requests


async def one_scan(
    url: str, query: LogQuery, limits: NodeLimits, concurrency: int
) -> tuple[float, int, int, int]:
    """Return (seconds, eth_getLogs requests, refused ones, logs) of one scan."""
    client = RpcClient(Endpoint.parse(url))
    await client.block_number()  # warm the connection (a node closing them: the TLS-less path)
    scanner = LogScanner(client, concurrency=concurrency, limits=limits)
    started = time.perf_counter()
    found = 0
    async for batch in scanner.scan(query):
        found += len(batch)
    seconds = time.perf_counter() - started
    await client.aclose()
    return seconds, client.stats.by_method.get("eth_getLogs", 0), scanner.splits, found


async def bench_learning(
    url: str, head: int, expected: int, profile: str, concurrency: int
) -> dict[str, tuple[float, int, int]]:
    """Return the median seconds, requests and refusals of whole-history Transfer scans.

    By a scanner that learns the node's limits (fresh each round) and one told them in advance.
    """
    query = LogQuery(topics=((TRANSFER,),), from_block=0, to_block=head)
    kinds = {"learning": NodeLimits(), "told": KNOWN_LIMITS[profile]}
    runs: dict[str, list[tuple[float, int, int, int]]] = {name: [] for name in kinds}
    await one_scan(url, query, NodeLimits(), concurrency)  # untimed: warms the devnet
    for round_number in range(LEARN_ROUNDS):
        order = list(kinds) if round_number % 2 == 0 else list(reversed(kinds))
        for name in order:
            run = await one_scan(url, query, dataclasses.replace(kinds[name]), concurrency)
            assert run[3] == expected, (name, run, expected)
            runs[name].append(run)
    return {
        name: (
            statistics.median(run[0] for run in found),
            max(run[1] for run in found),
            max(run[2] for run in found),
        )
        for name, found in runs.items()
    }


async def measure_learning(profile: str, latency: float) -> None:
    """Print a learning scanner's time and requests against one told the limits.

    On a devnet of the profile `latency` s away, with 4 requests in flight and with one.
    """
    async with running_devnet(latency, profile) as (url, manifest):
        head, expected = manifest["head_at_build"], manifest["transfer_log_count"]
        print(f"{profile} profile, node latency {latency * 1000:.0f} ms per request:")
        for concurrency in (4, 1):
            got = await bench_learning(url, head, expected, profile, concurrency)
            (learn_s, learn_n, refused), (told_s, told_n, _) = got["learning"], got["told"]
            goal = " (goal ≤ 1.15×, ≤ 1 extra request)" if profile == "rskj" else ""
            print(
                f"  whole-history Transfer scan, {concurrency} in flight: learning the limits "
                f"{learn_s * 1000:.0f} ms ({learn_n} requests, {refused} refused) vs told them "
                f"{told_s * 1000:.0f} ms ({told_n} requests): {learn_s / told_s:.2f}×, "
                f"{learn_n - told_n:+d} requests{goal}"
            )


def rss_mb() -> float:
    """Return the process's resident memory in MB (Linux), or 0 when unknown."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError):
        return 0.0


def synthetic_rows(samples: list[dict[str, Any]], count: int) -> list[Log]:
    """Return count logs shaped like real ones, each with its own hash and index."""
    logs = []
    for row in range(count):
        obj = dict(samples[row % len(samples)])
        obj["transactionHash"] = "0x" + f"{row:064x}"
        obj["blockNumber"] = hex(row // 8)
        obj["logIndex"] = hex(row % 8)
        logs.append(Log.from_json(obj))
    return logs


def bench_memory(samples: list[dict[str, Any]]) -> tuple[float, float]:
    """Return (tracemalloc MB, RSS MB) over baseline after loading 100,000 rows into the table."""
    table = LogTableModel(DEVNET.chain_id)
    gc.collect()
    rss_before = rss_mb()
    tracemalloc.start()
    for first in range(0, ROWS, 5000):
        table.add_logs(synthetic_rows(samples, min(5000, ROWS - first)))
    gc.collect()
    traced, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert table.total == ROWS
    return traced / 2**20, rss_mb() - rss_before


async def bench_export(samples: list[dict[str, Any]]) -> dict[ExportFormat, tuple[float, float]]:
    """Return (seconds, worst GUI stall) of exporting 100,000 rows in each format."""
    table = LogTableModel(DEVNET.chain_id)
    for first in range(0, ROWS, 5000):
        table.add_logs(synthetic_rows(samples, min(5000, ROWS - first)))
    export = LogExportViewModel(table)
    results: dict[ExportFormat, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        for fmt in ExportFormat:
            beat = Heartbeat()
            beat.start()
            started = time.perf_counter()
            task = export.start(Path(directory) / f"logs.{fmt.value}", fmt)
            assert task is not None, export.message
            assert await task == ROWS, export.message
            results[fmt] = (time.perf_counter() - started, beat.stop())
    return results


async def bench_stall(url: str, expected: int) -> tuple[float, float, float]:
    """Return the worst GUI stall (s) while a whole-history scan streams in.

    The stall is measured while the scan streams into the view until it settles; the scan's
    seconds and the seconds a jump to the last row then takes come with it.
    """
    session = Session(DEVNET, Endpoint.parse(url))
    model = LogsViewModel(session)
    view = LogsView(model)
    view.resize(1400, 800)
    view.show()
    model.set_field("topic0", TRANSFER)
    session.verify()  # a window's session has passed its chain check before any scan
    await until(lambda: session.check.verified)
    bundled_table()  # the signature table is loaded once per process
    beat = Heartbeat()
    await asyncio.sleep(0.2)
    beat.start()
    started = time.perf_counter()
    assert model.start()
    await until(lambda: model.state is ScanState.DONE, timeout=300)
    seconds = time.perf_counter() - started
    await asyncio.sleep(0.1)  # the repaints that the end of the scan asks for fall in the window
    stall = beat.stop()
    scrolled = time.perf_counter()  # then the user jumps to the last of the rows
    view.table.scrollToBottom()
    view.repaint()  # painted now: not processEvents, which re-enters the loop's tasks
    scroll = time.perf_counter() - scrolled
    rows = model.table.total
    assert rows == expected, (rows, expected)
    view.close()
    await session.aclose()
    return stall, seconds, scroll


async def measure(latency: float) -> list[dict[str, Any]]:
    """Start a devnet answering after `latency` seconds and measure the scans.

    Print the scan ratio and the stalls, and return sample node logs (for the memory
    measurement).
    """
    async with running_devnet(latency) as (url, manifest):
        head, expected = manifest["head_at_build"], manifest["transfer_log_count"]
        fast, slow, requests = await bench_scan(url, head, expected)
        client = RpcClient(Endpoint.parse(url))
        samples: list[dict[str, Any]] = await client.call(
            "eth_getLogs", [{"fromBlock": "0x0", "toBlock": "0x3e8"}]
        )
        await client.aclose()
        stalls = [await bench_stall(url, expected) for _ in range(STALL_ROUNDS)]
    worst = max(stall for stall, _seconds, _scroll in stalls)
    typical = statistics.median(stall for stall, _seconds, _scroll in stalls)
    seconds = statistics.median(seconds for _stall, seconds, _scroll in stalls)
    scroll = statistics.median(scroll for _stall, _seconds, scroll in stalls)
    print(f"node latency {latency * 1000:.0f} ms per request:")
    print(
        f"  whole-history Transfer scan ({expected:,} logs, {head + 1:,} blocks): pipelined "
        f"{fast * 1000:.0f} ms ({requests['pipelined']} requests) vs sequential 2,000-block "
        f"loop {slow * 1000:.0f} ms ({requests['sequential']}), ratio {slow / fast:.2f}× "
        f"(goal ≥ 2.5×)"
    )
    print(
        f"  longest GUI-thread stall while {expected:,} rows streamed in ({seconds:.2f} s): "
        f"{worst * 1000:.1f} ms worst of {STALL_ROUNDS}, median {typical * 1000:.1f} ms "
        f"(goal < 33 ms)"
    )
    print(f"  then a jump to the last of the {expected:,} rows: {scroll * 1000:.1f} ms (median)")
    return samples


async def main() -> None:
    """Measure against a local node and a remote-like one, then the table's memory."""
    samples: list[dict[str, Any]] = []
    for latency in LATENCIES:
        samples = await measure(latency)
    for profile in ("rskj", "service"):
        await measure_learning(profile, 0.1)
    traced, rss = bench_memory(samples)
    print(
        f"100,000 rows in the table: {traced:.1f} MB traced, {rss:.1f} MB RSS over baseline "
        f"(goal < 250 MB)"
    )
    exports = await bench_export(samples)
    for fmt, (seconds, stall) in exports.items():
        print(
            f"export of 100,000 rows as {fmt.title} off the GUI thread: {seconds:.2f} s, "
            f"longest GUI-thread stall {stall * 1000:.1f} ms (goal < 33 ms)"
        )
    ratio = exports[ExportFormat.CSV][0] / exports[ExportFormat.JSON][0]
    print(f"CSV export against JSON: {ratio:.2f}× (goal ≤ 1×: CSV as fast as JSON)")


if __name__ == "__main__":
    run_like_the_app(main)
