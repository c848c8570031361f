"""The chain watch's own parent-link check, alone: a new head that does not link is read back.

A session without saved data, no page and no head follower: only `ChainWatch.check_link` sees
the heads, so nothing else can notice the break (issue 29 §5). The node is a scripted one over
real HTTP whose blocks link by parent hash and whose branch is replaced on demand.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from explorer.rpc.endpoint import Endpoint
from explorer.services.chainwatch import ChainWatch
from explorer.services.networks import custom_network
from explorer.services.session import Session
from tests.gui.reliability.node import Mode, SwitchableNode, block_hash

HEAD = 0x2EC6B8  # the scripted node's newest block
OTHER_BRANCH = 0xAB  # the mark of the replacing branch's hashes


@pytest.fixture
def node() -> Iterator[SwitchableNode]:
    """Yield a well-behaved scripted testnet node."""
    served = SwitchableNode(Mode.GOOD)
    yield served
    served.close()


def watched(node: SwitchableNode, replaced_from: int | None) -> ChainWatch:
    """Check the head's link, then the next head's after an optional reorganisation."""

    async def main() -> ChainWatch:
        session = Session(custom_network("scripted", 31), Endpoint.parse(f"{node.url}/watch-key"))
        try:
            await session.settled_check()
            watch = ChainWatch(session.reader, session.checker)  # no cache: the watch alone
            await watch.check_link(HEAD)
            if replaced_from is not None:
                node.reorganise(replaced_from, OTHER_BRANCH)
            await watch.check_link(HEAD + 1)
            return watch
        finally:
            session.stop()
            await session.aclose()

    return asyncio.run(main())


def test_a_new_head_that_links_to_the_last_is_no_reorganisation(node: SwitchableNode) -> None:
    """The next head names the head seen before as its parent: nothing is read back."""
    watch = watched(node, None)
    assert watch.reorganised == 0
    assert watch.tip == (HEAD + 1, block_hash(0, HEAD + 1))


def test_a_new_head_whose_parent_is_not_the_last_head_is_read_back(node: SwitchableNode) -> None:
    """Three blocks replaced: the new head's parent is not the head seen; the watch reads back."""
    watch = watched(node, HEAD - 2)
    assert watch.reorganised == 1
    assert watch.book[HEAD] == block_hash(OTHER_BRANCH, HEAD)  # read back from the node
    assert watch.book[HEAD - 2] == block_hash(OTHER_BRANCH, HEAD - 2)
