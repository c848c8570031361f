"""ethers 6 against the devnet, both profiles and both networks (ethers_client.mjs drives it).

Reads (network, blocks by number and hash with and without transactions, a transaction, its
receipt, balance, code, storage, logs, a contract call, an estimate), a transfer sent the way
applications send one (ethers estimates first, with `chainId` in the call object), a legacy
transaction, a deployment and its address, a revert with its reason, and on the rskj profile
filters: `contract.on()` hears an event, a block filter sees a new block.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from explorer.devnet.contracts import load_artifact
from tests.clients.conftest import Target, funded_key

SCRIPT = Path(__file__).with_name("ethers_client.mjs")
RUN_TIMEOUT = 240


def run_ethers(target: Target, node_modules: Path) -> dict[str, Any]:
    """Run the ethers script against a target; return the facts it printed."""
    seed = target.seed
    artifacts = {name: load_artifact(name) for name in ("DevToken", "Reverter")}
    given = {
        "url": target.url,
        "chainId": target.chain_id,
        "key": funded_key(target),
        "filters": target.profile == "rskj",
        "bigBlock": seed["big_block"],
        "tokenTransfer": seed["token_transfer"],
        "contractCreation": seed["contract_creation"],
        "account": seed["accounts"][2],
        "token": seed["token"],
        "reverter": seed["reverter"],
        "abi": {name: list(artifact.abi) for name, artifact in artifacts.items()},
        "bytecode": {name: "0x" + artifact.bytecode.hex() for name, artifact in artifacts.items()},
    }
    node = shutil.which("node")
    assert node is not None
    result = subprocess.run(
        [node, str(SCRIPT), json.dumps(given)],
        cwd=node_modules.parent,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
    )
    assert result.returncode == 0, result.stderr
    facts: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    assert "error" not in facts, json.dumps(facts, indent=1)
    return facts


_SEEN: dict[tuple[str, str], dict[str, Any]] = {}


@pytest.fixture
def facts(target: Target, node_modules: Path) -> dict[str, Any]:
    """Return what ethers saw of one target (the script runs once per target)."""
    key = (target.profile, target.network)
    if key not in _SEEN:
        _SEEN[key] = run_ethers(target, node_modules)
    return _SEEN[key]


def test_ethers_reads_what_the_node_answers(target: Target, facts: dict[str, Any]) -> None:
    rpc, seed = target.rpc, target.seed
    assert facts["chainId"] == target.chain_id
    assert facts["head"] >= seed["head_at_build"]
    block = rpc("eth_getBlockByNumber", hex(seed["big_block"]), False)
    for seen in (facts["blockByNumber"], facts["blockByHash"], facts["blockFull"]):
        assert seen["hash"] == block["hash"]
        assert seen["number"] == seed["big_block"]
        assert seen["parentHash"] == block["parentHash"]
        assert seen["timestamp"] == int(block["timestamp"], 16)
        assert seen["miner"] == block["miner"]
        assert int(seen["gasUsed"]) == int(block["gasUsed"], 16)
        assert seen["transactions"] == block["transactions"]
    assert facts["blockByNumber"]["prefetched"] is None
    assert facts["blockFull"]["prefetched"] == block["transactions"]
    tx = rpc("eth_getTransactionByHash", seed["token_transfer"])
    seen_tx = facts["transaction"]
    assert (seen_tx["hash"], seen_tx["from"], seen_tx["to"]) == (tx["hash"], tx["from"], tx["to"])
    assert seen_tx["nonce"] == int(tx["nonce"], 16)
    assert seen_tx["type"] == 0
    assert int(seen_tx["chainId"]) == target.chain_id  # from the EIP-155 v
    receipt = rpc("eth_getTransactionReceipt", seed["token_transfer"])
    assert facts["receipt"]["status"] == 1
    assert facts["receipt"]["logs"] == len(receipt["logs"])
    assert facts["creationAddress"] == seed["token"]


def test_ethers_state_logs_and_calls(target: Target, facts: dict[str, Any]) -> None:
    rpc, seed = target.rpc, target.seed
    at = hex(seed["big_block"])
    assert int(facts["balance"]) == int(rpc("eth_getBalance", seed["accounts"][2], at), 16)
    assert facts["code"] == rpc("eth_getCode", seed["token"], "latest")
    assert facts["storage0"] == rpc("eth_getStorageAt", seed["token"], "0x0", "latest")
    logs = rpc("eth_getLogs", {"fromBlock": at, "toBlock": at, "address": seed["token"]})
    assert [entry["tx"] for entry in facts["logs"]] == [log["transactionHash"] for log in logs]
    assert facts["symbol"] == "DVT"
    assert int(facts["estimate"]) == 21_000
    assert int(facts["gasPrice"]) == int(rpc("eth_gasPrice"), 16)


def test_ethers_sends_deploys_and_waits(target: Target, facts: dict[str, Any]) -> None:
    rpc = target.rpc
    sent = facts["sent"]
    assert sent["status"] == 1
    assert sent["type"] == 0  # no fee market on RSK: ethers falls back to a legacy transaction
    assert rpc("eth_getTransactionByHash", sent["hash"])["value"] == hex(1234)
    assert facts["legacy"] == {"status": 1, "type": 0}
    deployed = facts["deployed"]
    assert deployed["address"] == deployed["receiptAddress"]
    assert rpc("eth_getCode", deployed["address"], "latest") != "0x"
    assert deployed["symbol"] == "CLT"
    assert int(deployed["supply"]) == 10**24


def test_ethers_sees_revert_reasons(target: Target, facts: dict[str, Any]) -> None:
    assert facts["double"] == "8"
    revert = facts["callRevert"]
    assert revert["code"] == "CALL_EXCEPTION"
    assert revert["reason"] == "Reverter: value too large"
    if target.profile == "rskj":  # rskj refuses to estimate a reverting call (-32015)
        assert facts["estimateRevert"]["reason"] == "Reverter: value too large"
    else:  # the service answers an estimate anyway (§4.3.1)
        assert int(facts["estimateRevert"]["gas"]) > 21_000


def test_ethers_contract_on_and_filters(target: Target, facts: dict[str, Any]) -> None:
    if target.profile != "rskj":
        assert "event" not in facts  # the hosted service serves no filters (§6)
        return
    event = facts["event"]
    assert event["tx"] == event["sent"]
    assert event["to"] == event["receiver"]
    assert event["value"] == "77"
    assert facts["blockFilter"][-1] == facts["latest"]
