"""`explorer verify BLOCK|TX`: recompute what the node says of a block or transaction.

The block's hash from its fields, its transactions root from its transactions, its receipts
root from its receipts, its binding to the Bitcoin work of its merge-mining fields, and, where
the node serves rskj's `rsk_getRawBlockHeaderByHash`, its raw header field by field. For a
transaction, also its hash from its fields and its place in the block. Exit 0 when every check
verifies, 1 when one does not (named), 2 for input that cannot be verified, 3 for transport.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain import query as q
from explorer.chain.blockverify import BlockVerdict, Check
from explorer.chain.checksum import to_checksum_address
from explorer.chain.records import Block, Receipt, Transaction
from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    chosen_node,
    run_reporting_errors,
    secrets_in,
)
from explorer.cli.saved import add_cache_choice, command_session
from explorer.presentation.verification import badge_text, check_key
from explorer.services.networks import custom_network
from explorer.services.routes import Page
from explorer.services.search import resolve
from explorer.services.session import Session
from explorer.services.verification import Verifier, raw_header_finding

EXIT_VERIFIED = 0
EXIT_MISMATCH = 1
RECEIPT_LIMITS = {"auto": 200, "all": None, "none": 0}


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer verify",
        description="Recompute a block's hash, transactions and receipts roots and its binding "
        "to Bitcoin work from what the node sends (a transaction: also its own hash and place).",
        epilog=f"Exit codes: {EXIT_VERIFIED} verified, {EXIT_MISMATCH} a check does not match "
        f"(named), {EXIT_INPUT} input that cannot be verified (not a block or transaction, not "
        f"found, a chain without known rules), {EXIT_REMOTE} node or network error. The API key "
        f"comes from --key or ${KEY_VARIABLE} and is never printed.",
        secrets=secrets_in(list(argv)),
    )
    parser.add_argument("query", help="block number, tag or hash, or transaction hash")
    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_cache_choice(parser)
    parser.add_argument(
        "--receipts",
        choices=tuple(RECEIPT_LIMITS),
        default="auto",
        help="read every receipt to check the receipts root: for blocks of up to 200 "
        "transactions (auto), always (all), or never (none)",
    )
    return parser.parse_args(list(argv))


@dataclass(frozen=True)
class Verified:
    """What was verified: the block, the transaction if one was asked, and the verdict."""

    block: Block
    tx: Transaction | None
    verdict: BlockVerdict


class CannotVerify(Exception):
    """The query names nothing verifiable here (said in one line)."""


async def _receipts(session: Session, block: Block, option: str) -> list[Receipt] | None:
    """Read every receipt of the block (when the option allows); None when not all exist."""
    limit = RECEIPT_LIMITS[option]
    hashes = block.transaction_hashes
    if limit == 0 or (limit is not None and len(hashes) > limit):
        return None
    found = await asyncio.gather(*(session.reader.receipt(h) for h in hashes))
    receipts = [receipt for receipt in found if receipt is not None]
    return receipts if len(receipts) == len(hashes) else None


async def _verify(session: Session, options: argparse.Namespace) -> Verified:
    """Resolve the query to a block (or a transaction and its block) and verify it."""
    verifier = session.reader.verifier
    query = q.parse(options.query, session.network.chain_id)
    if isinstance(query, q.Invalid):
        raise CannotVerify(f"invalid input: {query.message}")
    if not isinstance(query, q.BlockNumberQuery | q.BlockTagQuery | q.HashQuery):
        raise CannotVerify("invalid input: verify takes a block or a transaction")
    resolution = await resolve(query, session.reader, None)
    route = resolution.route
    if route is None or route.page not in (Page.BLOCK, Page.TX) or verifier is None:
        raise CannotVerify(f"not found: {resolution.message or options.query}")
    tx = await session.reader.transaction(route.target) if route.page is Page.TX else None
    if route.page is Page.TX and (tx is None or tx.block_hash is None):
        raise CannotVerify("cannot verify: the transaction is not mined (or not found)")
    where = tx.block_hash if tx is not None and tx.block_hash else route.target
    selector = int(where) if where.isdigit() else where
    block = await session.reader.block(selector, full=True)
    if block is None:
        raise CannotVerify(f"not found: block {where} on {session.network.name}")
    receipts = await _receipts(session, block, options.receipts)
    if tx is not None:
        receipt = await session.reader.receipt(tx.hash)
        verdict = await verifier.transaction_off_thread(tx, receipt, block, receipts)
    else:
        verdict = await verifier.block_off_thread(block, receipts)
    if verdict.finding(Check.HASH) is None or verdict.number is None:
        reason = verdict.findings[0].detail if verdict.findings else "nothing to check"
        raise CannotVerify(f"cannot verify: {reason}")
    raw = await raw_header_finding(session.client, block, verifier.rules)
    return Verified(block, tx, verdict.with_findings(raw))


def verification_data(verified: Verified, chain_id: int, requests: int) -> dict[str, Any]:
    """Return the verdict as data (docs/report-json.md, `explorer verify`)."""
    verdict, block = verified.verdict, verified.block
    mismatch = verdict.mismatch
    return {
        "kind": "transaction" if verified.tx is not None else "block",
        "chain_id": chain_id,
        "block": {
            "number": block.number,
            "hash": block.hash,
            "miner": to_checksum_address(block.miner, chain_id) if block.miner else None,
            "difficulty": verdict.difficulty,
        },
        "transaction": None if verified.tx is None else {"hash": verified.tx.hash},
        "verified": verdict.verified,
        "mismatch": None
        if mismatch is None
        else {"check": check_key(mismatch.check), "text": mismatch.detail},
        "checks": [
            {"check": check_key(f.check), "outcome": f.outcome.value, "text": f.detail}
            for f in verdict.findings
        ],
        "requests": requests,
        "text": badge_text(verdict),
    }


def verification_text(verified: Verified, network_name: str, requests: int) -> str:
    """Return the verdict as lines of text: what was verified, then each check."""
    block, verdict = verified.block, verified.verdict
    head = f"Block {block.number:,} · {block.hash} · {network_name}"
    if verified.tx is not None:
        head = f"Transaction {verified.tx.hash} in " + head[0].lower() + head[1:]
    width = max(len(f.check.value) for f in verdict.findings)
    lines = [head, badge_text(verdict)]
    lines += [
        f"  {f.check.value:<{width}}  {f.outcome.value:<9}  {f.detail}" for f in verdict.findings
    ]
    lines.append(f"{requests:,} request{'s' if requests != 1 else ''}")
    return "\n".join(lines)


async def verify(options: argparse.Namespace, out: list[str], err: list[str]) -> int:
    """Connect, check the node's chain, verify the query and render the verdict."""
    async with chosen_node(options) as (network, endpoint):
        if network is None:
            network = custom_network(endpoint.host, options.chain_id or 0)
        async with command_session(network, endpoint, not options.no_cache) as session:
            any_chain = bool(options.endpoint and not options.chain_id)
            probe = await session.client.probe(
                None if any_chain else network.chain_id,
                None if any_chain else network.genesis_hash,
            )
            if not any_chain and (mismatch := probe.mismatch()) is not None:
                raise mismatch
            if any_chain:
                session.network = network = custom_network(endpoint.host, probe.chain_id)
            genesis = probe.genesis_hash  # checked against the network's by the probe
            session.reader.verifier = Verifier(probe.chain_id, lambda: genesis)
            try:
                verified = await _verify(session, options)
            except CannotVerify as cannot:
                err.append(str(cannot))
                return EXIT_INPUT
            requests = session.client.stats.total
            if options.format == "json":
                data = verification_data(verified, network.chain_id, requests)
                out.append(json.dumps(data, indent=2))
            else:
                out.append(verification_text(verified, network.name, requests))
            return EXIT_VERIFIED if verified.verdict.verified else EXIT_MISMATCH


def main(argv: Sequence[str]) -> int:
    """Run the verification; errors go to stderr as one line, never with the key."""
    out: list[str] = []
    err: list[str] = []
    options = arguments(argv)
    code = run_reporting_errors(verify(options, out, err))
    for line in out:
        print(line)
    for line in err:
        print(line, file=sys.stderr)
    return code
