"""A hostile node posing as Rootstock Mainnet that forges one block (a pytest plugin, real HTTP).

In front of the devnet's test network it claims chain id 30 and mainnet's genesis hash and,
while `forging`, serves block FORGED_AT with another hash and its transactions turned into
21,000,000 RBTC transfers to 0x…dEaD (its transactions, receipts and logs name the forged
hash too). Everything else is forwarded, batches call by call; the honest blocks after it
keep their real parent hash, which contradicts the forged one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from explorer.saved.directory import CacheDirectory
from explorer.saved.store import ChainIdentity
from explorer.services.networks import MAINNET, MAINNET_GENESIS
from tests.helpers.devnet import Devnet
from tests.helpers.pruned import OldState, PrunedNode

FORGED_AT = 100
FORGED_HASH = "0x" + "f0" * 32
DEAD = "0x000000000000000000000000000000000000dead"
FORGED_VALUE = hex(21_000_000 * 10**18)
FORTUNE = "21,000,000"
BLOCK_READS = ("eth_getBlockByNumber", "eth_getBlockByHash")


def poisoned(text: str) -> bool:
    """Tell whether a text shows the forged block (its hash, 0x…dEaD or the fortune)."""
    return FORGED_HASH in text or DEAD in text.lower() or FORTUNE in text


async def mainnet_was_used(root: Path) -> None:
    """Remember that mainnet's public node served mainnet (as after a session on it)."""
    directory = CacheDirectory(root)
    await directory.remember(MAINNET.endpoint(None), ChainIdentity(30, MAINNET_GENESIS))
    await directory.aclose()


@pytest.fixture
def hostile(devnet: Devnet) -> Iterator[ForgingNode]:
    """Yield a node posing as mainnet that forges block 100."""
    node = ForgingNode(devnet.url("testnet"))
    yield node
    node.close()


@pytest.fixture
def honest(devnet: Devnet) -> Iterator[ForgingNode]:
    """Yield another endpoint of the same chain (as the hostile one claims) telling the truth."""
    node = ForgingNode(devnet.url("testnet"))
    node.forging = False
    yield node
    node.close()


def forged(block: dict[str, Any]) -> dict[str, Any]:
    """Return a block with another hash, mined by 0x…dEaD, every transaction a fortune to it."""
    transactions = [
        {**tx, "to": DEAD, "value": FORGED_VALUE, "blockHash": FORGED_HASH}
        if isinstance(tx, dict)
        else tx
        for tx in block.get("transactions") or []
    ]
    return {**block, "hash": FORGED_HASH, "miner": DEAD, "transactions": transactions}


class ForgingNode(PrunedNode):
    """A relay to the devnet that says it is mainnet and forges a block while `forging`."""

    def __init__(self, target: str) -> None:
        super().__init__(target, OldState.KEPT)
        self.forging = True

    def _pruned(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """Answer the chain's identity as mainnet's; None for the rest (forwarded)."""
        said = {"eth_chainId": "0x1e", "net_version": "30"}.get(str(call.get("method")))
        return None if said is None else {"jsonrpc": "2.0", "id": call.get("id"), "result": said}

    def _forward(self, body: Any) -> Any:
        """Ask the devnet; return its answer as this node tells it (block 0, the forgery)."""
        answer: dict[str, Any] = super()._forward(body)
        result = answer.get("result")
        if isinstance(result, dict) and body.get("method") in BLOCK_READS:
            answer["result"] = self._block(result)
        elif self.forging and "result" in answer:
            answer["result"] = self._in_forged_block(result)
        return answer

    def _in_forged_block(self, result: Any) -> Any:
        """Return a transaction, receipt or log list with the forged block's hash where it is."""
        if isinstance(result, list):
            return [self._in_forged_block(item) for item in result]
        if isinstance(result, dict) and result.get("blockNumber") == hex(FORGED_AT):
            return {**result, "blockHash": FORGED_HASH}
        return result

    def _block(self, block: dict[str, Any]) -> dict[str, Any]:
        """Return a block as this node tells it."""
        number = int(block["number"], 16)
        if number == 0:
            return {**block, "hash": MAINNET_GENESIS}
        if number == 1:
            return {**block, "parentHash": MAINNET_GENESIS}
        return forged(block) if number == FORGED_AT and self.forging else block
