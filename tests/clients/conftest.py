"""Clients nobody here wrote against the devnet: fixtures for web3.py and ethers 6.

Each client runs against both profiles (the hosted service, a bare rskj 9) and both networks.
ethers is the version pinned in package-lock.json, installed by `npm ci` when missing; its
tests are skipped only when no Node.js is installed, and say so.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from eth_account import Account

from tests.helpers.devnet import PROFILES, profile_devnet
from tests.helpers.devnet_client import RawRpc

HERE = Path(__file__).resolve().parent
NETWORKS = ("testnet", "mainnet")
CHAIN_IDS = {"testnet": 31, "mainnet": 30}
FUNDS = 10**18  # what a fresh account gets for a test: 1 RBTC
NPM_CI_TIMEOUT = 600


@dataclass(frozen=True)
class Target:
    """One network of one profile: the URL a client connects to, the facts of its seed."""

    profile: str
    network: str
    url: str
    rpc: RawRpc
    seed: dict[str, Any]

    @property
    def chain_id(self) -> int:
        """The network's chain id."""
        return CHAIN_IDS[self.network]


@pytest.fixture(scope="session")
def http() -> Iterator[httpx.Client]:
    """One HTTP client for the session."""
    with httpx.Client(timeout=60) as client:
        yield client


@pytest.fixture(params=[(p, n) for p in PROFILES for n in NETWORKS], ids="-".join)
def target(
    request: pytest.FixtureRequest, http: httpx.Client, tmp_path_factory: pytest.TempPathFactory
) -> Target:
    """Each profile and network in turn (each profile's devnet is shared by the session)."""
    profile, network = request.param
    devnet = profile_devnet(profile, tmp_path_factory)
    url = devnet.url(network)
    return Target(profile, network, url, RawRpc(http, url), devnet.manifest(network))


def funded_key(target: Target, value: int = FUNDS) -> str:
    """Return the private key of a new account that holds `value` wei (sent by a seeded user)."""
    fresh = Account.create()
    donor = Account.from_key(target.seed["private_keys"][-1])
    rpc = target.rpc
    fields = {
        "nonce": int(rpc("eth_getTransactionCount", donor.address, "pending"), 16),
        "gasPrice": int(rpc("eth_gasPrice"), 16),
        "gas": 21_000,
        "to": fresh.address,
        "value": value,
        "chainId": target.chain_id,
    }
    signed = donor.sign_transaction(fields)
    tx_hash = rpc("eth_sendRawTransaction", "0x" + signed.raw_transaction.hex())
    assert rpc("eth_getTransactionReceipt", tx_hash)["status"] == "0x1"  # instant mining
    return "0x" + bytes(fresh.key).hex()


@pytest.fixture(scope="session")
def node_modules() -> Path:
    """Return tests/clients/node_modules with the pinned ethers (npm ci when missing).

    Skip, saying why, only when Node.js is not installed.
    """
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("Node.js (node and npm) is not installed: the ethers 6 tests need it")
    modules = HERE / "node_modules"
    installed = modules / "ethers" / "package.json"
    if not installed.exists():
        result = subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=NPM_CI_TIMEOUT,
        )
        assert result.returncode == 0, f"npm ci failed:\n{result.stdout}\n{result.stderr}"
    return modules
