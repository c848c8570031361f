"""`explorer report QUERY`: the page the window would show for QUERY, as text or JSON.

A transaction's report carries the support desk's diagnosis: why it is pending, or what
became of one the node does not return (with `--also URL`, the other networks asked too); a
block's report lists every transaction, with statuses where the receipts were read.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Sequence
from urllib.parse import urlsplit

from explorer.chain import query as q
from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    api_key,
    run_reporting_errors,
    secrets_in,
)
from explorer.cli.saved import add_cache_choice, option_session, verified_chain, write_lines
from explorer.presentation.block_listing import (
    listing_text,
    read_receipts,
    rows_data,
    transaction_rows,
)
from explorer.presentation.bridge_loaders import pegout_documents
from explorer.presentation.document import Document
from explorer.presentation.loaders import load_block, load_document, load_tx
from explorer.presentation.missing import Missing, TxSupport
from explorer.presentation.tx_document import tx_document
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenStore
from explorer.services.elsewhere import OtherNetworks
from explorer.services.networks import Network, custom_network, node_name
from explorer.services.routes import Page, Route, route_words
from explorer.services.search import resolve
from explorer.services.session import Session

RECEIPT_LIMITS = {"auto": 200, "all": None, "none": 0}


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer report",
        description="Print what the explorer's page for QUERY shows (block, transaction, address).",
        epilog=f"Exit codes: {EXIT_OK} shown, {EXIT_NOT_FOUND} not found (what that can mean is "
        f"printed), {EXIT_INPUT} invalid input, {EXIT_REMOTE} node or network error. The API key "
        f"comes from --key or ${KEY_VARIABLE} and is never printed.",
        secrets=secrets_in(list(argv)),
    )
    parser.add_argument(
        "query",
        help="block number or tag, hash (RSK, or a peg-in's Bitcoin txid), address, "
        "name.rsk, or bridge",
    )

    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--also",
        action="append",
        default=[],
        metavar="URL",
        help="another network's endpoint to look a transaction up on when it is not found "
        "(repeatable; all are asked at once)",
    )
    add_cache_choice(parser)
    parser.add_argument(
        "--receipts",
        choices=tuple(RECEIPT_LIMITS),
        default="auto",
        help="a block's transaction statuses: read for blocks of up to 200 (auto), all, none",
    )
    return parser.parse_args(list(argv))


async def report(options: argparse.Namespace, out: list[str]) -> int:
    """Connect, resolve the query, load its page and render it into out."""
    async with option_session(options) as session:
        support = TxSupport(SeenStore())
        try:
            return await _report(session, options, out, support)
        finally:
            for closing in (support.elsewhere, support.store):
                if closing is not None:
                    await closing.aclose()


async def _report(
    session: Session, options: argparse.Namespace, out: list[str], support: TxSupport
) -> int:
    """Probe the node (or fall back on saved data), then resolve and render the query."""
    probed = await verified_chain(session, options, out)
    network, chain_id, any_chain = session.network, probed.chain_id, probed.any_chain
    if any_chain:
        network = custom_network(session.endpoint.host, chain_id)
        session.network = network
    query = q.parse(options.query, network.chain_id)
    if isinstance(query, q.Invalid):
        out.append(f"invalid input: {query.message}")
        return EXIT_INPUT
    if reading := q.reading_note(options.query, query):
        out.append(f"note: {reading}")
    resolution = await resolve(query, session.reader, network.rns_registry)
    if resolution.route is None:
        out.append(f"not found: {resolution.message}")
        return EXIT_NOT_FOUND
    out += [f"note: {said}" for said in (resolution.warning, resolution.note) if said]
    route = resolution.route
    if route.page is Page.TX:
        return await _transaction(session, route, options, out, support)
    if route.page is Page.BLOCK:
        return await _block(session, route, options, out)
    document = await load_document(session.reader, network, route)
    if document is None:
        out.append(f"not found: {route_words(route)} on {network.name}")
        return EXIT_NOT_FOUND
    _render(document, options, out)
    return EXIT_OK


async def _transaction(
    session: Session, route: Route, options: argparse.Namespace, out: list[str], support: TxSupport
) -> int:
    """Render a transaction with its diagnosis, or what its absence can mean."""
    network, now = session.network, time.time()
    if options.also:
        others = await _also(options)
        support.elsewhere = OtherNetworks(lambda: others)
    facts = await load_tx(session.reader, network, route.target, support, session.endpoint)
    if isinstance(facts, Missing):
        out.append(f"not found: {route_words(route)} on {network.name}")
        _render(facts.document(network, now), options, out)
        return EXIT_NOT_FOUND
    document = tx_document(facts, chain_id=network.chain_id, currency=network.currency, now=now)
    stages = pegout_documents(session.reader, network, document, facts.tx, facts.receipt)
    async for with_stages in stages:  # a peg-out's stages, as the window shows them
        document = with_stages
    _render(document, options, out)
    return EXIT_OK


async def _also(options: argparse.Namespace) -> list[tuple[Network, Endpoint]]:
    """Return the --also endpoints with the chain each one serves (two requests each, at once)."""
    endpoints = [
        Endpoint.parse(url, api_key(options), allow_insecure_http=options.insecure_http)
        for url in options.also
    ]

    async def chain_of(endpoint: Endpoint) -> tuple[Network, Endpoint]:
        client = RpcClient(endpoint)
        try:  # a chain is its chain id and its genesis block: both at once
            chain_id, genesis = await asyncio.gather(
                client.chain_id(), client.get_block_by_number(0)
            )
        finally:
            await client.aclose()
        where = urlsplit(endpoint.base_url).netloc
        name = node_name(chain_id, genesis.hash if genesis else None, where)
        return custom_network(name, chain_id), endpoint

    return list(await asyncio.gather(*(chain_of(endpoint) for endpoint in endpoints)))


async def _block(
    session: Session, route: Route, options: argparse.Namespace, out: list[str]
) -> int:
    """Render a block and every one of its transactions."""
    network = session.network
    loaded = await load_block(session.reader, network, route.target)
    if loaded is None:
        out.append(f"not found: {route_words(route)} on {network.name}")
        return EXIT_NOT_FOUND
    document, block = loaded
    limit = RECEIPT_LIMITS[options.receipts]
    receipts = await read_receipts(session.reader, block, limit) if limit != 0 else {}
    rows = transaction_rows(block, receipts, network)
    if options.format == "json":
        listing = rows_data(rows, network.chain_id)
        out.append(json.dumps({**document.to_data(), "transactions": listing}, indent=2))
    else:
        out.append(document.to_text().rstrip("\n") + listing_text(rows, bool(receipts)))
    return EXIT_OK


def _render(document: Document, options: argparse.Namespace, out: list[str]) -> None:
    """Render a document as text or JSON into out."""
    if options.format == "json":
        out.append(json.dumps(document.to_data(), indent=2))
    else:
        out.append(document.to_text().rstrip("\n"))


MESSAGES = ("not found:", "invalid input:", "note:")  # on stderr; pages go to stdout


def main(argv: Sequence[str]) -> int:
    """Run the report; errors go to stderr as one line, never with the key."""
    lines: list[str] = []
    options = arguments(argv)
    code = run_reporting_errors(report(options, lines))
    write_lines(lines, MESSAGES, options.format == "json")
    return code
