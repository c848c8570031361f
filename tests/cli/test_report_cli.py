"""`explorer report` as a subprocess on the devnet: text and JSON pages, exit codes, no key."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.helpers.cli import explorer, report
from tests.helpers.devnet import PROFILES
from tests.helpers.schemas import assert_follows

MISSING = "0x" + "ab" * 32


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_failed_transaction_report_says_failed_and_why(devnet: Any) -> None:
    """The transaction report starts with the unmistakable status and the revert reason."""
    done = report(devnet, devnet.manifest()["failed_tx"])
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[1].startswith("Status: FAILED: reverted with")
    assert "== Receipt" in done.stdout
    assert "== Signature" in done.stdout


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_block_report_has_the_verified_merge_mining_panel(devnet: Any) -> None:
    """A block report decodes the merge-mining fields and verifies them, as the window does."""
    done = report(devnet, "100", "--format", "json")
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    sections = {section["title"]: section for section in page["sections"]}
    verdict = sections["Merge mining"]["fields"][0]
    assert verdict["label"] == "Verified"
    assert verdict["value"] is True
    assert verdict["text"].startswith("Yes")
    assert page["raw"]["number"] == hex(100)


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_address_report_is_checksummed_for_the_chain(devnet: Any) -> None:
    """An address report shows the EIP-1191 checksum of chain 31 and the balance."""
    account = devnet.manifest()["accounts"][0]
    done = report(devnet, account)
    assert done.returncode == 0, done.stderr
    assert "Balance" in done.stdout
    assert "tRBTC" in done.stdout
    assert account not in done.stdout.split("== Overview")[1].split("\n")[1]


def test_not_found_and_invalid_input_exit_codes(devnet: Any) -> None:
    """Not found exits 1 and says so; input that cannot be valid exits 2 without a request."""
    missing = report(devnet, MISSING)
    assert missing.returncode == 1
    assert "not found" in missing.stderr
    invalid = report(devnet, "0x12345678901234567890")
    assert invalid.returncode == 2
    assert "invalid input" in invalid.stderr


def test_wrong_key_is_an_auth_error_without_the_key(devnet: Any) -> None:
    """A refused key is a remote error (exit 3) whose message does not repeat the key."""
    wrong = devnet.base("testnet") + "/this-key-is-wrong-0123456789"
    done = explorer("report", "latest", "--endpoint", wrong)
    assert done.returncode == 3
    assert "auth" in done.stderr
    assert "this-key-is-wrong-0123456789" not in done.stderr + done.stdout


def test_argument_errors_do_not_echo_the_key() -> None:
    """An argument error names the bad argument but masks a key found in the command line."""
    secret = "this-secret-key-0123456789abcdef"
    url = f"https://rpc.example/{secret}"
    done = explorer("report", "latest", "--endpoint", url, url)
    assert done.returncode == 2
    assert "unrecognized arguments" in done.stderr
    assert secret not in done.stderr + done.stdout


def test_a_json_report_is_data(devnet: Any) -> None:
    """Numbers as numbers, amounts in wei as decimal strings, hex, checksums, ISO 8601 times."""
    manifest = devnet.manifest()
    block = json.loads(report(devnet, "4", "--format", "json").stdout)
    assert_follows(block, "report")
    overview = {f["key"]: f for f in block["sections"][0]["fields"]}
    assert overview["number"]["value"] == 4
    assert overview["timestamp"]["value"] == "2025-01-01T00:02:00Z"
    assert overview["gas_used"]["value"] > 0
    assert overview["transactions"]["value"] == len(block["transactions"])
    assert overview["paid_fees"] == {**overview["paid_fees"], "type": "amount", "unit": "wei"}
    assert int(overview["paid_fees"]["value"]) > 0
    assert overview["miner"]["value"].startswith("0x")
    assert overview["miner"]["value"] != overview["miner"]["value"].lower()  # checksummed
    tx = json.loads(report(devnet, manifest["plain_transfer"], "--format", "json").stdout)
    assert_follows(tx, "report")
    fields = {f["key"]: f["value"] for section in tx["sections"] for f in section["fields"]}
    assert fields["value"] == str(10**18)
    assert fields["nonce"] == int(tx["raw"]["transaction"]["nonce"], 16)
    assert fields["gas_used"] == 21_000
    assert fields["transaction_hash"] == manifest["plain_transfer"]
    assert tx["chain_id"] == 31
    assert tx["headline"]["value"] == "success"
    shown_as_is = ("transaction_hash", "from", "to", "raw_input")  # their text is their value
    assert all("text" not in f for f in tx["sections"][0]["fields"] if f["key"] in shown_as_is)
