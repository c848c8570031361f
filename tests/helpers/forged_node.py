"""A node serving a real testnet block (798,248: seven transactions) — or it with one field forged.

Chain 31 with the real testnet genesis, so the block verifies under the testnet's rules as it
is; `forge` changes one field of the block, of a transaction or of a receipt before it is
served, as a lying node would.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rlp.codec import length_prefix

from explorer.services.networks import TESTNET_GENESIS
from tests.helpers.rskblocks import load
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply
from tests.helpers.testnet_node import genesis_block, serve_testnet

FIXTURE = "testnet-798248.json"
NUMBER = 798_248
HEAD = NUMBER + 40
Forgery = Callable[[dict[str, Any]], None]  # changes the served data in place


def _hashes_only(block: dict[str, Any]) -> dict[str, Any]:
    """Return the block as eth_getBlockBy* answers with `false`: transaction hashes only."""
    return {**block, "transactions": [tx["hash"] for tx in block["transactions"]]}


class ForgedNode:
    """Serves the fixture block, its transactions and receipts; `forge` edits what is served."""

    def __init__(self, forge: Forgery | None = None) -> None:
        self.data: dict[str, Any] = copy.deepcopy(load(FIXTURE))
        if forge is not None:
            forge(self.data)
        self.server = ScriptedServer(self._answer)

    @property
    def block(self) -> dict[str, Any]:
        """Return the served block, with full transactions."""
        return self.data["block"]  # type: ignore[no-any-return]

    @property
    def url(self) -> str:
        """Return the node's URL."""
        return self.server.url

    def methods(self) -> list[str]:
        """Return the methods asked so far, in order."""
        return [request.rpc_method or "" for request in self.server.requests]

    def close(self) -> None:
        """Stop serving."""
        self.server.close()

    def _block(self, params: list[Any]) -> Any:
        """Block 0 (the testnet genesis) or the fixture block by number or hash."""
        which = str(params[0]).lower()
        if which == "0x0":
            return genesis_block(TESTNET_GENESIS)
        if which not in (hex(NUMBER), self.block["hash"].lower()):
            return None
        return self.block if params[1] else _hashes_only(self.block)

    def _transaction(self, tx_hash: str) -> Any:
        """One of the block's transactions by hash."""
        return next((tx for tx in self.block["transactions"] if tx["hash"] == tx_hash), None)

    def _receipt(self, tx_hash: str) -> Any:
        """One of the block's receipts by transaction hash."""
        receipts = self.data["receipts"]
        return next((r for r in receipts if r["transactionHash"] == tx_hash), None)

    def _answer(self, request: Recorded) -> Reply:
        """Answer what the block and its neighbours' reads need; the rest as the testnet node."""
        method, params = request.rpc_method, request.params
        answers: dict[str, Callable[[], Any]] = {
            "eth_blockNumber": lambda: hex(HEAD),
            "eth_getBlockByNumber": lambda: self._block(params),
            "eth_getBlockByHash": lambda: self._block(params),
            "eth_getTransactionByHash": lambda: self._transaction(params[0]),
            "eth_getTransactionReceipt": lambda: self._receipt(params[0]),
            "eth_getBlockTransactionCountByNumber": lambda: hex(len(self.block["transactions"])),
            "eth_getUncleCountByBlockNumber": lambda: hex(len(self.block["uncles"])),
            "eth_getLogs": lambda: [],
        }
        if method in answers:
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": answers[method]()})
        return serve_testnet(request)


def nested_rlp(depth: int) -> bytes:
    """Return an empty string wrapped in depth RLP lists."""
    data = b"\x80"
    for _ in range(depth):
        data = length_prefix(len(data), 0xC0) + data
    return data


def deep_bridge_log(depth: int = 1000) -> Forgery:
    """Add to receipt 2 a legacy Bridge `release_btc` log whose RLP nests depth lists deep."""
    release_btc = "0x" + b"release_btc_topic".rjust(32, b"\0").hex()

    def forge(data: dict[str, Any]) -> None:
        receipt = data["receipts"][2]
        receipt["logs"].append(
            {
                "logIndex": hex(len(receipt["logs"]) + 40),
                "blockNumber": receipt["blockNumber"],
                "blockHash": receipt["blockHash"],
                "transactionHash": receipt["transactionHash"],
                "transactionIndex": receipt["transactionIndex"],
                "address": "0x0000000000000000000000000000000001000006",
                "data": "0x" + nested_rlp(depth).hex(),
                "topics": [release_btc],
            }
        )

    return forge
