"""Verified saved data is reused by another endpoint of the chain: `explorer report` at the devnet.

Two relays in front of the devnet's test network are two endpoints of one chain. What the
first one served and the app recomputed (the block's hash and transactions root, each
transaction's hash, every receipt under the receipts root) is answered for the second once it
serves the same hash at that height (one header read), so the second spends fewer requests;
and it still asks for that header, never taking another endpoint's word alone (issue 29 §4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.cli import explorer
from tests.helpers.devnet import Devnet
from tests.helpers.pruned import OldState, PrunedNode

CONFIRMED = "eth_getBlockByNumber"


@pytest.fixture
def endpoints(devnet: Devnet) -> Iterator[tuple[PrunedNode, PrunedNode]]:
    """Yield two endpoints of the devnet's test network."""
    first = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    second = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    yield first, second
    first.close()
    second.close()


def busy_block(devnet: Devnet, start: int = 40) -> tuple[int, list[str]]:
    """Return a settled devnet block with at least two transactions, and their hashes."""
    with httpx.Client(timeout=30) as http:
        for number in range(start, start + 400):
            call = {"jsonrpc": "2.0", "id": 1, "method": "eth_getBlockByNumber"}
            block = http.post(devnet.url("testnet"), json={**call, "params": [hex(number), False]})
            transactions = block.json()["result"]["transactions"]
            if len(transactions) >= 2:
                return number, transactions
    raise AssertionError("the devnet has no block with two transactions")


def spent(node: PrunedNode, *args: str) -> list[str]:
    """Run `explorer report ARGS` through a node; return the calls it asked of that node."""
    before = len(node.calls)
    done = explorer("report", *args, "--endpoint", node.url, "--chain-id", "31")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return node.calls[before:]


def test_a_verified_block_is_reused_by_another_endpoint_of_the_chain(
    devnet: Devnet, endpoints: tuple[PrunedNode, PrunedNode]
) -> None:
    """The second endpoint's report of the block asks less, and confirms the block's hash."""
    first, second = endpoints
    number, _transactions = busy_block(devnet)
    alone = spent(first, str(number))
    shared = spent(second, str(number))
    assert len(shared) < len(alone), (alone, shared)
    assert CONFIRMED in shared  # the second endpoint served the same hash itself


def test_verified_transactions_are_reused_by_another_endpoint_of_the_chain(
    devnet: Devnet, endpoints: tuple[PrunedNode, PrunedNode]
) -> None:
    """A transaction of a block read whole through one endpoint costs the other less."""
    first, second = endpoints
    number, transactions = busy_block(devnet, 140)
    spent(first, str(number))
    fresh = spent(second, transactions[0])
    assert "eth_getTransactionByHash" not in fresh, fresh
    assert "eth_getTransactionReceipt" not in fresh, fresh


class Tampering(PrunedNode):
    """An endpoint of the devnet's test network that tampers with one kind of answer."""

    def __init__(self, target: str, method: str, tamper: Callable[[Any], Any]) -> None:
        super().__init__(target, OldState.KEPT)
        self.method = method
        self.tamper = tamper

    def _pruned(self, call: dict[str, Any]) -> dict[str, Any] | None:
        """Forward every call; change the result of the tampered method."""
        if call.get("method") != self.method:
            return None
        answer: dict[str, Any] = self._forward(call)
        if answer.get("result") is not None:
            answer = {**answer, "result": self.tamper(answer["result"])}
        return answer


def failed(receipt: dict[str, Any]) -> dict[str, Any]:
    """Return a receipt turned into a failure."""
    return {**receipt, "status": "0x0"}


def test_receipts_that_do_not_recompute_are_never_shared(
    devnet: Devnet, endpoints: tuple[PrunedNode, PrunedNode]
) -> None:
    """Receipts forged under an honest block are not taken by another endpoint: it asks its own."""
    _first, honest = endpoints
    number, transactions = busy_block(devnet)
    forger = Tampering(devnet.url("testnet"), "eth_getTransactionReceipt", failed)
    try:
        spent(forger, str(number))
    finally:
        forger.close()
    shared = spent(honest, transactions[0])
    assert "eth_getTransactionReceipt" in shared  # the forged receipt was not shared
    assert "eth_getTransactionByHash" not in shared  # the honest block's transactions were


def test_another_endpoint_serving_another_block_there_never_takes_the_shared_one(
    devnet: Devnet, endpoints: tuple[PrunedNode, PrunedNode]
) -> None:
    """An endpoint whose block at that height has another hash shows its own, never the saved."""
    first, _second = endpoints
    number, _transactions = busy_block(devnet)
    spent(first, str(number))
    other = Tampering(devnet.url("testnet"), "eth_getBlockByNumber", other_branch(number))
    try:
        asked = spent(other, str(number))
        shown = explorer("report", str(number), "--endpoint", other.url, "--chain-id", "31")
    finally:
        other.close()
    assert asked.count("eth_getBlockByNumber") >= 3  # its genesis, the check, its own block
    assert OTHER_HASH[2:14] in shown.stdout.lower(), shown.stdout


OTHER_HASH = "0x" + "0b" * 32


def other_branch(number: int) -> Callable[[Any], Any]:
    """Return a tamper that gives the block at number another hash (a block of another branch)."""

    def tamper(block: Any) -> Any:
        if isinstance(block, dict) and block.get("number") == hex(number):
            return {**block, "hash": OTHER_HASH}
        return block

    return tamper
