"""The quiet tail after the busy phases, empty blocks without the VM, and bloom skipping."""

from __future__ import annotations

from typing import Any

import pytest
from eth_hash.auto import keccak
from eth_typing import Address

from explorer.devnet.accounts import derive_account
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.evm import REMASC_ADDRESS, Engine
from explorer.devnet.history import HistoryBuilder
from explorer.devnet.logs import BloomQuery, parse_filter
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.node import DevnetNode
from explorer.devnet.seed import GENESIS_TIMESTAMP, RBTC, SMALL
from tests.helpers.node import spy_on

TRANSFER = keccak(b"Transfer(address,address,uint256)")


@pytest.fixture(scope="module")
def built() -> tuple[SeedManifest, list[DevBlock]]:
    """Return the small test-network history, built here: its manifest and block records."""
    builder = HistoryBuilder(31, SMALL)
    return builder.build(), builder.ledger.blocks


def transfer_logs(block: DevBlock) -> int:
    """How many Transfer events a block holds."""
    return sum(1 for r in block.receipts for log in r.logs if log.topics[:1] == (TRANSFER,))


def test_tail_is_mostly_remasc_with_transfers_throughout(
    built: tuple[SeedManifest, list[DevBlock]],
) -> None:
    manifest, blocks = built
    assert manifest.head_at_build == SMALL.head > SMALL.busy_head
    tail = blocks[SMALL.busy_head + 1 : manifest.head_at_build + 1]
    quiet = [b for b in tail if len(b.transactions) == 1]
    assert len(quiet) > len(tail) // 2
    assert all(b.transactions[-1].to == REMASC_ADDRESS for b in tail)
    busy_tail = [b for b in tail if len(b.transactions) > 1]
    assert len(busy_tail) >= len(tail) // (3 * SMALL.tail_gap)
    assert any(transfer_logs(b) for b in tail)
    assert sum(transfer_logs(b) for b in blocks) == manifest.transfer_log_count
    collectible = bytes.fromhex(manifest.collectible[2:])
    moves = [log for b in tail for r in b.receipts for log in r.logs if log.address == collectible]
    assert moves, "the tail moves collectibles too"


def test_tail_keeps_the_busy_facts_before_it(fresh_node: DevnetNode) -> None:
    """The pending transactions are queued (in a node of its own: the pool expires by time)."""
    node = fresh_node
    manifest = node.manifest
    assert manifest.big_block < SMALL.busy_head
    assert all(last <= SMALL.busy_head for _, last in manifest.empty_runs)
    assert len(manifest.pending_txs) == 3
    for tx_hash in manifest.pending_txs:  # nonce gaps: queued, so not found by hash
        assert node.pool.is_queued(bytes.fromhex(tx_hash[2:]))


def test_empty_block_is_the_vms_block_without_running_it() -> None:
    """The stored empty block has the roots the VM's long way gives; the next block builds on it."""
    user = derive_account("tail-test")
    genesis = {user.address: {"balance": RBTC, "nonce": 0, "code": b"", "storage": {}}}
    quick, slow = (Engine.create(31, genesis, GENESIS_TIMESTAMP) for _ in range(2))
    stored = quick.mine([], GENESIS_TIMESTAMP + 30).header
    result, _, _ = slow._chain.mine_all([], timestamp=GENESIS_TIMESTAMP + 30)
    executed = result.imported_block.header
    fields = ("block_number", "state_root", "transaction_root", "receipt_root", "bloom", "gas_used")
    assert [getattr(stored, f) for f in fields] == [getattr(executed, f) for f in fields]
    assert stored.state_root == quick.header_at(0).state_root
    tx = quick.sign(user.private_key, nonce=0, gas_price=10**8, gas=21_000, to=bytes(20), value=1)
    after = quick.mine([tx], GENESIS_TIMESTAMP + 60)
    assert after.header.block_number == 2
    assert after.header.parent_hash == stored.hash
    assert (
        quick.state_at(2).get_balance(Address(user.address))
        < RBTC
        == quick.state_at(1).get_balance(Address(user.address))
    )


FILTERS: list[dict[str, Any]] = [
    {},
    {"topics": ["0x" + TRANSFER.hex()]},
    {"address": "token"},
    {"address": ["collectible", "token"], "topics": ["0x" + TRANSFER.hex()]},
    {"topics": [None, None, "user"]},
    {"address": "0x" + "99" * 20},
    {"topics": [[]]},
]


def concrete(raw: dict[str, Any], node: DevnetNode) -> dict[str, Any]:
    """Return a filter with the manifest's names put in."""
    manifest = node.manifest
    names = {
        "token": manifest.token,
        "collectible": manifest.collectible,
        "user": "0x" + "00" * 12 + manifest.accounts[2][2:],
    }

    def fill(value: Any) -> Any:
        if isinstance(value, list):
            return [fill(v) for v in value]
        return names.get(value, value) if isinstance(value, str) else value

    return {key: fill(value) for key, value in raw.items()}


@pytest.mark.parametrize("raw", FILTERS)
def test_bloom_skips_only_blocks_without_a_match(
    node: DevnetNode, built: tuple[SeedManifest, list[DevBlock]], raw: dict[str, Any]
) -> None:
    log_filter = parse_filter(concrete(raw, node))
    query = BloomQuery.of(log_filter)
    skipped = 0
    for block in built[1]:
        matching = any(log_filter.matches(log) for r in block.receipts for log in r.logs)
        admitted = query.admits(block.logs_bloom)
        assert admitted or not matching, block.number
        skipped += not admitted
    assert skipped > SMALL.head // 2  # most blocks hold no logs at all


def test_get_logs_asks_the_bloom_of_every_block_holding_logs(
    node: DevnetNode, built: tuple[SeedManifest, list[DevBlock]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Blocks with an empty bloom are skipped unasked; every other block's bloom is asked."""
    asked = spy_on(monkeypatch, BloomQuery, "admits")
    transfers = "0x" + TRANSFER.hex()
    window = {"fromBlock": "0x0", "toBlock": hex(SMALL.head), "topics": [transfers]}
    found = node.handle("eth_getLogs", [window])
    holding = [b.logs_bloom for b in built[1][: SMALL.head + 1] if b.logs_bloom]
    assert asked == holding
    assert 0 < len(holding) < SMALL.head // 2
    assert len(found) == node.manifest.transfer_log_count
    asked.clear()
    node.handle("eth_getLogs", [{**window, "fromBlock": "0x1", "toBlock": hex(SMALL.head - 1)}])
    assert asked == [b.logs_bloom for b in built[1][1 : SMALL.head] if b.logs_bloom]
    monkeypatch.setattr(BloomQuery, "admits", lambda query, bloom: False)
    assert node.handle("eth_getLogs", [window]) == []
