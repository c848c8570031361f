"""A devnet that lives: demo traffic, current timestamps, and reorganisations on request."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

import pytest

from explorer.chain.records import Block
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.reorg import REORG_MINER, ReorgRefused, enable_control
from explorer.devnet.seed import SMALL
from explorer.devnet.traffic import start_traffic
from tests.helpers.node import failure, merge_mining_report, send, sign


def block(node: DevnetNode, number: int, full: bool = False) -> dict[str, Any]:
    """Return a block object by number."""
    found: dict[str, Any] = node.handle("eth_getBlockByNumber", [hex(number), full])
    return found


def head(node: DevnetNode) -> int:
    """Return the head number."""
    return int(node.handle("eth_blockNumber", []), 16)


@pytest.fixture
def interval_node(small_cache: Path) -> DevnetNode:
    """Return a node of its own that mines only when told (as on an interval)."""
    return open_node(31, cache_dir=small_cache, seed=SMALL, instant_mining=False)


def test_blocks_mined_after_start_up_carry_the_current_time(fresh_node: DevnetNode) -> None:
    """The seeded history keeps its fixed times; a block mined now is stamped now."""
    before = int(time.time())
    number = fresh_node.mine_block()
    stamp = int(block(fresh_node, number)["timestamp"], 16)
    assert before <= stamp <= int(time.time()) + 1


def test_reorganise_replaces_the_newest_blocks_and_keeps_their_transactions(
    fresh_node: DevnetNode,
) -> None:
    """Each replaced height gets a new hash and miner; transactions, receipts and logs follow."""
    node = fresh_node
    tx_hash = send(node, sign(node, 1, value=7))
    node.mine_block()
    top = head(node)
    old = {n: block(node, n)["hash"] for n in range(top - 1, top + 1)}
    new_head = node.reorganise(2)
    assert new_head == top + 1
    for number, old_hash in old.items():
        fresh = block(node, number)
        assert fresh["hash"] != old_hash
        assert fresh["miner"] == "0x" + REORG_MINER.hex()
        assert node.handle("eth_getBlockByHash", [old_hash, False]) is None
        verdict = merge_mining_report(fresh)
        assert verdict.verified
    chain = [Block.from_json(block(node, n)) for n in range(top - 2, new_head + 1)]
    assert all(child.parent_hash == parent.hash for parent, child in itertools.pairwise(chain))
    receipt = node.handle("eth_getTransactionReceipt", [tx_hash])
    assert receipt["blockHash"] == block(node, int(receipt["blockNumber"], 16))["hash"]


def test_reorganise_never_reaches_the_seeded_history(fresh_node: DevnetNode) -> None:
    """Only blocks mined after start-up may be replaced: the seeded history stays as built."""
    fresh_node.mine_block()
    with pytest.raises(ReorgRefused):
        fresh_node.reorganise(2)


def test_devnet_reorganise_is_answered_only_when_enabled(fresh_node: DevnetNode) -> None:
    """Without --control the method does not exist; with it, it reorganises and returns the head."""
    node = fresh_node
    for _ in range(3):
        node.mine_block()
    assert failure(node, "devnet_reorganise", "0x1").code == -32601
    enable_control(node)
    top = head(node)
    assert node.handle("devnet_reorganise", ["0x3"]) == hex(top + 1)
    assert failure(node, "devnet_reorganise", "0x10").code == -32602


def test_traffic_submits_everyday_transactions_before_each_block(
    interval_node: DevnetNode,
) -> None:
    """Transfers, token transfers, failing calls and creations arrive; seeded waits stay put."""
    node = interval_node
    traffic = start_traffic(node)
    first = head(node) + 1
    for _ in range(40):
        node.mine_block()
    txs = [
        tx
        for number in range(first, head(node) + 1)
        for tx in block(node, number, full=True)["transactions"][:-1]  # REMASC last
    ]
    assert len(txs) == traffic.sent
    assert len(txs) >= 40
    receipts = [node.handle("eth_getTransactionReceipt", [tx["hash"]]) for tx in txs]
    token = node.manifest.token
    assert any(tx["to"] == token for tx in txs)
    assert any(
        tx["to"] is None and r["status"] == "0x1" for tx, r in zip(txs, receipts, strict=True)
    )
    assert any(r["status"] == "0x0" for r in receipts)
    assert any(tx["input"] == "0x" and int(tx["value"], 16) > 0 for tx in txs)
    for waiting in node.manifest.pending_txs:  # their senders' nonce gaps were left open
        assert node.handle("eth_getTransactionReceipt", [waiting]) is None


def test_traffic_needs_interval_mining(fresh_node: DevnetNode) -> None:
    """With instant mining each submission would mine a block of its own: refused."""
    with pytest.raises(ValueError, match="interval"):
        start_traffic(fresh_node)
