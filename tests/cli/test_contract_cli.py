"""`explorer contract` as a process against the devnet: every proxy kind, matching, JSON schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from explorer.chain.checksum import to_checksum_address
from tests.helpers.devnet import Devnet
from tests.helpers.schemas import assert_follows

REPO = Path(__file__).resolve().parents[2]
HARDHAT = REPO / "tests/fixtures/hardhat-notary"


def run_contract(devnet: Devnet, data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `explorer contract ARGS` on the test network with its own saved data; no key shown."""
    done = subprocess.run(
        [sys.executable, "-m", "explorer", "contract", *args, "--endpoint", devnet.url()],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "XDG_DATA_HOME": str(data_dir), "EXPLORER_CACHE_DIR": str(data_dir)},
        timeout=300,
    )
    assert devnet.key not in done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    return done


def contract_json(devnet: Devnet, data_dir: Path, *args: str) -> dict[str, Any]:
    """Return the JSON of `explorer contract --format json`, checked against its schema."""
    done = run_contract(devnet, data_dir, *args, "--format", "json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    assert_follows(data, "contract")
    return data


@pytest.fixture
def proxies(devnet: Devnet) -> dict[str, Any]:
    """Return the manifest's proxies of the test network."""
    return dict(devnet.manifest()["proxies"])


def test_each_proxy_kind_names_its_implementation(
    devnet: Devnet, proxies: dict[str, Any], tmp_path: Path
) -> None:
    """EIP-1967 (upgraded: since the upgrade), beacon, UUPS and a clone each name their target."""
    cases = [
        ("proxy", "eip1967", "box_v2"),
        ("beacon_proxy", "beacon", "greeter"),
        ("uups_proxy", "uups", "uups_counter"),
    ]
    for name, kind, target in cases:
        data = contract_json(devnet, tmp_path, proxies[name])
        proxy = data["proxy"]
        assert proxy["kind"] == kind
        assert proxy["implementation"] == to_checksum_address(proxies[target], 31)
        assert data["implementation"]["address"] == proxy["implementation"]
    upgraded = contract_json(devnet, tmp_path, proxies["proxy"])
    assert upgraded["proxy"]["since_block"] == proxies["proxy_upgrade_block"]
    assert [u["block"] for u in upgraded["upgrades"]][-1] == proxies["proxy_upgrade_block"]
    names = {f["name"] for f in upgraded["implementation"]["functions"]}
    assert {"increment", "setLabel", "retrieve"} <= names
    assert "store" not in names
    beacon = contract_json(devnet, tmp_path, proxies["beacon_proxy"])
    assert beacon["proxy"]["beacon"] == to_checksum_address(proxies["beacon"], 31)
    clone = contract_json(devnet, tmp_path, proxies["clones"][0])
    assert clone["proxy"]["kind"] == "clone"
    assert clone["proxy"]["implementation"] == to_checksum_address(proxies["vault"], 31)


def test_before_the_upgrade_the_old_implementation(
    devnet: Devnet, proxies: dict[str, Any], tmp_path: Path
) -> None:
    """At a block before the upgrade the proxy names BoxV1, whose functions include store."""
    before = str(proxies["proxy_upgrade_block"] - 1)
    data = contract_json(devnet, tmp_path, proxies["proxy"], "--block", before)
    assert data["block"] == int(before)
    assert data["proxy"]["implementation"] == to_checksum_address(proxies["box_v1"], 31)
    assert "store" in {f["name"] for f in data["implementation"]["functions"]}


def test_artifacts_match_and_are_kept(
    devnet: Devnet, proxies: dict[str, Any], tmp_path: Path
) -> None:
    """The Hardhat project matches the Notary exactly; the match is kept for the next run."""
    notary = proxies["notary"]
    plain = contract_json(devnet, tmp_path, notary)
    assert plain["code"]["source"] is None
    assert plain["code"]["functions_from"] == "bytecode"
    matched = contract_json(devnet, tmp_path, notary, "--artifacts", str(HARDHAT))
    source = matched["code"]["source"]
    assert source["match"] == "exact"
    assert source["contract"] == "contracts/Notary.sol:Notary"
    kept = contract_json(devnet, tmp_path, notary)  # no --artifacts: the saved data knows
    assert kept["code"]["source"]["match"] == "exact"
    text = run_contract(devnet, tmp_path, notary).stdout
    assert "Matches exactly: the artifact contracts/Notary.sol:Notary" in text
    assert "File a document's hash with a note" in text  # NatSpec from the artifact


def test_errors_and_plain_accounts(devnet: Devnet, tmp_path: Path) -> None:
    """A bad address is an input error; an account without code exits 1; a missing folder 2."""
    assert run_contract(devnet, tmp_path, "0x12").returncode == 2
    account = devnet.manifest()["accounts"][0]
    done = run_contract(devnet, tmp_path, account)
    assert done.returncode == 1
    assert "has no code" in done.stderr
    missing = run_contract(devnet, tmp_path, account, "--artifacts", str(tmp_path / "nowhere"))
    assert missing.returncode == 2
    assert "does not exist" in missing.stderr
