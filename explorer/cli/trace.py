"""`explorer trace TX`: what happened inside a transaction, as the Inside tab shows it.

The node's own trace when it serves one, else a replay with Rootstock's rules over the state
at block N−1 (services/trace.py), proven against the receipt before it is called faithful; on
the same saved data and exit codes as `explorer report`.
"""

from __future__ import annotations

import argparse
import json
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
    run_reporting_errors,
    secrets_in,
)
from explorer.cli.saved import add_cache_choice, option_session, verified_chain, write_lines
from explorer.presentation.trace_json import trace_data
from explorer.presentation.trace_text import trace_text
from explorer.services.networks import NetworkKind
from explorer.services.session import Session
from explorer.services.trace import (
    ASK_ABOVE,
    TraceChoice,
    TraceNotFound,
    TraceOverBudget,
    TraceProblem,
    Tracer,
)
from explorer.services.trace_reads import NoOldState

EXIT_ASK = 4  # a replay over the request budget: nothing was spent past the estimate


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer trace",
        description="Show what happened inside a transaction: its call tree, money trail and "
        "state diff, from the node's trace or a replay proven against the receipt.",
        epilog=f"Exit codes: {EXIT_OK} shown (faithful or, said first, diverged), "
        f"{EXIT_NOT_FOUND} not found or not mined, {EXIT_INPUT} invalid input, {EXIT_REMOTE} "
        f"node or network error (or a node without the old state a replay needs), {EXIT_ASK} "
        f"the replay would cost more requests than allowed without --yes. The API key comes "
        f"from --key or ${KEY_VARIABLE} and is never printed.",
        secrets=secrets_in(list(argv)),
    )
    parser.add_argument("tx", help="the transaction's hash")
    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument(
        "--source",
        choices=[choice.value for choice in TraceChoice],
        default=TraceChoice.AUTO.value,
        help="auto: the node's trace when it serves one, else a replay (default); node: only "
        "the node's trace; replay: always replay",
    )
    parser.add_argument(
        "--yes",
        action="store_true",
        help="replay even when it would cost more requests than allowed without asking",
    )
    add_cache_choice(parser)
    return parser.parse_args(list(argv))


async def trace(options: argparse.Namespace, out: list[str]) -> int:
    """Connect, trace the transaction and render it into out."""
    async with option_session(options) as session:
        return await _trace(session, options, out)


async def _trace(session: Session, options: argparse.Namespace, out: list[str]) -> int:
    """Probe the node (or fall back on saved data), then trace and render."""
    probed = await verified_chain(session, options, out)
    chain_id, genesis = probed.chain_id, probed.genesis_hash
    query = q.parse(options.tx, chain_id)
    if not isinstance(query, q.HashQuery):
        out.append("invalid input: a transaction's hash is 0x and 64 hex digits")
        return EXIT_INPUT
    asks = session.network.kind is NetworkKind.CUSTOM  # the hosted service serves no trace
    tracer = Tracer(session.client, session.reader, chain_id, genesis, asks)
    try:
        allowed = None if options.yes else ASK_ABOVE
        result = await tracer.trace(query.hash, TraceChoice(options.source), allowed)
    except TraceOverBudget as asking:
        out.append(f"ask: {asking}; run again with --yes to replay it")
        return EXIT_ASK
    except TraceNotFound as missing:
        out.append(f"not found: {missing}")
        return EXIT_NOT_FOUND
    except (NoOldState, TraceProblem) as problem:
        out.append(f"error (trace): {problem}")
        return EXIT_REMOTE
    if options.format == "json":
        out.append(json.dumps(trace_data(result, chain_id), indent=2))
    else:
        out.append(trace_text(result, chain_id, session.network.currency).rstrip("\n"))
    return EXIT_OK


MESSAGES = ("not found:", "invalid input:", "ask:", "error (")  # on stderr; the trace on stdout


def main(argv: Sequence[str]) -> int:
    """Run the trace; errors go to stderr as one line, never with the key."""
    lines: list[str] = []
    options = arguments(argv)
    code = run_reporting_errors(trace(options, lines))
    write_lines(lines, MESSAGES, options.format == "json")
    return code
