"""In-process devnet nodes for the node's own tests: a small seeded history, built once."""

from __future__ import annotations

from pathlib import Path

import pytest

from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.seed import SMALL
from tests.helpers.devnet import devnet_cache_dir


@pytest.fixture(scope="session")
def small_cache() -> Path:
    """Return the shared snapshot cache, holding the small seeded history of both networks.

    Snapshots are named by their seed's key and written atomically, so every session and xdist
    worker shares one build (`make setup` makes it); tests that write a cache use their own.
    """
    cache = devnet_cache_dir()
    for chain_id in (30, 31):
        open_node(chain_id, cache_dir=cache, seed=SMALL)
    return cache


@pytest.fixture(scope="session")
def node(small_cache: Path) -> DevnetNode:
    """Return a shared test-network node: read-only tests only."""
    return open_node(31, cache_dir=small_cache, seed=SMALL)


@pytest.fixture
def fresh_node(small_cache: Path) -> DevnetNode:
    """Return a node of its own, loaded from the snapshot, for tests that change the chain."""
    return open_node(31, cache_dir=small_cache, seed=SMALL)


@pytest.fixture(scope="session")
def main_node(small_cache: Path) -> DevnetNode:
    """Return a shared main-network node."""
    return open_node(30, cache_dir=small_cache, seed=SMALL)
