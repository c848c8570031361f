"""A verified block is chained to its verified neighbours on the endpoint, or says why not."""

from __future__ import annotations

from explorer.chain.blockverify import Check, Outcome
from explorer.services.verification import KnownBlock, VerifiedChain


def _hash(number: int, fork: str = "a") -> str:
    """Return a made-up block hash for a height on a fork."""
    return "0x" + fork * 2 + f"{number:062x}"


def _block(number: int, fork: str = "a", parent_fork: str = "a") -> KnownBlock:
    """Return a block at number on fork whose parent is on parent_fork."""
    return KnownBlock(_hash(number, fork), _hash(number - 1, parent_fork))


def test_a_block_links_to_its_verified_parent_and_child() -> None:
    chain = VerifiedChain()
    chain.note(10, _block(10))
    found = chain.link(11, _block(11))
    assert (found.check, found.outcome) == (Check.PARENT_LINK, Outcome.VERIFIED)
    assert found.detail == "to block 10"
    chain.note(13, _block(13))
    found = chain.link(12, _block(12))
    assert found.outcome is Outcome.VERIFIED
    assert found.detail == "from block 13"  # block 11 was never noted


def test_a_parent_hash_that_contradicts_the_verified_parent_is_a_mismatch() -> None:
    chain = VerifiedChain()
    chain.note(10, _block(10))
    found = chain.link(11, _block(11, fork="b", parent_fork="b"))
    assert found.outcome is Outcome.MISMATCH
    assert "block 10" in found.detail
    assert "reorganisation" in found.detail


def test_a_child_that_names_another_parent_is_a_mismatch() -> None:
    chain = VerifiedChain()
    chain.note(21, _block(21, parent_fork="c"))
    found = chain.link(20, _block(20))
    assert found.outcome is Outcome.MISMATCH
    assert "block 21" in found.detail


def test_without_a_verified_neighbour_the_link_is_unchecked_and_says_the_newest_below() -> None:
    chain = VerifiedChain()
    assert chain.link(5, _block(5)).outcome is Outcome.UNCHECKED
    chain.note(2, _block(2))
    found = chain.link(5, _block(5))
    assert found.outcome is Outcome.UNCHECKED
    assert "newest below: 2" in found.detail


def test_only_the_newest_blocks_are_kept() -> None:
    chain = VerifiedChain(capacity=3)
    for number in range(1, 6):
        chain.note(number, _block(number))
    assert len(chain) == 3
    assert chain.newest_below(3) is None
    assert chain.link(6, _block(6)).outcome is Outcome.VERIFIED
