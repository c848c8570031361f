"""JSON shapes of blocks, transactions, receipts and logs, as an rskj node sends them."""

from __future__ import annotations

from typing import Any

from explorer.chain.hexutil import to_data, to_quantity
from explorer.devnet.blockdata import DevBlock, LogRecord, ReceiptRecord, TxRecord

Json = dict[str, Any]


def _address(value: bytes | None) -> str | None:
    """Return an address as lowercase hex, or None."""
    return None if value is None else to_data(value)


def tx_json(
    tx: TxRecord, block: DevBlock | None, index: int | None, *, with_id: bool = False
) -> Json:
    """Return a transaction object (§2.4); block fields null while pending."""
    result: Json = {
        "hash": to_data(tx.hash),
        "nonce": to_quantity(tx.nonce),
        "blockHash": to_data(block.hash) if block else None,
        "blockNumber": to_quantity(block.number) if block else None,
        "transactionIndex": to_quantity(index) if block and index is not None else None,
        "from": to_data(tx.sender),
        "to": _address(tx.to),
        "gas": to_quantity(tx.gas),
        "gasPrice": to_quantity(tx.gas_price),
        "value": to_quantity(tx.value),
        "input": to_data(tx.data),
        "v": to_quantity(tx.v),
        "r": to_quantity(tx.r),
        "s": to_quantity(tx.s),
        "type": "0x0",
    }
    if with_id:
        result["_id"] = tx.hash.hex()[:24]
    return result


def log_json(log: LogRecord, block: DevBlock, tx_index: int, log_index: int) -> Json:
    """Return a log object (§2.6) without `removed`, as rskj sends it."""
    return {
        "logIndex": to_quantity(log_index),
        "blockNumber": to_quantity(block.number),
        "blockHash": to_data(block.hash),
        "transactionHash": to_data(block.transactions[tx_index].hash),
        "transactionIndex": to_quantity(tx_index),
        "address": to_data(log.address),
        "data": to_data(log.data),
        "topics": [to_data(topic) for topic in log.topics],
    }


def first_log_index(block: DevBlock, tx_index: int) -> int:
    """Return the block-wide index of the first log of transaction tx_index."""
    return sum(len(r.logs) for r in block.receipts[:tx_index])


def receipt_json(block: DevBlock, index: int) -> Json:
    """Return a receipt object (§2.5) with `status` and effectiveGasPrice."""
    tx: TxRecord = block.transactions[index]
    receipt: ReceiptRecord = block.receipts[index]
    start = first_log_index(block, index)
    return {
        "transactionHash": to_data(tx.hash),
        "transactionIndex": to_quantity(index),
        "blockHash": to_data(block.hash),
        "blockNumber": to_quantity(block.number),
        "cumulativeGasUsed": to_quantity(receipt.cumulative_gas_used),
        "gasUsed": to_quantity(receipt.gas_used),
        "contractAddress": _address(receipt.contract_address),
        "logs": [log_json(log, block, index, start + i) for i, log in enumerate(receipt.logs)],
        "from": to_data(tx.sender),
        "to": _address(tx.to),
        "status": to_quantity(receipt.status),
        "logsBloom": to_data(receipt.bloom.to_bytes(256, "big")),
        "type": "0x0",
        "effectiveGasPrice": to_quantity(tx.gas_price),
    }


ZERO_HASH = "0x" + "00" * 32
ZERO_NONCE = "0x0000000000000000"  # BlockResultDTO: hard-coded, for Ethereum tools


def _transactions(block: DevBlock, *, full: bool, pending: bool, rskj: bool) -> list[Any]:
    """Return a block's transaction hashes, or objects.

    In the pending block an rskj node gives them the sample block's hash, number and their index
    (TransactionResultDTO).
    """
    if not full:
        return [to_data(tx.hash) for tx in block.transactions]
    placed = not pending or rskj
    return [
        tx_json(tx, block if placed else None, i if placed else None)
        for i, tx in enumerate(block.transactions)
    ]


def block_json(block: DevBlock, *, full: bool, pending: bool = False, rskj: bool = False) -> Json:
    """Return a block object (§2.3) in rskj 9's shape (BlockResultDTO).

    The pending form nulls what is unknown.
    """
    mm = block.merge_mining
    return {
        "number": None if pending else to_quantity(block.number),
        "hash": None if pending else to_data(block.hash),
        "parentHash": to_data(block.parent_hash),
        "mixHash": ZERO_HASH,
        "nonce": ZERO_NONCE,
        "sha3Uncles": to_data(block.sha3_uncles),
        "logsBloom": None if pending else to_data(block.logs_bloom.to_bytes(256, "big")),
        "transactionsRoot": to_data(block.transactions_root),
        "stateRoot": to_data(block.state_root),
        "receiptsRoot": to_data(block.receipts_root),
        "miner": None if pending else to_data(block.miner),
        "difficulty": to_quantity(block.difficulty),
        "totalDifficulty": "0x0" if pending else to_quantity(block.total_difficulty),
        "extraData": to_data(block.extra_data),
        "size": to_quantity(block.size),
        "gasLimit": to_quantity(block.gas_limit),
        "gasUsed": to_quantity(block.gas_used),
        "timestamp": to_quantity(block.timestamp),
        "transactions": _transactions(block, full=full, pending=pending, rskj=rskj),
        "uncles": [to_data(uncle) for uncle in block.uncles],
        "minimumGasPrice": to_quantity(block.minimum_gas_price),
        "bitcoinMergedMiningHeader": "0x" if pending else to_data(mm.header),
        "bitcoinMergedMiningCoinbaseTransaction": "0x" if pending else to_data(mm.coinbase),
        "bitcoinMergedMiningMerkleProof": "0x" if pending else to_data(mm.merkle_proof),
        "hashForMergedMining": "0x" if pending else to_data(mm.hash_for_merged_mining),
        "paidFees": to_quantity(block.paid_fees),
        "cumulativeDifficulty": to_quantity(block.cumulative_difficulty),
        "rskPteEdges": None,
        "baseEvent": None,
    }
