"""The node's simple methods, block shapes and lookups, on the small seeded history."""

from __future__ import annotations

from typing import Any

from eth_hash.auto import keccak

from explorer.chain.records import Block, Receipt, Transaction
from explorer.devnet.node import DevnetNode
from tests.helpers.node import DATA, QUANTITY, merge_mining_report

BLOCK_FIELDS = {
    "number",
    "hash",
    "parentHash",
    "mixHash",
    "nonce",
    "rskPteEdges",
    "baseEvent",
    "sha3Uncles",
    "logsBloom",
    "transactionsRoot",
    "stateRoot",
    "receiptsRoot",
    "miner",
    "difficulty",
    "totalDifficulty",
    "extraData",
    "size",
    "gasLimit",
    "gasUsed",
    "timestamp",
    "transactions",
    "uncles",
    "minimumGasPrice",
    "bitcoinMergedMiningHeader",
    "bitcoinMergedMiningCoinbaseTransaction",
    "bitcoinMergedMiningMerkleProof",
    "hashForMergedMining",
    "paidFees",
    "cumulativeDifficulty",
}
TX_FIELDS = {
    "blockHash",
    "blockNumber",
    "from",
    "to",
    "gas",
    "gasPrice",
    "hash",
    "input",
    "nonce",
    "v",
    "r",
    "s",
    "transactionIndex",
    "type",
    "value",
}
QUANTITY_FIELDS = (
    "number",
    "difficulty",
    "totalDifficulty",
    "size",
    "gasLimit",
    "gasUsed",
    "timestamp",
    "minimumGasPrice",
    "paidFees",
    "cumulativeDifficulty",
)
REMASC = "0x0000000000000000000000000000000001000008"


def call(node: DevnetNode, method: str, *params: Any) -> Any:
    """Return a successful call's result."""
    return node.handle(method, list(params))


def test_constant_methods(node: DevnetNode, main_node: DevnetNode) -> None:
    assert call(node, "eth_accounts") == []
    assert call(node, "eth_chainId") == "0x1f"
    assert call(node, "net_version") == "31"
    assert call(main_node, "eth_chainId") == "0x1e"
    assert call(main_node, "net_version") == "30"
    assert call(node, "eth_protocolVersion") == "0x3e"
    assert call(node, "web3_clientVersion").startswith("RskJ/9.")
    assert "VETIVER-devnet" in call(node, "web3_clientVersion")
    assert call(node, "web3_sha3", "0x68656c6c6f") == "0x" + keccak(b"hello").hex()
    assert call(node, "web3_sha3", "0x") == "0x" + keccak(b"").hex()


def test_gas_price_is_the_minimum_times_1_1(node: DevnetNode) -> None:
    """GasPriceTracker: on an idle chain, the best block's minimum × rpc.gasPriceMultiplier."""
    latest = call(node, "eth_getBlockByNumber", "latest", False)
    assert latest["minimumGasPrice"] == hex(60_000_000)
    assert call(node, "eth_gasPrice") == hex(66_000_000)


def test_head_matches_manifest(node: DevnetNode) -> None:
    assert int(call(node, "eth_blockNumber"), 16) == node.manifest.head_at_build >= 80


def check_block(block: dict[str, Any]) -> None:
    """Every §2.3 field, minimal quantities, REMASC last, merge mining that verifies."""
    assert set(block) == BLOCK_FIELDS
    assert (block["mixHash"], block["nonce"]) == ("0x" + "00" * 32, "0x0000000000000000")
    assert block["rskPteEdges"] is block["baseEvent"] is None
    for name in QUANTITY_FIELDS:
        assert QUANTITY.match(block[name]), (name, block[name])
    assert DATA.match(block["extraData"])
    Block.from_json(block)
    remasc = block["transactions"][-1]
    if isinstance(remasc, dict):
        assert remasc["from"] == "0x" + "00" * 20
        assert remasc["to"] == REMASC
        assert int(remasc["nonce"], 16) == int(block["number"], 16) - 1
        assert (remasc["gas"], remasc["gasPrice"], remasc["value"]) == ("0x0", "0x0", "0x0")
        assert (remasc["input"], remasc["v"], remasc["r"], remasc["s"]) == ("0x",) + ("0x0",) * 3
    report = merge_mining_report(block)
    assert report.verified, report.problems


def test_every_block_has_rsk_shape(node: DevnetNode) -> None:
    previous = None
    for number in range(1, node.manifest.head_at_build + 1):
        block = call(node, "eth_getBlockByNumber", hex(number), True)
        check_block(block)
        if previous is not None:
            assert block["parentHash"] == previous["hash"]
            total = int(previous["totalDifficulty"], 16) + int(block["cumulativeDifficulty"], 16)
            assert int(block["totalDifficulty"], 16) == total
        previous = block


def test_block_by_hash_equals_block_by_number(node: DevnetNode) -> None:
    by_number = call(node, "eth_getBlockByNumber", "0x4", False)
    assert call(node, "eth_getBlockByHash", by_number["hash"], False) == by_number
    assert call(node, "eth_getBlockByHash", by_number["hash"]) == by_number
    assert all(isinstance(h, str) and len(h) == 66 for h in by_number["transactions"])


def test_genesis_and_tags(node: DevnetNode) -> None:
    genesis = call(node, "eth_getBlockByNumber", "earliest", False)
    assert genesis["number"] == "0x0"
    assert genesis["transactions"] == []
    assert genesis["parentHash"] == "0x" + "00" * 32
    latest = call(node, "eth_getBlockByNumber", "latest", False)
    assert latest["number"] == call(node, "eth_blockNumber")


def test_uncles_count_and_difficulty(node: DevnetNode) -> None:
    number = node.manifest.uncle_blocks[0]
    block = call(node, "eth_getBlockByNumber", hex(number), False)
    assert len(block["uncles"]) == int(
        call(node, "eth_getUncleCountByBlockNumber", hex(number)), 16
    )
    assert call(node, "eth_getUncleCountByBlockHash", block["hash"]) == hex(len(block["uncles"]))
    assert int(block["cumulativeDifficulty"], 16) > int(block["difficulty"], 16)
    assert call(node, "eth_getUncleCountByBlockNumber", "0x2") == "0x0"


def test_not_found_is_null(node: DevnetNode) -> None:
    missing = "0x" + "ab" * 32
    beyond = hex(node.manifest.head_at_build + 100)
    assert call(node, "eth_getBlockByHash", missing, False) is None
    assert call(node, "eth_getBlockByNumber", beyond, False) is None
    assert call(node, "eth_getTransactionByHash", missing) is None
    assert call(node, "eth_getTransactionReceipt", missing) is None
    assert call(node, "eth_getBlockTransactionCountByHash", missing) is None
    assert call(node, "eth_getTransactionByBlockNumberAndIndex", "0x4", "0x999") is None
    assert call(node, "eth_getTransactionByBlockHashAndIndex", missing, "0x0") is None


def test_transaction_shapes_and_id(node: DevnetNode) -> None:
    tx = call(node, "eth_getTransactionByHash", node.manifest.token_transfer)
    assert set(tx) == TX_FIELDS
    assert tx["type"] == "0x0"
    assert "_id" not in tx
    assert tx["v"] in ("0x61", "0x62")
    Transaction.from_json(tx)
    by_number = call(
        node, "eth_getTransactionByBlockNumberAndIndex", tx["blockNumber"], tx["transactionIndex"]
    )
    by_hash = call(
        node, "eth_getTransactionByBlockHashAndIndex", tx["blockHash"], tx["transactionIndex"]
    )
    assert by_number == by_hash
    assert isinstance(by_number.pop("_id"), str)
    assert by_number == tx


def test_transaction_counts(node: DevnetNode) -> None:
    block = call(node, "eth_getBlockByNumber", "0x3", False)
    count = hex(len(block["transactions"]))
    assert call(node, "eth_getBlockTransactionCountByNumber", "0x3") == count
    assert call(node, "eth_getBlockTransactionCountByHash", block["hash"]) == count


def test_receipts(node: DevnetNode) -> None:
    manifest = node.manifest
    ok = call(node, "eth_getTransactionReceipt", manifest.token_transfer)
    assert ok["status"] == "0x1"
    assert (
        ok["effectiveGasPrice"]
        == call(node, "eth_getTransactionByHash", manifest.token_transfer)["gasPrice"]
    )
    assert ok["logs"]
    assert all("removed" not in log for log in ok["logs"])
    Receipt.from_json(ok)
    failed = call(node, "eth_getTransactionReceipt", manifest.failed_tx)
    assert failed["status"] == "0x0"
    assert failed["logs"] == []
    created = call(node, "eth_getTransactionReceipt", manifest.contract_creation)
    assert created["contractAddress"] == manifest.token
    assert created["to"] is None
    block = call(node, "eth_getBlockByNumber", created["blockNumber"], False)
    remasc = call(node, "eth_getTransactionReceipt", block["transactions"][-1])
    assert (remasc["status"], remasc["gasUsed"]) == ("0x1", "0x0")


def test_paid_fees_sum_the_receipts(node: DevnetNode) -> None:
    block = call(node, "eth_getBlockByNumber", "0x3", True)
    fees = 0
    for tx in block["transactions"]:
        receipt = call(node, "eth_getTransactionReceipt", tx["hash"])
        fees += int(receipt["gasUsed"], 16) * int(tx["gasPrice"], 16)
    assert fees > 0
    assert block["paidFees"] == hex(fees)


def test_state_queries(node: DevnetNode) -> None:
    manifest = node.manifest
    user = manifest.accounts[1]
    latest = call(node, "eth_getBalance", user)
    assert latest == call(node, "eth_getBalance", user, "latest")
    block_hash = call(node, "eth_getBlockByNumber", "latest", False)["hash"]
    assert call(node, "eth_getBalance", user, block_hash) == latest
    assert call(node, "eth_getBalance", user, {"blockHash": block_hash}) == latest
    assert int(call(node, "eth_getBalance", user, "0x0"), 16) == 10_000_000 * 10**18
    assert call(node, "eth_getTransactionCount", user, "0x0") == "0x0"
    assert int(call(node, "eth_getTransactionCount", user), 16) > 0
    assert call(node, "eth_getCode", user, "latest") == "0x"
    assert len(call(node, "eth_getCode", manifest.token, "latest")) > 100
    assert call(node, "eth_getCode", manifest.token, "0x0") == "0x"
    assert len(call(node, "eth_getCode", manifest.multicall, "0x0")) > 100
    supply = call(node, "eth_getStorageAt", manifest.token, "0x2", "latest")
    assert len(supply) == 66
    assert int(supply, 16) == 10**9 * 10**18
