"""`explorer history ADDRESS`: every balance change and token transfer of an address, newest first.

The same search the address page runs (services/address_history.py): native changes found
by probing balance and nonce, token transfers from the logs, over the whole chain by default.
A node that keeps no old state is said on stderr, and the block scan replaces the search
(its cost said first; over SCAN_LIMIT blocks it asks for a narrower range instead).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from explorer.chain import query as q
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.history import HistoryEntry, newest_first
from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    chosen_node,
    go_ahead,
    node_command_parser,
    run_reporting_errors,
)
from explorer.cli.saved import Offline, add_cache_choice, command_session, note, probe_or_saved
from explorer.presentation.history_text import csv_text, json_text, text_lines
from explorer.rpc.errors import InvalidInput
from explorer.services.address_history import AddressHistory
from explorer.services.block_scan import scan_blocks
from explorer.services.budget import Estimate as Cost
from explorer.services.budget import crosses, question
from explorer.services.history_plan import CONFIRM_ABOVE, OldStateVerdict, Scope
from explorer.services.history_store import HistoryStore, MemoryHistoryStore, SavedHistoryStore
from explorer.services.networks import custom_network
from explorer.services.search import resolve
from explorer.services.session import Session

if TYPE_CHECKING:
    from explorer.services.trace import Tracer

SCAN_LIMIT = 10_000  # blocks the command reads one by one without old state

EPILOG = f"""\
JSON is one array, newest first (docs/schemas/history.json); each entry has block, timestamp
(ISO 8601 UTC), tx_hash (null when the change has no transaction of the address), kind (sent,
received, self, contract, reward, pegin, token), asset ("native" or the token's checksummed
address), counterparty (checksummed), amount (base units, decimal string), decimals, direction
(in, out, self), failed, balance_after (wei, native entries), fee (wei, what a sent transaction
cost), log_index (token entries) and token_id (ERC-721, decimal string).
Progress and notes go to stderr. The API key comes from --key or ${KEY_VARIABLE}.

Exit codes:
  0  the history was written
  1  the name.rsk points to no address
  2  input error: bad address, name or block (nothing was sent), or a costly search not
     agreed to (more than a few hundred requests, or past the key's quota: --yes, or y on
     a terminal)
  3  node or network error (a node without old state over more than {SCAN_LIMIT:,} blocks)"""


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = node_command_parser(
        "explorer history",
        "Every balance change and token transfer of an address, found without "
        "an indexer (balance and nonce searched, Transfer logs scanned).",
        EPILOG,
        list(argv),
        ("address", "the address (0x + 40 hex digits) or a name.rsk"),
    )
    parser.add_argument("--from", dest="start", help="first block (default: 0)")
    parser.add_argument("--to", dest="end", help="last block or latest (default: latest)")
    parser.add_argument("--assets", choices=[s.value for s in Scope], default=Scope.ALL.value)
    parser.add_argument("--format", choices=("text", "json", "csv"), default="text")
    parser.add_argument(
        "--yes", action="store_true", help="search (or scan) whatever it costs, without asking"
    )
    add_cache_choice(parser)
    return parser.parse_args(list(argv))


def block_bound(text: str | None, name: str) -> int | None:
    """Read --from or --to: a decimal or 0x number (None for latest or not given)."""
    if text is None or text.strip().lower() == "latest":
        return None
    value = text.strip().lower()
    try:
        number = int(value, 16) if value.startswith("0x") else int(value)
    except ValueError:
        raise InvalidInput(f"{name}: {text!r} is not a block number") from None
    if number < 0:
        raise InvalidInput(f"{name}: a block number cannot be negative")
    return number


def address_or_name(text: str) -> str | q.RnsQuery:
    """Return the address typed (canonical), or the name.rsk to resolve on the node."""
    if text.strip().lower().endswith(".rsk"):
        query = q.parse(text, None)
        if isinstance(query, q.Invalid):
            raise InvalidInput(f"address: {query.message}")
        assert isinstance(query, q.RnsQuery)
        return query
    try:
        return parse_address(text, "address")
    except HexFormatError as error:
        raise InvalidInput(str(error)) from None


async def history(options: argparse.Namespace) -> int:
    """Connect, check the chain, search and write the history."""
    address = address_or_name(options.address)
    first, last = block_bound(options.start, "--from"), block_bound(options.end, "--to")
    if first is not None and last is not None and first > last:
        raise InvalidInput("--from is after --to")
    async with chosen_node(options) as (network, endpoint):
        chosen = network or custom_network(endpoint.host, 0)
        async with command_session(chosen, endpoint, not options.no_cache) as session:
            answered = await probe_or_saved(session, None if network is None else chosen.chain_id)
            if isinstance(answered, Offline):  # a search needs the node: nothing saved answers it
                note(answered.first_line())
                raise answered.error
            if (mismatch := answered.mismatch()) is not None:
                raise mismatch
            if network is None:  # a custom endpoint: its chain is whatever it says
                session.network = custom_network(endpoint.host, answered.chain_id)
            if isinstance(address, q.RnsQuery):
                resolution = await resolve(address, session.reader, session.network.rns_registry)
                if resolution.route is None:
                    note(f"not found: {resolution.message}")
                    return EXIT_NOT_FOUND
                note(f"note: {resolution.note}")
                address = resolution.route.target
            cache = session.cache
            store: HistoryStore = MemoryHistoryStore()
            if cache is not None and cache.writable:  # the chain's saved data, now verified
                store = SavedHistoryStore(cache.records)
            run = AddressHistory(session.reader, address, chain=str(session.network.chain_id),
                                 store=store, scope=Scope(options.assets), hold=True,
                                 inside=lambda: _tracer(session))  # fmt: skip
            return await _write(run, session, (first, last), options.format, options.yes)


def spend(session: Session, requests: int, what: str, yes: bool) -> bool:
    """Return whether to spend requests: asked on a terminal (or --yes) when costly, as the window.

    That is more than a few hundred requests, or past the key's quota for today.
    """
    cost = Cost(requests, what)
    if crosses(session.requests_today, session.daily_quota, cost):
        asked = question(session.requests_today, session.daily_quota, cost)
    elif requests > CONFIRM_ABOVE:
        asked = f"{what} costs {cost.text()}. Go ahead?"
    else:
        return True
    note(asked)
    return go_ahead("Go ahead?", yes)


async def _write(
    run: AddressHistory,
    session: Session,
    blocks: tuple[int | None, int | None],
    fmt: str,
    yes: bool,
) -> int:
    """Run the history to its end and write it; fall back to the block scan without old state."""
    estimate = await run.prepare(*blocks)
    if estimate.needs_confirmation:
        note(estimate.text())
    if not spend(session, estimate.requests, f"Searching {estimate.blocks:,} blocks", yes):
        note("not searched: on a terminal answer y, or pass --yes")
        return EXIT_INPUT
    entries: dict[tuple[object, ...], HistoryEntry] = {}
    units: dict[str, tuple[int, str]] = {}
    verdict: OldStateVerdict | None = None
    async for update in run.updates():
        entries.update((entry.identity, entry) for entry in update.entries if not entry.provisional)
        units |= update.units
        if update.note:
            note(f"note: {update.note}")
        if update.over_limit:  # nobody to ask here: say so, and go on to the next limit
            note(f"note: {update.over_limit}")
            await run.go_on()
        verdict = update.old_state or verdict
    if verdict is not None:
        code = await _scan_instead(run, verdict, entries, lambda what: spend(session, *what, yes))
        if code != EXIT_OK:
            return code
    ordered = newest_first(list(entries.values()))
    network = session.network
    if fmt == "json":
        sys.stdout.write(json_text(ordered, units, network.chain_id))
    elif fmt == "csv":
        sys.stdout.write(csv_text(ordered, units, network.currency, network.chain_id))
    else:
        for line in text_lines(ordered, units, network.currency, network.chain_id):
            print(line)
    note(f"{len(ordered):,} entries; {run.requests:,} requests")
    return EXIT_OK


async def _scan_instead(
    run: AddressHistory,
    verdict: OldStateVerdict,
    entries: dict[tuple[object, ...], HistoryEntry],
    allowed: Callable[[tuple[int, str]], bool],
) -> int:
    """Say why the search cannot be used, then read every block instead (if not too many)."""
    note(f"note: {verdict.text()}")
    opening = run.opening
    assert opening is not None
    if verdict.blocks > SCAN_LIMIT:
        note(f"error: a block scan of {verdict.blocks:,} blocks is more than {SCAN_LIMIT:,}; "
             "choose a shorter range with --from and --to")  # fmt: skip
        return EXIT_REMOTE
    if not allowed((verdict.blocks, f"Reading {verdict.blocks:,} blocks")):
        note("not scanned: on a terminal answer y, or pass --yes")
        return EXIT_REMOTE
    note(f"reading blocks {opening.low + 1:,} to {opening.high:,} one by one…")
    for key in [k for k, e in entries.items() if e.is_native]:
        del entries[key]
    async for found in scan_blocks(run.reader, run.address, opening.low + 1, opening.high):
        entries.update((entry.identity, entry) for entry in found)
    return EXIT_OK


def main(argv: Sequence[str]) -> int:
    """Run `explorer history`; errors go to stderr as one line, never with the key."""
    return run_reporting_errors(history(arguments(argv)))


def _tracer(session: Session) -> Tracer:
    """Return a Tracer of the session's chain, loading the VM only now (on use)."""
    from explorer.services.trace import tracer_of

    return tracer_of(session)
