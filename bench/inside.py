"""The Inside tab streaming a big call tree in: the GUI thread's worst stall.

Run: .venv/bin/python bench/inside.py  (no devnet: the replay is bench/trace.py's).

A call tree of 2,000 frames (a relay chain 12 deep under each of many calls, each paying RBTC
and moving a token: ERC-20 transfer inputs the bundled signatures decode, Transfer events),
its money trail (chain/trace_money.py) and a state diff of every address, streamed into the
real Inside tab (viewmodels/tx_inside.py, views/inside_view.py) as a faithful trace would be.
A 5 ms heartbeat on the GUI thread gives the worst stall while the rows stream in; the
baseline is the same rows handed over in one slice. Goal (issue 28): the GUI never stalls
≥ 33 ms while a tree streams in.
"""

from __future__ import annotations

import asyncio
import os
import time

from _quick import sized  # bench/_quick.py, beside this
from eth_hash.auto import keccak
from views import Heartbeat, run_like_the_app  # bench/views.py, beside this

from explorer.chain.trace import (
    AccountChange,
    CallFrame,
    CallKind,
    StateDiff,
    TraceLog,
    TraceResult,
    TraceSource,
)
from explorer.chain.trace_money import money_trail
from explorer.viewmodels import tx_inside
from explorer.viewmodels.tx_inside import MAX_SLICE, InsideViewModel
from explorer.views.inside_view import InsideView

FRAMES = sized(2_000, 300)
DEPTH = 12
STALL_GOAL = 0.033
TRANSFER = "0x" + keccak(b"Transfer(address,address,uint256)").hex()
SELECTOR = keccak(b"transfer(address,uint256)")[:4]


class CpuHeartbeat(Heartbeat):
    """The heartbeat, also noting the GUI thread's own CPU time between ticks.

    On a machine shared with other work, a wall-clock gap includes the time the process
    waited for a core; the CPU gap is the stall the GUI thread's own work made.
    """

    def _tick(self) -> None:
        cpu = time.thread_time()
        self.worst_cpu = max(getattr(self, "worst_cpu", 0.0), cpu - getattr(self, "cpu", cpu))
        self.cpu = cpu
        super()._tick()

    def start(self) -> None:
        """Start measuring afresh."""
        self.cpu, self.worst_cpu = time.thread_time(), 0.0
        super().start()


def address(n: int) -> str:
    """Return the n-th made-up address."""
    return f"0x{n + 0x1000:040x}"


def word(value: int) -> str:
    """Return a 32-byte topic."""
    return f"0x{value:064x}"


def frame(n: int, depth: int, calls: tuple[CallFrame, ...]) -> CallFrame:
    """Return one frame paying RBTC and moving a token, over its calls."""
    sender, to = address(n), address(n + 1)
    data = SELECTOR + bytes.fromhex(word(n + 2)[2:]) + (n * 1000).to_bytes(32, "big")
    log = TraceLog(
        to, (TRANSFER, word(int(sender, 16)), word(n + 2)), (n * 1000).to_bytes(32, "big"), n
    )
    return CallFrame(CallKind.CALL, sender, to, 10**15 + n, data, (1).to_bytes(32, "big"), None,
                     100_000, 30_000 + n, depth, n, (log,), calls)  # fmt: skip


def tree(frames: int) -> CallFrame:
    """Return a call tree of about `frames` frames: chains DEPTH deep under one root."""
    chains, counter = [], 1
    while counter < frames:
        below: tuple[CallFrame, ...] = ()
        for depth in range(DEPTH, 0, -1):
            below = (frame(counter + depth, depth, below),)
        chains.append(below[0])
        counter += DEPTH
    return CallFrame(CallKind.CALL, address(0), address(1), 0, SELECTOR, b"", None, 10**7,
                     10**6, 0, 0, (), tuple(chains))  # fmt: skip


def result(root: CallFrame) -> TraceResult:
    """Return a faithful trace of the tree, with its money trail and a state diff."""
    moves = money_trail(root, address(0), 21_000)
    touched = sorted({m.sender for m in moves} | {m.receiver for m in moves})
    balances = tuple(AccountChange(a, 10**18, 10**18 + i) for i, a in enumerate(touched))
    diff = StateDiff(balances, (AccountChange(address(0), 4, 5),), (), ())
    return TraceResult("0x" + "ab" * 32, 100, "0x" + "cd" * 32, 0, TraceSource.REPLAY, True,
                       None, True, 10**6, 21_000, root, moves, diff)  # fmt: skip


async def stream(traced: TraceResult, slice_seconds: float) -> tuple[float, float, float]:
    """Stream a trace into a shown Inside tab; return (worst stall s, its CPU s, whole s)."""
    tx_inside.SLICE_SECONDS = slice_seconds
    tx_inside.MAX_SLICE = MAX_SLICE if slice_seconds < 1 else 10**9
    model = InsideViewModel(lambda: None, 31, "RBTC")  # type: ignore[arg-type,return-value]
    view = InsideView(model)
    view.resize(1200, 700)
    view.show()
    await asyncio.sleep(0.05)
    model.result = traced
    beat = CpuHeartbeat()
    beat.start()
    began = time.perf_counter()
    await model._stream(traced)
    whole = time.perf_counter() - began
    await asyncio.sleep(0.02)
    stall = beat.stop()
    view.close()
    return stall, beat.worst_cpu, whole


async def main() -> None:
    """Measure the sliced stream against the one-slice baseline; print against the goal."""
    traced = result(tree(FRAMES))
    frames = traced.root.frame_count if traced.root else 0
    print(f"A {frames:,}-frame tree, {len(traced.transfers):,} moves, "
          f"{len(traced.diff.balances) if traced.diff else 0:,} addresses changed")  # fmt: skip
    stall, cpu, whole = await stream(traced, tx_inside.SLICE_SECONDS)
    base_stall, base_cpu, base_whole = await stream(traced, float("inf"))
    load = os.getloadavg()[0]
    for name, value in (("wall", stall), ("GUI thread's CPU", cpu)):
        missed = f"MISSED by {(value - STALL_GOAL) * 1000:.0f} ms"
        verdict = "met" if value < STALL_GOAL else missed
        print(f"streamed in slices: worst GUI stall ({name}) {value * 1000:.1f} ms over "
              f"{whole:.2f} s (goal < 33 ms: {verdict})")  # fmt: skip
    cores = os.cpu_count()
    print(f"baseline, one slice: worst GUI stall {base_stall * 1000:.1f} ms (CPU "
          f"{base_cpu * 1000:.1f} ms) over {base_whole:.2f} s; sliced/baseline stall "
          f"{stall / base_stall:.2f}×; load average {load:.1f} on {cores} cores")  # fmt: skip


if __name__ == "__main__":
    run_like_the_app(main)
