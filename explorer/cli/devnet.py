"""`explorer devnet`: serve the local devnet's test and main networks on 127.0.0.1."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import os
import secrets
import signal
import ssl
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer.cli.devnet_numbers import NUMBERS
from explorer.cli.devnet_output import CHAIN_IDS, DevnetOutput, print_accounts
from explorer.cli.devnet_start import (
    add_start_options,
    keep_chains,
    lower_priority,
    node_rules,
    open_shipped,
    prepare,
    serving,
    stop_filling,
)
from explorer.cli.keysafe import KeySafeParser
from explorer.devnet.envelope import big_stack_executor
from explorer.devnet.process import default_cache_dir, devnet_command
from explorer.devnet.profile import Profile
from explorer.devnet.server import RunningNetwork, ServiceConfig, serve
from explorer.saved.files import write_private

if TYPE_CHECKING:
    from explorer.devnet.node import DevnetNode

HOST = "127.0.0.1"
EXIT_STOPPED_WHILE_LOADING = 3
PREBUILD_AFTER_SECONDS = 4.0
NETWORK_FLAGS = {"testnet": "test", "mainnet": "main"}
NETWORK_CHOICES = {"test": ("testnet",), "main": ("mainnet",), "both": ("testnet", "mainnet")}


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of `explorer devnet`."""
    parser = KeySafeParser(
        prog="explorer devnet",
        description="Serve a local Rootstock devnet implementing the node access service.",
    )
    add = parser.add_argument
    for flag, kind, default, text in NUMBERS:
        add(flag, type=kind, default=default, help=text)
    add("--network", choices=sorted(NETWORK_CHOICES), default="both", help="networks to serve")
    add(
        "--profile",
        choices=[p.value for p in Profile],
        default=Profile.SERVICE.value,
        help="service: the hosted service (key in the path, its limits); "
        "rskj: a bare rskj 9 node (no key, its overloads, limits, errors and HTTP)",
    )
    add("--key", action="append", default=[], help="accepted API key (repeatable; service)")
    add(
        "--traffic",
        action="store_true",
        help="with --block-time: submit a few demo transactions before each block",
    )
    add("--control", action="store_true", help="answer devnet_reorganise [depth] (for tests)")
    add(
        "--trace",
        action="store_true",
        help="rskj profile: enable rskj's debug and trace modules (debug_traceTransaction with "
        "callTracer, trace_transaction); the service profile never serves them",
    )
    add("--cache-dir", type=Path, default=None, help="where snapshots of the history live")
    add("--tls-cert", type=Path, default=None, help="serve https with this certificate (PEM)")
    add("--tls-key", type=Path, default=None, help="the certificate's private key (PEM)")
    add("--stop-on-stdin-eof", action="store_true", help="exit when stdin closes (child mode)")
    add("--manifest-file", type=Path, default=None, help="write the seed manifests here (JSON)")
    add(
        "--accounts",
        action="store_true",
        help="list the funded accounts and their private keys (public: devnet only), then exit",
    )
    add(
        "--json-lines",
        action="store_true",
        help="print machine-readable `PROGRESS {json}` and `READY {json}` lines on stdout "
        "(the sentences go to stderr)",
    )
    add_start_options(add)
    add("--prebuild-only", action="store_true", help=argparse.SUPPRESS)
    add("--verbose", action="store_true", help="log every request (API keys redacted)")
    return parser


@dataclass(frozen=True)
class Options:
    """Parsed and completed command-line options."""

    args: argparse.Namespace
    keys: tuple[str, ...]
    output: DevnetOutput

    def ports(self) -> dict[str, int]:
        """Return the requested port of each network to serve."""
        wanted = NETWORK_CHOICES[self.args.network]
        ports = {"testnet": self.args.testnet_port, "mainnet": self.args.mainnet_port}
        return {name: ports[name] for name in wanted}


async def _open(name: str, options: Options) -> DevnetNode:
    """Open a network's node on a worker thread, reporting progress lines."""
    args = options.args

    def progress(stage: str, fraction: float) -> None:
        options.output.progress(name, stage, fraction)

    def build() -> DevnetNode:
        from explorer.devnet.node import open_node  # heavy (py-evm): load on use

        node = open_node(
            CHAIN_IDS[name],
            cache_dir=args.cache_dir or default_cache_dir(),
            instant_mining=args.block_time <= 0,
            rules=node_rules(args),
            progress=progress,
            kept_dir=None if args.prebuild_only else args.keep_chain,
            also_read=tuple(args.also_read),
        )
        _liven(node, args)
        return node

    executor = big_stack_executor(f"devnet-load-{name}")
    try:
        return await asyncio.get_running_loop().run_in_executor(executor, build)
    finally:
        executor.shutdown(wait=False)


def _liven(node: DevnetNode, args: argparse.Namespace) -> None:
    """Add the demo traffic and the test controls the options ask for."""
    from explorer.devnet.reorg import enable_control
    from explorer.devnet.traffic import start_traffic

    if args.traffic and not args.prebuild_only:
        start_traffic(node)
    if args.control:
        enable_control(node)


class StopRequest:
    """Signals and stdin EOF: exit at once while loading, else wake the server to close."""

    def __init__(self) -> None:
        self.event = asyncio.Event()
        self.serving = False

    def __call__(self) -> None:
        """Handle one stop request."""
        if not self.serving:
            print("explorer devnet: stopped while loading", file=sys.stderr, flush=True)
            os._exit(EXIT_STOPPED_WHILE_LOADING)  # nothing to clean up; snapshots are atomic
        self.event.set()


def _watch_stdin(stop: Callable[[], None]) -> None:
    """Call `stop` on the loop when stdin reaches EOF (the parent closed it or died)."""
    loop = asyncio.get_running_loop()

    def wait_for_eof() -> None:
        # The file descriptor, not sys.stdin: a daemon thread blocked in a buffered read holds
        # its lock, and the interpreter aborts at exit (SIGABRT) when the process ends first.
        with contextlib.suppress(OSError, ValueError):
            while os.read(sys.stdin.fileno(), 4096):
                pass
        with contextlib.suppress(RuntimeError):  # the loop is closed: nothing to stop
            loop.call_soon_threadsafe(stop)

    threading.Thread(target=wait_for_eof, name="stdin-eof", daemon=True).start()


async def _relay_lines(stream: asyncio.StreamReader) -> None:
    """Copy a helper's stdout lines (its PROGRESS) to ours."""
    async for line in stream:
        sys.stdout.write(line.decode("utf-8", "replace"))
        sys.stdout.flush()


def prebuild_flags(name: str, args: argparse.Namespace) -> list[str]:
    """Return the `explorer devnet` flags of the helper that loads or builds one network."""
    cache_dir = args.cache_dir or default_cache_dir()
    flags = ["--prebuild-only", "--stop-on-stdin-eof", "--cache-dir", str(cache_dir)]
    for folder in args.also_read:  # a snapshot there is loaded, never built again
        flags += ["--also-read", str(folder)]
    flags += ["--network", NETWORK_FLAGS[name]]
    return flags + (["--json-lines"] if args.json_lines else [])


async def _start_prebuild(name: str, args: argparse.Namespace) -> asyncio.subprocess.Process:
    """Load or build a network's snapshot in a helper process, on another core, meanwhile.

    It reports its progress as this process does (sentences, or JSON lines), copied to ours.
    """
    return await asyncio.create_subprocess_exec(
        *devnet_command(),
        *prebuild_flags(name, args),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )


async def _open_all(options: Options) -> dict[str, Any]:
    """Open the networks; while a slow (cold) first one builds, a helper builds the other."""
    chain_ids = {name: CHAIN_IDS[name] for name in options.ports()}
    nodes: dict[str, Any] = await open_shipped(
        chain_ids,
        options.args,
        lambda name: _open(name, options),
        lambda name: _start_prebuild(name, options.args),
        _relay_lines,
    )
    rest = [name for name in options.ports() if name not in nodes]
    if not rest:
        return nodes
    first, *others = rest
    opening = asyncio.ensure_future(_open(first, options))
    helper = None
    if others:
        done, _ = await asyncio.wait({opening}, timeout=PREBUILD_AFTER_SECONDS)
        helper = None if done else await _start_prebuild(others[-1], options.args)
    relay = asyncio.create_task(_relay_lines(helper.stdout)) if helper and helper.stdout else None
    nodes[first] = await opening
    if helper is not None:
        await helper.wait()  # the snapshot is saved now (if the helper failed, open_node builds)
    for name in others:
        nodes[name] = await _open(name, options)
    if relay is not None:
        await relay
    return {name: nodes[name] for name in options.ports()}


async def prebuild_only(options: Options) -> int:
    """Load or build the selected networks' snapshots, then exit (helper mode)."""
    if options.args.stop_on_stdin_eof:
        _watch_stdin(StopRequest())
    lower_priority()
    for name in options.ports():
        await _open(name, options)
    return 0


async def serve_until_stopped(options: Options) -> int:
    """Open the nodes, serve them, print the URLs and READY, then wait for a stop."""
    args = options.args
    stop = StopRequest()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(signum, stop)
    if args.stop_on_stdin_eof:
        _watch_stdin(stop)
    config = ServiceConfig(
        keys=frozenset(options.keys),
        daily_quota=args.quota,
        max_batch=args.max_batch,
        max_response_bytes=args.max_response_bytes,
        rpc_timeout=args.rpc_timeout,
        block_time=max(args.block_time, 0.0),
        latency=args.latency,
        profile=Profile(args.profile),
    )
    running: dict[str, RunningNetwork] = {}
    nodes = await _open_all(options)
    # The loaded chains live as long as the process: exempt them from every later collection,
    # which otherwise walks them all (tens of ms, at random moments of serving).
    gc.collect()
    gc.freeze()
    manifests = {name: node.manifest.to_json() for name, node in nodes.items()}
    try:
        tls = _tls_context(args.tls_cert, args.tls_key)
        for name, port in options.ports().items():
            running[name] = await serve(nodes[name], config, HOST, port, tls)
        if args.manifest_file is not None:
            write_private(args.manifest_file, json.dumps(manifests, indent=1))
        stop.serving = True
        base_urls = {name: network.base_url() for name, network in running.items()}
        keys = () if config.is_rskj else options.keys
        options.output.ready(base_urls, keys, config.profile.value)
        serving(args)
        await stop.event.wait()
    finally:
        for network in running.values():
            await network.close()
        await stop_filling(nodes)
        keep_chains(nodes, args)
    return 0


def _tls_context(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """Return the server's TLS context when a certificate is given, else None (plain http)."""
    if cert is None:
        return None
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


def main(argv: list[str] | None = None) -> int:
    """Run `explorer devnet`; return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.traffic and args.block_time <= 0:
        parser.error("--traffic needs --block-time (blocks mined on an interval)")
    output = DevnetOutput(json_lines=args.json_lines)
    if args.accounts:
        from explorer.devnet.accounts import funded_accounts
        from explorer.devnet.seed import FULL

        try:
            print_accounts(output, funded_accounts(FULL.users))
        except BrokenPipeError:  # `explorer devnet --accounts | head`
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    keys = tuple(args.key)
    prepare(args, [CHAIN_IDS[name] for name in NETWORK_CHOICES[args.network]])
    if args.prebuild_only:
        return asyncio.run(prebuild_only(Options(args, keys, output)))
    if not keys and args.profile == Profile.SERVICE.value:
        keys = (secrets.token_hex(16),)
        output.say(f"No --key given; generated API key: {keys[0]}")
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    try:
        return asyncio.run(serve_until_stopped(Options(args, keys, output)))
    except OSError as exc:
        print(f"explorer devnet: {exc.strerror or exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
