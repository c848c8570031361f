"""`explorer trace` as a process on the devnet: text, JSON against its schema, exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import jsonschema

from explorer.chain.checksum import to_checksum_address
from tests.helpers.cli import REPO, explorer
from tests.helpers.devnet import Devnet
from tests.helpers.trace import INSIDE_STORIES

SCHEMA = json.loads((REPO / "docs" / "trace.schema.json").read_text())
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
    """Amounts as decimal strings, numbers as numbers, addresses checksummed, enums fixed."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for name in INSIDE_STORIES:
        done = trace(devnet, story(devnet, name), "--format", "json", "--yes")
        assert done.returncode == 0, (name, done.stderr)
        data: dict[str, Any] = json.loads(done.stdout)
        errors = sorted(validator.iter_errors(data), key=str)
        assert errors == [], (name, [e.message for e in errors[:3]])
        assert data["faithful"], name
        sender = data["calls"][0]["from"]
        assert sender == to_checksum_address(sender, 31)


def test_the_schema_refuses_what_the_rules_forbid() -> None:
    """The schema sees an amount given as a number and a lowercase-only mistake of type."""
    validator = jsonschema.Draft202012Validator(SCHEMA)
    bad = {"transfers": [{"kind": "native", "asset": "native", "from": "0x" + "1" * 40,
                          "to": "0x" + "2" * 40, "amount": 5, "depth": 0}]}  # fmt: skip
    assert any("amount" in str(e.path) for e in validator.iter_errors(bad))


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
    done = explorer("trace", tx_hash, "--source", "node", "--format", "json", "--no-cache",
                    "--endpoint", devnet_trace.url("testnet"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    jsonschema.validate(data, SCHEMA)
    assert (data["source"], data["faithful"], data["state_diff"]) == ("node-trace", True, False)


def test_a_replay_over_the_allowed_requests_asks_for_yes(devnet: Devnet, tmp_path: Path) -> None:
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
