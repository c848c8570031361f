"""Devnet test helpers: the session devnets and raw JSON-RPC clients over HTTP."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc


@pytest.fixture(scope="session")
def http() -> Iterator[httpx.Client]:
    """One HTTP client for the session."""
    with httpx.Client(timeout=60) as client:
        yield client


@pytest.fixture(scope="session")
def rpc(devnet: Devnet, http: httpx.Client) -> RawRpc:
    """Raw client of the test network."""
    return RawRpc(http, devnet.url("testnet"))


@pytest.fixture(scope="session")
def rpc_main(devnet: Devnet, http: httpx.Client) -> RawRpc:
    """Raw client of the main network."""
    return RawRpc(http, devnet.url("mainnet"))


@pytest.fixture(scope="session")
def rpc_limited(devnet_limited: Devnet, http: httpx.Client) -> RawRpc:
    """Raw client of the limited test network (tiny log limits, 2 s blocks)."""
    return RawRpc(http, devnet_limited.url("testnet"))
