"""A fallback action for the scripted server that answers from the real testnet samples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer.services.networks import TESTNET_GENESIS
from tests.helpers.scripted_server import Recorded, Reply, json_reply
from tests.helpers.testnet import load

BLOCK_HASH = "0xf1652d8322a880e520f996f7d28b645814a58a202d7d2ab7f058e5566fe4f9f3"
TX_HASH = "0x359f6010957a25b885387e3201c9262c71f91e47ff487c49e5168a54fc8ea110"
EIP155_HASH = "0x507e901e6d5d22f3218937d74e2f6c2118ff53cec73b890b808b78cb3f80cfa3"
REMASC_HASH = "0x97914bf800adafc822d8ff5d2d4014999c57eff42f7326a0ce4387cafeaec5e6"
TX_BLOCK_HASH = "0x89d446b103322c8f35cddb4e11185997f747b3748bb42d3b7b3bbe214748af85"
ADDRESS = "0x3843d583b0f087ec7e3476c3495e52dbde5280b3"


def _transaction(params: list[Any]) -> Any:
    """Transactions by hash; 0x359f wrapped in a one-element array like the spec's sample."""
    files = {
        TX_HASH: "tx-0x359f.json",
        EIP155_HASH: "tx-0x507e-eip155-chain31.json",
        REMASC_HASH: "tx-0x9791-remasc.json",
    }
    name = files.get(params[0])
    if name is None:
        return None
    tx = load(name)
    return [tx] if params[0] == TX_HASH else tx


def _by_index(params: list[Any]) -> Any:
    """Transactions of block 0x2ec6b8 by index, with the `_id` field those methods add."""
    if params[0] not in (TX_BLOCK_HASH, "0x2ec6b8"):
        return None
    files = {"0x0": "tx-0x507e-eip155-chain31.json", "0x1": "tx-0x9791-remasc.json"}
    name = files.get(params[1])
    return None if name is None else {**load(name), "_id": "5f1e0c3a9d1b2c0001a2b3c4"}


def genesis_block(genesis_hash: str = TESTNET_GENESIS) -> dict[str, Any]:
    """Return block 0 shaped like the sample block, with the real testnet's genesis hash."""
    block = load("block-0x1b4-header-only.json")
    return {**block, "number": "0x0", "hash": genesis_hash, "parentHash": "0x" + "00" * 32}


def _block(params: list[Any]) -> Any:
    """Block 0x1b4 by number or hash, and the genesis block; others are not found."""
    if params[0] == "0x0":
        return genesis_block()
    return load("block-0x1b4-header-only.json") if params[0] in ("0x1b4", BLOCK_HASH) else None


def _known_block(count: str) -> Callable[[list[Any]], Any]:
    """Answer count for block 0x1b4, null for other blocks."""
    return lambda params: count if params[0] in ("0x1b4", BLOCK_HASH) else None


ANSWERS: dict[str, Callable[[list[Any]], Any]] = {
    "eth_accounts": lambda params: [],
    "eth_blockNumber": lambda params: "0x2ec6b8",
    "eth_call": lambda params: "0x" + "00" * 31 + "2a",
    "eth_chainId": lambda params: "0x1f",
    "eth_estimateGas": lambda params: "0x5208",
    "eth_gasPrice": lambda params: "0x3e252e0",
    "eth_getBalance": lambda params: "0x0de0b6b3a7640000",
    "eth_getBlockByHash": _block,
    "eth_getBlockByNumber": _block,
    "eth_getCode": lambda params: "0x6080604052",
    "eth_getLogs": lambda params: [
        {
            "logIndex": "0x0",
            "transactionIndex": "0x0",
            "transactionHash": TX_HASH,
            "blockHash": TX_BLOCK_HASH,
            "blockNumber": "0x2ec6b8",
            "address": ADDRESS,
            "data": "0x" + "00" * 31 + "01",
            "topics": ["0x" + "ab" * 32],
        }
    ],
    "eth_getStorageAt": lambda params: "0x" + "00" * 31 + "07",
    "eth_getTransactionByHash": _transaction,
    "eth_getTransactionCount": lambda params: "0x10",
    "eth_getTransactionReceipt": lambda params: (
        load("receipt-0x359f.json") if params[0] == TX_HASH else None
    ),
    "eth_getBlockTransactionCountByHash": _known_block("0x0"),
    "eth_getBlockTransactionCountByNumber": _known_block("0x0"),
    "eth_getTransactionByBlockHashAndIndex": _by_index,
    "eth_getTransactionByBlockNumberAndIndex": _by_index,
    "eth_getUncleCountByBlockHash": _known_block("0x2"),
    "eth_getUncleCountByBlockNumber": _known_block("0x2"),
    "eth_protocolVersion": lambda params: "0x3e",
    "eth_sendRawTransaction": lambda params: TX_HASH,
    "net_version": lambda params: "31",
    "web3_clientVersion": lambda params: "RskJ/6.2.0/Linux/Java1.8/ARROWHEAD-45eb751",
    "web3_sha3": lambda params: "0x" + "c5" * 32,
}


def serve_testnet(request: Recorded) -> Reply:
    """Answer a JSON-RPC request from the samples, like an rskj testnet node."""
    method = request.rpc_method
    answer = ANSWERS.get(method or "")
    if answer is None:
        error = {"code": -32601, "message": f"method not found: {method}"}
        return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "error": error})
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": answer(request.params)})
