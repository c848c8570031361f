"""The devnet's eth_getLogs answers, made from the log index.

Whole blocks come as one piece, partial blocks in runs, and every answer is byte for byte what
json.dumps writes of the logs a plain scan of receipts finds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account
from eth_hash.auto import keccak
from eth_utils.address import to_checksum_address
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.devnet.abi import call_data
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import LOG_LIMIT_EXCEEDED
from explorer.devnet.logindex import BlockLogs, BlockText
from explorer.devnet.logs import LogFilter, LogLimits
from explorer.devnet.node import DevnetNode
from explorer.devnet.seed import SMALL
from explorer.devnet.server import json_bytes
from explorer.devnet.snapshot import load_snapshot, snapshot_path
from tests.helpers.node import failure, spy_on

TRANSFER = "0x" + keccak(b"Transfer(address,address,uint256)").hex()
Log = dict[str, Any]


def compact(value: Any) -> bytes:
    """Return what json.dumps writes, compactly, as bytes."""
    return json.dumps(value, separators=(",", ":")).encode()


def user_topic(node: DevnetNode, index: int) -> str:
    """Return a seeded account as a 32-byte topic."""
    return "0x" + "00" * 12 + node.manifest.accounts[index][2:]


@pytest.fixture(scope="module")
def receipt_logs(node: DevnetNode) -> list[list[Log]]:
    """Each block's logs as its receipts give them (without `removed`), found the plain way."""
    head = int(node.handle("eth_blockNumber", []), 16)
    blocks: list[list[Log]] = []
    for number in range(head + 1):
        block = node.handle("eth_getBlockByNumber", [hex(number), False])
        receipts = [node.handle("eth_getTransactionReceipt", [h]) for h in block["transactions"]]
        logs = [log for receipt in receipts for log in receipt["logs"]]
        blocks.append([{k: v for k, v in log.items() if k != "removed"} for log in logs])
    return blocks


@pytest.fixture(scope="module")
def busy_block(small_cache: Path) -> DevBlock:
    """Return the seeded block holding the most logs."""
    snapshot = load_snapshot(snapshot_path(small_cache, 31, SMALL))
    assert snapshot is not None
    return max(snapshot.blocks, key=lambda b: sum(len(r.logs) for r in b.receipts))


def passes(log: Log, addresses: list[str], topics: list[Any]) -> bool:
    """Tell whether a log object passes the filter rule of §4.3, written plainly."""
    if addresses and log["address"] not in addresses:
        return False
    for position, wanted in enumerate(topics):
        if wanted is None:
            continue
        choices = wanted if isinstance(wanted, list) else [wanted]
        if None in choices:
            continue
        if position >= len(log["topics"]) or log["topics"][position] not in choices:
            return False
    return True


def runs(positions: list[int]) -> int:
    """How many runs of neighbouring numbers an ascending list holds."""
    return sum(1 for at, p in enumerate(positions) if at == 0 or positions[at - 1] != p - 1)


FILTERS: list[dict[str, Any]] = [
    {},
    {"topics": [TRANSFER]},
    {"address": "token"},
    {"address": ["collectible", "token"], "topics": [TRANSFER]},
    {"topics": [TRANSFER, None, "user"]},
    {"topics": [None, ["user", "other"]]},
    {"topics": [None, None, None, None]},
    {"address": "0x" + "99" * 20},
    {"topics": [[]]},
]


@pytest.mark.parametrize("raw", FILTERS)
def test_answers_are_the_plain_scans_logs_in_pieces_per_block_or_run(
    node: DevnetNode, receipt_logs: list[list[Log]], raw: dict[str, Any]
) -> None:
    """Whole matching blocks are one piece each; a block matching in part, one piece per run."""
    names = {
        "token": node.manifest.token,
        "collectible": node.manifest.collectible,
        "user": user_topic(node, 2),
        "other": user_topic(node, 3),
    }
    filled = {k: _fill(v, names) for k, v in raw.items()}
    addresses = filled.get("address", [])
    addresses = addresses if isinstance(addresses, list) else [addresses]
    expected: list[Log] = []
    pieces = 0
    for logs in receipt_logs:
        positions = [
            i for i, log in enumerate(logs) if passes(log, addresses, filled.get("topics", []))
        ]
        expected += [logs[i] for i in positions]
        pieces += runs(positions)
    result = node.handle("eth_getLogs", [{"fromBlock": "0x0", "toBlock": "latest", **filled}])
    assert isinstance(result, EncodedLogs)
    assert result == expected
    chunks = result.json_chunks()
    assert b"".join(chunks) == compact(expected)
    assert len(chunks) == (2 * pieces + 1 if pieces else 1)


def _fill(value: Any, names: dict[str, str]) -> Any:
    """Return a filter value with the manifest's names put in."""
    if isinstance(value, list):
        return [_fill(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def test_a_block_matching_only_in_part_is_never_sent_whole(
    node: DevnetNode, receipt_logs: list[list[Log]]
) -> None:
    """A filter that keeps some logs of each busy block gives them in runs, not the block."""
    user = user_topic(node, 2)
    candidates = [
        (number, logs, [i for i, log in enumerate(logs) if log["topics"][2:3] == [user]])
        for number, logs in enumerate(receipt_logs)
        if len(logs) >= 3
    ]
    number, logs, positions = next(c for c in candidates if 0 < len(c[2]) < len(c[1]))
    found = node.handle(
        "eth_getLogs",
        [{"fromBlock": hex(number), "toBlock": hex(number), "topics": [None, None, user]}],
    )
    whole = node.handle("eth_getLogs", [{"fromBlock": hex(number), "toBlock": hex(number)}])
    kept = [logs[i] for i in positions]
    assert found == kept
    assert whole == logs
    assert b"".join(found.json_chunks()) == compact(kept)
    assert len(found.json_chunks()) == 2 * runs(positions) + 1
    assert b"".join(whole.json_chunks()) == compact(logs)
    assert len(whole.json_chunks()) == 3


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_runs_of_any_picked_logs_join_to_their_json(
    busy_block: DevBlock, data: st.DataObject
) -> None:
    """The slices of any ascending subset of a block's logs, comma-joined, are their JSON."""
    logs = BlockLogs.of(busy_block)
    text = BlockText.of(busy_block, logs)
    count = len(logs.records)
    picked = sorted(data.draw(st.sets(st.integers(0, count - 1), max_size=count)))
    if len(picked) == count:
        picked = picked[1:]  # a whole block is not given in runs
    pieces = list(text.runs(picked))
    assert len(pieces) == runs(picked)
    assert b",".join(pieces) == compact([text.objects[i] for i in picked])[1:-1]
    assert b"[" + text.text + b"]" == compact(list(text.objects))


def test_encoded_logs_chunks() -> None:
    """No piece is `[]`; pieces are joined by commas inside brackets."""
    assert EncodedLogs().json_chunks() == [b"[]"]
    assert b"".join(EncodedLogs([1], [b"1"]).json_chunks()) == b"[1]"
    assert b"".join(EncodedLogs([1, 2, 3], [b"1,2", b"3"]).json_chunks()) == b"[1,2,3]"


def test_responses_with_log_arrays_anywhere_are_json_dumps_bytes(node: DevnetNode) -> None:
    """The result need not be the last member; batches mix log arrays with other answers."""
    result = node.handle(
        "eth_getLogs", [{"fromBlock": "0x0", "topics": [None, None, user_topic(node, 2)]}]
    )
    empty = node.handle("eth_getLogs", [{"address": "0x" + "99" * 20}])
    assert isinstance(result, EncodedLogs)
    assert result
    assert empty == []
    payloads: list[Any] = [
        {"result": result, "id": "x", "jsonrpc": "2.0"},
        {"jsonrpc": "2.0", "id": None, "result": empty},
        [
            {"jsonrpc": "2.0", "id": 1, "error": {"code": -32602, "message": "é"}},
            {"result": result},
        ],
        [{"jsonrpc": "2.0", "id": 2, "result": "0x1"}],
    ]
    for payload in payloads:
        assert json_bytes(payload) == compact(payload)


def test_limits_count_logs_of_whole_blocks(node: DevnetNode) -> None:
    """Over the block limit, one log more than max_logs is refused, exactly max_logs is not."""
    transfers = len(node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}]))
    original = node.log_limits
    try:
        node.log_limits = LogLimits(max_blocks=10, max_logs=transfers - 1)
        error = failure(node, "eth_getLogs", {"fromBlock": "0x0", "topics": [TRANSFER]})
        assert error.code == LOG_LIMIT_EXCEEDED
        node.log_limits = LogLimits(max_blocks=10, max_logs=transfers)
        assert (
            len(node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}]))
            == transfers
        )
    finally:
        node.log_limits = original


def test_logs_of_newly_mined_blocks_are_found(fresh_node: DevnetNode) -> None:
    """The index follows the chain as it grows: a block mined after a query is read too."""
    node = fresh_node
    before = node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}])
    sender, receiver = node.manifest.accounts[1], node.manifest.accounts[2]
    nonce = int(node.handle("eth_getTransactionCount", [sender, "pending"]), 16)
    data = call_data("transfer(address,uint256)", bytes.fromhex(receiver[2:]), 5)
    tx = {
        "to": to_checksum_address(node.manifest.token),
        "data": data,
        "gas": 100_000,
        "gasPrice": 65_000_000,
        "value": 0,
        "nonce": nonce,
        "chainId": node.chain_id,
    }
    raw = Account.sign_transaction(tx, node.manifest.private_keys[1]).raw_transaction
    tx_hash = node.handle("eth_sendRawTransaction", ["0x" + raw.hex()])
    after = node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}])
    assert after[: len(before)] == before
    assert len(after) == len(before) + 1
    assert after[-1]["transactionHash"] == tx_hash
    latest = node.handle("eth_getLogs", [{"topics": [TRANSFER]}])
    assert latest == after[-1:]


def test_blocks_matching_whole_are_not_checked_log_by_log(
    node: DevnetNode, receipt_logs: list[list[Log]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block whose summary shows every log passes skips the per-log test; others do not."""
    checked = spy_on(monkeypatch, LogFilter, "matches")
    everything = node.handle("eth_getLogs", [{"fromBlock": "0x0"}])
    assert len(everything) == sum(map(len, receipt_logs))
    assert not checked
    transfers = node.handle("eth_getLogs", [{"fromBlock": "0x0", "topics": [TRANSFER]}])
    mixed = [
        logs
        for logs in receipt_logs
        if any(log["topics"][:1] == [TRANSFER] for log in logs)
        and not all(log["topics"][:1] == [TRANSFER] for log in logs)
    ]
    assert mixed
    assert len(checked) == sum(map(len, mixed))
    assert len(transfers) == node.manifest.transfer_log_count
