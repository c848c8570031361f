"""`explorer node`: the node page as text or JSON, exit codes, and never the key."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explorer.chain.checksum import to_checksum_address
from tests.helpers.schemas import assert_follows
from tests.helpers.scripted_server import Recorded, Reply, json_reply, scripted_server
from tests.helpers.testnet_node import serve_testnet

REPO = Path(__file__).resolve().parents[2]
KEY = "cli-node-key-000000001"


def node(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    """Run `explorer node ARGS` with its own settings directory."""
    env = dict(os.environ, XDG_CONFIG_HOME=str(home), HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "explorer", "node", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=120,
    )


def test_node_prints_the_devnet_node_as_text_and_json(devnet: Any, tmp_path: Path) -> None:
    """The same facts as the node page: chain id, client, accounts, URL form; no key anywhere."""
    text = node("--endpoint", devnet.url("testnet"), home=tmp_path)
    assert text.returncode == 0, text.stderr
    assert devnet.key not in text.stdout + text.stderr
    lines = text.stdout.splitlines()
    assert lines[1].startswith("Status: Serves ")
    assert "Chain id (eth_chainId)    31 (0x1f)" in text.stdout
    assert "none, as the service promises: it holds no keys" in text.stdout
    done = node("--endpoint", devnet.url("testnet"), "--format", "json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    assert_follows(page, "node")
    assert page["raw"]["eth_chainId"] == 31
    assert page["raw"]["eth_accounts"] == []
    sections = {s["key"]: {f["key"]: f["value"] for f in s["fields"]} for s in page["sections"]}
    assert sections["identity"]["chain_id_eth_chainid"] == 31  # data, not "31 (0x1f)"
    assert sections["identity"]["the_two_agree"] is True  # not "yes"
    assert sections["software"]["protocol_version"] == 62  # the text says "0x3e (62)"
    # this run's requests and the text run's: every command counts against the key's day
    assert sections["connection"]["requests_today_utc"] == 14


def node_like_testnet(answers: dict[str, Any], refused: str = "") -> Callable[[Recorded], Reply]:
    """Return a node shaped like the testnet samples but for these answers and a refused method."""

    def answer(request: Recorded) -> Reply:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request.rpc_id}
        if request.rpc_method == refused:
            reply["error"] = {"code": -32601, "message": f"the method {refused} does not exist"}
        elif request.rpc_method in answers:
            reply["result"] = answers[request.rpc_method or ""]
        else:
            return serve_testnet(request)
        return json_reply(reply)

    return answer


def test_node_of_another_chain_exits_3(tmp_path: Path) -> None:
    """--chain-id 31 against a chain-30 node: the page says so and the exit status is 3."""
    mainnet_node = node_like_testnet({"eth_chainId": "0x1e", "net_version": "30"})
    with scripted_server(mainnet_node) as server:
        done = node("--endpoint", f"{server.url}/v2/{KEY}", "--chain-id", "31", home=tmp_path)
    assert done.returncode == 3
    assert KEY not in done.stdout + done.stderr
    assert "Status: Serves Rootstock Mainnet, not " in done.stdout
    assert "{base}/v2/<KEY>" in done.stdout


HELD = ["0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed", "0xfb6916095ca1df60bb79ce92ce3ea74c37c5d359"]


def test_a_misconfigured_node_is_data(tmp_path: Path) -> None:
    """Disagreeing ids, held keys and a refused method, as data: false, a list, null and why."""
    answers = {"net_version": "33", "eth_accounts": HELD}  # a proxy gone wrong
    with scripted_server(node_like_testnet(answers, "eth_protocolVersion")) as server:
        done = node("--endpoint", f"{server.url}/{KEY}", "--format", "json", home=tmp_path)
    assert done.returncode == 3
    assert KEY not in done.stdout + done.stderr
    page = json.loads(done.stdout)
    assert_follows(page, "node")
    assert (page["headline"]["value"], page["headline"]["serves_chain_id"]) == ("ids_disagree", 31)
    fields = {f["key"]: f for section in page["sections"] for f in section["fields"]}
    assert fields["the_two_agree"]["value"] is False
    assert fields["network_id_net_version"]["value"] == 33
    held = fields["accounts_eth_accounts"]
    assert held["value"] == 2
    assert held["addresses"] == [to_checksum_address(a, 31) for a in HELD]
    refused = fields["protocol_version"]
    assert (refused["value"], refused["error"]) == (None, "node")
    assert refused["text"].startswith("eth_protocolVersion failed (node)")
    assert fields["latency"]["value"] <= fields["latency"]["slowest_ms"]
    assert fields["latency"]["requests"] == 6  # the seven questions, less the refused one
    assert "fastest of 6 requests" in fields["latency"]["text"]
