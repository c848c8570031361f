"""The methods a bare rskj 9 serves beyond the service's (issue 24, defect 5).

Filters with rskj's semantics and expiry, node status, raw header and receipt RLP, the pool,
the wallet as a wallet-disabled rskj answers; -32601 for the rest, and all of them refused on
the service profile.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import rlp
from eth_hash.auto import keccak

from explorer.devnet.accounts import derive_account
from explorer.devnet.errors import INVALID_PARAMS, METHOD_NOT_FOUND, RpcFailure
from explorer.devnet.evm import Engine
from explorer.devnet.filters import CLEANUP_PERIOD, FILTER_TIMEOUT, FilterBook
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.profile import RSKJ_ONLY_FORMS, RSKJ_UNSERVED, Profile, rules_for
from explorer.devnet.seed import SMALL
from tests.helpers.node import failure

TRANSFER = "0x" + keccak(b"Transfer(address,address,uint256)").hex()


@pytest.fixture
def rskj_node(small_cache: Path) -> DevnetNode:
    """Return a test-network node of its own on the rskj profile."""
    return open_node(31, cache_dir=small_cache, seed=SMALL, rules=rules_for(Profile.RSKJ))


def send_token(node: DevnetNode, amount: int = 5) -> str:
    """Send a DevToken transfer from the first user (mined at once); return its hash."""
    user = derive_account("user-0")
    nonce = int(node.handle("eth_getTransactionCount", [user.address_hex, "pending"]), 16)
    data = keccak(b"transfer(address,uint256)")[:4] + bytes(12) + bytes(20) + amount.to_bytes(32)
    signed = Engine.sign(
        node._ledger.engine,
        user.private_key,
        nonce=nonce,
        gas_price=70_000_000,
        gas=80_000,
        to=bytes.fromhex(node.manifest.token[2:]),
        data=data,
    )
    tx_hash: str = node.handle("eth_sendRawTransaction", ["0x" + signed.encode().hex()])
    return tx_hash


def test_log_filter_holds_its_range_then_follows_new_blocks(rskj_node: DevnetNode) -> None:
    token = rskj_node.manifest.token
    query = {"fromBlock": "0x0", "address": token, "topics": [TRANSFER]}
    historic = rskj_node.handle("eth_getLogs", [query])
    filter_id = rskj_node.handle("eth_newFilter", [query])
    assert filter_id.startswith("0x")
    assert len(filter_id) == 2 + 72  # a UUID's text, as hex
    assert rskj_node.handle("eth_getFilterChanges", [filter_id]) == historic
    assert rskj_node.handle("eth_getFilterChanges", [filter_id]) == []
    tx_hash = send_token(rskj_node)
    changes = rskj_node.handle("eth_getFilterChanges", [filter_id])
    assert [log["transactionHash"] for log in changes] == [tx_hash]
    assert rskj_node.handle("eth_getFilterLogs", [filter_id]) == [*historic, *changes]


def test_log_filter_from_latest_keeps_the_newest_block_only(rskj_node: DevnetNode) -> None:
    filter_id = rskj_node.handle("eth_newFilter", [{"topics": [TRANSFER]}])
    rskj_node.handle("eth_getFilterChanges", [filter_id])
    first, second = send_token(rskj_node, 1), send_token(rskj_node, 2)
    changes = rskj_node.handle("eth_getFilterChanges", [filter_id])
    assert [log["transactionHash"] for log in changes] == [second]  # rskj clears on each block
    assert first != second


def test_closed_range_filter_takes_no_new_logs(rskj_node: DevnetNode) -> None:
    filter_id = rskj_node.handle("eth_newFilter", [{"fromBlock": "0x1", "toBlock": "0x20"}])
    held = rskj_node.handle("eth_getFilterLogs", [filter_id])
    send_token(rskj_node)
    assert rskj_node.handle("eth_getFilterLogs", [filter_id]) == held


def test_block_and_pending_transaction_filters(rskj_node: DevnetNode) -> None:
    blocks = rskj_node.handle("eth_newBlockFilter", [])
    pending = rskj_node.handle("eth_newPendingTransactionFilter", [])
    assert rskj_node.handle("eth_getFilterChanges", [blocks]) == []
    tx_hash = send_token(rskj_node)
    head = rskj_node.handle("eth_getBlockByNumber", ["latest", False])
    assert rskj_node.handle("eth_getFilterChanges", [blocks]) == [head["hash"]]
    assert rskj_node.handle("eth_getFilterChanges", [pending]) == [tx_hash]
    rskj_node.handle("evm_mine", [])
    assert len(rskj_node.handle("eth_getFilterChanges", [blocks])) == 1


def test_uninstalled_and_unknown_filters(rskj_node: DevnetNode) -> None:
    filter_id = rskj_node.handle("eth_newBlockFilter", [])
    assert rskj_node.handle("eth_uninstallFilter", [filter_id]) is True
    assert rskj_node.handle("eth_uninstallFilter", [filter_id]) is False
    missing = failure(rskj_node, "eth_getFilterChanges", filter_id)
    assert (missing.code, missing.message) == (-32000, "filter not found")
    assert failure(rskj_node, "eth_getFilterLogs", "0x1234").code == -32000
    assert failure(rskj_node, "eth_getFilterChanges", "nothex").code == INVALID_PARAMS


def test_filters_expire_after_five_unused_minutes() -> None:
    """FilterManager drops a filter unused for 5 minutes, looking at most once a minute."""
    now = [1000.0]
    book = FilterBook(clock=lambda: now[0])
    kept, dropped = book.install("blocks"), book.install("blocks")
    now[0] += FILTER_TIMEOUT - 1
    assert book.changes(kept) == []  # looked: none expired yet; kept's clock starts again
    now[0] += CLEANUP_PERIOD + 2
    assert book.changes(kept) == []  # looked again: dropped is past its 5 minutes
    with pytest.raises(RpcFailure):
        book.changes(dropped)
    assert len(book) == 1
    lazy = book.install("pending")
    now[0] += FILTER_TIMEOUT - 10
    book.on_pending(["0xab"])  # looked: lazy has 10 s left
    now[0] += 15
    assert book.changes(lazy) == ["0xab"]  # past its time, but the last look was 15 s ago


def test_node_status(rskj_node: DevnetNode) -> None:
    assert rskj_node.handle("eth_syncing", []) is False
    assert rskj_node.handle("net_listening", []) is True
    assert rskj_node.handle("net_peerCount", []) == "0x0"
    assert rskj_node.handle("net_peerList", []) == []
    assert rskj_node.handle("eth_hashrate", []) == "0x0"
    assert rskj_node.handle("eth_netHashrate", []) == 0
    assert rskj_node.handle("rsk_protocolVersion", []) == rskj_node.handle(
        "eth_protocolVersion", []
    )
    assert rskj_node.handle("eth_mining", []) is True
    rskj_node.handle("evm_stopMining", [])
    assert rskj_node.handle("eth_mining", []) is False
    rskj_node.handle("evm_startMining", [])
    send_token(rskj_node)
    coinbase = rskj_node.handle("eth_coinbase", [])
    assert rskj_node.handle("eth_getBlockByNumber", ["latest", False])["miner"] == coinbase
    modules = rskj_node.handle("rpc_modules", [])
    assert {"eth", "net", "web3", "evm", "txpool", "rsk"} <= set(modules)


@pytest.mark.parametrize("selector", ["0x0", "0x21", "latest", "pending", "earliest"])
def test_raw_block_headers_hash_to_the_block_hash(rskj_node: DevnetNode, selector: str) -> None:
    block = rskj_node.handle("eth_getBlockByNumber", [selector, False])
    raw = rskj_node.handle("rsk_getRawBlockHeaderByNumber", [selector])
    fields = rlp.decode(bytes.fromhex(raw[2:]))
    assert int.from_bytes(fields[8], "big") == int(block["number"] or hex(_head(rskj_node) + 1), 16)
    if block["hash"] is not None:
        assert "0x" + keccak(bytes.fromhex(raw[2:])).hex() == block["hash"]
        assert rskj_node.handle("rsk_getRawBlockHeaderByHash", [block["hash"]]) == raw
        assert rskj_node.handle("rsk_getRawBlockHeaderByNumber", [block["hash"]]) == raw


def _head(node: DevnetNode) -> int:
    """Return the head's number."""
    return int(node.handle("eth_blockNumber", []), 16)


def test_raw_header_and_receipt_of_what_is_not_there(rskj_node: DevnetNode) -> None:
    assert rskj_node.handle("rsk_getRawBlockHeaderByNumber", ["0xffffff"]) is None
    assert rskj_node.handle("rsk_getRawBlockHeaderByHash", ["0x" + "ab" * 32]) is None
    assert rskj_node.handle("rsk_getRawTransactionReceiptByHash", ["0x" + "ab" * 32]) is None


def test_raw_receipt_is_what_the_receipts_root_covers(rskj_node: DevnetNode) -> None:
    tx_hash = rskj_node.manifest.token_transfer
    receipt = rskj_node.handle("eth_getTransactionReceipt", [tx_hash])
    raw = rskj_node.handle("rsk_getRawTransactionReceiptByHash", [tx_hash])
    # rskj's TransactionReceipt.getEncoded: post state, cumulative gas, bloom, logs, gas, status
    _, cumulative, bloom, logs, gas_used, status = rlp.decode(bytes.fromhex(raw[2:]))
    assert int.from_bytes(status, "big") == int(receipt["status"], 16)
    assert int.from_bytes(cumulative, "big") == int(receipt["cumulativeGasUsed"], 16)
    assert int.from_bytes(gas_used, "big") == int(receipt["gasUsed"], 16)
    assert "0x" + bloom.hex() == receipt["logsBloom"]
    assert len(logs) == len(receipt["logs"])


def test_txpool_shows_pending_and_queued(rskj_node: DevnetNode) -> None:
    """The seeded pool holds transactions behind nonce gaps: queued, by sender and nonce."""
    status = rskj_node.handle("txpool_status", [])
    content = rskj_node.handle("txpool_content", [])
    inspect = rskj_node.handle("txpool_inspect", [])
    assert status == {"pending": 0, "queued": len(rskj_node.manifest.pending_txs)}
    queued = [
        tx for by_nonce in content["queued"].values() for txs in by_nonce.values() for tx in txs
    ]
    assert sorted(tx["hash"] for tx in queued) == sorted(rskj_node.manifest.pending_txs)
    assert all(not sender.startswith("0x") for sender in content["queued"])  # as rskj keys them
    summaries = [s for by_nonce in inspect["queued"].values() for v in by_nonce.values() for s in v]
    assert all(" wei + " in summary and summary.endswith(" gas") for summary in summaries)


def test_the_wallet_is_disabled(rskj_node: DevnetNode) -> None:
    assert rskj_node.handle("eth_accounts", []) == []
    assert rskj_node.handle("eth_pendingTransactions", []) == []
    signing = failure(rskj_node, "eth_sign", "0x" + "12" * 20, "0x00")
    assert (signing.code, signing.message) == (
        INVALID_PARAMS,
        "Local wallet is disabled in this node",
    )
    assert (
        failure(rskj_node, "eth_sendTransaction", {"to": "0x" + "12" * 20}).code == INVALID_PARAMS
    )
    personal = failure(rskj_node, "personal_listAccounts")
    assert (personal.code, personal.message) == (-32604, "The local wallet feature is disabled")
    assert rskj_node.handle("db_putString", []) is None


@pytest.mark.parametrize("method", sorted(RSKJ_UNSERVED))
def test_methods_rskj_has_but_the_devnet_does_not_serve(rskj_node: DevnetNode, method: str) -> None:
    refused = failure(rskj_node, method)
    assert refused.code == METHOD_NOT_FOUND
    assert refused.message == f"the method {method} does not exist/is not available"


def test_unknown_methods_keep_rskj_words(rskj_node: DevnetNode) -> None:
    refused = failure(rskj_node, "eth_madeUp")
    assert (refused.code, refused.message) == (METHOD_NOT_FOUND, "method not found")


def test_the_service_profile_serves_none_of_them(node: DevnetNode) -> None:
    for method in sorted(RSKJ_ONLY_FORMS):
        assert failure(node, method).code == METHOD_NOT_FOUND, method
    assert not set(RSKJ_ONLY_FORMS) & set(node.methods)


def test_the_rskj_profile_lists_them(rskj_node: DevnetNode) -> None:
    assert set(RSKJ_ONLY_FORMS) <= set(rskj_node.methods)
    assert not RSKJ_UNSERVED & set(rskj_node.methods)


@pytest.mark.parametrize(
    ("method", "params"),
    [("eth_newBlockFilter", ["extra"]), ("eth_getFilterChanges", []), ("eth_sign", ["0x00"])],
)
def test_parameter_counts_as_rskj_overloads(
    rskj_node: DevnetNode, method: str, params: list[Any]
) -> None:
    assert failure(rskj_node, method, *params).code == INVALID_PARAMS
