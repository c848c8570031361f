"""`explorer history` as a subprocess against the devnet: JSON, CSV, exit codes, old state."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest

from explorer.chain.checksum import to_checksum_address
from tests.helpers.cli import explorer_history
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.pruned import OldState, PrunedNode
from tests.helpers.schemas import assert_follows

HEAD = 12_000
KEYS = {"block", "timestamp", "tx_hash", "kind", "asset", "counterparty", "amount", "direction"}


def block_time(devnet: Devnet, block: int) -> int:
    """Ask the devnet directly for a block's timestamp."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "eth_getBlockByNumber",
        "params": [hex(block), False],
    }
    return int(httpx.post(devnet.url(), json=body).json()["result"]["timestamp"], 16)


def balance_at(devnet: Devnet, address: str, block: int) -> int:
    """Ask the devnet directly for a balance."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": [address, hex(block)]}
    return int(httpx.post(devnet.url(), json=body).json()["result"], 16)


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_json_has_every_field_newest_first(devnet: Devnet, tmp_path: Path) -> None:
    changes, address = devnet.manifest()["counted_accounts"][1]
    done = explorer_history(
        devnet.key, tmp_path, address, "--endpoint", devnet.url(), "--insecure-http",
        "--to", str(HEAD), "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries: list[dict[str, Any]] = json.loads(done.stdout)
    assert_follows(entries, "history", chain_id=31)
    assert len(entries) == changes
    assert [e["block"] for e in entries] == sorted((e["block"] for e in entries), reverse=True)
    for entry in entries:
        assert KEYS | {"balance_after"} <= set(entry)
        assert isinstance(entry["block"], int)
        when = datetime.fromtimestamp(block_time(devnet, entry["block"]), UTC)
        assert entry["timestamp"] == when.strftime("%Y-%m-%dT%H:%M:%SZ")  # ISO 8601, UTC
        assert entry["kind"] == "received"
        assert entry["direction"] == "in"
        assert entry["asset"] == "native"
        assert entry["tx_hash"].startswith("0x")
        assert len(entry["tx_hash"]) == 66
        assert int(entry["amount"]) > 0
        assert entry["amount"] == str(int(entry["amount"]))
        assert entry["counterparty"] == to_checksum_address(devnet.manifest()["busy_account"], 31)
        assert entry["decimals"] == 18
        assert int(entry["balance_after"]) == balance_at(devnet, address, entry["block"])
    assert int(entries[0]["balance_after"]) == balance_at(devnet, address, HEAD)


def test_a_contract_execution_names_its_counterparty_depth_and_caller(
    devnet: Devnet, tmp_path: Path
) -> None:
    manifest = devnet.manifest()
    done = explorer_history(
        devnet.key, tmp_path, manifest["contract_paid"], "--endpoint", devnet.url(),
        "--insecure-http", "--to", str(HEAD), "--format", "json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries: list[dict[str, Any]] = json.loads(done.stdout)
    assert_follows(entries, "history", chain_id=31)
    assert len(entries) >= 20
    payout = to_checksum_address(manifest["payout"], 31)
    for entry in entries:
        assert entry["kind"] == "contract"
        assert entry["counterparty"] == payout
        assert entry["depth"] == 1
        assert entry["caller"] is not None
        assert entry["caller"] == to_checksum_address(entry["caller"], 31)
        assert len(entry["tx_hash"]) == 66
    text = explorer_history(
        devnet.key, tmp_path, manifest["contract_paid"], "--endpoint", devnet.url(),
        "--insecure-http", "--to", str(HEAD),
    )  # fmt: skip
    assert "contract execution, depth 1" in text.stdout
    assert f"from {payout}" in text.stdout
    assert "inside a call by 0x" in text.stdout


def test_tokens_have_log_index_and_csv_has_units(devnet: Devnet, tmp_path: Path) -> None:
    manifest = devnet.manifest()
    holder = manifest["accounts"][3]
    common = [holder, "--endpoint", devnet.url(), "--insecure-http", "--to", str(HEAD)]
    done = explorer_history(
        devnet.key, tmp_path, *common, "--assets", "tokens", "--from", "11000", "--format", "json"
    )
    assert done.returncode == 0, done.stderr
    entries = json.loads(done.stdout)
    assert_follows(entries, "history", chain_id=31)
    assert entries
    assert {e["kind"] for e in entries} == {"token"}
    tokens = {to_checksum_address(manifest[name], 31): name for name in ("token", "collectible")}
    assert {e["asset"] for e in entries} <= set(tokens)
    assert all(isinstance(e["log_index"], int) and "balance_after" not in e for e in entries)
    decimals = {tokens[e["asset"]]: e["decimals"] for e in entries}
    assert decimals.get("token", 18) == 18  # DVT's amounts in base units, its decimals beside
    assert decimals.get("collectible") is None  # an ERC-721 names none
    done = explorer_history(
        devnet.key, tmp_path, *common, "--assets", "tokens", "--from", "11000", "--format", "csv"
    )
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert len(rows) == len(entries)
    assert {row["symbol"] for row in rows if row["asset"] == manifest["token"]} == {"DVT"}


def test_a_contract_says_the_search_is_over_balance_alone(devnet: Devnet, tmp_path: Path) -> None:
    payout = devnet.manifest()["payout"]
    done = explorer_history(
        devnet.key, tmp_path, payout, "--endpoint", devnet.url(), "--insecure-http",
        "--from", "11000", "--to", str(HEAD), "--assets", "native",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "balances alone" in done.stderr
    assert "contract execution" in done.stdout


@pytest.mark.parametrize(
    "args",
    [["0x12"], ["0x" + "ab" * 20, "--from", "ten"], ["0x" + "ab" * 20, "--from", "9", "--to", "5"]],
)
def test_invalid_input_exits_2(devnet: Devnet, tmp_path: Path, args: list[str]) -> None:
    done = explorer_history(devnet.key, tmp_path, *args, "--endpoint", devnet.url(),
                            "--insecure-http")  # fmt: skip
    assert done.returncode == 2
    assert "error (invalid input)" in done.stderr


def test_a_node_that_cannot_be_reached_exits_3(tmp_path: Path) -> None:
    done = explorer_history("", tmp_path, "0x" + "ab" * 20, "--endpoint", "http://127.0.0.1:9/k",
                            "--insecure-http")  # fmt: skip
    assert done.returncode == 3
    assert "error (transport)" in done.stderr


def test_a_node_without_old_state_is_said_and_scanned_instead(
    devnet: Devnet, tmp_path: Path
) -> None:
    busy = devnet.manifest()["busy_account"]
    node = PrunedNode(devnet.url(), OldState.ERROR, oldest=HEAD - 50)
    try:
        where = ["--endpoint", node.url, "--insecure-http", "--to", str(HEAD)]
        short = explorer_history(
            "", tmp_path, busy, *where, "--from", str(HEAD - 199), "--format", "json"
        )
        whole = explorer_history("", tmp_path, busy, *where)
    finally:
        node.close()
    assert short.returncode == 0, short.stderr
    assert "does not serve old state" in short.stderr
    assert "costs 200 requests" in short.stderr
    found = json.loads(short.stdout)
    assert_follows(found, "history", chain_id=31)
    assert found
    assert {e["kind"] for e in found} <= {"sent", "received"}
    assert all(e["balance_after"] is None for e in found)
    assert whole.returncode == 3
    assert "does not serve old state" in whole.stderr
    assert "--from" in whole.stderr
