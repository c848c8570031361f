"""Saved data: a browsing session of 60 visits with the cache cold, warm, and without it.

Run: .venv/bin/python bench/cache.py  (starts its own devnet at 100 ms latency; Qt offscreen).

The session (blocks, transactions, addresses, a whole-history Transfer scan, revisits, and a
restart of the window halfway) runs three times against the same devnet: without saved
data, with an empty folder (cold: it fills as pages are read) and again on that folder
(warm). Printed against the goals of issue 21 §5: a warm settled transaction page asks
nothing beyond the session's chain check and renders within 1.2x its render from memory;
the whole session with saved data <= 0.4x the requests without it (both the cold and the
warm pass are printed against it); a repeated whole-history scan <= 2 requests; no cache
write stalls the GUI thread over 16 ms; the file <= 2x the JSON it holds.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

from _quick import QUICK  # bench/_quick.py
from live import CpuHeartbeat  # bench/live.py
from views import loaded, run_like_the_app, running_devnet, until  # bench/views.py

from explorer.rpc.endpoint import Endpoint
from explorer.saved import store as cache_store
from explorer.saved.directory import CacheDirectory
from explorer.services.activity import TRANSFER_TOPIC
from explorer.services.networks import DEVNET
from explorer.services.routes import LOGS, Route, address_route, block_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.logs import LogsViewModel, ScanState
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow

LATENCY = 0.0 if QUICK else 0.1  # quick: a run to show it works, not its numbers
WARM_PAGE_GOAL = 1.2  # a warm settled transaction page against its render from memory
SESSION_GOAL = 0.4  # the session's requests with saved data against without it
SCAN_GOAL = 2  # requests of a repeated whole-history Transfer scan
STALL_GOAL = 0.016  # seconds: the longest GUI-thread time a cache write may take
SIZE_GOAL = 2.0  # the file against the JSON it holds


@dataclass
class Run:
    """What one pass of the session cost."""

    name: str
    requests: int = 0
    seconds: float = 0.0
    scan_requests: list[int] = field(default_factory=list)
    warm_tx: list[tuple[int, float]] = field(default_factory=list)  # (requests, s) after restart
    memory_tx: list[float] = field(default_factory=list)  # s of a revisit from memory


def visits(manifest: dict[str, Any]) -> tuple[list[Route], list[Route]]:
    """Return the two halves of the session (30 visits each; LOGS is the Transfer scan)."""
    head = int(manifest["head_at_build"])
    blocks = [block_route(head - 200 - 1100 * i) for i in range(9)] + [
        block_route(int(manifest["big_block"]))
    ]
    names = ("token_transfer", "failed_tx", "contract_creation", "plain_transfer", "approval")
    txs = [tx_route(str(manifest[name])) for name in names if manifest.get(name)]
    txs += [tx_route(f"{head - 200 - 1100 * i}/0") for i in range(3)]
    accounts = [address_route(str(a)) for a in manifest["accounts"][:3]]
    addresses = [*accounts, address_route(str(manifest["token"]))]
    first = [*blocks[:6], *txs[:6], *addresses[:3], LOGS]
    first += [txs[0], blocks[0], txs[1], txs[0], blocks[1], addresses[0]]
    first += [txs[2], blocks[2], txs[3], txs[0], blocks[3], txs[4], txs[5], blocks[4]]
    second = [txs[0], *blocks[:5], *txs[1:6], *addresses[:2], LOGS]
    second += [*blocks[6:10], *txs[6:8], addresses[3], txs[0], blocks[0], txs[2]]
    second += [blocks[1], txs[3], txs[4], blocks[5]]
    if QUICK:  # each kind of visit once: a block, a scan, a saved and a remembered tx page
        return [blocks[0], txs[0], txs[1], addresses[0], LOGS], [
            txs[0],
            blocks[0],
            txs[1],
            LOGS,
            txs[1],
        ]
    return first[:30], second[:30]


async def open_window(url: str, saved: CacheDirectory | None, first: Route) -> MainWindow:
    """Return a window on a new session showing first (no home page in between)."""
    session = Session(DEVNET, Endpoint.parse(url), saved=saved)
    shell, navigator = ShellViewModel(), Navigator()
    window = MainWindow(shell, navigator, SearchViewModel())
    window.navigator.go(first)  # before the session: the home page never loads
    shell.set_session(session)
    window.show()
    await until(lambda: shell.head is not None, timeout=120)
    return window


async def visit(window: MainWindow, route: Route) -> tuple[int, float]:
    """Open a route in the window's tab; return (requests it made, seconds until shown)."""
    session = window.shell.session
    assert session is not None
    before, started = session.client.stats.total, time.perf_counter()
    if route != window.navigator.route(window.navigator.current_index):
        window.navigator.go(route)
    if route == LOGS:
        await scan_history(window)
    else:
        await until(lambda: loaded(window), timeout=120)
    return session.client.stats.total - before, time.perf_counter() - started


async def scan_history(window: MainWindow) -> None:
    """Scan the whole history for Transfer logs in the Logs tab."""
    await until(lambda: isinstance(window.tabs.currentWidget(), LogsView))
    view = window.tabs.currentWidget()
    assert isinstance(view, LogsView)
    model: LogsViewModel = view.model
    model.set_field("topic0", TRANSFER_TOPIC)
    model.set_field("from_block", "0")
    model.set_field("to_block", "latest")
    model.start()
    await until(lambda: model.state in (ScanState.DONE, ScanState.FAILED), timeout=300)


async def session_run(name: str, url: str, root: Path | None, manifest: dict[str, Any]) -> Run:
    """Browse both halves, restarting the window (and its saved data) in between."""
    run = Run(name)
    first_half, second_half = visits(manifest)
    started = time.perf_counter()
    for index, half in enumerate((first_half, second_half)):
        saved = CacheDirectory(root) if root is not None else None
        window = await open_window(url, saved, half[0])
        seen: set[Route] = {half[0]}  # the window opened on it (its start-up is not a visit)
        for route in half[1:]:
            spent, seconds = await visit(window, route)
            if route == LOGS:
                run.scan_requests.append(spent)
            elif route.page.value == "tx" and route in seen and index == 1:
                run.memory_tx.append(seconds)  # again in this window: from the reader's memory
            elif route.page.value == "tx" and index == 1 and route in first_half:
                run.warm_tx.append((spent, seconds))  # first time since the restart: saved data
            seen.add(route)
        session = window.shell.session
        assert session is not None
        run.requests += session.client.stats.total
        window.close()
        window.deleteLater()
        await session.aclose()
        if saved is not None:
            await saved.aclose()
    run.seconds = time.perf_counter() - started
    return run


@dataclass
class WriteTimer:
    """The longest GUI-thread time spent queuing an answer for the file."""

    worst: float = 0.0
    count: int = 0


def time_writes() -> WriteTimer:
    """Wrap the store's queueing (the GUI thread's part of every write) with a timer."""
    timer = WriteTimer()
    original = cache_store.ChainStore._queue

    def timed(self: cache_store.ChainStore, work: Any) -> None:
        started = time.perf_counter()
        original(self, work)
        timer.worst = max(timer.worst, time.perf_counter() - started)
        timer.count += 1

    cache_store.ChainStore._queue = timed  # type: ignore[method-assign]
    return timer


async def write_stall(url: str, root: Path, manifest: dict[str, Any]) -> tuple[float, float, int]:
    """Return the most GUI-thread CPU time between two 5 ms ticks while full blocks are saved.

    Also the blocks read. The big block and 40 more (quick: 2), read with full transactions
    through a session (no widgets), with saved data and without: the heartbeat sees the
    saving work on the GUI thread (the rest, compressing and writing, is on the worker). CPU
    time, not the gap: on a machine shared with other work a gap may be time the thread was
    not scheduled at all.
    """
    head = int(manifest["head_at_build"])
    numbers = [int(manifest["big_block"]), *range(head - 2000, head - (1998 if QUICK else 1960))]
    worst = {True: 0.0, False: 0.0}
    for round_, with_saved in enumerate((False, True) if QUICK else (False, True, False, True)):
        gc.collect()  # the browsing sessions' garbage is not counted against either
        saved = CacheDirectory(root / f"stall-{round_}") if with_saved else None
        session = Session(DEVNET, Endpoint.parse(url), saved=saved)
        await session.settled_check()
        await session.reader.latest_number()
        beat = CpuHeartbeat()
        beat.start()
        for number in numbers:
            await session.reader.block(number, full=True)
        if saved is not None and session.cache is not None and session.cache.store is not None:
            await session.cache.store.flush()
        beat.stop()
        worst[with_saved] = max(worst[with_saved], beat.worst_cpu)
        await session.aclose()
        if saved is not None:
            await saved.aclose()
    return worst[True], worst[False], len(numbers)


def file_sizes(root: Path) -> tuple[int, int]:
    """Return (bytes of the chain files, bytes of JSON they hold)."""
    import sqlite3

    files = sum(p.stat().st_size for p in root.glob("chain-*.sqlite3*"))
    held = 0
    for path in root.glob("chain-*.sqlite3"):
        db = sqlite3.connect(path)
        for table in ("answers", "log_segments", "records"):
            held += db.execute(f"SELECT coalesce(sum(json_size), 0) FROM {table}").fetchone()[0]
        db.close()
    return files, held


async def main() -> None:
    """Run the session without saved data, cold and warm; print every goal's measurement."""
    root = Path(tempfile.mkdtemp(prefix="bench-cache-"))
    timer = time_writes()
    async with running_devnet(LATENCY) as (url, manifest):
        none = await session_run("no saved data", url, None, manifest)
        cold = await session_run("cold", url, root / "chains", manifest)
        warm = await session_run("warm", url, root / "chains", manifest)
        stall_saved, stall_plain, blocks = await write_stall(url, root, manifest)
    files, held = file_sizes(root / "chains")
    visited = sum(len(half) for half in visits(manifest))
    print(f"{visited} visits at {LATENCY * 1000:.0f} ms latency (a restart halfway):")
    for run in (none, cold, warm):
        print(f"  {run.name:>14}: {run.requests:5,} requests, {run.seconds:6.1f} s")
    for run in (cold, warm):
        print(
            f"  the session with saved data, {run.name}: {run.requests / none.requests:.2f}x "
            f"the requests without it (goal <= {SESSION_GOAL}x)"
        )
    warm_requests = max(spent for spent, _ in cold.warm_tx)
    warm_seconds = statistics.median(seconds for _, seconds in cold.warm_tx)
    memory = statistics.median(cold.memory_tx)  # the same window, pages read again
    print(
        f"  a settled transaction page after the restart: {warm_requests} requests beyond the "
        f"session's chain check (goal 0), {warm_seconds * 1000:.1f} ms against "
        f"{memory * 1000:.1f} ms from memory = {warm_seconds / memory:.2f}x "
        f"(goal <= {WARM_PAGE_GOAL}x)"
    )
    print(
        f"  whole-history Transfer scan: {none.scan_requests} requests without saved data, "
        f"cold {cold.scan_requests}, warm {warm.scan_requests}; repeated: "
        f"{max(cold.scan_requests[1:] + warm.scan_requests)} (goal <= {SCAN_GOAL})"
    )
    print(
        f"  cache writes on the GUI thread: longest {timer.worst * 1000:.2f} ms over "
        f"{timer.count} writes (goal <= {STALL_GOAL * 1000:.0f} ms); reading and saving {blocks} "
        f"full blocks (one of 1,000 transactions), the most GUI-thread CPU time between two "
        f"5 ms ticks: {stall_saved * 1000:.1f} ms (without saved data: "
        f"{stall_plain * 1000:.1f} ms; goal <= {STALL_GOAL * 1000:.0f} ms more)"
    )
    print(
        f"  the file: {files / 1e6:.2f} MB for {held / 1e6:.2f} MB of JSON = "
        f"{files / held:.2f}x (goal <= {SIZE_GOAL}x)"
    )


if __name__ == "__main__":
    print("bench/cache.py: a browsing session with and without saved data", file=sys.stderr)
    run_like_the_app(main)
