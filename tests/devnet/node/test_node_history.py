"""The full seeded history (built once into the shared devnet cache, then loaded)."""

from __future__ import annotations

import pytest
from eth_hash.auto import keccak

from explorer.devnet.errors import LOG_LIMIT_EXCEEDED
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.seed import FULL
from tests.helpers.devnet import devnet_cache_dir
from tests.helpers.node import failure

TRANSFER = "0x" + keccak(b"Transfer(address,address,uint256)").hex()
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def full_node() -> DevnetNode:
    """Return the test network with the full seeded history."""
    return open_node(31, cache_dir=devnet_cache_dir())


def test_loads_from_snapshot(full_node: DevnetNode) -> None:
    again = open_node(31, cache_dir=devnet_cache_dir())
    assert again.manifest == full_node.manifest  # bench/devnet.py measures how fast


def test_size_and_big_block(full_node: DevnetNode) -> None:
    manifest = full_node.manifest
    assert manifest.head_at_build == FULL.head >= 12_000
    assert manifest.big_block < FULL.busy_head
    big = full_node.handle("eth_getBlockByNumber", [hex(manifest.big_block), True])
    assert len(big["transactions"]) == manifest.big_block_tx_count >= 1001
    assert all(tx["blockHash"] == big["hash"] for tx in big["transactions"])
    assert int(big["gasUsed"], 16) > 1000 * 21_000


def test_empty_runs_hold_only_remasc(full_node: DevnetNode) -> None:
    runs = full_node.manifest.empty_runs
    assert len(runs) >= 2
    assert all(last - first >= 49 for first, last in runs)
    for first, last in runs:
        for number in (first, (first + last) // 2, last):
            count = full_node.handle("eth_getBlockTransactionCountByNumber", [hex(number)])
            assert count == "0x1"


def test_manifest_transactions_exist(full_node: DevnetNode) -> None:
    manifest = full_node.manifest
    for key in ("plain_transfer", "token_transfer", "approval", "nft_mint", "nft_transfer",
                "contract_creation", "failed_tx"):  # fmt: skip
        receipt = full_node.handle("eth_getTransactionReceipt", [getattr(manifest, key)])
        assert receipt["status"] == ("0x0" if key == "failed_tx" else "0x1"), key
    assert len(manifest.pending_txs) >= 3


def test_transfer_logs_hit_the_limit_over_the_full_history(full_node: DevnetNode) -> None:
    assert full_node.manifest.transfer_log_count > 10_000
    error = failure(full_node, "eth_getLogs", {"fromBlock": "0x0", "toBlock": "latest",
                                               "topics": [TRANSFER]})  # fmt: skip
    assert error.code == LOG_LIMIT_EXCEEDED
    head = full_node.manifest.head_at_build
    window = full_node.handle(
        "eth_getLogs", [{"fromBlock": hex(head - 1999), "toBlock": hex(head)}]
    )
    assert isinstance(window, list)


def test_quiet_tail_has_transfers_in_every_window(full_node: DevnetNode) -> None:
    head = full_node.manifest.head_at_build
    windows = [(start, min(start + 1999, head)) for start in range(0, head + 1, 2000)]
    counts = {
        window: len(full_node.handle("eth_getLogs", [{"fromBlock": hex(window[0]),
                                                      "toBlock": hex(window[1]),
                                                      "topics": [TRANSFER]}]))
        for window in windows
    }  # fmt: skip
    assert sum(counts.values()) == full_node.manifest.transfer_log_count
    whole = [count for (first, last), count in counts.items() if last - first == 1999]
    assert len(whole) >= 6, counts
    assert all(whole), counts


def test_quiet_tail_is_mostly_remasc_only(full_node: DevnetNode) -> None:
    sizes = [
        int(full_node.handle("eth_getBlockTransactionCountByNumber", [hex(number)]), 16)
        for number in range(FULL.busy_head + 1, FULL.head + 1)
    ]
    quiet = sizes.count(1)
    assert quiet > 0.9 * len(sizes)
    assert len(sizes) - quiet > len(sizes) // (3 * FULL.tail_gap)  # activity now and then
