"""The command line's saved data and request counts: the same files the window uses.

A command's session keeps and reads settled answers in the chain's saved data (unless
`--no-cache`) and adds the requests it spent to the key's day. When the node cannot be
reached, a chain this endpoint served before is answered from the saved data, and the first
line says so and from when.
"""

from __future__ import annotations

import argparse
import contextlib
import sqlite3
import sys
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass

from explorer.cli.common import chosen_node
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import RpcError
from explorer.rpc.node_answers import ProbeResult
from explorer.saved.directory import CacheDirectory
from explorer.saved.usage import UsageStore
from explorer.services.networks import Network, custom_network
from explorer.services.nodeinfo import default_daily_quota
from explorer.services.session import OFFLINE_KINDS, Session
from explorer.services.usage import UsageTally

SAVED = "saved data from"  # the offline first line: on stdout, or on stderr beside JSON


def write_lines(lines: Sequence[str], asides: tuple[str, ...], as_json: bool) -> None:
    """Print a command's lines: messages (lines starting with asides) to stderr, the rest out."""
    for line in lines:
        aside = line.startswith(asides) or (as_json and line.startswith(SAVED))
        print(line, file=sys.stderr if aside else sys.stdout)


def add_cache_choice(parser: argparse.ArgumentParser) -> None:
    """Add --no-cache."""
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor keep saved data: the node answers everything",
    )


@dataclass(frozen=True)
class Offline:
    """The node could not be reached: answers come from data saved at saved_at."""

    saved_at: float
    chain_id: int
    error: RpcError

    def first_line(self) -> str:
        """Return the line that says the answer is saved data, and from when."""
        when = time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(self.saved_at))
        return (
            f"{SAVED} {when}: the node cannot be reached "
            f"({self.error.kind.value}: {self.error.message})"
        )


def note(text: str) -> None:
    """Say something on stderr (the answer goes to stdout)."""
    print(text, file=sys.stderr, flush=True)


@contextlib.asynccontextmanager
async def command_session(
    network: Network, endpoint: Endpoint, use_saved: bool
) -> AsyncIterator[Session]:
    """Yield a session with saved data (unless not use_saved) whose requests count today.

    What the saved data says of its files (one moved aside, one locked) goes to stderr.
    """
    saved = CacheDirectory() if use_saved else None
    if saved is not None:
        saved.notice_listeners.append(note)
    usage = UsageStore()
    session = Session(network, endpoint, saved=saved)
    tally = UsageTally(usage, session)
    with contextlib.suppress(OSError, sqlite3.Error):  # what it spends is asked as the window's
        session.earlier_today = await usage.today(session.usage_id)
        session.daily_quota = await usage.quota(network.id, default_daily_quota(network, endpoint))
    try:
        yield session
    finally:
        await session.aclose()
        with contextlib.suppress(OSError, sqlite3.Error):  # the answer stands without it
            await tally.flush()
        await usage.aclose()
        if saved is not None:
            await saved.aclose()


@contextlib.asynccontextmanager
async def option_session(options: argparse.Namespace) -> AsyncIterator[Session]:
    """Yield the session of the node the options choose (--network or --endpoint)."""
    async with chosen_node(options) as (network, endpoint):
        if network is None:
            network = custom_network(endpoint.host, options.chain_id or 0)
        async with command_session(network, endpoint, not options.no_cache) as session:
            yield session


@dataclass(frozen=True)
class Probed:
    """The chain a command reads: its id and genesis block, and whether any chain will do."""

    chain_id: int
    genesis_hash: str | None
    any_chain: bool


async def verified_chain(session: Session, options: argparse.Namespace, out: list[str]) -> Probed:
    """Probe the node (or fall back on saved data, saying so in out); raise on another chain.

    With --endpoint and no --chain-id any chain will do; otherwise the node must serve the
    chosen network's chain (its genesis block too, where known).
    """
    any_chain = bool(options.endpoint and not options.chain_id)
    expected = None if any_chain else session.network.chain_id
    genesis = None if any_chain else session.network.genesis_hash
    answered = await probe_or_saved(session, expected, genesis)
    if isinstance(answered, Offline):
        out.append(answered.first_line())
        return Probed(answered.chain_id, session.network.genesis_hash, any_chain)
    if not any_chain and (mismatch := answered.mismatch()) is not None:
        raise mismatch
    return Probed(answered.chain_id, answered.genesis_hash, any_chain)


async def probe_or_saved(
    session: Session, expected: int | None, expected_genesis: str | None = None
) -> ProbeResult | Offline:
    """Ask the node for its chain (id and genesis hash, alone), else fall back on saved data.

    Online, the saved data of the chain the node serves is used from then on. When the node
    cannot be reached and this endpoint served the expected chain (any, with None) before,
    Offline says from when the answers are; otherwise the error is raised as it came.
    """
    cache = session.cache
    try:
        probe = await session.client.probe(expected, expected_genesis, lean=True)
    except RpcError as error:
        if cache is not None and error.kind in OFFLINE_KINDS and await cache.go_offline(expected):
            chain_id = cache.served_chain_id if cache.served_chain_id is not None else 0
            return Offline(cache.saved_at or 0.0, chain_id, error)
        raise
    if cache is not None and probe.matches:
        await cache.go_online(probe.chain_id, probe.genesis_hash)  # read beside the check
    return probe
