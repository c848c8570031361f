"""`explorer report QUERY`: the page the window would show for QUERY, as text or JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence

from explorer.chain import query as q
from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_NOT_FOUND,
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    chosen_node,
    secrets_in,
)
from explorer.devnet.process import DevnetStartError
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.services.networks import custom_network
from explorer.services.search import resolve
from explorer.services.session import Session
from explorer.viewmodels.loaders import load_document


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer report",
        description="Print what the explorer's page for QUERY shows (block, transaction, address).",
        epilog=f"Exit codes: {EXIT_OK} shown, {EXIT_NOT_FOUND} not found, {EXIT_INPUT} invalid "
        f"input, {EXIT_REMOTE} node or network error. The API key comes from --key or "
        f"${KEY_VARIABLE} and is never printed.",
        secrets=secrets_in(list(argv)),
    )
    parser.add_argument("query", help="block number or tag, hash, address or name.rsk")
    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser.parse_args(list(argv))


async def report(options: argparse.Namespace, out: list[str]) -> int:
    """Connect, resolve the query, load its page and render it into out."""
    async with chosen_node(options) as (network, endpoint):
        if network is None:
            network = custom_network(endpoint.host, options.chain_id or 0)
        session = Session(network, endpoint)
        try:
            return await _report(session, options, out)
        finally:
            await session.aclose()


async def _report(session: Session, options: argparse.Namespace, out: list[str]) -> int:
    """Probe the node, then resolve and render the query."""
    probe = await session.client.probe(session.network.chain_id)  # once: the CLI fails fast
    network = session.network
    if options.endpoint and not options.chain_id:
        network = custom_network(session.endpoint.host, probe.chain_id)
        session.network = network
    elif (mismatch := probe.mismatch()) is not None:
        raise mismatch
    query = q.parse(options.query, network.chain_id)
    if isinstance(query, q.Invalid):
        out.append(f"invalid input: {query.message}")
        return EXIT_INPUT
    resolution = await resolve(query, session.reader, network.rns_registry)
    if resolution.route is None:
        out.append(f"not found: {resolution.message}")
        return EXIT_NOT_FOUND
    document = await load_document(session.reader, network, resolution.route)
    if document is None:
        out.append(f"not found: {resolution.route} on {network.name}")
        return EXIT_NOT_FOUND
    if resolution.warning:
        out.append(f"note: {resolution.warning}")
    if options.format == "json":
        out.append(json.dumps(document.to_json(), indent=2))
    else:
        out.append(document.to_text().rstrip("\n"))
    return EXIT_OK


def main(argv: Sequence[str]) -> int:
    """Run the report; errors go to stderr as one line, never with the key."""
    options = arguments(argv)
    lines: list[str] = []
    try:
        code = asyncio.run(report(options, lines))
    except RpcError as error:
        print(f"error ({error.kind.value}): {error.message}", file=sys.stderr)
        return EXIT_INPUT if error.kind is ErrorKind.INVALID_INPUT else EXIT_REMOTE
    except (DevnetStartError, TimeoutError) as error:
        print(f"error (devnet): {error}", file=sys.stderr)
        return EXIT_REMOTE
    stream = sys.stdout if code == EXIT_OK else sys.stderr
    for line in lines:
        print(line, file=stream if not line.startswith("note:") else sys.stderr)
    return code
