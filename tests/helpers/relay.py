"""A scripted server relaying to a real node until told to fail; it records what passed."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer

RELAY_KEY = "relay-key-000000001"
FULL_BLOCK_READS = ("eth_getBlockByNumber", "eth_getBlockByHash")


class Relay:
    """Forwards every request to target (a devnet URL with its key), or answers 503 when failing."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.failing = False
        self.full_block_delay = 0.0  # seconds added to reads of blocks with full transactions
        self.server = ScriptedServer(self._relay)

    @property
    def url(self) -> str:
        """Return the relay's endpoint (its own key in the path)."""
        return f"{self.server.url}/{RELAY_KEY}"

    def _relay(self, request: Recorded) -> Reply:
        """Forward one request, or fail it."""
        if self.failing:
            return Reply(503, b"Service Unavailable", {"Content-Type": "text/plain"})
        if request.rpc_method in FULL_BLOCK_READS and request.params[1:] == [True]:
            time.sleep(self.full_block_delay)
        forward = urllib.request.Request(
            self.target, request.body, {"Content-Type": "application/json"}
        )
        try:
            with urllib.request.urlopen(forward, timeout=30) as answer:
                return Reply(answer.status, answer.read(), {"Content-Type": "application/json"})
        except urllib.error.HTTPError as error:
            return Reply(error.code, error.read(), {"Content-Type": "application/json"})

    def close(self) -> None:
        """Stop the relay."""
        self.server.close()
