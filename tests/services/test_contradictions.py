"""A node that contradicts itself about an account is found out, over real HTTP, in seconds.

A scripted node answers an account's balance and nonce by block (batches too) and serves the
testnet sample block renumbered; the search and the attribution run through the real client.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.attribution import Attributor
from explorer.services.balance_search import IN_FLIGHT, BalanceSearch, Change
from explorer.services.probes import AccountState, Contradiction, StateProbes
from explorer.services.reader import ChainReader
from tests.helpers.rpc import run
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply
from tests.helpers.testnet import BLOCK, TX, TX_REMASC, load

ACCOUNT = "0x" + "ab" * 20
HIGH = 1_000
State = Callable[[int], tuple[int, int]]  # block -> (balance, nonce)


def account_node(state: State, transactions: list[dict[str, Any]]) -> ScriptedServer:
    """Serve the account's state by block and every block holding transactions (batches too)."""

    def answer(call: dict[str, Any]) -> Any:
        method, params = call.get("method"), call.get("params") or []
        if method in ("eth_getBalance", "eth_getTransactionCount"):
            balance, nonce = state(int(params[1], 16))
            return hex(balance if method == "eth_getBalance" else nonce)
        if method == "eth_getBlockByNumber":
            number = int(params[0], 16)
            block = {**load(BLOCK), "number": hex(number), "hash": f"0x{number:064x}"}
            return {
                **block,
                "transactions": [{**tx, "blockNumber": hex(number)} for tx in transactions],
            }
        if method == "eth_getLogs":
            return []
        raise AssertionError(f"unexpected {method}")

    def act(request: Recorded) -> Reply:
        body = request.json
        calls = body if isinstance(body, list) else [body]
        answers = [{"jsonrpc": "2.0", "id": c["id"], "result": answer(c)} for c in calls]
        return json_reply(answers if isinstance(body, list) else answers[0])

    return ScriptedServer(act)


def search(server: ScriptedServer) -> list[Change]:
    """Run a whole search of blocks 1..HIGH through the real client; return its changes."""

    async def main() -> list[Change]:
        client = RpcClient(Endpoint.parse(server.url, allow_insecure_http=True))
        try:
            probes = StateProbes(client, ACCOUNT)
            first, last = await probes.at([0, HIGH])
            found: list[Change] = []
            async for changes in BalanceSearch(probes, 0, HIGH, first, last).changes():
                found += changes
            return found
        finally:
            await client.aclose()

    return run(main())


def test_a_nonce_that_goes_down_is_a_contradiction() -> None:
    """A balance rising every 100 blocks, the nonce 5 but 2 in blocks 600-699: found, said."""
    server = account_node(lambda block: (block // 100, 2 if 600 <= block < 700 else 5), [])
    try:
        with pytest.raises(Contradiction) as caught:
            search(server)
    finally:
        server.close()
    assert caught.value.reason.startswith("the nonce went down from 5 after block ")
    assert " to 2 after block 6" in caught.value.reason


def test_a_block_read_again_with_another_balance_is_a_contradiction() -> None:
    """Balances at random: a block read again (the 4th request) differs, and the search stops."""
    counter = itertools.count(1)
    server = account_node(lambda block: (next(counter), 0), [])
    try:
        with pytest.raises(Contradiction) as caught:
            search(server)
    finally:
        server.close()
    assert "two different balances for block" in caught.value.reason
    # The opening, then waves of IN_FLIGHT probes until the 4th request's witness answers: two
    # on a quiet machine (about 20 requests), a third when that answer comes late. Not hundreds.
    assert len(server.requests) <= 1 + 3 * IN_FLIGHT + 1


def test_an_honest_account_is_searched_with_few_witness_reads() -> None:
    """Ten changes, truthfully told: found, and a block read again costs two reads at most."""
    changes = [100 * k + 7 for k in range(10)]
    server = account_node(lambda block: (sum(b <= block for b in changes), 0), [])
    try:
        found = search(server)
    finally:
        server.close()
    assert [change.block for change in sorted(found, key=lambda c: c.block)] == changes


def attribute(transactions: list[dict[str, Any]], before: int) -> str:
    """Return why a rise of 1 RBTC in block 500 is impossible ('' if it could happen)."""
    server = account_node(lambda block: (0, 0), transactions)

    async def main() -> str:
        client = RpcClient(Endpoint.parse(server.url, allow_insecure_http=True))
        try:
            change = Change(500, AccountState(before, 0), AccountState(before + 10**18, 0))
            attribution = await Attributor(ChainReader(client), ACCOUNT).attribute(change)
            return attribution.impossible
        finally:
            await client.aclose()

    try:
        return run(main())
    finally:
        server.close()


def test_value_no_code_in_its_block_could_move_is_old_state_answered_as_zero() -> None:
    """A rise in a block of REMASC's transaction alone: the zero before it was not true."""
    reason = attribute([load(TX_REMASC)], before=0)
    assert "holds no transaction of the address, no payment to it and no contract call" in reason
    assert "answered as 0x0" in reason


def test_value_a_contract_call_may_have_moved_is_not_a_contradiction() -> None:
    """A block with a call that may run code (a gas limit above 21,000): contract execution."""
    call = {**load(TX), "gas": hex(100_000), "input": "0x12345678"}
    assert json.dumps(call)  # a real sample, only its gas and input changed
    assert attribute([call, load(TX_REMASC)], before=0) == ""
