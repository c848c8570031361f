"""In-process devnet nodes for the node's own tests: a small seeded history, built once."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from explorer.devnet.errors import RpcFailure
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.seed import SMALL

QUANTITY = re.compile(r"^0x(0|[1-9a-f][0-9a-f]*)$")
DATA = re.compile(r"^0x([0-9a-f]{2})*$")


@pytest.fixture(scope="session")
def small_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache dir holding the small seeded history of both networks."""
    cache = tmp_path_factory.mktemp("devnet-cache")
    for chain_id in (30, 31):
        open_node(chain_id, cache_dir=cache, seed=SMALL)
    return cache


@pytest.fixture(scope="session")
def node(small_cache: Path) -> DevnetNode:
    """A shared test-network node: read-only tests only."""
    return open_node(31, cache_dir=small_cache, seed=SMALL)


@pytest.fixture
def fresh_node(small_cache: Path) -> DevnetNode:
    """A node of its own, loaded from the snapshot, for tests that change the chain."""
    return open_node(31, cache_dir=small_cache, seed=SMALL)


@pytest.fixture(scope="session")
def main_node(small_cache: Path) -> DevnetNode:
    """A shared main-network node."""
    return open_node(30, cache_dir=small_cache, seed=SMALL)


def failure(node: DevnetNode, method: str, *params: Any) -> RpcFailure:
    """The RpcFailure a call raises (the test fails if it succeeds)."""
    with pytest.raises(RpcFailure) as caught:
        node.handle(method, list(params))
    return caught.value


def spy_on(monkeypatch: pytest.MonkeyPatch, owner: type, name: str) -> list[Any]:
    """Record the argument of every call of owner.name(self, argument); it still runs."""
    seen: list[Any] = []
    real = getattr(owner, name)

    def spy(self: Any, argument: Any) -> Any:
        seen.append(argument)
        return real(self, argument)

    monkeypatch.setattr(owner, name, spy)
    return seen
