"""The pool as rskj keeps it (co/rsk/core/bc/TransactionPoolImpl.java).

Pending and queued lists, what each read sees, replacement by price bump, expiry by blocks and by
seconds.
"""

from __future__ import annotations

from explorer.devnet import errors
from explorer.devnet.node import DevnetNode
from explorer.devnet.profile import PoolPolicy, Profile, rules_for
from tests.helpers.node import GAS_PRICE, failure, send, sign

SENDER = 1


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        """Return the current time."""
        return self.now


def hold(node: DevnetNode) -> tuple[str, int]:
    """Stop mining; return the sender's address and its next nonce."""
    node.handle("evm_stopMining", [])
    sender = node.manifest.accounts[SENDER]
    return sender, int(node.handle("eth_getTransactionCount", [sender, "latest"]), 16)


def pending_hashes(node: DevnetNode) -> list[str]:
    """Return the hashes in the pending block, REMASC left out."""
    block = node.handle("eth_getBlockByNumber", ["pending", False])
    return [str(tx_hash) for tx_hash in block["transactions"][:-1]]


def test_seeded_nonce_gaps_are_queued_not_shown(fresh_node: DevnetNode) -> None:
    """The seed leaves three nonce-gap transactions: kept, but neither found nor pending."""
    node = fresh_node
    assert len(node.pool.queued()) == len(node.manifest.pending_txs) == 3
    for tx_hash in node.manifest.pending_txs:
        assert node.handle("eth_getTransactionByHash", [tx_hash]) is None
    assert pending_hashes(node) == []
    assert node.handle("eth_getBlockTransactionCountByNumber", ["pending"]) == "0x0"
    assert node.handle("eth_getTransactionByBlockNumberAndIndex", ["pending", "0x0"]) is None


def test_a_gap_queues_until_filled_then_both_are_pending(fresh_node: DevnetNode) -> None:
    """TransactionPoolImpl.addSuccessors: the missing nonce promotes the queued one."""
    node = fresh_node
    sender, nonce = hold(node)
    later = send(node, sign(node, SENDER, nonce=nonce + 1))
    assert node.handle("eth_getTransactionByHash", [later]) is None
    assert node.handle("eth_getTransactionCount", [sender, "pending"]) == hex(nonce)
    again = failure(node, "eth_sendRawTransaction", sign(node, SENDER, nonce=nonce + 1))
    assert again.message == errors.QUEUED_KNOWN
    first = send(node, sign(node, SENDER, nonce=nonce))
    assert pending_hashes(node) == [first, later]
    shown = node.handle("eth_getTransactionByHash", [later])
    assert (shown["blockHash"], shown["blockNumber"], shown["transactionIndex"]) == (None,) * 3
    assert node.handle("eth_getTransactionCount", [sender, "pending"]) == hex(nonce + 2)
    assert node.handle("eth_getBlockTransactionCountByNumber", ["pending"]) == "0x2"
    node.handle("evm_startMining", [])
    for tx_hash in (first, later):
        assert node.handle("eth_getTransactionReceipt", [tx_hash])["status"] == "0x1"


def test_the_pending_block_runs_its_transactions(fresh_node: DevnetNode) -> None:
    """The sample block holds the executed pending transactions, their fees paid."""
    node = fresh_node
    hold(node)
    tx_hash = send(node, sign(node, SENDER))
    block = node.handle("eth_getBlockByNumber", ["pending", True])
    assert [tx["hash"] for tx in block["transactions"][:-1]] == [tx_hash]
    assert block["gasUsed"] == hex(21_000)
    assert int(block["paidFees"], 16) == 21_000 * GAS_PRICE


def test_pending_transactions_in_blocks_by_profile(fresh_node: DevnetNode) -> None:
    """The service nulls their block fields (§2.4); an rskj node fills them.

    It gives them the sample block's hash, number and index (TransactionResultDTO.java), though
    the block itself has no hash.
    """
    node = fresh_node
    hold(node)
    tx_hash = send(node, sign(node, SENDER))
    head = int(node.handle("eth_blockNumber", []), 16)
    by_index = node.handle("eth_getTransactionByBlockNumberAndIndex", ["pending", "0x0"])
    assert (by_index["hash"], by_index["blockHash"]) == (tx_hash, None)
    assert "_id" in by_index
    node.configure(rules_for(Profile.RSKJ))
    by_index = node.handle("eth_getTransactionByBlockNumberAndIndex", ["pending", "0x0"])
    assert "_id" not in by_index
    assert (by_index["blockNumber"], by_index["transactionIndex"]) == (hex(head + 1), "0x0")
    block = node.handle("eth_getBlockByNumber", ["pending", True])
    assert block["hash"] is None
    assert block["transactions"][0]["blockHash"] == by_index["blockHash"] is not None
    by_hash = node.handle("eth_getTransactionByHash", [tx_hash])
    assert by_hash["blockHash"] is None


def test_replacement_needs_rskj_price_bump(fresh_node: DevnetNode) -> None:
    """With gasPriceBump = 40 the new price must be higher and at least old × 1.4."""
    node = fresh_node
    _, nonce = hold(node)
    first = sign(node, SENDER, nonce=nonce, value=5)
    send(node, first)
    assert failure(node, "eth_sendRawTransaction", first).message == errors.PENDING_KNOWN
    for price in (GAS_PRICE, GAS_PRICE * 139 // 100):
        raw = sign(node, SENDER, nonce=nonce, value=6, gasPrice=price)
        assert failure(node, "eth_sendRawTransaction", raw).message == errors.BUMP_TOO_LOW
    better = send(node, sign(node, SENDER, nonce=nonce, value=7, gasPrice=GAS_PRICE * 14 // 10))
    assert pending_hashes(node) == [better]
    node.mine_block()
    assert node.handle("eth_getTransactionReceipt", [better])["status"] == "0x1"


def test_the_bump_percent_is_configurable(fresh_node: DevnetNode) -> None:
    node = fresh_node
    node.configure(rules_for(Profile.SERVICE, pool=PoolPolicy(price_bump_percent=10)))
    _, nonce = hold(node)
    send(node, sign(node, SENDER, nonce=nonce))
    better = send(node, sign(node, SENDER, nonce=nonce, value=2, gasPrice=GAS_PRICE * 11 // 10))
    assert pending_hashes(node) == [better]


def test_pool_entries_expire_after_blocks(fresh_node: DevnetNode) -> None:
    """outdated.threshold: gone once the head is more than N blocks past the arrival."""
    node = fresh_node
    node.configure(rules_for(Profile.SERVICE, pool=PoolPolicy(expiry_blocks=2)))
    _, nonce = hold(node)
    gap = bytes.fromhex(send(node, sign(node, SENDER, nonce=nonce + 1))[2:])
    for _ in range(2):
        node.handle("evm_mine", [])
    assert node.pool.is_queued(gap)
    node.handle("evm_mine", [])
    assert not node.pool.is_queued(gap)
    assert len(node.pool) == 0


def test_pool_entries_expire_after_seconds(fresh_node: DevnetNode) -> None:
    """outdated.timeout: gone once that many seconds have passed; reads see it at once."""
    node = fresh_node
    clock = Clock()
    node.pool.clock = clock
    node.configure(rules_for(Profile.SERVICE, pool=PoolPolicy(expiry_seconds=30)))
    hold(node)
    tx_hash = send(node, sign(node, SENDER))
    clock.now += 29
    assert node.handle("eth_getTransactionByHash", [tx_hash]) is not None
    clock.now += 1
    assert node.handle("eth_getTransactionByHash", [tx_hash]) is None
    assert pending_hashes(node) == []


def test_queued_transactions_need_no_funds_check(fresh_node: DevnetNode) -> None:
    """Only a pending transaction is checked against the pending ones' costs."""
    node = fresh_node
    sender, nonce = hold(node)
    balance = int(node.handle("eth_getBalance", [sender, "latest"]), 16)
    send(node, sign(node, SENDER, nonce=nonce, value=balance // 2))
    queued = sign(node, SENDER, nonce=nonce + 2, value=balance // 2)
    tx_hash = send(node, queued)
    assert node.pool.is_queued(bytes.fromhex(tx_hash[2:]))
    error = failure(
        node, "eth_sendRawTransaction", sign(node, SENDER, nonce=nonce + 1, value=balance // 2)
    )
    assert error.message == errors.PENDING_FUNDS


def test_mining_stops_and_starts(fresh_node: DevnetNode) -> None:
    """evm_stopMining keeps sent transactions pending; evm_startMining mines them."""
    node = fresh_node
    head = int(node.handle("eth_blockNumber", []), 16)
    hold(node)
    tx_hash = send(node, sign(node, SENDER))
    assert node.handle("eth_getTransactionReceipt", [tx_hash]) is None
    assert node.mine_scheduled() is None
    assert node.handle("evm_startMining", []) is None
    assert node.handle("eth_blockNumber", []) == hex(head + 1)
    assert node.handle("eth_getTransactionReceipt", [tx_hash])["status"] == "0x1"
