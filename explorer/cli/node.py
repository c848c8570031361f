"""`explorer node`: what the node says about itself (the node page), as text or JSON."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import sys
from collections.abc import Sequence

from explorer.cli.common import (
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    chosen_node,
    secrets_in,
)
from explorer.devnet.process import DevnetStartError
from explorer.presentation.node_document import node_document
from explorer.saved.usage import UsageStore
from explorer.services.networks import custom_network
from explorer.services.nodeinfo import default_daily_quota, read_node_facts
from explorer.services.session import Session
from explorer.services.usage import UsageTally


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer node",
        description="Print what the node says about itself: chain id and net_version, client, "
        "protocol, gas price, head, accounts, latency, URL form and requests spent today.",
        epilog=f"Exit codes: {EXIT_OK} the node serves the chosen network (or answered, with "
        f"--endpoint), {EXIT_REMOTE} it serves another chain or did not answer. The API key "
        f"comes from --key or ${KEY_VARIABLE} and is never printed.",
        secrets=secrets_in(list(argv)),
    )
    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    return parser.parse_args(list(argv))


async def node_report(options: argparse.Namespace, out: list[str]) -> int:
    """Ask the node about itself and render the node page into out."""
    async with chosen_node(options) as (network, endpoint):
        if network is None:
            network = custom_network(endpoint.host, options.chain_id or 0)
        usage = UsageStore()
        session = Session(network, endpoint)
        tally = UsageTally(usage, session)
        try:
            earlier = await tally.flush()  # every process's requests of the day, this key
            quota = await usage.quota(network.id, default_daily_quota(network, endpoint))
            facts = await read_node_facts(session.client, network, endpoint, earlier, quota)
            if options.endpoint and not options.chain_id and facts.chain_id.value is not None:
                # --endpoint alone: the chosen network is whatever chain the node serves
                network = custom_network(endpoint.host, facts.chain_id.value)
            spent = await tally.flush()  # the seven requests just made included
            facts = dataclasses.replace(facts, network=network, requests_today=spent)
        finally:
            await session.aclose()
            await usage.aclose()
    document = node_document(facts)
    if options.format == "json":
        out.append(json.dumps(document.to_data(), indent=2))
    else:
        out.append(document.to_text().rstrip("\n"))
    answered = facts.chain_id.ok
    return EXIT_OK if answered and facts.serves_network else EXIT_REMOTE


def main(argv: Sequence[str]) -> int:
    """Run the command; errors go to stderr as one line, never with the key."""
    options = arguments(argv)
    lines: list[str] = []
    try:
        code = asyncio.run(node_report(options, lines))
    except (DevnetStartError, TimeoutError) as error:
        print(f"error (devnet): {error}", file=sys.stderr)
        return EXIT_REMOTE
    for line in lines:
        print(line)
    return code
