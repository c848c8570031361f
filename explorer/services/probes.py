"""Reads sent together: one JSON-RPC batch where the node takes batches, else concurrent calls.

A probe is an account's balance and nonce at one block (`eth_getBalance` and
`eth_getTransactionCount`, two reads). The first batch sent through a client tells whether its
node takes batches; the client remembers a refusal (`RpcClient.takes_batches`) and the reads
go out one call each, concurrently, from then on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_data, parse_quantity
from explorer.rpc.batch import BatchRefused, raise_first
from explorer.rpc.client import RpcClient
from explorer.rpc.errors import MalformedResponse, NodeError
from explorer.rpc.node_answers import TO_THE_NODE

Call = tuple[str, Sequence[Any]]
PROBES_PER_BATCH = 10  # 20 reads: well within rskj's 50 calls a batch


@dataclass(frozen=True, order=True)
class AccountState:
    """An account's native balance (wei) and nonce after a block."""

    balance: int
    nonce: int


class OldStateMissing(Exception):
    """The node cannot tell an account's state at an old block (it keeps no old state)."""

    def __init__(self, block: int, reason: str) -> None:
        super().__init__(f"no state at block {block:,}: {reason}")
        self.block = block
        self.reason = reason


class Contradiction(OldStateMissing):
    """The node contradicted itself about the account: none of its state answers can be trusted.

    A nonce that went down, two balances for one block, a change nothing in its block could
    have made (state answered as 0x0 that was not): the search stops, as without old state.
    """


@dataclass
class ReadCounts:
    """What a piece of work spent: reads (calls) and HTTP requests."""

    reads: int = 0
    requests: int = 0

    def add(self, reads: int, requests: int) -> None:
        """Count reads sent in requests."""
        self.reads += reads
        self.requests += requests


def takes_batches(client: RpcClient | None) -> bool:
    """Tell whether batches are worth trying through this client (none: no)."""
    return client is not None and client.takes_batches


async def read_together(client: RpcClient, calls: Sequence[Call], counts: ReadCounts) -> list[Any]:
    """Send calls in one batch (or concurrently one by one); return results or RpcErrors."""
    results, _asked = await read_asking(client, calls, counts)
    return results


async def read_asking(
    client: RpcClient, calls: Sequence[Call], counts: ReadCounts
) -> tuple[list[Any], int]:
    """Read as read_together does; also return how many of the calls reached the node.

    Calls sent one by one are all taken as asked of the node (the saved data may have
    answered some, unseen here).
    """
    if client.takes_batches and len(calls) > 1:
        sent: list[int] = []
        try:
            results = list(await client.batch(calls, sent.append))
        except BatchRefused:  # the client remembers it: one by one from now on
            counts.add(sum(sent), 1)  # spent, though refused
        else:
            counts.add(sum(sent), 1 if sum(sent) else 0)  # the saved data may answer them all
            return results, sum(sent)
    counts.add(len(calls), len(calls))  # at most: the saved data may answer some
    gathered = await asyncio.gather(
        *(client.request(method, *args) for method, args in calls), return_exceptions=True
    )
    return list(gathered), len(calls)


def state_calls(address: str, block: int | str) -> list[Call]:
    """Return the two reads of a probe at a block (number or tag)."""
    where = hex(block) if isinstance(block, int) else block
    return [("eth_getBalance", (address, where)), ("eth_getTransactionCount", (address, where))]


def quantity(value: Any, what: str) -> int:
    """Parse a quantity from a node's answer, or raise MalformedResponse."""
    try:
        return parse_quantity(value)
    except (HexFormatError, TypeError) as exc:
        raise MalformedResponse(f"{what} is not a quantity: {exc}") from None


def code_of(value: Any) -> bytes:
    """Parse eth_getCode's answer (null: no such block, read as no code)."""
    if value is None:
        return b""
    try:
        return parse_data(value)
    except (HexFormatError, TypeError) as exc:
        raise MalformedResponse(f"eth_getCode answered no code: {exc}") from None


def states_of(results: Sequence[Any]) -> list[AccountState]:
    """Turn pairs of balance and nonce answers into states; raise the first error among them."""
    values = raise_first(results)
    return [
        AccountState(quantity(values[i], "a balance"), quantity(values[i + 1], "a nonce"))
        for i in range(0, len(values), 2)
    ]


class StateProbes:
    """An address's state at blocks, PROBES_PER_BATCH probes a request; counts what it spends."""

    def __init__(self, client: RpcClient, address: str, per_batch: int = PROBES_PER_BATCH) -> None:
        self.client = client
        self.address = address
        self.per_batch = max(1, per_batch)
        self.counts = ReadCounts()
        self.asked: set[int] = set()  # blocks whose state was asked of the node in this run

    async def at(self, blocks: Sequence[int]) -> list[AccountState]:
        """Return the state after each block (at most per_batch blocks: one request).

        These are blocks older than one whose state the node gave, so a node error for one
        means the node keeps no state that old: OldStateMissing. The blocks go into `asked`
        unless the saved data answered the whole request (a revisit's settled blocks).
        """
        calls = [call for block in blocks for call in state_calls(self.address, block)]
        results, sent = await read_asking(self.client, calls, self.counts)
        for index, block in enumerate(blocks):
            old_state_error(block, results[2 * index : 2 * index + 2])
        states = states_of(results)
        if sent:
            self.asked.update(blocks)
        return states

    async def reread(self, block: int) -> AccountState:
        """Return the state after a block asked of the node itself again (never saved data)."""
        direct = TO_THE_NODE.set(True)
        try:
            calls = state_calls(self.address, block)
            results = await read_together(self.client, calls, self.counts)
        finally:
            TO_THE_NODE.reset(direct)
        (state,) = states_of(results)
        return state

    async def opening(
        self, low: int, high: int, extra: Sequence[Call] = ()
    ) -> tuple[AccountState | OldStateMissing, AccountState, bytes, list[Any]]:
        """Return the opening states, the code and extra answers, all in one request.

        That is the state after low (or why the node cannot tell it), after high, the code at
        high and the answers of extra calls (results or errors). Both ends go into `asked` only
        when every call reached the node (the saved data may answer the state after low).
        """
        calls: list[Call] = [("eth_getCode", (self.address, hex(high)))]
        calls += state_calls(self.address, high) + state_calls(self.address, low) + list(extra)
        results, sent = await read_asking(self.client, calls, self.counts)
        if sent == len(calls):
            self.asked.update((low, high))
        code = raise_first(results[:1])[0]
        (last,) = states_of(results[1:3])  # the newest state: any error here is the node's own
        first: AccountState | OldStateMissing
        try:
            old_state_error(low, results[3:5])
            (first,) = states_of(results[3:5])
        except OldStateMissing as missing:
            first = missing
        return first, last, code_of(code), results[5:]


def old_state_error(block: int, results: Sequence[Any]) -> None:
    """Raise OldStateMissing when the node answered a read at an old block with an error."""
    for result in results:
        if isinstance(result, NodeError):
            raise OldStateMissing(block, result.message)
