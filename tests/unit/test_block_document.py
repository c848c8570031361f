"""The block page document built from a real testnet block: neighbours and merge mining."""

from __future__ import annotations

import dataclasses

import pytest

from explorer.chain.records import Block
from explorer.presentation.block_document import block_document
from explorer.presentation.document import Document, Field
from tests.helpers.testnet import BLOCK, load

NUMBER = 0x1B4


def real_block() -> Block:
    """Return block 0x1b4 of the testnet sample."""
    return Block.from_json(load(BLOCK))


def build(block: Block, head: int | None) -> Document:
    """Build the block page for a block with a given head."""
    return block_document(block, chain_id=31, currency="tRBTC", head=head, now=1.7e9)


def overview_field(document: Document, label: str) -> Field:
    """Return one field of the Overview section by label."""
    overview = next(s for s in document.sections if s.title == "Overview")
    return next(f for f in overview.fields if f.label == label)


def test_previous_and_next_link_to_the_neighbours() -> None:
    document = build(real_block(), head=NUMBER + 10)
    assert str(overview_field(document, "Previous block").link) == f"block/{NUMBER - 1}"
    assert overview_field(document, "Previous block").text == f"{NUMBER - 1:,}"
    assert str(overview_field(document, "Next block").link) == f"block/{NUMBER + 1}"


@pytest.mark.parametrize("head", [NUMBER, None])
def test_no_next_at_the_head_or_when_the_head_is_unknown(head: int | None) -> None:
    document = build(real_block(), head=head)
    assert overview_field(document, "Next block").link is None
    assert str(overview_field(document, "Previous block").link) == f"block/{NUMBER - 1}"


def test_genesis_has_no_previous() -> None:
    genesis = dataclasses.replace(real_block(), number=0)
    document = build(genesis, head=5)
    assert overview_field(document, "Previous block").link is None
    assert str(overview_field(document, "Next block").link) == "block/1"


def test_pending_block_links_back_to_the_head() -> None:
    pending = dataclasses.replace(real_block(), number=None, hash=None)
    assert pending.is_pending
    assert (
        str(overview_field(build(pending, head=NUMBER), "Previous block").link) == f"block/{NUMBER}"
    )
    assert str(overview_field(build(pending, head=None), "Previous block").link) == "block/latest"
    assert overview_field(build(pending, head=NUMBER), "Next block").link is None


def test_merge_mining_of_the_real_block_is_verified() -> None:
    document = build(real_block(), head=NUMBER)
    section = next(s for s in document.sections if s.title == "Merge mining")
    assert section.fields[0].text.startswith("Yes")
