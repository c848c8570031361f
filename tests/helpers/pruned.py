"""Nodes in front of the devnet that keep no old state, or take no batches (real HTTP, on purpose).

`PrunedNode` forwards every call to the devnet but answers balance and nonce reads at blocks
before `oldest` as a pruned node does: rskj's error ("State not found for
block with hash …", -32600), or `0x0` (some providers answer zeros for state they lack). It
takes batches and answers each call in them the same way. `no_batches=True` refuses every
batch as a node without batch support does (-32600 on HTTP 400).
"""

from __future__ import annotations

import enum
from typing import Any

import httpx

from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply

STATE_READS = ("eth_getBalance", "eth_getTransactionCount")


class OldState(enum.Enum):
    """What a node says for state it does not keep."""

    KEPT = "kept"
    ERROR = "error"
    ZEROS = "zeros"


class PrunedNode:
    """A relay to the devnet with a state horizon and an optional refusal of batches."""

    def __init__(
        self, target: str, old_state: OldState, oldest: int = 0, no_batches: bool = False
    ) -> None:
        self.target = target
        self.old_state = old_state
        self.oldest = oldest
        self.no_batches = no_batches
        self.http = httpx.Client(timeout=60)
        self.calls: list[str] = []  # every JSON-RPC method asked, batched or not
        self.batches = 0
        self.server = ScriptedServer(self._answer)

    @property
    def url(self) -> str:
        """Return the node's endpoint (no key: it adds the devnet's)."""
        return self.server.url

    def close(self) -> None:
        """Stop the node."""
        self.server.close()
        self.http.close()

    def _forward(self, body: Any) -> Any:
        """Ask the devnet."""
        return self.http.post(self.target, json=body).json()

    def _pruned(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """Return the answer a pruned node gives to a call, or None to forward it."""
        params = call.get("params") or []
        if self.old_state is OldState.KEPT or call.get("method") not in STATE_READS:
            return None
        block = params[1] if len(params) > 1 else "latest"
        if not (isinstance(block, str) and block.startswith("0x")):
            return None
        if int(block, 16) >= self.oldest:
            return None
        if self.old_state is OldState.ZEROS:
            return {"jsonrpc": "2.0", "id": call.get("id"), "result": "0x0"}
        message = f"State not found for block with hash 0x{int(block, 16):064x}"
        error = {"code": -32600, "message": message}
        return {"jsonrpc": "2.0", "id": call.get("id"), "error": error}

    def _answer(self, request: Recorded) -> Reply:
        """Answer one request or batch."""
        body = request.json
        calls = body if isinstance(body, list) else [body]
        self.calls += [str(call.get("method")) for call in calls if isinstance(call, dict)]
        if isinstance(body, list):
            self.batches += 1
            if self.no_batches:
                refusal = {"code": -32600, "message": "batch requests are not supported"}
                return json_reply({"jsonrpc": "2.0", "id": None, "error": refusal}, 400)
        answers = [self._pruned(call) or self._forward(call) for call in calls]
        return json_reply(answers if isinstance(body, list) else answers[0])
