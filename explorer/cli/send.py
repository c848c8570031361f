"""`explorer send RAW_HEX`: decode, check with reads, confirm, send once, and follow it.

The same steps and words as the Broadcast screen: the transaction is decoded here (a text
that must not be sent is refused before any request), checked with reads only, confirmed
on a terminal (or by --yes), sent with one eth_sendRawTransaction that is never resent,
and with --wait followed until mined.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence

from explorer.cli.common import (
    EXIT_INPUT,
    EXIT_OK,
    EXIT_REMOTE,
    KEY_VARIABLE,
    KeySafeParser,
    add_node_choice,
    ask_on_terminal,
    chosen_node,
    run_reporting_errors,
    secrets_in,
)
from explorer.presentation.broadcast_document import (
    answer_section,
    check_section,
    confirmation_text,
    decoded_section,
)
from explorer.presentation.diagnosis_document import fate_sentence
from explorer.presentation.document import Document, Field
from explorer.saved.seen import SeenStore, SeenStoreError, seen_by
from explorer.services.broadcast import Answer, check_before_sending, remember_sent, send_once
from explorer.services.fate import diagnose_missing
from explorer.services.networks import custom_network
from explorer.services.rawtx import Refusal, SignedTx, chain_refusal, decode_signed
from explorer.services.session import Session

EXIT_FAILED = 4  # mined, but the transaction failed
Ask = Callable[[str], bool]

EPILOG = f"""\
Exit codes:
  0  sent (with --wait: mined and successful)
  2  invalid input or not confirmed: nothing was sent
  3  node or network error: refused, not sent, or no answer (it may have arrived; never resent)
  4  with --wait: mined, but the transaction failed
The API key comes from --key or ${KEY_VARIABLE} and is never printed."""


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    """Parse the command line; argument errors never show a key."""
    parser = KeySafeParser(
        prog="explorer send",
        description="Broadcast a signed transaction once, after decoding and checking it.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        secrets=secrets_in(list(argv)),
    )
    parser.add_argument("raw", metavar="RAW_HEX", help="the signed transaction, 0x…")
    add_node_choice(parser)
    parser.add_argument("--chain-id", type=int, help="chain id the --endpoint must serve")
    parser.add_argument("--yes", action="store_true", help="send without asking")
    parser.add_argument("--wait", action="store_true", help="follow it until it is mined")
    parser.add_argument(
        "--poll", type=float, default=2.0, metavar="S", help="seconds between looks (--wait)"
    )
    return parser.parse_args(list(argv))


def show(document_sections: Document, out: Callable[[str], None]) -> None:
    """Print a document's sections as aligned text."""
    text = document_sections.to_text()
    out(text.split("\n", 2)[2].rstrip("\n"))  # the title and headline are said otherwise


async def send(options: argparse.Namespace, out: Callable[[str], None], ask: Ask) -> int:
    """Decode, connect, check, confirm, send once, and follow it when asked."""
    decoded = decode_signed(options.raw)
    if isinstance(decoded, Refusal):
        out(f"refused, nothing sent: {decoded.message}")
        return EXIT_INPUT
    async with chosen_node(options) as (network, endpoint):
        session = Session(network or custom_network(endpoint.host, options.chain_id or 0), endpoint)
        store = SeenStore()
        try:
            return await _send(session, decoded, options, out, ask, store)
        finally:
            await session.aclose()
            await store.aclose()


async def _send(
    session: Session,
    tx: SignedTx,
    options: argparse.Namespace,
    out: Callable[[str], None],
    ask: Ask,
    store: SeenStore,
) -> int:
    """Check the node's chain, then the transaction; ask; send once; follow."""
    probe = await session.client.probe(session.network.chain_id, session.network.genesis_hash)
    if options.endpoint and not options.chain_id:
        session.network = custom_network(session.endpoint.host, probe.chain_id)
    elif (mismatch := probe.mismatch()) is not None:
        raise mismatch
    network = session.network
    if (refusal := chain_refusal(tx, network.chain_id, network.name)) is not None:
        out(f"refused, nothing sent: {refusal.message}")
        return EXIT_INPUT
    check = await check_before_sending(session.reader, tx)
    sections = (decoded_section(tx, network), check_section(check, network))
    show(Document("", Field("", ""), sections), out)
    question = confirmation_text(tx, network)
    if not options.yes:
        if not sys.stdin.isatty():
            out("not sent: stdin is not a terminal to confirm on; pass --yes to send")
            return EXIT_INPUT
        if not ask(question):
            out("not sent: not confirmed")
            return EXIT_INPUT
    result = await send_once(session.reader, tx)
    try:
        await remember_sent(store, result, network.chain_id, check.state.head, session.endpoint)
    except SeenStoreError as error:
        out(f"note: not kept for later diagnosis: {error}")
    show(Document("", Field("", ""), (answer_section(result),)), out)
    if not result.in_flight or result.answer is Answer.UNKNOWN:
        return EXIT_REMOTE
    out(f"hash: {tx.hash}")
    return await _follow(session, tx, options, out, store) if options.wait else EXIT_OK


async def _follow(
    session: Session,
    tx: SignedTx,
    options: argparse.Namespace,
    out: Callable[[str], None],
    store: SeenStore,
) -> int:
    """Look for the receipt until it comes, or until the transaction's fate is settled."""
    network, reader = session.network, session.reader
    looks = 0
    while True:
        receipt = await reader.receipt(tx.hash)
        if receipt is not None:
            status = {True: "success", False: "FAILED", None: "mined (no status)"}
            out(f"mined: block {receipt.block_number:,}, status {status[receipt.succeeded]}")
            if receipt.contract_address is not None:
                out(f"contract created: {receipt.contract_address}")
            return EXIT_FAILED if receipt.succeeded is False else EXIT_OK
        looks += 1
        if looks % 5 == 0 and await reader.transaction(tx.hash) is None:
            seen = await store.find(network.chain_id, tx.hash, seen_by(session.endpoint))
            if seen is not None:
                missing = await diagnose_missing(reader, seen, time.time())
                if not missing.fate.still_open:
                    out(f"not mined: {fate_sentence(missing, network.currency)}")
                    return EXIT_REMOTE
        await asyncio.sleep(options.poll)


MESSAGES = ("refused", "not sent", "note:", "not mined")  # on stderr; the rest on stdout


def emit(line: str) -> None:
    """Print a line: refusals and notes on stderr, the transaction and answers on stdout."""
    print(line, file=sys.stderr if line.startswith(MESSAGES) else sys.stdout, flush=True)


def main(argv: Sequence[str]) -> int:
    """Run `explorer send`; errors go to stderr as one line, never with the key."""
    return run_reporting_errors(send(arguments(argv), emit, ask_on_terminal))
