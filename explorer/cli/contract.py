"""`explorer contract ADDRESS`: what the contract tab knows, without an indexer.

The proxy it is and what it delegates to (at one block, every read at that block), the upgrade
history, the functions recovered from its code and its implementation's (named from the bundled
signature list and --signatures), the compiler and source hash in its metadata, and the source
matched from --artifacts (a Hardhat or Foundry project, or a Sourcify metadata.json), kept in the
chain's saved data so the window shows it too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from explorer.chain.artifacts import ArtifactError
from explorer.chain.hexutil import HexFormatError, parse_address
from explorer.chain.signature_file import parse_signature_list
from explorer.chain.signatures import SignatureTable
from explorer.cli.common import (
    EXIT_NOT_FOUND,
    EXIT_OK,
    KEY_VARIABLE,
    chosen_node,
    node_command_parser,
    run_reporting_errors,
)
from explorer.cli.history import block_bound
from explorer.cli.saved import Offline, add_cache_choice, command_session, note, probe_or_saved
from explorer.presentation.contract_data import contract_data
from explorer.presentation.contract_document import contract_document
from explorer.presentation.contract_facts import load_contract
from explorer.rpc.errors import InvalidInput
from explorer.services.networks import custom_network

EPILOG = f"""\
JSON (--format json) is one object: chain_id, block, address, proxy (kind, implementation,
beacon, admin, since_block, facets, text), upgrades, code and implementation (code_size,
compiler, ipfs, swarm, source, functions with selector, name, signature, arguments, mutability,
text); docs/report-json.md describes it. The API key comes from --key or ${KEY_VARIABLE}.

Exit codes:
  0  the contract was described
  1  the address has no code at that block
  2  input error: bad address, block, folder or signature file (nothing was sent)
  3  node or network error"""


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = node_command_parser(
        "explorer contract",
        "Describe a contract: proxy and implementation, functions recovered from "
        "its code, metadata, and its source matched from a local project's artifacts.",
        EPILOG,
        list(argv),
        ("address", "the contract's address (0x + 40 hex digits)"),
    )
    parser.add_argument("--block", help="the block to read at (default: latest)")
    parser.add_argument(
        "--artifacts",
        type=Path,
        metavar="DIR",
        help="a Hardhat or Foundry project (or its artifacts/ or out/), or a Sourcify "
        "metadata.json: match its build against the code",
    )
    parser.add_argument(
        "--signatures", type=Path, metavar="FILE", help="more names for selectors, one a line"
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    add_cache_choice(parser)
    return parser.parse_args(list(argv))


def _tables(path: Path | None) -> tuple[SignatureTable, ...]:
    """Read the user's signature list, if one was given."""
    if path is None:
        return ()
    try:
        found = parse_signature_list(path.read_text(encoding="utf-8", errors="replace"))
    except OSError as error:
        raise InvalidInput(f"--signatures: {error.strerror or error}") from None
    for problem in found.problems:
        note(f"note: {path.name}: {problem}")
    return (found.table,)


async def contract(options: argparse.Namespace) -> int:
    """Connect, check the chain, read the contract and print it."""
    try:
        address = parse_address(options.address, "address")
    except HexFormatError as error:
        raise InvalidInput(str(error)) from None
    chosen_block = block_bound(options.block, "--block")
    tables = _tables(options.signatures)
    if options.artifacts is not None and not options.artifacts.exists():
        raise InvalidInput(f"--artifacts: {options.artifacts} does not exist")
    async with chosen_node(options) as (network, endpoint):
        chosen = network or custom_network(endpoint.host, 0)
        async with command_session(chosen, endpoint, not options.no_cache) as session:
            answered = await probe_or_saved(session, None if network is None else chosen.chain_id)
            if isinstance(answered, Offline):
                note(answered.first_line())
            elif (mismatch := answered.mismatch()) is not None:
                raise mismatch
            elif network is None:
                session.network = custom_network(endpoint.host, answered.chain_id)
            client = session.client
            block = chosen_block if chosen_block is not None else await client.block_number()
            code = await client.get_code(address, block)
            if not code:
                note(f"{options.address} has no code at block {block:,}")
                return EXIT_NOT_FOUND
            try:
                facts = await load_contract(
                    client, address, block, code=code, tables=tables, artifacts=options.artifacts
                )
            except ArtifactError as error:
                raise InvalidInput(f"--artifacts: {error}") from None
            chain_id = session.network.chain_id
            if options.format == "json":
                sys.stdout.write(json.dumps(contract_data(facts, chain_id, block), indent=1) + "\n")
            else:
                print(contract_document(facts, chain_id).to_text())
            return EXIT_OK


def main(argv: Sequence[str]) -> int:
    """Run `explorer contract`; errors go to stderr as one line, never with the key."""
    return run_reporting_errors(contract(arguments(argv)))
