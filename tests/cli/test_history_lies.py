"""`explorer history` against nodes that contradict themselves: found out, said, never averaged.

A nonce that goes down, a balance that changes between two reads of the same block, a balance
answered 0x0 before a block although the address received value then: the search stops, names
what the node contradicted, and offers the block scan at its cost. A costly search is asked for
first (or needs --yes), as the window does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from tests.helpers.devnet import Devnet
from tests.helpers.lying import Lie, LyingNode

REPO = Path(__file__).resolve().parents[2]
HEAD = 12_000
SEARCH_BUDGET = 600  # requests: a search stopped early spends a fraction of the thousands


def explorer_history(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `python -m explorer history ARGS` (no terminal: nothing can be asked on one)."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "history", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "XDG_DATA_HOME": str(data_dir), "EXPLORER_CACHE_DIR": str(data_dir)},
        timeout=300,
    )
    assert "Traceback" not in done.stderr
    return done


def through(node: LyingNode, *args: str) -> list[str]:
    """Return the arguments that reach a lying node."""
    return [*args, "--endpoint", node.url, "--insecure-http", "--to", str(HEAD), "--no-cache"]


def raw(devnet: Devnet, method: str, *params: object) -> object:
    """Ask the devnet directly."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}
    return httpx.post(devnet.url(), json=body, timeout=30).json()["result"]


def test_balances_that_change_between_reads_stop_the_search(devnet: Devnet, tmp_path: Path) -> None:
    """Random balances: caught by a block read twice; the scan of the range replaces the search."""
    busy = devnet.manifest()["busy_account"]
    node = LyingNode(devnet.url(), busy, Lie.RANDOM_BALANCES)
    try:
        done = explorer_history(
            tmp_path, busy, *through(node, "--from", str(HEAD - 199), "--format", "json")
        )
    finally:
        node.close()
    assert done.returncode == 0, done.stderr
    assert "contradicts itself" in done.stderr
    assert "two different balances for block" in done.stderr
    assert "costs 200 requests" in done.stderr  # the block scan, at its cost
    entries = json.loads(done.stdout)
    assert {entry["kind"] for entry in entries} <= {"sent", "received"}  # from the scan
    assert len(node.calls) < SEARCH_BUDGET + 200


def test_a_nonce_that_goes_down_stops_the_search(devnet: Devnet, tmp_path: Path) -> None:
    """The nonce three lower from a block on: named, and the search ends there."""
    busy = devnet.manifest()["busy_account"]
    node = LyingNode(devnet.url(), busy, Lie.NONCE_DOWN, since=HEAD - 1_000)
    try:
        done = explorer_history(tmp_path, busy, *through(node, "--assets", "native", "--yes"))
    finally:
        node.close()
    assert done.returncode == 3, done.stderr
    assert "contradicts itself" in done.stderr
    assert "nonce went down" in done.stderr
    assert "--from" in done.stderr  # the whole chain is too long to scan: a narrower range
    assert len(node.calls) < SEARCH_BUDGET


def test_a_costly_search_is_asked_for_first(devnet: Devnet, tmp_path: Path) -> None:
    """Without a terminal to ask on and without --yes, a search of many requests is not run."""
    busy = devnet.manifest()["busy_account"]
    node = LyingNode(devnet.url(), busy, Lie.NONCE_DOWN, since=HEAD + 1)  # it tells the truth
    try:
        done = explorer_history(tmp_path, busy, *through(node, "--assets", "native"))
    finally:
        node.close()
    assert done.returncode == 2, done.stderr
    assert "not searched" in done.stderr
    assert "--yes" in done.stderr
    assert len(node.calls) < 20  # the opening only


def quiet_block_between(devnet: Devnet, low: int, high: int) -> int:
    """Return a block in (low, high) holding REMASC's transaction alone."""
    for number in range((low + high) // 2, high):
        if raw(devnet, "eth_getBlockTransactionCountByNumber", hex(number)) == "0x1":
            return number
    raise AssertionError(f"no quiet block between {low:,} and {high:,}")


def test_old_state_answered_as_zero_is_no_contract_payment(devnet: Devnet, tmp_path: Path) -> None:
    """0x0 before a block although the account had received value: no 'contract execution'."""
    changes, account = devnet.manifest()["counted_accounts"][1]
    honest = explorer_history(
        tmp_path, account, "--endpoint", devnet.url(), "--insecure-http", "--to", str(HEAD),
        "--assets", "native", "--format", "json", "--no-cache",
    )  # fmt: skip
    blocks = sorted(entry["block"] for entry in json.loads(honest.stdout))
    assert len(blocks) == changes
    since = quiet_block_between(devnet, blocks[changes // 2 - 1], blocks[changes // 2])
    node = LyingNode(devnet.url(), account, Lie.ZEROS_BEFORE, since=since)
    try:
        done = explorer_history(tmp_path, account, *through(node, "--assets", "native"))
    finally:
        node.close()
    assert "contract execution" not in done.stdout
    assert "contradicts itself" in done.stderr
    assert f"block {since:,}" in done.stderr
    assert done.returncode == 3, done.stderr
