"""ChainReader against the devnet: reads of one block are shared until its answer is cached."""

from __future__ import annotations

import asyncio

from explorer.chain.records import Block
from explorer.rpc.client import RpcClient
from explorer.services.reader import ChainReader
from tests.helpers.devnet import Devnet
from tests.helpers.logs_node import with_client


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
