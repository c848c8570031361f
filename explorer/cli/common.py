"""What the command-line faces share: exit codes, the key variable, a parser that hides keys."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from explorer.cli.keysafe import EXIT_INPUT, KeySafeParser, scrub, secrets_in
from explorer.devnet.process import DevnetOptions, DevnetProcess, DevnetStartError
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.services.networks import BUILTIN, DEVNET, Network

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_REMOTE = 3
KEY_VARIABLE = "EXPLORER_API_KEY"
# re-exported for the command-line faces
__all__ = ["EXIT_INPUT", "KeySafeParser", "scrub", "secrets_in"]


def node_command_parser(
    prog: str, description: str, epilog: str, argv: list[str], target: tuple[str, str]
) -> KeySafeParser:
    """Return a parser of a command about one target (name, help), asked of a chosen node."""
    parser = KeySafeParser(
        prog=prog,
        description=description,
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        secrets=secrets_in(argv),
    )
    parser.add_argument(target[0], help=target[1])
    add_node_choice(parser)
    return parser


def add_node_choice(parser: argparse.ArgumentParser) -> None:
    """Add --endpoint or --network, --key and --insecure-http."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--endpoint", help="JSON-RPC URL (a key may be its last path segment)")
    where.add_argument("--network", choices=[n.id for n in BUILTIN], help="a known network")
    parser.add_argument("--key", help=f"API key (default: ${KEY_VARIABLE})")
    parser.add_argument(
        "--insecure-http", action="store_true", help="allow http:// to a remote host"
    )


def api_key(options: argparse.Namespace) -> str | None:
    """Return the API key from --key or the key variable."""
    return options.key or os.environ.get(KEY_VARIABLE) or None


@contextlib.asynccontextmanager
async def chosen_node(
    options: argparse.Namespace,
) -> AsyncIterator[tuple[Network | None, Endpoint]]:
    """Yield (network, or None for --endpoint, and endpoint); a chosen devnet runs meanwhile."""
    if options.network != DEVNET.id:
        network = next((n for n in BUILTIN if n.id == options.network), None)
        if network is not None:
            yield network, network.endpoint(api_key(options))
        else:
            key = api_key(options)
            yield (
                None,
                Endpoint.parse(options.endpoint, key, allow_insecure_http=options.insecure_http),
            )
        return
    devnet = DevnetProcess(DevnetOptions(network="test"))  # the test network is all it uses
    try:
        await devnet.start()
        yield DEVNET, Endpoint.parse(devnet.url("testnet"))
    finally:
        await devnet.stop()


def run_reporting_errors(command: Coroutine[Any, Any, int]) -> int:
    """Run a command; an error goes to stderr as one line (never with the key) as its exit code."""
    try:
        return asyncio.run(command)
    except RpcError as error:
        print(f"error ({error.kind.value}): {error.message}", file=sys.stderr)
        return EXIT_INPUT if error.kind is ErrorKind.INVALID_INPUT else EXIT_REMOTE
    except (DevnetStartError, TimeoutError) as error:
        print(f"error (devnet): {error}", file=sys.stderr)
        return EXIT_REMOTE
