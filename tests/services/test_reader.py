"""ChainReader against the devnet: reads of one block are shared until its answer is cached."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
from collections.abc import AsyncGenerator
from typing import cast

import pytest

from explorer.chain.records import Block
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.reader import ChainReader, TxBundle
from explorer.services.session import DEFAULT_BUDGET, Session
from tests.helpers.devnet import Devnet
from tests.helpers.logs_node import with_client
from tests.helpers.relay import Relay
from tests.helpers.rpc import FAST_RETRY


def test_one_block_asked_at_every_turn_is_read_once(devnet: Devnet) -> None:
    """Asking for a block while it is read, and once after, sends one request.

    The block is asked at every loop turn while it is read: callers join the read in flight,
    then find its answer cached.
    """

    async def use(client: RpcClient) -> tuple[list[Block | None], str, int]:
        known = await client.get_block_by_number(5, False)
        assert known is not None
        assert known.hash is not None
        reader = ChainReader(client)
        before = client.stats.by_method["eth_getBlockByHash"]
        first = asyncio.ensure_future(reader.block(known.hash))
        others = []
        while not first.done():
            others.append(asyncio.ensure_future(reader.block(known.hash)))
            await asyncio.sleep(0)
        others.append(asyncio.ensure_future(reader.block(known.hash)))
        answers = await asyncio.gather(first, *others)
        return answers, known.hash, client.stats.by_method["eth_getBlockByHash"] - before

    answers, block_hash, sent = with_client(devnet.url(), use)
    assert sent == 1
    assert len(answers) > 2
    assert all(answer is not None and answer.hash == block_hash for answer in answers)


def test_a_caller_arriving_as_the_last_one_leaves_gets_the_block_not_a_cancellation(
    devnet: Devnet,
) -> None:
    """The read its last caller gave up is not joined: the next caller starts its own.

    A caller asking in the same loop turn as the last waiter's cancellation used to join the
    read being cancelled and got CancelledError though nobody cancelled it (a gathered scan
    then stopped with it).
    """

    async def use(client: RpcClient) -> Block | None:
        reader = ChainReader(client)
        leaving = asyncio.ensure_future(reader.block(7, full=True))
        await asyncio.sleep(0)  # its read is in flight
        leaving.cancel()
        await asyncio.sleep(0)  # it has left; the shared read is being cancelled
        return await reader.block(7, full=True)

    block = with_client(devnet.url(), use)
    assert block is not None
    assert block.number == 7


@pytest.mark.parametrize("failing_for", [1.0, 0.0])
def test_a_block_read_that_fails_after_its_page_closed_is_not_reported(
    devnet: Devnet, relay: Relay, failing_for: float
) -> None:
    """A read failing after its page closed is the closed page's: asyncio reports nothing.

    A page can close while it shows its partial stage, its block read still under way (here
    the node answers 503 from then on): failed already (1 s), or still being retried (0 s:
    cancelled with the page, it ends as a CancelledError nobody awaits).
    """
    tx_hash = str(devnet.manifest()["token_transfer"])
    reported: list[str] = []

    async def close_while_the_block_is_read() -> None:
        asyncio.get_running_loop().set_exception_handler(
            lambda _loop, context: reported.append(str(context.get("message")))
        )
        budget = dataclasses.replace(DEFAULT_BUDGET, retry=FAST_RETRY)
        session = Session(DEVNET, Endpoint.parse(relay.url), budget=budget)
        try:
            await session.settled_check()
            reader = session.reader
            reader.quick_answer_seconds = 0.0  # the partial stage comes first
            await asyncio.gather(reader.transaction(tx_hash), reader.receipt(tx_hash))
            relay.failing = True  # the block's read will fail
            stages = cast(AsyncGenerator[TxBundle | None, None], reader.tx_stages(tx_hash))
            partial = await anext(stages)
            assert partial is not None
            assert not partial.complete
            await asyncio.sleep(failing_for)  # 1 s: its read fails, nobody awaiting it
            await stages.aclose()  # the page closes
            await asyncio.sleep(0.2)  # the read's retries are cancelled and end
            gc.collect()
            await asyncio.sleep(0)
        finally:
            await session.aclose()

    asyncio.run(close_while_the_block_is_read())
    assert reported == []
