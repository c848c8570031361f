"""A node in front of the devnet that lies about one address's state (real HTTP, on purpose).

It answers the address's balance and nonce reads at explicit blocks as a node that contradicts
itself would: balances at random (a different one at each read of the same block), a nonce that
goes down from a block on, or a balance of 0x0 before a block (old state it answers as zero).
Everything else is forwarded to the devnet, batches call by call.
"""

from __future__ import annotations

import enum
import random
from typing import Any

from tests.helpers.pruned import OldState, PrunedNode


class Lie(enum.Enum):
    """How the node lies about the address."""

    RANDOM_BALANCES = "a new random balance at every read"
    NONCE_DOWN = "the nonce three lower from a block on"
    ZEROS_BEFORE = "a balance of 0x0 before a block"


class LyingNode(PrunedNode):
    """A relay to the devnet that lies about one address's state at explicit blocks."""

    def __init__(self, target: str, address: str, lie: Lie, since: int = 0) -> None:
        super().__init__(target, OldState.KEPT)
        self.address = address.lower()
        self.lie = lie
        self.since = since
        self.random = random.Random(29)

    def _pruned(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """Return the lie for a read of the address at an explicit block, else None."""
        params = call.get("params") or []
        method = call.get("method")
        if len(params) < 2 or str(params[0]).lower() != self.address:
            return None
        block = params[1]
        if not (isinstance(block, str) and block.startswith("0x")):
            return None
        number = int(block, 16)
        value = self._lie(str(method), number, call)
        return None if value is None else {"jsonrpc": "2.0", "id": call.get("id"), "result": value}

    def _lie(self, method: str, number: int, call: dict[str, Any]) -> str | None:
        """Return the false answer of one read (None: the truth)."""
        if self.lie is Lie.RANDOM_BALANCES and method == "eth_getBalance" and number > 0:
            return hex(self.random.randrange(1, 10**21))
        nonce_read = method == "eth_getTransactionCount" and number >= self.since
        if self.lie is Lie.NONCE_DOWN and nonce_read:
            true = int(self._forward(call)["result"], 16)
            return hex(max(true - 3, 0))
        if self.lie is Lie.ZEROS_BEFORE and method == "eth_getBalance" and number < self.since:
            return "0x0"
        return None
