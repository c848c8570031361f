"""A reorganisation below what was saved as settled drops it, and says so."""

from __future__ import annotations

import asyncio
from pathlib import Path

from explorer.saved.reorg import Reorganised
from explorer.services.session import Session
from tests.helpers.cache import post, with_saved_session
from tests.helpers.devnet import Devnet

EVENT_WAIT = 60.0  # seconds the reorganisation's event may take on a busy machine


def reorganise_down_to(url: str, number: int, old_hash: str) -> None:
    """Have the devnet replace its blocks down to number, however many it mines meanwhile.

    The devnet mines a block a second: one mined between asking the head and asking for the
    reorganisation would leave block number as it was, so the reorganisation is asked again
    until the devnet's block number has another hash.
    """
    while post(url, "eth_getBlockByNumber", hex(number), False)["hash"] == old_hash:
        depth = int(post(url, "eth_blockNumber"), 16) - number + 1
        post(url, "devnet_reorganise", hex(depth))


def test_a_settled_block_replaced_by_a_reorganisation_is_dropped_and_read_again(
    devnet_live: Devnet, tmp_path: Path
) -> None:
    """Block h saved as settled (N = 2); the devnet replaces it; the next read says so."""
    url = devnet_live.url()
    seeded = devnet_live.manifest()["head_at_build"]  # only blocks mined since can be replaced

    async def use(session: Session) -> tuple[str, str, list[Reorganised], int]:
        assert session.cache is not None
        events: list[Reorganised] = []
        session.cache.reorg_listeners.append(events.append)
        head = await session.reader.latest_number()
        while head < seeded + 6:
            await asyncio.sleep(0.5)
            head = await session.reader.latest_number()
        target = head - 3
        saved = await session.reader.block(target)
        assert saved is not None
        assert session.cache.store is not None
        await session.cache.store.flush()
        assert await session.cache.store.block_at(target, False) is not None
        reorganise_down_to(url, target, str(saved.hash))
        await session.reader.latest_number()
        await session.reader.block(target + 1)  # a fresh read: its parent is the new block h
        deadline = asyncio.get_running_loop().time() + EVENT_WAIT
        while not events and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        await session.cache.store.flush()
        gone = await session.cache.store.block_at(target, False) is None
        fresh = await session.reader.block(target)
        assert fresh is not None
        assert gone
        return str(saved.hash), str(fresh.hash), events, target

    old, new, events, target = with_saved_session(
        url, tmp_path, use, confirmations=lambda _network: 2
    )
    assert old != new
    assert len(events) == 1
    assert events[0].number <= target
    assert events[0].old_hash != events[0].new_hash
