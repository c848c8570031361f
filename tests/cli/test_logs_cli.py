"""`explorer logs` as a subprocess against the devnet: JSON, CSV, progress, exit codes, no key."""

from __future__ import annotations

import csv
import io
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from explorer.chain.checksum import to_checksum_address
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.schemas import assert_follows

REPO = Path(__file__).resolve().parents[2]
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
APPROVAL = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"


def explorer_logs(key: str, *args: str, env: dict[str, str] | None = None) -> Any:
    """Run `python -m explorer logs ARGS`; check the key is in neither output stream."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "logs", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, **(env or {})},
        timeout=240,
    )
    assert key not in done.stdout
    assert key not in done.stderr
    assert "Traceback" not in done.stderr
    return done


def as_data(log: dict[str, Any]) -> dict[str, Any]:
    """Return a node's log as `explorer logs` writes it: numbers, checksum (chain 31), hex."""
    return {
        "block": int(log["blockNumber"], 16),
        "block_hash": log["blockHash"],
        "transaction_hash": log["transactionHash"],
        "transaction_index": int(log["transactionIndex"], 16),
        "log_index": int(log["logIndex"], 16),
        "address": to_checksum_address(log["address"], 31),
        "topics": log["topics"],
        "data": log["data"],
    }


def log_name(log: dict[str, Any]) -> str:
    """Return the name of a token log's event."""
    return {TRANSFER: "Transfer", APPROVAL: "Approval"}[log["topics"][0]]


def node_logs(url: str, flt: dict[str, Any]) -> list[Any]:
    """Ask the node directly (one request) for logs."""
    answer = httpx.post(
        url, json={"jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": [flt]}
    )
    result: list[Any] = answer.json()["result"]
    return result


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_json_is_the_nodes_logs_as_data(devnet: Devnet) -> None:
    """The whole history's token Approvals and Transfers: the node's logs, in order, named.

    Each log is the node's as data (docs/schemas/logs.json): numbers, the chain's checksum,
    hex, and the decoded event's name (as the CSV has it).
    """
    manifest = devnet.manifest()
    token, head = manifest["token"], manifest["head_at_build"]
    done = explorer_logs(
        devnet.key,
        "--endpoint",
        devnet.url(),
        "--address",
        token,
        "--topic0",
        f"{TRANSFER},{APPROVAL}",
        "--from",
        "0",
        "--to",
        str(head),
    )
    assert done.returncode == 0, done.stderr
    expected = [
        log
        for start in range(0, head + 1, 2000)
        for log in node_logs(
            devnet.url(),
            {
                "fromBlock": hex(start),
                "toBlock": hex(min(head, start + 1999)),
                "address": token,
                "topics": [[TRANSFER, APPROVAL]],
            },
        )
    ]
    written = json.loads(done.stdout)
    assert_follows(written, "logs", chain_id=31)
    assert written == [as_data(log) | {"event": log_name(log)} for log in expected]
    assert {log["event"] for log in written} == {"Transfer", "Approval"}
    assert len(expected) > 1000
    assert "blocks" in done.stderr
    assert f"{len(expected)} logs written" in done.stderr


def test_csv_header_and_rows(devnet: Devnet) -> None:
    """CSV: the header, then one row per log with the decoded event name."""
    token = devnet.manifest()["token"]
    done = explorer_logs(
        devnet.key,
        "--endpoint",
        devnet.url(),
        "--key",
        devnet.key,
        "--address",
        token,
        "--topic0",
        TRANSFER,
        "--from",
        "2000",
        "--to",
        "0x960",
        "--format",
        "csv",
    )
    assert done.returncode == 0, done.stderr
    rows = list(csv.reader(io.StringIO(done.stdout)))
    assert rows[0] == [
        "block",
        "transaction_hash",
        "log_index",
        "address",
        "topic0",
        "topic1",
        "topic2",
        "topic3",
        "data",
        "event",
    ]
    expected = node_logs(
        devnet.url(),
        {"fromBlock": hex(2000), "toBlock": hex(2400), "address": token, "topics": [TRANSFER]},
    )
    assert len(rows) - 1 == len(expected) > 10
    first = expected[0]
    assert rows[1][:5] == [
        str(int(first["blockNumber"], 16)),
        first["transactionHash"],
        str(int(first["logIndex"], 16)),
        token,
        TRANSFER,
    ]
    assert {row[9] for row in rows[1:]} == {"Transfer"}


def test_input_errors_exit_2_and_send_nothing(devnet: Devnet) -> None:
    """A bad address, topic or block: exit 2 with the field named, key never shown."""
    url = devnet.url()
    for args, words in (
        (("--address", "0x12"), "address"),
        (("--topic1", "0xzz"), "topic"),
        (("--from", "soon"), "block"),
        (("--block-hash", "0x" + "11" * 32, "--from", "1"), "--block-hash"),
    ):
        done = explorer_logs(devnet.key, "--endpoint", url, *args)
        assert done.returncode == 2, done.stderr
        assert words in done.stderr
        assert done.stdout == ""


def test_remote_errors_exit_3_without_the_key(devnet: Devnet) -> None:
    """A wrong key and a closed port: exit 3; neither key appears anywhere."""
    wrong = "wrongkey0000000000000000000000"
    refused = explorer_logs(wrong, "--endpoint", f"{devnet.base()}/{wrong}", "--from", "0")
    assert refused.returncode == 3
    assert "auth" in refused.stderr
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    closed = explorer_logs(
        devnet.key,
        "--endpoint",
        f"http://127.0.0.1:{port}",
        "--from",
        "0",
        "--to",
        "5",
        env={"EXPLORER_API_KEY": devnet.key},
    )
    assert closed.returncode == 3
    assert "error (transport)" in closed.stderr
