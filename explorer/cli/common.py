"""What the command-line faces share: exit codes, the key variable, a parser that hides keys."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import AsyncIterator
from typing import Any, NoReturn

from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import BUILTIN, DEVNET, Network

EXIT_OK = 0
EXIT_NOT_FOUND = 1
EXIT_INPUT = 2
EXIT_REMOTE = 3
KEY_VARIABLE = "EXPLORER_API_KEY"


class KeySafeParser(argparse.ArgumentParser):
    """An argument parser whose error messages never show the given secrets."""

    def __init__(self, *args: Any, secrets: tuple[str, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.secrets = secrets

    def error(self, message: str) -> NoReturn:
        """Print usage and a scrubbed message, exit 2."""
        for secret in self.secrets:
            message = message.replace(secret, "<key>")
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n")


def secrets_in(argv: list[str]) -> tuple[str, ...]:
    """Return what in argv may be a key: URL path segments and the value of --key."""
    found = [s for arg in argv if "://" in arg for s in arg.split("://", 1)[1].split("/")[1:] if s]
    found += [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--key"]
    found += [arg.split("=", 1)[1] for arg in argv if arg.startswith("--key=")]
    return tuple(sorted(set(found), key=len, reverse=True))


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
