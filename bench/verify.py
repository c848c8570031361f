"""Verification time per block against the block page's own CPU, and requests it adds.

A 100-transaction block is built as the devnet builds real Rootstock blocks (signed legacy
transfers, testnet rules), served as JSON by a local node; the bench times verify_block (hash,
transactions root, receipts root, Bitcoin work) against what the page does anyway (decode the
answer, parse the block and its transactions, build its document), and loads the block page
twice, with and without the verifier, counting the requests each load sends.

Run: .venv/bin/python bench/verify.py [--quick]
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

from _quick import rounds  # bench/_quick.py, beside this
from aiohttp import web
from eth_account import Account
from eth_hash.auto import keccak
from PySide6.QtWidgets import QApplication

from explorer.chain.blockverify import verify_block
from explorer.chain.records import Block, Receipt
from explorer.chain.rskrules import TESTNET_RULES
from explorer.devnet.blockdata import ReceiptRecord, TxRecord
from explorer.devnet.blocks import BlockDraft, assemble_block
from explorer.devnet.ledger import remasc_receipt
from explorer.devnet.shapes import block_json, receipt_json
from explorer.presentation.block_document import block_document
from explorer.presentation.loaders import load_block
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import TESTNET, custom_network
from explorer.services.session import Session
from explorer.views.document_view import DocumentView

TRANSACTIONS = 100
ROUNDS = rounds(60)  # --quick: one, to show it runs
TIME_GOAL_MS = 10.0  # a 100-transaction block verified within 10 ms
SHARE_GOAL = 0.25  # and within a quarter of the page's own CPU
REQUESTS_GOAL = 0  # requests verification adds to a block page
NUMBER = 5_000  # a testnet height: version 0 header, fork detection, Unitrie roots
KEY = bytes(range(1, 33))


def _transactions() -> tuple[tuple[TxRecord, ...], tuple[ReceiptRecord, ...]]:
    """Return signed transfers (and REMASC) with their receipts."""
    account = Account.from_key(KEY)
    records, receipts, cumulative = [], [], 0
    for nonce in range(TRANSACTIONS - 1):
        signed = account.sign_transaction(
            {
                "nonce": nonce,
                "gasPrice": 60_000_000,
                "gas": 21_000,
                "to": "0x" + "11" * 20,
                "value": nonce + 1,
                "data": b"",
                "chainId": 31,
            }
        )
        raw = bytes(signed.raw_transaction)
        cumulative += 21_000
        records.append(
            TxRecord(
                keccak(raw),
                bytes.fromhex(account.address[2:]),
                nonce,
                60_000_000,
                21_000,
                b"\x11" * 20,
                nonce + 1,
                b"",
                signed.v,
                signed.r,
                signed.s,
            )
        )
        receipts.append(ReceiptRecord(1, 21_000, cumulative, None, (), 0))
    records.append(TxRecord.remasc(NUMBER))
    receipts.append(remasc_receipt(cumulative))
    return tuple(records), tuple(receipts)


def build() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Return a real 100-transaction block's JSON and its receipts' JSON."""
    records, receipts = _transactions()
    draft = BlockDraft(NUMBER, 1_700_000_000, b"\x22" * 20, 6_800_000, b"\x33" * 32,
                       records, receipts, rules=TESTNET_RULES)  # fmt: skip
    block = assemble_block(draft, None)
    return block_json(block, full=True), [receipt_json(block, i) for i in range(len(records))]


def best_ms(work: Any) -> float:
    """Return the least of ROUNDS timings of work(), in milliseconds of this thread's CPU.

    The thread's CPU time, not the wall clock: on a shared machine (load 13 on two cores) a
    10 ms piece of work is nearly always preempted, and wall time doubles what it costs. Other
    processes can still only add time (caches): the least of the rounds is the cost.
    """
    times = []
    for _ in range(ROUNDS):
        started = time.thread_time()
        work()
        times.append(time.thread_time() - started)
    return min(times) * 1000


def page_cpu(body: bytes, receipts_body: bytes, view: DocumentView) -> None:
    """Do what the block page does anyway: decode, parse, build its document and widgets.

    With its receipts decoded and parsed: the receipts root is checked only once the page
    has read every receipt (its transactions table reads them for their status and fee).
    """
    block = Block.from_json(json.loads(body)["result"])
    list(block.transactions or ())
    [Receipt.from_json(answer["result"]) for answer in json.loads(receipts_body)]
    document = block_document(
        block, chain_id=31, currency="tRBTC", head=NUMBER + 20, now=time.time()
    )
    view._document = None  # a new page: built, not updated in place
    view.show_document(document)
    while not view.is_complete:  # one section per event-loop turn
        QApplication.processEvents()


async def requests_per_page(block: dict[str, Any]) -> tuple[int, int]:
    """Load the block page with and without the verifier; return each load's requests."""

    async def answer(request: web.Request) -> web.Response:
        envelope = await request.json()
        results = {"eth_chainId": "0x1f", "net_version": "31", "eth_blockNumber": hex(NUMBER + 20),
                   "eth_getBlockByNumber": block}  # fmt: skip
        body = {"jsonrpc": "2.0", "id": envelope["id"], "result": results.get(envelope["method"])}
        return web.json_response(body)

    app = web.Application()
    app.router.add_post("/", answer)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    network = custom_network("bench", 31)
    counts = []
    try:
        for verifying in (False, True):
            session = Session(network, Endpoint.parse(f"http://127.0.0.1:{port}"))
            if not verifying:
                session.reader.verifier = None
            session.reader.note_head(NUMBER + 20)
            before = session.client.stats.total
            loaded = await load_block(session.reader, TESTNET, str(NUMBER))
            assert loaded is not None
            counts.append(session.client.stats.total - before)
            await session.aclose()
    finally:
        await runner.cleanup()
    return counts[0], counts[1]


def main() -> int:
    """Measure and print against the goals (a miss is printed with how much, as every bench)."""
    _app = QApplication.instance() or QApplication([])  # widgets need it alive
    view = DocumentView()
    block, receipts = build()
    verdict = verify_block(block, TESTNET_RULES, receipts=receipts)
    assert verdict.verified, verdict.findings  # a real block: everything recomputes
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "result": block}).encode()
    answers = [{"jsonrpc": "2.0", "id": i, "result": r} for i, r in enumerate(receipts)]
    receipts_body = json.dumps(answers).encode()
    verify_ms = best_ms(lambda: verify_block(block, TESTNET_RULES, receipts=receipts))
    header_ms = best_ms(lambda: verify_block({**block, "transactions": []}, TESTNET_RULES))
    page_ms = best_ms(lambda: page_cpu(body, receipts_body, view))
    without, with_verifier = asyncio.run(requests_per_page(block))
    added = with_verifier - without
    share = verify_ms / page_ms
    print(f"verify a {TRANSACTIONS}-transaction block (hash, both roots, Bitcoin work): "
          f"{verify_ms:.2f} ms (goal <= {TIME_GOAL_MS:.0f} ms)")  # fmt: skip
    print(f"verify its header alone (hash, Bitcoin work): {header_ms:.2f} ms")
    print(f"the block page's own CPU (decode, parse block and receipts, document, widgets): "
          f"{page_ms:.2f} ms; "
          f"verification {share:.2f}x of it (goal <= {SHARE_GOAL}x)")  # fmt: skip
    print(f"requests of a block page: {without} without verification, {with_verifier} with: "
          f"{added} added (goal {REQUESTS_GOAL})")  # fmt: skip
    misses = []
    if verify_ms > TIME_GOAL_MS:
        misses.append(f"time: {verify_ms - TIME_GOAL_MS:.2f} ms over")
    if share > SHARE_GOAL:
        misses.append(f"share: {share - SHARE_GOAL:.2f}x over")
    if added > REQUESTS_GOAL:
        misses.append(f"requests: {added} added")
    print("MISSED: " + "; ".join(misses) if misses else "all goals met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
