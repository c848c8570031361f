"""`explorer trace` as a process on the devnet: text, JSON against its schema, exit codes."""

from __future__ import annotations

import subprocess
from typing import Any

from tests.helpers.cli import explorer
from tests.helpers.devnet import Devnet
from tests.helpers.schemas import command_json, schema_errors
from tests.helpers.trace import INSIDE_STORIES

MISSING = "0x" + "ab" * 32


def trace(devnet: Devnet, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer trace` against the devnet's test network; the key appears nowhere."""
    done = explorer("trace", *args, "--endpoint", devnet.url("testnet"))
    assert devnet.key not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done


def story(devnet: Devnet, name: str) -> str:
    """Return the hash of one of the inside stories."""
    return str(devnet.manifest()["inside"][name])


def test_every_story_s_json_follows_the_schema(devnet: Devnet) -> None:
    """Amounts as decimal strings, numbers as numbers, addresses checksummed, enums as words."""
    for name in INSIDE_STORIES:
        data: dict[str, Any] = command_json(
            "trace", "trace", story(devnet, name), "--yes", "--endpoint", devnet.url("testnet"),
            chain_id=31, key=devnet.key,
        )  # fmt: skip
        assert data["faithful"], name
        assert data["calls"][0]["type"] == "call"
        assert data["rules"]["network"] == "regtest"


def test_the_schema_refuses_what_the_rules_forbid() -> None:
    """An amount given as a number and a lowercase address are refused."""
    move = {"kind": "native", "asset": "native", "from": "0x" + "ab" * 20,
            "to": "0x" + "2" * 40, "amount": 5, "depth": 0}  # fmt: skip
    errors = schema_errors({"transfers": [move]}, "trace", chain_id=31)
    assert any("amount" in error for error in errors)
    assert any(".from" in error for error in errors)


def test_text_says_faithful_first_then_the_tree_trail_and_diff(devnet: Devnet) -> None:
    """The verdict is the second line; the deep call's tree is indented by depth."""
    done = trace(devnet, story(devnet, "deep_call"))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Faithful (replayed here)")
    for heading in ("Calls", "Money trail", "State diff", "Notes"):
        assert heading in lines
    assert any(line.startswith("  " * 6 + "CALL") for line in lines)  # the payee, depth 5


def test_node_source_on_a_node_without_traces_is_an_error_in_words(devnet: Devnet) -> None:
    """The service serves no trace method: `--source node` says so and exits 3."""
    done = trace(devnet, story(devnet, "deep_call"), "--source", "node", "--no-cache")
    assert done.returncode == 3
    assert "serves no trace" in done.stderr


def test_node_source_reads_the_rskj_node_s_own_trace(devnet_trace: Devnet) -> None:
    """A node with rskj's debug module answers in one request; its JSON follows the schema."""
    tx_hash = str(devnet_trace.manifest()["inside"]["caught_revert"])
    data = command_json("trace", "trace", tx_hash, "--source", "node", "--no-cache",
                        "--endpoint", devnet_trace.url("testnet"), chain_id=31)  # fmt: skip
    assert (data["source"], data["faithful"], data["state_diff"]) == ("node-trace", True, False)
    reverted = [c for c in data["calls"][0]["calls"] if c["error"]]
    assert [c["error"]["kind"] for c in reverted] == ["reverted"]


def test_a_replay_over_the_allowed_requests_asks_for_yes(devnet: Devnet) -> None:
    """Without --yes a costly replay stops before reading state and exits 4 with its estimate."""
    done = trace(devnet, story(devnet, "wide_call"), "--no-cache")
    assert done.returncode == 4
    assert done.stderr.startswith("ask: this replay would cost about")
    assert "--yes" in done.stderr
    assert done.stdout == ""


def test_not_found_and_invalid_input_exit_codes(devnet: Devnet) -> None:
    """An unknown hash exits 1; anything that is not a hash exits 2."""
    missing = trace(devnet, MISSING)
    assert missing.returncode == 1
    assert "not known" in missing.stderr
    invalid = trace(devnet, "0x1234")
    assert invalid.returncode == 2
    assert "invalid input" in invalid.stderr
