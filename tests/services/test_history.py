"""An address's whole history against the devnet, checked with the truth read block by block.

The truth is every account's balance and nonce at every block of a window, read over raw RPC
(batched plain HTTP, not the app's client); the search must find every block where either
changed, invent none, and explain each change to the wei.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from explorer.chain.history import Direction, EntryKind, HistoryEntry
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.address_history import AddressHistory
from explorer.services.balance_search import search_bound
from explorer.services.history_parts import NONCE_JUMP
from explorer.services.history_plan import OldStateVerdict, Scope
from explorer.services.history_store import MemoryHistoryStore
from explorer.services.reader import ChainReader
from explorer.services.trace import Tracer
from tests.helpers.cache import post
from tests.helpers.devnet import Devnet
from tests.helpers.pruned import OldState, PrunedNode

WINDOW = (2_990, 4_189)  # the truth is read block by block here (REMASC pays, peg-ins land)
CALLS_PER_BATCH = 48
HEAD = 12_000  # the seeded head (tests elsewhere may mine beyond it)


@dataclass
class Run:
    """What a history run gave: its entries, the old-state verdict, what it spent."""

    entries: list[HistoryEntry]
    old_state: OldStateVerdict | None
    history: AddressHistory
    calls: int


def history(
    url: str,
    address: str,
    first: int | None = None,
    last: int = HEAD,
    scope: Scope = Scope.NATIVE,
    store: MemoryHistoryStore | None = None,
    traced: bool = False,
) -> Run:
    """Run an address's history to its end through a fresh client (traced: with a Tracer)."""

    async def main() -> Run:
        client = RpcClient(Endpoint.parse(url, allow_insecure_http=True))
        try:
            reader = ChainReader(client)
            inside = (lambda: Tracer(client, reader, 31, None)) if traced else None
            run = AddressHistory(reader, address, chain="31", store=store, scope=scope,
                                 inside=inside)  # fmt: skip
            await run.prepare(first, last)
            found: dict[tuple[object, ...], HistoryEntry] = {}
            verdict = None
            async for update in run.updates():
                if update.old_state is not None:  # what the search showed was not state
                    found = {key: entry for key, entry in found.items() if not entry.is_native}
                explained = set(update.explained)
                found = {k: e for k, e in found.items()
                         if not (e.provisional and e.block in explained)}  # fmt: skip
                found.update((entry.identity, entry) for entry in update.entries)
                verdict = update.old_state or verdict
            assert not [e for e in found.values() if e.provisional], "every change explained"
            return Run(list(found.values()), verdict, run, client.stats.total)
        finally:
            await client.aclose()

    return asyncio.run(main())


def states_by_block(
    devnet: Devnet, addresses: Sequence[str], first: int, last: int
) -> dict[str, list[tuple[int, int]]]:
    """Read (balance, nonce) of each address after every block first..last, over raw RPC."""
    calls = [
        (address, method, block)
        for block in range(first, last + 1)
        for address in addresses
        for method in ("eth_getBalance", "eth_getTransactionCount")
    ]
    values: list[int] = []
    with httpx.Client(timeout=120) as http:
        for start in range(0, len(calls), CALLS_PER_BATCH):
            chunk = calls[start : start + CALLS_PER_BATCH]
            body = [
                {"jsonrpc": "2.0", "id": i, "method": m, "params": [a, hex(b)]}
                for i, (a, m, b) in enumerate(chunk)
            ]
            answers = sorted(
                http.post(devnet.url("testnet"), json=body).json(), key=lambda x: x["id"]
            )
            values += [int(answer["result"], 16) for answer in answers]
    states: dict[str, list[tuple[int, int]]] = {address: [] for address in addresses}
    for index in range(0, len(values), 2):
        address = calls[index][0]
        states[address].append((values[index], values[index + 1]))
    return states


@pytest.fixture(scope="module")
def truth(devnet: Devnet) -> dict[str, dict[int, tuple[tuple[int, int], tuple[int, int]]]]:
    """Return, per story account, every block of the window that changed it: (before, after)."""
    manifest = devnet.manifest("testnet")
    accounts = story_accounts(manifest)
    first, last = WINDOW
    states = states_by_block(devnet, list(accounts.values()), first - 1, last)
    changes: dict[str, dict[int, tuple[tuple[int, int], tuple[int, int]]]] = {}
    for name, address in accounts.items():
        row = states[address]
        changes[name] = {
            first + i: (row[i], row[i + 1]) for i in range(len(row) - 1) if row[i] != row[i + 1]
        }
    return changes


def story_accounts(manifest: dict[str, Any]) -> dict[str, str]:
    """Return the accounts whose histories are checked, by role."""
    return {
        "busy": manifest["busy_account"],
        "contract-paid": manifest["contract_paid"],
        "contract": manifest["payout"],
        "miner": manifest["miners"][2],  # REMASC pays it twice in the window
        "hundred": manifest["counted_accounts"][2][1],
        "user": manifest["accounts"][1],
    }


@pytest.mark.parametrize("role", ["busy", "contract-paid", "contract", "miner", "hundred", "user"])
def test_every_change_found_nothing_invented_amounts_exact(
    devnet: Devnet, truth: dict[str, dict[int, Any]], role: str
) -> None:
    address = story_accounts(devnet.manifest("testnet"))[role]
    expected = truth[role]
    assert expected, f"the window holds no change of {role}: the check would prove nothing"
    run = history(devnet.url("testnet"), address, first=WINDOW[0], last=WINDOW[1])
    assert run.old_state is None
    by_block: dict[int, list[HistoryEntry]] = {}
    for entry in run.entries:
        by_block.setdefault(entry.block, []).append(entry)
    assert sorted(by_block) == sorted(expected)
    for block, (before, after) in expected.items():
        entries = sorted(by_block[block], key=lambda e: e.sort_key)
        assert sum(e.signed_amount for e in entries) == after[0] - before[0], block
        assert entries[-1].balance_after == after[0], block
    reads = run.history.probes.counts.reads
    assert reads <= 1.2 * search_bound(len(expected), WINDOW[1] - WINDOW[0] + 1) + 4


def test_the_contract_paid_account_only_receives_by_contract_execution(devnet: Devnet) -> None:
    address = devnet.manifest("testnet")["contract_paid"]
    run = history(devnet.url("testnet"), address)
    assert len(run.entries) >= 20
    assert {e.kind for e in run.entries} == {EntryKind.CONTRACT}
    assert {e.direction for e in run.entries} == {Direction.IN}
    assert all(e.tx_hash is None and e.counterparty is None for e in run.entries)


def test_a_contract_execution_names_its_counterparty_and_the_call_that_moved_it(
    devnet: Devnet,
) -> None:
    """Each payment to the contract-paid account: from Payout, at depth 1, inside whose call."""
    manifest, url = devnet.manifest("testnet"), devnet.url("testnet")
    address = manifest["contract_paid"]
    blocks = sorted({e.block for e in history(url, address).entries})[:3]
    run = history(url, address, first=blocks[0], last=blocks[-1], traced=True)
    assert {e.block for e in run.entries} == set(blocks)
    for entry in run.entries:
        assert entry.kind is EntryKind.CONTRACT
        assert entry.counterparty == manifest["payout"], entry
        assert entry.depth == 1
        assert entry.tx_hash is not None
        sent = post(url, "eth_getTransactionByHash", entry.tx_hash)
        assert entry.caller == sent["from"]
        assert sent["to"] == manifest["payout"]
    for block in blocks:
        moved = sum(e.signed_amount for e in run.entries if e.block == block)
        before = int(post(url, "eth_getBalance", address, hex(block - 1)), 16)
        assert moved == int(post(url, "eth_getBalance", address, hex(block)), 16) - before


def _remasc_receivers(url: str, number: int) -> str:
    """Return the topics of the REMASC transaction's logs in block number, joined (raw reads)."""

    def ask(method: str, *params: object) -> Any:
        body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
        return httpx.post(url, json=body).json()["result"]

    remasc_tx = ask("eth_getBlockByNumber", hex(number), False)["transactions"][-1]
    return " ".join(t for log in ask("eth_getTransactionReceipt", remasc_tx)["logs"]
                    for t in log["topics"])  # fmt: skip


def test_a_miner_is_paid_by_remasc_as_its_logs_say(devnet: Devnet) -> None:
    manifest = devnet.manifest("testnet")
    run = history(devnet.url("testnet"), manifest["miners"][2], last=WINDOW[1])
    # Which of REMASC's paying blocks pay this miner depends on which blocks had fees (issue 28
    # added blocks before the peg's history): read it from REMASC's own logs, raw.
    miner, url = manifest["miners"][2], devnet.url("testnet")
    paid = [
        n for n in manifest["bridge"]["remasc_blocks"] if miner[2:] in _remasc_receivers(url, n)
    ]
    assert paid
    assert sorted(e.block for e in run.entries) == paid
    assert {e.kind for e in run.entries} == {EntryKind.REWARD}
    assert {e.counterparty for e in run.entries} == {"0x0000000000000000000000000000000001000008"}
    newest = max(run.entries, key=lambda e: e.sort_key)
    body = {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance",
            "params": [manifest["miners"][2], hex(WINDOW[1])]}  # fmt: skip
    balance = int(httpx.post(devnet.url("testnet"), json=body).json()["result"], 16)
    assert newest.balance_after == balance == sum(e.amount for e in run.entries)


def test_a_pegin_is_named_with_its_amount(devnet: Devnet) -> None:
    manifest = devnet.manifest("testnet")
    block = manifest["bridge"]["pegin_accepted_block"]
    run = history(devnet.url("testnet"), manifest["accounts"][1], first=block, last=block)
    pegins = [e for e in run.entries if e.kind is EntryKind.PEGIN]
    assert len(pegins) == 1
    assert pegins[0].amount == 100_000_000 * 10**10  # one bitcoin locked: one RBTC
    assert pegins[0].counterparty == "0x0000000000000000000000000000000001000006"
    assert pegins[0].tx_hash is None


@pytest.mark.parametrize("index", [0, 1])
def test_counted_accounts_over_the_whole_chain(devnet: Devnet, index: int) -> None:
    changes, address = devnet.manifest("testnet")["counted_accounts"][index]
    run = history(devnet.url("testnet"), address)
    assert len(run.entries) == changes
    assert {e.kind for e in run.entries} == {EntryKind.RECEIVED}
    assert {e.counterparty for e in run.entries} == {devnet.manifest("testnet")["busy_account"]}
    assert run.history.probes.counts.reads <= 1.2 * search_bound(changes, HEAD)


def test_a_fresh_address_has_no_entries_for_a_handful_of_requests(devnet: Devnet) -> None:
    node = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    try:
        run = history(node.url, "0x" + "5e" * 20, scope=Scope.ALL)
    finally:
        node.close()
    assert run.entries == []
    assert len(node.server.requests) <= 6  # the opening batch, then the transfer queries


def test_a_revisit_asks_only_for_newer_blocks(devnet: Devnet) -> None:
    store = MemoryHistoryStore()
    address = devnet.manifest("testnet")["busy_account"]
    node = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    try:
        first = history(node.url, address, last=11_990, scope=Scope.ALL, store=store)
        asked = len(node.server.requests)
        again = history(node.url, address, last=11_990, scope=Scope.ALL, store=store)
        same_head = len(node.server.requests) - asked
        later = history(node.url, address, last=12_000, scope=Scope.ALL, store=store)
        newer = len(node.server.requests) - asked - same_head
    finally:
        node.close()
    assert {e.identity for e in again.entries} == {e.identity for e in first.entries}
    assert same_head == 1
    assert newer <= 2 + 10  # ten new blocks
    assert {e.identity for e in first.entries} < {e.identity for e in later.entries}


def through_pruned(devnet: Devnet, old_state: OldState, role: str) -> Run:
    """Run a story account's history through a node keeping the last 128 blocks' state."""
    node = PrunedNode(devnet.url("testnet"), old_state, oldest=HEAD - 128)
    try:
        return history(node.url, story_accounts(devnet.manifest("testnet"))[role])
    finally:
        node.close()


@pytest.mark.parametrize("role", ["busy", "hundred"])
def test_a_node_that_answers_errors_for_old_state_is_found_out(devnet: Devnet, role: str) -> None:
    run = through_pruned(devnet, OldState.ERROR, role)
    assert run.old_state is not None
    assert "State not found" in run.old_state.text()
    assert f"{HEAD:,} requests" in run.old_state.text()
    assert not [e for e in run.entries if e.is_native]


@pytest.mark.parametrize("role", ["busy", "hundred"])
def test_a_node_that_answers_zeros_for_old_state_is_found_out(devnet: Devnet, role: str) -> None:
    """Zeros at every old block: the sender's nonce jump, or a rise nothing in its block made.

    (REMASC's balance, growing more than a block's fees, tells it too where that is asked.)
    """
    run = through_pruned(devnet, OldState.ZEROS, role)
    assert run.old_state is not None
    text = run.old_state.text()
    if role == "busy":
        assert NONCE_JUMP in text
    else:
        assert "its balance before it was answered as 0x0" in text or "REMASC's" in text
    assert not [e for e in run.entries if e.is_native]


def test_a_node_without_batches_gets_the_reads_one_by_one(devnet: Devnet) -> None:
    address = devnet.manifest("testnet")["counted_accounts"][1][1]
    node = PrunedNode(devnet.url("testnet"), OldState.KEPT, no_batches=True)
    try:
        run = history(node.url, address)
    finally:
        node.close()
    assert node.batches == 1  # refused once, then never tried again through that client
    assert len(run.entries) == 10
    direct = history(devnet.url("testnet"), address)
    assert sorted(e.identity for e in run.entries) == sorted(e.identity for e in direct.entries)
