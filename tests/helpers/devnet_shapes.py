"""Checks of the wire shapes docs/service.md requires (§2.3–2.6, §10, §11), field by field."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

QUANTITY = re.compile(r"0x(0|[1-9a-f][0-9a-f]*)")
DATA = re.compile(r"0x([0-9a-f]{2})*")
HASH = re.compile(r"0x[0-9a-f]{64}")
ADDRESS = re.compile(r"0x[0-9a-f]{40}")
BLOOM = re.compile(r"0x[0-9a-f]{512}")
ZERO_ADDRESS = "0x" + "00" * 20
REMASC_ADDRESS = "0x0000000000000000000000000000000001000008"

Check = Callable[[Any], bool]


def matches(pattern: re.Pattern[str]) -> Check:
    """Return a check that a value is a string fully matching pattern."""
    return lambda value: isinstance(value, str) and pattern.fullmatch(value) is not None


def nullable(check: Check) -> Check:
    """Return a check that also accepts null."""
    return lambda value: value is None or check(value)


def list_of(check: Check) -> Check:
    """Return a check that a value is a list whose items all pass check."""
    return lambda value: isinstance(value, list) and all(check(item) for item in value)


def is_list(value: Any) -> bool:
    """Tell whether a value is a JSON array."""
    return isinstance(value, list)


is_quantity, is_data, is_hash = matches(QUANTITY), matches(DATA), matches(HASH)
is_address, is_bloom = matches(ADDRESS), matches(BLOOM)

TRANSACTION_FIELDS: dict[str, Check] = {
    "blockHash": nullable(is_hash),
    "blockNumber": nullable(is_quantity),
    "from": is_address,
    "to": nullable(is_address),
    "gas": is_quantity,
    "gasPrice": is_quantity,
    "hash": is_hash,
    "input": is_data,
    "nonce": is_quantity,
    "v": is_quantity,
    "r": is_quantity,
    "s": is_quantity,
    "transactionIndex": nullable(is_quantity),
    "type": lambda value: value == "0x0",
    "value": is_quantity,
}
LOG_FIELDS: dict[str, Check] = {
    "logIndex": is_quantity,
    "transactionIndex": is_quantity,
    "transactionHash": is_hash,
    "blockHash": is_hash,
    "blockNumber": is_quantity,
    "address": is_address,
    "data": is_data,
    "topics": lambda value: list_of(is_hash)(value) and len(value) <= 4,
}
RECEIPT_FIELDS: dict[str, Check] = {
    "blockHash": is_hash,
    "blockNumber": is_quantity,
    "contractAddress": nullable(is_address),
    "cumulativeGasUsed": is_quantity,
    "effectiveGasPrice": is_quantity,
    "from": is_address,
    "gasUsed": is_quantity,
    "logs": is_list,
    "logsBloom": is_bloom,
    "status": lambda value: value in ("0x0", "0x1"),
    "to": nullable(is_address),
    "transactionHash": is_hash,
    "transactionIndex": is_quantity,
    "type": lambda value: value == "0x0",
}
BLOCK_FIELDS: dict[str, Check] = {
    "number": is_quantity,
    "hash": is_hash,
    "parentHash": is_hash,
    "sha3Uncles": is_hash,
    "logsBloom": is_bloom,
    "transactionsRoot": is_hash,
    "stateRoot": is_hash,
    "receiptsRoot": is_hash,
    "miner": is_address,
    "difficulty": is_quantity,
    "totalDifficulty": is_quantity,
    "extraData": is_data,
    "size": is_quantity,
    "gasLimit": is_quantity,
    "gasUsed": is_quantity,
    "timestamp": is_quantity,
    "transactions": is_list,
    "uncles": list_of(is_hash),
    "minimumGasPrice": is_quantity,
    "bitcoinMergedMiningHeader": lambda value: is_data(value) and len(value) == 2 + 160,
    "bitcoinMergedMiningCoinbaseTransaction": is_data,
    "bitcoinMergedMiningMerkleProof": lambda value: is_data(value) and (len(value) - 2) % 64 == 0,
    "hashForMergedMining": is_hash,
    "paidFees": is_quantity,
    "cumulativeDifficulty": is_quantity,
    "mixHash": lambda value: value == "0x" + "00" * 32,
    "nonce": lambda value: value == "0x0000000000000000",
    "rskPteEdges": lambda value: value is None,
    "baseEvent": lambda value: value is None,
}
PENDING_BLOCK_OVERRIDES: dict[str, Check] = {
    "number": lambda value: value is None,
    "hash": lambda value: value is None,
    "logsBloom": lambda value: value is None,
    "miner": lambda value: value is None,
    "totalDifficulty": lambda value: value == "0x0",
    "bitcoinMergedMiningHeader": lambda value: value == "0x",
    "bitcoinMergedMiningCoinbaseTransaction": lambda value: value == "0x",
    "bitcoinMergedMiningMerkleProof": lambda value: value == "0x",
    "hashForMergedMining": lambda value: value == "0x",
}


def assert_fields(obj: Any, fields: dict[str, Check], what: str) -> None:
    """Every field is present and well formed; name the ones that are not."""
    assert isinstance(obj, dict), f"{what} is not an object: {obj!r}"
    missing = sorted(set(fields) - set(obj))
    bad = {
        name: obj[name] for name, check in fields.items() if name in obj and not check(obj[name])
    }
    assert not missing, f"{what}: missing {missing}"
    assert not bad, f"{what}: malformed {bad}"


def assert_transaction(tx: Any, *, mined: bool = True) -> None:
    """Check a transaction object per §2.4 (block fields null when pending)."""
    assert_fields(tx, TRANSACTION_FIELDS, "transaction")
    placed = [tx["blockHash"], tx["blockNumber"], tx["transactionIndex"]]
    assert all(v is not None for v in placed) if mined else all(v is None for v in placed)


def assert_log(log: Any) -> None:
    """Check a log object per §2.6, with no `removed` field (rskj sends none)."""
    assert_fields(log, LOG_FIELDS, "log")
    assert "removed" not in log


def assert_receipt(receipt: Any) -> None:
    """Check a receipt per §2.5: status rather than root, logs well formed."""
    assert_fields(receipt, RECEIPT_FIELDS, "receipt")
    assert "root" not in receipt
    for log in receipt["logs"]:
        assert_log(log)
        assert log["transactionHash"] == receipt["transactionHash"]


def assert_block(block: Any, *, full: bool, pending: bool = False) -> None:
    """Check a block per §2.3 with RSK's fields; transactions as hashes or objects."""
    fields = BLOCK_FIELDS | (PENDING_BLOCK_OVERRIDES if pending else {})
    assert_fields(block, fields, "pending block" if pending else "block")
    for tx in block["transactions"]:
        if full:
            assert_transaction(tx, mined=not pending)
        else:
            assert is_hash(tx), tx


def assert_remasc(tx: dict[str, Any], block_number: int) -> None:
    """Check the REMASC transaction RSK ends every block with."""
    assert tx["from"] == ZERO_ADDRESS
    assert tx["to"] == REMASC_ADDRESS
    assert int(tx["nonce"], 16) == block_number - 1
    assert (tx["gas"], tx["gasPrice"], tx["value"], tx["input"]) == ("0x0", "0x0", "0x0", "0x")
    assert (tx["v"], tx["r"], tx["s"]) == ("0x0", "0x0", "0x0")
