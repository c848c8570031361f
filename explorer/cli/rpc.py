"""`explorer rpc URL METHOD [PARAM …]`: one call through the client, the result as JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import textwrap
from typing import Any

from explorer.cli.common import EXIT_INPUT, EXIT_OK, EXIT_REMOTE, KEY_VARIABLE, KeySafeParser
from explorer.cli.common import secrets_in as _secrets
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.methods import METHODS

_METHOD_LIST = textwrap.fill(
    ", ".join(sorted(METHODS)), 78, initial_indent="  ", subsequent_indent="  "
)

EPILOG = f"""\
Each PARAM is read as JSON when it parses as JSON, else taken as a string:
  explorer rpc https://rpc.testnet.rootstock.io/KEY eth_getBlockByNumber 0x10 false
The API key may be the URL's last path segment, --key, or ${KEY_VARIABLE}.
Parameters are checked before anything is sent; reads are retried on timeouts,
429 and 5xx; eth_sendRawTransaction is never resent once it may have arrived.

Methods:
{_METHOD_LIST}

Exit codes:
  0  success; the result is printed as JSON (null when nothing was found)
  2  input error: bad URL, method or parameter (nothing was sent)
  3  remote error: transport, auth, rate limit, server, node or malformed answer
The API key is never printed; errors show the URL's redacted form."""


def build_parser(secrets: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """Return the parser of `explorer rpc`."""
    parser = KeySafeParser(
        prog="explorer rpc",
        description="Call one JSON-RPC method through the explorer's client; print the result.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        secrets=secrets,
    )
    parser.add_argument(
        "url", metavar="URL", help="endpoint, e.g. https://host/KEY or https://host"
    )
    parser.add_argument("method", metavar="METHOD", help="one of the service's methods")
    parser.add_argument("params", metavar="PARAM", nargs="*", help="positional parameters")
    parser.add_argument("--key", help=f"API key (else the URL's last segment or ${KEY_VARIABLE})")
    parser.add_argument(
        "--insecure-http",
        action="store_true",
        help="allow http:// to a non-loopback host (sends the key in clear text)",
    )
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per request")
    parser.add_argument(
        "--raw", action="store_true", help="send a method outside the service's list, unchecked"
    )
    return parser


def parse_param(text: str) -> Any:
    """Read a PARAM as JSON when it parses, else as a string."""
    try:
        return json.loads(text)
    except ValueError:
        return text


async def _call(endpoint: Endpoint, options: argparse.Namespace) -> Any:
    """Make the call: checked through the method's spec, or raw with --raw."""
    params = [parse_param(text) for text in options.params]
    client = RpcClient(endpoint, timeout=options.timeout)
    try:
        if options.raw and options.method not in METHODS:
            return await client.call(options.method, params)
        return await client.request(options.method, *params)
    finally:
        await client.aclose()


def _fail(error: RpcError) -> int:
    """Print the error's kind and message; return the exit code for its kind."""
    print(f"error ({error.kind.value}): {error.message}", file=sys.stderr)
    return EXIT_INPUT if error.kind is ErrorKind.INVALID_INPUT else EXIT_REMOTE


def main(argv: list[str]) -> int:
    """Run `explorer rpc`; return the exit code."""
    options = build_parser(_secrets(argv)).parse_args(argv)
    key = options.key or os.environ.get(KEY_VARIABLE) or None
    try:
        endpoint = Endpoint.parse(options.url, key, allow_insecure_http=options.insecure_http)
        if endpoint.is_insecure:
            print(f"warning: {endpoint.host} is reached over plain http", file=sys.stderr)
        result = asyncio.run(_call(endpoint, options))
    except RpcError as error:
        error.redact(key)
        return _fail(error)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    print(json.dumps(result, indent=2))
    return EXIT_OK
