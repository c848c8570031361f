"""`explorer logs`: every log matching a filter, scanned within the service's limits, to stdout."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import sys
import time
from collections.abc import AsyncIterator, Sequence
from typing import TextIO

from explorer.chain.records import Log
from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    api_key,
    chosen_node,
)
from explorer.cli.common import secrets_in as _secrets
from explorer.cli.saved import Offline, add_cache_choice, command_session, probe_or_saved
from explorer.devnet.process import DevnetStartError
from explorer.rpc.errors import ErrorKind, InvalidInput, RpcError
from explorer.services.logexport import ExportFormat, LogWriter
from explorer.services.logquery import LogQuery
from explorer.services.logresults import ScanProgress
from explorer.services.logscan import LogScanner
from explorer.services.networks import custom_network
from explorer.services.session import Session

PROGRESS_EVERY = 0.5

EPILOG = f"""\
Addresses and topics may be repeated or comma-separated (any of them matches):
  explorer logs --network testnet --topic0 0xddf2…b3ef --address 0xA,0xB --from 0 --to latest
JSON output is one array of logs as data (docs/schemas/logs.json): block, block_hash,
transaction_hash, transaction_index, log_index (numbers), address (the chain's checksum),
topics, data (hex) and event (the decoded event's name, null when unknown); CSV has one row
per log (block, transaction, log index, address, topic0-3, data, decoded event name).
Progress goes to stderr. Settled ranges are saved per filter, so a repeated scan asks the
node only for the rest (--no-cache: ask it for everything); when the node cannot be reached,
the saved ranges answer and the first line on stderr says from when. The API key comes
from --key, ${KEY_VARIABLE} or the URL and is never printed.

Exit codes:
  0  every matching log was written
  2  input error: bad URL, address, topic or block (nothing was sent)
  3  remote error: transport, auth, rate limit, server, node, or chunks that kept failing"""


def build_parser(secrets: tuple[str, ...] = ()) -> argparse.ArgumentParser:
    """Return the parser of `explorer logs`."""
    parser = KeySafeParser(
        prog="explorer logs",
        description="Scan a block range for logs with the explorer's pipelined scanner.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        secrets=secrets,
    )
    add_node_choice(parser)
    parser.add_argument("--address", action="append", default=[], help="contract address(es)")
    for position in range(4):
        parser.add_argument(
            f"--topic{position}", action="append", default=[], help=f"topic {position} (any of)"
        )
    parser.add_argument("--from", dest="start", help="first block or tag (default: earliest)")
    parser.add_argument("--to", dest="end", help="last block or tag (default: latest)")
    parser.add_argument("--block-hash", help="one block by hash (instead of --from/--to)")
    formats = [fmt.value for fmt in ExportFormat]
    parser.add_argument("--format", choices=formats, default=ExportFormat.JSON.value)
    parser.add_argument("--concurrency", type=int, default=4, help="requests in flight")
    add_cache_choice(parser)
    return parser


def _split(values: Sequence[str]) -> tuple[str, ...]:
    """Flatten repeated and comma-separated values."""
    return tuple(part.strip() for value in values for part in value.split(",") if part.strip())


def _block(text: str) -> int | str:
    """Read a block bound: a decimal or hex number, or a tag."""
    text = text.strip().lower()
    if text.startswith("0x"):
        return int(text, 16)
    return int(text) if text.isdigit() else text


def query_of(options: argparse.Namespace) -> LogQuery:
    """Build the (checked) query from the options."""
    topics = [_split(getattr(options, f"topic{i}")) or None for i in range(4)]
    while topics and topics[-1] is None:
        topics.pop()
    if options.block_hash and (options.start is not None or options.end is not None):
        raise InvalidInput("--block-hash excludes --from and --to")
    try:
        start, end = _block(options.start or "earliest"), _block(options.end or "latest")
    except ValueError:
        raise InvalidInput(f"bad block number: {options.start} or {options.end}") from None
    return LogQuery(
        addresses=_split(options.address),
        topics=tuple(topics),
        from_block=start,
        to_block=end,
        block_hash=options.block_hash,
    ).checked()


class ProgressLine:
    """Writes the scan's progress to stderr, at most every PROGRESS_EVERY seconds."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.last = 0.0
        self.latest: ScanProgress | None = None

    def __call__(self, progress: ScanProgress, final: bool = False) -> None:
        """Print one progress line when due."""
        self.latest = progress
        now = time.monotonic()
        if not final and now - self.last < PROGRESS_EVERY:
            return
        self.last = now
        eta = "" if progress.eta is None or final else f", ETA {progress.eta:.0f} s"
        print(
            f"{progress.blocks_done}/{progress.blocks_total} blocks, "
            f"{progress.logs_found} logs, {progress.requests} requests{eta}",
            file=self.stream,
            flush=True,
        )


async def _drain(batches: AsyncIterator[list[Log]], out: LogWriter) -> None:
    """Write every batch of a scan."""
    async for batch in batches:
        for log in batch:
            out.write_log(log)


async def scan(
    session: Session, query: LogQuery, options: argparse.Namespace, chain_id: int | None
) -> int:
    """Run the scan (retrying failed chunks once) and stream the output."""
    scanner = LogScanner(session.client, concurrency=max(1, options.concurrency))
    progress = ProgressLine(sys.stderr)
    out = LogWriter(sys.stdout, ExportFormat(options.format), chain_id)
    try:
        await _drain(scanner.scan(query, progress), out)
        if scanner.failed:
            print(f"retrying {len(scanner.failed)} failed chunk(s)", file=sys.stderr)
            await _drain(scanner.retry_failed(progress), out)
    finally:
        out.close()
        sys.stdout.flush()
    for chunk in scanner.failed:
        print(
            f"error ({chunk.error.kind.value}): blocks {chunk.start}-{chunk.end}: "
            f"{chunk.error.message}",
            file=sys.stderr,
        )
    if progress.latest is not None:
        progress(progress.latest, final=True)
    print(f"{out.count} logs written", file=sys.stderr)
    return EXIT_REMOTE if scanner.failed else EXIT_OK


async def run(options: argparse.Namespace, query: LogQuery) -> int:
    """Find the endpoint (starting the devnet if asked), check its chain and scan.

    With saved data (the default) the node's chain is checked first (saved ranges belong to
    a chain); offline, what is saved answers, up to the head saved then.
    """
    async with chosen_node(options) as (network, endpoint):
        chosen = network or custom_network(endpoint.host, 0)
        chain_id = None if network is None else network.chain_id
        async with command_session(chosen, endpoint, not options.no_cache) as session:
            if session.cache is not None:
                expected = (chosen.chain_id, chosen.genesis_hash) if network else (None, None)
                answered = await probe_or_saved(session, *expected)
                chain_id = answered.chain_id
                if isinstance(answered, Offline):
                    print(answered.first_line(), file=sys.stderr)
                elif network is not None and (mismatch := answered.mismatch()) is not None:
                    raise mismatch
                else:  # the head tells which ranges are settled enough to save
                    await session.reader.latest_number()
                query = _up_to_head(query, session)
            elif chain_id is None and options.format == ExportFormat.JSON.value:
                chain_id = await session.client.chain_id()  # JSON's addresses are checksummed
            return await scan(session, query, options, chain_id)


def _up_to_head(query: LogQuery, session: Session) -> LogQuery:
    """Return the query with `latest` (or pending) as the head read (saved last, offline)."""
    head = session.reader.head
    if head is None or isinstance(query.to_block, int) or query.to_block == "earliest":
        return query
    return dataclasses.replace(query, to_block=head)


def main(argv: Sequence[str]) -> int:
    """Run `explorer logs`; errors go to stderr as one line, never with the key."""
    args = list(argv)
    secrets = _secrets(args)
    options = build_parser(secrets).parse_args(args)
    key = api_key(options)
    try:
        query = query_of(options)
        return asyncio.run(run(options, query))
    except RpcError as error:
        error.redact(key)
        for secret in secrets:
            error.redact(secret)
        print(f"error ({error.kind.value}): {error.message}", file=sys.stderr)
        return EXIT_INPUT if error.kind is ErrorKind.INVALID_INPUT else EXIT_REMOTE
    except (DevnetStartError, TimeoutError) as error:
        print(f"error (devnet): {error}", file=sys.stderr)
        return EXIT_REMOTE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
