"""What a cold command costs the node: the real CLI against the devnet, through a counting relay.

Counted as the hosted service's quota counts: calls (each call of a batch too).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.helpers.cli import explorer_history
from tests.helpers.devnet import Devnet
from tests.helpers.relay import Relay

FRESH = "0x" + "5e" * 20  # an address nothing ever happened to


def calls(relay: Relay, since: int = 0) -> Counter[str]:
    """Return the calls (each of a batch too) that reached the node since a point, by method."""
    counted: Counter[str] = Counter()
    for request in relay.server.requests[since:]:
        body = request.json
        for call in body if isinstance(body, list) else [body]:
            counted[str(call.get("method"))] += 1
    return counted


def test_a_cold_report_of_a_settled_transaction_costs_six_requests(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    """The chain (id and genesis), the transaction, its receipt, its block and the head."""
    tx_hash = devnet.manifest()["plain_transfer"]
    done = _explorer(tmp_path, "report", tx_hash, "--endpoint", relay.url)
    assert done.returncode == 0, done.stderr
    asked = calls(relay)
    assert sum(asked.values()) <= 6, asked
    assert asked["eth_getTransactionReceipt"] == 1


def test_a_fresh_address_and_a_revisit_after_a_restart_cost_few_requests(
    relay: Relay, devnet: Devnet, tmp_path: Path
) -> None:
    fresh = explorer_history("", tmp_path, FRESH, "--endpoint", relay.url, "--insecure-http")
    assert fresh.returncode == 0, fresh.stderr
    assert sum(calls(relay).values()) <= 12, calls(relay)
    changes, address = devnet.manifest()["counted_accounts"][1]
    first = explorer_history("", tmp_path, address, "--endpoint", relay.url, "--format", "json")
    assert first.returncode == 0, first.stderr
    before = len(relay.server.requests)
    again = explorer_history("", tmp_path, address, "--endpoint", relay.url, "--format", "json")
    assert again.returncode == 0, again.stderr
    asked = calls(relay, before)
    assert sum(asked.values()) <= 10, asked  # a new process: the saved history, checked
    assert again.stdout == first.stdout
    assert first.stdout.count('"block"') == changes


def _explorer(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the explorer's command line with its own (empty) saved data."""
    env = {**os.environ, "XDG_DATA_HOME": str(data_dir), "EXPLORER_CACHE_DIR": str(data_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "explorer", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert "Traceback" not in done.stderr
    return done
