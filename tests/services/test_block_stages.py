"""A block page's stages: the block with its check under way, then the verdict."""

from __future__ import annotations

import asyncio

from explorer.chain.records import Block
from explorer.presentation.block_stages import load_block_stages
from explorer.presentation.document import Document
from explorer.presentation.verification import LABEL
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from tests.helpers.devnet import Devnet


def verification_word(document: Document) -> object:
    """Return the word of a document's verification badge."""
    found = [f.value for s in document.sections for f in s.fields if f.label == LABEL]
    assert len(found) == 1
    return found[0]


def test_a_block_comes_with_its_check_under_way_then_with_the_verdict(devnet: Devnet) -> None:
    """The table need not wait for a thousand transactions to hash: the verdict follows."""
    big = str(devnet.manifest()["big_block"])

    async def stages() -> list[tuple[Document, Block | None] | None]:
        session = Session(DEVNET, Endpoint.parse(devnet.url()))
        try:
            await session.settled_check()
            return [s async for s in load_block_stages(session.reader, session.network, big)]
        finally:
            await session.aclose()

    found = asyncio.run(stages())
    shown = [stage for stage in found if stage is not None and stage[1] is not None]
    assert [verification_word(document) for document, _block in shown] == ["checking", "verified"]
    assert shown[0][1] is shown[1][1]  # the same block: the table is not filled twice
