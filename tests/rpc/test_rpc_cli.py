"""`explorer rpc` as a subprocess: JSON on stdout, kind and message on stderr, exit codes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import ScriptedServer, drop, raw, rpc_error, scripted_server
from tests.helpers.testnet import load
from tests.helpers.testnet_node import ADDRESS, BLOCK_HASH, TX_HASH

REPO = Path(__file__).resolve().parents[2]


def explorer_rpc(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run `python -m explorer rpc ARGS`; check the key is in neither output stream."""
    environment = {**os.environ, **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "rpc", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=environment,
        timeout=120,
    )
    assert API_KEY not in done.stdout
    assert API_KEY not in done.stderr
    assert "Traceback" not in done.stderr
    return done


def test_prints_the_raw_result_as_json(server: ScriptedServer) -> None:
    """A block comes out as the node's JSON; params are JSON when they parse, else strings."""
    done = explorer_rpc(f"{server.url}/{API_KEY}", "eth_getBlockByNumber", "0x1b4", "false")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == load("block-0x1b4-header-only.json")
    assert server.requests[0].params == ["0x1b4", False]
    assert server.requests[0].path == f"/{API_KEY}"


def test_null_result_prints_null(server: ScriptedServer) -> None:
    """Not found is not failed: `null` and exit 0."""
    done = explorer_rpc(f"{server.url}/{API_KEY}", "eth_getTransactionReceipt", "0x" + "e" * 64)
    assert (done.returncode, done.stdout.strip()) == (0, "null")


def test_object_params_and_key_from_option_and_environment(server: ScriptedServer) -> None:
    """Objects parse as JSON; the key may come from --key or EXPLORER_API_KEY."""
    log_filter = json.dumps({"blockHash": BLOCK_HASH, "address": ADDRESS})
    by_option = explorer_rpc(server.url, "eth_getLogs", log_filter, "--key", API_KEY)
    by_env = explorer_rpc(server.url, "eth_getBalance", ADDRESS, env={"EXPLORER_API_KEY": API_KEY})
    assert by_option.returncode == by_env.returncode == 0
    assert json.loads(by_option.stdout)[0]["transactionHash"] == TX_HASH
    assert json.loads(by_env.stdout) == "0x0de0b6b3a7640000"
    assert [r.path for r in server.requests] == [f"/{API_KEY}"] * 2


@pytest.mark.parametrize(
    "args",
    [
        ["eth_getBalance", "0x1234"],
        ["eth_getBlockByNumber", "latest", "yes"],
        ["eth_getLogs", json.dumps({"blockHash": BLOCK_HASH, "fromBlock": "0x1"})],
        ["eth_getBlockByHash"],
        ["eth_sign", ADDRESS, "0x00"],
    ],
)
def test_input_errors_exit_2_and_send_nothing(server: ScriptedServer, args: list[str]) -> None:
    """Bad parameters or methods are input errors: exit 2, nothing sent."""
    done = explorer_rpc(f"{server.url}/{API_KEY}", *args)
    assert done.returncode == 2
    assert done.stderr.startswith("error (invalid input): ")
    assert done.stdout == ""
    assert server.requests == []


def test_raw_sends_unlisted_methods(server: ScriptedServer) -> None:
    """--raw passes a method outside the service's list through unchecked."""
    server.script(rpc_error(-32601, "The method rsk_foo does not exist/is not available"))
    done = explorer_rpc(f"{server.url}/{API_KEY}", "rsk_foo", "--raw")
    assert done.returncode == 3
    assert "error (node): the node does not offer this method" in done.stderr
    assert "node error -32601" in done.stderr
    assert server.rpc_methods == ["rsk_foo"]


@pytest.mark.parametrize(
    ("script", "kind"),
    [
        ([raw(401, "bad key")], "auth"),
        ([raw(429, headers={"Retry-After": "600"})], "rate limited"),
        ([rpc_error(-32000, f"no such key {API_KEY}")], "node"),
        ([raw(200, "<html>hello</html>")], "malformed response"),
        ([drop()] * 4, "transport"),
    ],
)
def test_remote_errors_exit_3(server: ScriptedServer, script: list[object], kind: str) -> None:
    """Failures on the other side: exit 3, kind and one-line message, no key anywhere."""
    server.script(*script)  # type: ignore[arg-type]
    done = explorer_rpc(f"{server.url}/{API_KEY}", "eth_blockNumber")
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.startswith(f"error ({kind}): ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_unreachable_host_is_a_remote_error() -> None:
    """Nothing listening: a transport error, exit 3."""
    with scripted_server() as gone:
        url = f"{gone.url}/{API_KEY}"
    done = explorer_rpc(url, "eth_chainId", "--timeout", "2")
    assert done.returncode == 3
    assert "cannot connect" in done.stderr


def test_plain_http_elsewhere_is_refused() -> None:
    """http:// to another host needs --insecure-http; the message hides the key."""
    done = explorer_rpc(f"http://node.example.org/{API_KEY}", "eth_chainId")
    assert done.returncode == 2
    assert "clear text" in done.stderr


def test_argument_errors_do_not_echo_the_key() -> None:
    """The argument parser's own errors exit 2 and scrub the key."""
    done = explorer_rpc(f"https://rpc.testnet.rootstock.io/{API_KEY}")
    assert done.returncode == 2
    assert "METHOD" in done.stderr
    url = f"https://rpc.testnet.rootstock.io/{API_KEY}"
    done = explorer_rpc(url, "eth_chainId", f"--bogus={API_KEY}")
    assert done.returncode == 2
    assert "unrecognized arguments (1 word); see --help" in done.stderr
    assert API_KEY not in done.stderr
    assert "--bogus" not in done.stderr  # nothing typed is echoed


def test_help_documents_exit_codes() -> None:
    """--help exits 0 and explains the exit codes."""
    done = explorer_rpc("--help")
    assert done.returncode == 0
    assert "Exit codes" in done.stdout
    assert "eth_getLogs" in done.stdout


def test_an_unknown_method_is_named_with_the_nearest_and_the_list(server: ScriptedServer) -> None:
    """A mistyped method: the nearest known one and every method of the service, nothing sent."""
    done = explorer_rpc(f"{server.url}/{API_KEY}", "eth_getblockbynumber")
    assert done.returncode == 2
    assert "unknown method 'eth_getblockbynumber' (did you mean eth_getBlockByNumber?)" in (
        done.stderr
    )
    assert "eth_blockNumber, eth_call, eth_chainId," in done.stderr
    assert "the service has" not in done.stderr
    assert server.requests == []


def test_a_url_without_a_key_says_a_key_is_wanted(server: ScriptedServer) -> None:
    """A 401 to a request that carried no key is no refusal of a key."""
    server.script(raw(401, "Unauthorized: API key missing from the path"))
    done = explorer_rpc(server.url, "eth_blockNumber", env={"EXPLORER_API_KEY": ""})
    assert done.returncode == 3
    assert (
        done.stderr == "error (auth): 127.0.0.1 asks for an API key (HTTP 401) and none was given\n"
    )
    server.script(raw(401, "bad key"))
    keyed = explorer_rpc(f"{server.url}/{API_KEY}", "eth_blockNumber")
    assert "refused the API key (HTTP 401" in keyed.stderr


def test_a_closed_port_is_named_with_its_port() -> None:
    with scripted_server() as gone:
        port = gone.url.rsplit(":", 1)[1]
    done = explorer_rpc(f"http://127.0.0.1:{port}/{API_KEY}", "eth_chainId", "--timeout", "2")
    assert done.returncode == 3
    assert done.stderr == f"error (transport): cannot connect to 127.0.0.1:{port}\n"
