"""What used a nonce, found in the blocks since last seen: bounded, reported step by step."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from explorer.chain.pooled import PooledTx
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenTx
from explorer.services.fate import Fate, MissingDiagnosis, diagnose_missing
from explorer.services.reader import ChainReader
from explorer.services.replacement import SCAN_LIMIT, SearchProgress
from tests.helpers.rpc import FAST_RETRY
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply
from tests.helpers.support import PRICE, Pool

BLOCKS_AFTER = 40


def replaced_and_buried(pool: Pool, sender: str) -> tuple[SeenTx, str, int]:
    """Send a transfer, note it as seen, replace it, mine it under more blocks.

    Return the record, the replacement's hash and the block the record was last seen at.
    """
    with pool.held():
        nonce = pool.next_nonce(sender)
        original = pool.send(pool.sign(sender))
        head = int(pool.rpc("eth_blockNumber"), 16)
        replacement = pool.send(pool.sign(sender, nonce=nonce, gasPrice=PRICE * 2, value=2))
    pool.mine(BLOCKS_AFTER)
    now = time.time()
    address = pool.account(sender).address.lower()
    seen = SeenTx(31, PooledTx(original, address, nonce, PRICE, 21_000, 1), now, head, now, head)
    return seen, replacement, head


def diagnosed(url: str, seen: SeenTx) -> tuple[MissingDiagnosis, list[SearchProgress], int]:
    """Diagnose a missing transaction through a fresh client; return it, the steps, requests."""
    steps: list[SearchProgress] = []

    async def main() -> tuple[MissingDiagnosis, int]:
        client = RpcClient(Endpoint.parse(url), retry=FAST_RETRY)
        try:
            missing = await diagnose_missing(ChainReader(client), seen, time.time(), steps.append)
            return missing, client.stats.total
        finally:
            await client.aclose()

    missing, requests = asyncio.run(main())
    return missing, steps, requests


def test_a_binary_search_on_the_senders_nonce_finds_the_replacement(pool: Pool) -> None:
    seen, replacement, head = replaced_and_buried(pool, "search")
    missing, steps, requests = diagnosed(pool.devnet.url(), seen)
    assert missing.fate is Fate.REPLACED
    assert missing.replacement is not None
    assert missing.replacement.hash == replacement
    assert missing.search is not None
    span = missing.search.last - missing.search.first + 1
    assert span >= BLOCKS_AFTER
    assert missing.search.first == head
    assert len(steps) <= math.ceil(math.log2(span)) + 1
    assert all(head <= step.block <= missing.search.last for step in steps if step.block)
    assert [step.step for step in steps] == list(range(1, len(steps) + 1))
    assert requests == 5 + missing.search.requests  # the sender's state, then the search


@contextmanager
def pruned_node(devnet_url: str) -> Iterator[ScriptedServer]:
    """Run a node that forwards to the devnet but keeps no state of past blocks (pruned)."""
    http = httpx.Client(timeout=60)

    def act(request: Recorded) -> Reply:
        params = request.params
        if request.rpc_method == "eth_getTransactionCount" and params[1] not in (
            "latest",
            "pending",
        ):
            error = {"code": -32600, "message": f"Block {params[1]} not found"}
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "error": error}, 400)
        answer = http.post(
            devnet_url, content=request.body, headers={"Content-Type": "application/json"}
        )
        return Reply(answer.status_code, answer.content, {"Content-Type": "application/json"})

    node = ScriptedServer(act)
    try:
        yield node
    finally:
        node.close()
        http.close()


def test_a_node_without_past_state_gets_a_bounded_scan(pool: Pool) -> None:
    seen, replacement, _ = replaced_and_buried(pool, "search")
    with pruned_node(pool.devnet.url()) as node:
        missing, steps, _ = diagnosed(node.url, seen)
    assert missing.fate is Fate.REPLACED
    assert missing.replacement is not None
    assert missing.replacement.hash == replacement
    assert missing.search is not None
    assert missing.search.last - missing.search.first + 1 <= SCAN_LIMIT
    assert steps[-1].steps <= SCAN_LIMIT
    assert node.rpc_methods.count("eth_getBlockByNumber") <= SCAN_LIMIT + 1  # and `latest`
