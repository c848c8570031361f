"""Helpers for the in-process devnet node tests: answer shapes, failures, spies."""

from __future__ import annotations

import re
from typing import Any

import pytest
from eth_account import Account
from eth_utils.address import to_checksum_address

from explorer.chain.mergemining import MergeMiningReport, verify_merge_mining
from explorer.devnet.errors import RpcFailure
from explorer.devnet.node import DevnetNode

QUANTITY = re.compile(r"^0x(0|[1-9a-f][0-9a-f]*)$")
DATA = re.compile(r"^0x([0-9a-f]{2})*$")
GAS_PRICE = 65_000_000
STRANGER = "0x" + "42" * 20


def sign(node: DevnetNode, key_index: int, **fields: Any) -> str:
    """Sign a legacy transaction from a seeded account; nonce from the node by default."""
    key = node.manifest.private_keys[key_index]
    sender = node.manifest.accounts[key_index]
    tx: dict[str, Any] = {
        "gas": 21_000,
        "gasPrice": GAS_PRICE,
        "value": 1,
        "to": STRANGER,
        "chainId": node.chain_id,
        "data": b"",
    }
    tx.update(fields)
    if "nonce" not in tx:
        tx["nonce"] = int(node.handle("eth_getTransactionCount", [sender, "pending"]), 16)
    for name in ("chainId", "to"):
        if tx[name] is None:
            del tx[name]
    if "to" in tx:
        tx["to"] = to_checksum_address(tx["to"])
    signed: bytes = Account.sign_transaction(tx, key).raw_transaction
    return "0x" + signed.hex()


def send(node: DevnetNode, raw: str) -> str:
    """Submit a raw transaction and return its hash."""
    result: str = node.handle("eth_sendRawTransaction", [raw])
    return result


def failure(node: DevnetNode, method: str, *params: Any) -> RpcFailure:
    """Return the RpcFailure a call raises (the test fails if it succeeds)."""
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


MERGE_MINING_FIELDS = (
    "bitcoinMergedMiningHeader",
    "bitcoinMergedMiningCoinbaseTransaction",
    "bitcoinMergedMiningMerkleProof",
    "hashForMergedMining",
)


def merge_mining_report(block: dict[str, Any]) -> MergeMiningReport:
    """Return the verification of a block object's merge-mining fields."""
    return verify_merge_mining(
        *(bytes.fromhex(block[name][2:]) for name in MERGE_MINING_FIELDS),
        block_number=int(block["number"], 16),
        difficulty=int(block["difficulty"], 16),
    )
