"""`explorer devnet`'s quick first start and kept chain: serve the shipped newest blocks at once.

With no kept chain and no snapshot to load, a network whose newest blocks are shipped
(devnet/recent.py) is served from them at once, while a helper process builds the whole
history behind; calls that need older blocks, state or the pool wait until it is there. With
--whole-history-first (tests, benchmarks and scripts through DevnetProcess) a devnet serves
its whole history from the start.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import gc
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.devnet.filling import FillingNode
from explorer.devnet.process import default_cache_dir

if TYPE_CHECKING:
    from explorer.devnet.node import DevnetNode
    from explorer.devnet.profile import NodeRules

HELPER_NICENESS = 10  # the helper builds behind the window and the served network


def add_start_options(add: Callable[..., Any]) -> None:
    """Add the kept chain's options (and the screenshots' read-only cache) to the parser."""
    add(
        "--keep-chain",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the chain in DIR across restarts (blocks mined and transactions sent): "
        "saved when the devnet stops, served again on its next start",
    )
    add(
        "--reset-chain",
        action="store_true",
        help="with --keep-chain: forget the kept chain and serve the seeded history again",
    )
    add(
        "--whole-history-first",
        action="store_true",
        help="with no history to load, build the whole seeded history before serving (by "
        "default the newest blocks shipped with the source are served at once while the older "
        "history is built behind; calls that need it wait)",
    )
    add("--recent-first", action="store_true", help=argparse.SUPPRESS)  # the default now
    add("--also-read", type=Path, action="append", default=[], help=argparse.SUPPRESS)
    add(
        "--niceness",
        type=int,
        default=0,
        choices=range(20),
        metavar="N",
        help="serve at a lower priority (os.nice) once ready, e.g. behind a window here",
    )


def snapshot_places(args: argparse.Namespace, chain_id: int) -> list[Path]:
    """Where a chain could be loaded from quickly: kept chain, caches, the package's snapshot."""
    from explorer.devnet.seed import FULL
    from explorer.devnet.snapshot import bundled_path, kept_path, snapshot_path

    cache = snapshot_path(args.cache_dir or default_cache_dir(), chain_id, FULL)
    places = [cache, bundled_path(cache)]
    places += [snapshot_path(folder, chain_id, FULL) for folder in args.also_read]
    if args.keep_chain is not None:
        places.append(kept_path(args.keep_chain, chain_id, FULL))
    return places


def node_rules(args: argparse.Namespace) -> NodeRules:
    """Return the node rules the options ask for (profile, log limits, pool expiry)."""
    from explorer.devnet.profile import PoolPolicy, Profile, rules_for

    pool = PoolPolicy(
        expiry_blocks=args.pool_expiry_blocks, expiry_seconds=args.pool_expiry_seconds
    )
    profile = Profile(args.profile)
    return rules_for(
        profile, max_log_blocks=args.max_log_blocks, max_logs=args.max_logs, pool=pool,
        trace=args.trace and profile is Profile.RSKJ,
    )  # fmt: skip


async def open_shipped(
    chain_ids: dict[str, int],
    args: argparse.Namespace,
    open_whole: Callable[[str], Awaitable[DevnetNode]],
    start_helper: Callable[[str], Awaitable[asyncio.subprocess.Process]],
    relay: Callable[[asyncio.StreamReader], Awaitable[None]],
) -> dict[str, FillingNode]:
    """Open the networks (by name) served from their shipped newest blocks; the rest is built."""
    nodes: dict[str, FillingNode] = {}
    for name, chain_id in chain_ids.items():
        node = await open_filling(
            chain_id,
            args,
            node_rules(args),
            functools.partial(open_whole, name),
            functools.partial(start_helper, name),
            relay,
        )
        if node is not None:
            nodes[name] = node
    return nodes


async def open_filling(
    chain_id: int,
    args: argparse.Namespace,
    rules: NodeRules,
    open_whole: Callable[[], Awaitable[DevnetNode]],
    start_helper: Callable[[], Awaitable[asyncio.subprocess.Process]],
    relay: Callable[[asyncio.StreamReader], Awaitable[None]],
) -> FillingNode | None:
    """Serve the shipped newest blocks when nothing loads faster; the whole chain follows."""
    quick = not args.whole_history_first and not args.prebuild_only
    if not quick or any(place.exists() for place in snapshot_places(args, chain_id)):
        return None
    from explorer.devnet.recent import load_recent, recent_node  # heavy (py-evm): on use

    loop = asyncio.get_running_loop()
    recent = await loop.run_in_executor(None, load_recent, chain_id)
    if recent is None:
        return None
    node = FillingNode(recent_node(recent, instant_mining=args.block_time <= 0, rules=rules))
    node.task = asyncio.ensure_future(_fill(node, open_whole, start_helper, relay))
    return node


async def _fill(
    node: FillingNode,
    open_whole: Callable[[], Awaitable[DevnetNode]],
    start_helper: Callable[[], Awaitable[asyncio.subprocess.Process]],
    relay: Callable[[asyncio.StreamReader], Awaitable[None]],
) -> None:
    """Build the whole chain in a helper process, then load it and serve it."""
    helper = await start_helper()
    try:
        if helper.stdout is not None:
            await relay(helper.stdout)
        await helper.wait()
    finally:
        if helper.returncode is None:  # cancelled: the devnet stops
            with contextlib.suppress(ProcessLookupError):
                helper.kill()
            await helper.wait()
    node.finish(await open_whole())  # loads what the helper saved (or builds, if it failed)
    gc.collect()
    gc.freeze()  # the whole chain lives as long as the process (see serve_until_stopped)


def lower_priority() -> None:
    """Let the window and the served network go first (a helper building behind them)."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(HELPER_NICENESS)


async def stop_filling(nodes: dict[str, Any]) -> None:
    """Stop the helpers still building."""
    tasks = [n.task for n in nodes.values() if isinstance(n, FillingNode) and n.task is not None]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def keep_chains(nodes: dict[str, Any], args: argparse.Namespace) -> None:
    """Save each whole chain served, to serve it again on the next start (--keep-chain)."""
    if args.keep_chain is None:
        return
    from explorer.devnet.snapshot import keep_chain

    for node in nodes.values():
        if isinstance(node, FillingNode):
            if not node.complete:
                continue  # still building: the kept chain (if any) stays as it was
            node = node.node
        keep_chain(node, args.keep_chain)


def serving(args: argparse.Namespace) -> None:
    """Once serving, lower the priority (--niceness): the start itself is not slowed."""
    if args.niceness:
        with contextlib.suppress(OSError, AttributeError):
            os.nice(args.niceness)


def prepare(args: argparse.Namespace, chain_ids: list[int]) -> None:
    """Forget the kept chains (--reset-chain)."""
    if args.reset_chain and args.keep_chain is not None:
        from explorer.devnet.snapshot import forget_kept

        for chain_id in chain_ids:
            forget_kept(args.keep_chain, chain_id)
