"""`explorer report` and `explorer logs` with saved data: warm, restarted, offline, --no-cache."""

from __future__ import annotations

import json
import subprocess
import time

import httpx

from tests.helpers.cache import CHECK, beyond_check, sent
from tests.helpers.cli import explorer
from tests.helpers.devnet import Devnet, shared_loop
from tests.helpers.relay import Relay

JSON = ("--format", "json")
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


def test_a_warm_report_in_a_new_process_asks_only_chain_and_head(
    relay: Relay, devnet: Devnet
) -> None:
    """The second process reads the first one's saved data: the check and at most two more."""
    tx_hash = devnet.manifest()["token_transfer"]
    cold = explorer("report", tx_hash, "--endpoint", relay.url)
    assert cold.returncode == 0, cold.stderr
    assert beyond_check(relay)["eth_getTransactionReceipt"] == 1
    before = len(relay.server.requests)
    warm = explorer("report", tx_hash, "--endpoint", relay.url)
    assert warm.returncode == 0, warm.stderr
    asked = sent(relay, before)
    assert sum(asked[method] for method in CHECK) == 1  # the chain id (and block 0) alone
    assert sum(asked.values()) - 1 <= 2, asked  # the genesis hash and the head
    assert beyond_check(relay, before) == {"eth_blockNumber": 1}
    assert warm.stdout == cold.stdout.replace(
        _confirmations(cold.stdout), _confirmations(warm.stdout)
    )


def _confirmations(text: str) -> str:
    """Return the report's confirmations line (it moves with the head)."""
    return next((line for line in text.splitlines() if "onfirmation" in line), "")


def test_no_cache_asks_the_node_for_everything(relay: Relay, devnet: Devnet) -> None:
    """--no-cache neither reads nor keeps saved data."""
    tx_hash = devnet.manifest()["token_transfer"]
    assert explorer("report", tx_hash, "--endpoint", relay.url).returncode == 0
    before = len(relay.server.requests)
    done = explorer("report", tx_hash, "--endpoint", relay.url, "--no-cache")
    assert done.returncode == 0, done.stderr
    assert beyond_check(relay, before)["eth_getTransactionByHash"] == 1
    assert sent(relay, before)["eth_getBlockByNumber"] == 1  # the genesis, in the chain check


def test_a_repeated_logs_scan_asks_for_the_unsettled_tail_only(relay: Relay) -> None:
    """`explorer logs` over the whole history twice: the second asks the head and one range."""
    args = ("logs", "--endpoint", relay.url, "--topic0", TRANSFER, "--from", "0", "--to", "latest")
    cold = explorer(*args)
    assert cold.returncode == 0, cold.stderr
    before = len(relay.server.requests)
    warm = explorer(*args)
    assert warm.returncode == 0, warm.stderr
    assert beyond_check(relay, before) == {"eth_blockNumber": 1, "eth_getLogs": 1}
    assert json.loads(warm.stdout) == json.loads(cold.stdout)


def test_offline_report_and_logs_answer_saved_data_with_a_first_line_and_fail_others(
    stoppable: Devnet,
) -> None:
    """The devnet stopped: a saved page or log range exits 0 under `saved data from`."""
    url = stoppable.url("testnet")
    manifest = stoppable.manifest()
    tx_hash, other = manifest["token_transfer"], manifest["failed_tx"]
    online = explorer("report", tx_hash, "--endpoint", url)
    assert online.returncode == 0, online.stderr
    scan = ("logs", "--endpoint", url, "--topic0", TRANSFER, "--from", "1800", "--to", "2400")
    logs_online = explorer(*scan)
    assert logs_online.returncode == 0, logs_online.stderr
    shared_loop().run(stoppable.process.stop())
    logs_offline = explorer(*scan)
    assert logs_offline.returncode == 0, logs_offline.stderr
    assert logs_offline.stderr.startswith("saved data from ")
    assert json.loads(logs_offline.stdout) == json.loads(logs_online.stdout)
    offline = explorer("report", tx_hash, "--endpoint", url)
    assert offline.returncode == 0, offline.stderr
    first, *page = offline.stdout.splitlines()
    assert first.startswith("saved data from ")
    assert "the node cannot be reached" in first
    assert (
        "\n".join(page).split("== Receipt")[0].splitlines()[:2]
        == (online.stdout.split("== Receipt")[0].splitlines()[:2])
    )
    as_json = explorer("report", tx_hash, "--endpoint", url, "--format", "json")
    assert as_json.returncode == 0, as_json.stderr
    assert tx_hash in json.dumps(json.loads(as_json.stdout))  # still JSON alone on stdout
    assert as_json.stderr.startswith("saved data from ")
    unsaved = explorer("report", other, "--endpoint", url)
    assert unsaved.returncode == 3
    assert "not in the saved data" in unsaved.stderr
    skipped = explorer("report", tx_hash, "--endpoint", url, "--no-cache")
    assert skipped.returncode == 3
    assert "error (transport)" in skipped.stderr


def call(method: str) -> dict[str, object]:
    """Return a JSON-RPC call without parameters."""
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": []}


def post(url: str, method: str) -> None:
    """Send one call to the devnet (no parameters)."""
    assert "error" not in httpx.post(url, json=call(method), timeout=30).json()


def confirmations(done: subprocess.CompletedProcess[str]) -> int:
    """Return the confirmations a `report --format json` headline gives."""
    assert done.returncode == 0, done.stderr
    count = json.loads(done.stdout)["headline"]["confirmations"]
    assert isinstance(count, int)
    return count


def saved_from(done: subprocess.CompletedProcess[str]) -> str:
    """Return the time an offline answer's first line gives (`YYYY-MM-DD HH:MM:SS`)."""
    assert done.stderr.startswith("saved data from "), done.stderr
    return done.stderr.removeprefix("saved data from ")[:19]


def test_offline_counts_from_this_endpoints_head_and_the_time_data_was_saved(
    stoppable: Devnet,
) -> None:
    """Another session's newer head, and reading the saved data later, change neither line.

    Two endpoints reach the same chain (two relays: two profiles' nodes). Reading what is
    saved (the other session's same page, this one's offline) saves nothing, so "saved data
    from" stays the time this endpoint last answered; and when the other session saves pages
    under a head 40 blocks newer, this endpoint's offline page still says that time and
    counts from its own last head.
    """
    url = stoppable.url("testnet")
    tx_hash = stoppable.manifest()["token_transfer"]
    mine, other = Relay(url), Relay(url)
    try:
        online = confirmations(explorer("report", tx_hash, "--endpoint", mine.url, *JSON))
        saved = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime())
        time.sleep(2)
        assert confirmations(explorer("report", tx_hash, "--endpoint", other.url, *JSON)) == online
        mine.close()  # this endpoint can no longer be reached
        first = explorer("report", tx_hash, "--endpoint", mine.url, *JSON)
        assert saved_from(first) <= saved  # not when the saved page was read again
        assert confirmations(first) == online
        time.sleep(2)
        again = explorer("report", tx_hash, "--endpoint", mine.url, *JSON)
        assert saved_from(again) == saved_from(first)  # nor when it was read offline
        head = int(httpx.post(url, json=call("eth_blockNumber"), timeout=30).json()["result"], 16)
        for _ in range(40):
            post(url, "evm_mine")
        newer = explorer("report", str(head + 5), "--endpoint", other.url, *JSON)
        assert newer.returncode == 0, newer.stderr  # a page saved under a head 40 blocks newer
        second = explorer("report", tx_hash, "--endpoint", mine.url, *JSON)
        assert saved_from(second) == saved_from(first)  # when this node last answered
        assert confirmations(second) == online  # not the other session's 40 blocks more
    finally:
        other.close()
