"""Fixtures for the client tests: scripted servers over real sockets and endpoints for them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from explorer.rpc.endpoint import Endpoint
from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import ScriptedServer
from tests.helpers.testnet_node import serve_testnet


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    """Yield a scripted server whose fallback answers like a testnet node."""
    node = ScriptedServer(serve_testnet)
    yield node
    node.close()


@pytest.fixture
def endpoint(server: ScriptedServer) -> Endpoint:
    """Return an endpoint with the secret key in the path, pointing at the server."""
    return Endpoint.parse(f"{server.url}/{API_KEY}")


@pytest.fixture(params=["aiohttp", "httpx"])
def plain_httpx(request: pytest.FixtureRequest) -> bool:
    """Run a test over both HTTP paths: the aiohttp fast path and plain httpx."""
    return bool(request.param == "httpx")
