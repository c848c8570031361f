"""The seeded history's address stories: the Payout contract, the cast, REMASC paying coinbases."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from eth_typing import Address

from explorer.chain.remasc import RemascPayment, decode_remasc_log
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.evm import REMASC_ADDRESS
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.seed import FULL
from tests.helpers.devnet import devnet_cache_dir


def blocks_of(node: DevnetNode) -> list[DevBlock]:
    """Return the node's block records."""
    return node._ledger.blocks


def payments(block: DevBlock) -> list[RemascPayment]:
    """Return the REMASC payments a block logs (its last transaction's receipt)."""
    if not block.receipts:  # the genesis block
        return []
    found = []
    for log in block.receipts[-1].logs:
        assert log.address == REMASC_ADDRESS
        payment = decode_remasc_log(["0x" + t.hex() for t in log.topics], log.data)
        assert payment is not None
        found.append(payment)
    return found


def balance(node: DevnetNode, number: int, address: bytes) -> int:
    """Return an address's balance after block number (in-process)."""
    return int(node._ledger.engine.state_at(number).get_balance(Address(address)))


@pytest.fixture(scope="module")
def full_node() -> DevnetNode:
    """Return the test network with the full seeded history."""
    return open_node(31, cache_dir=devnet_cache_dir())


@pytest.mark.slow
def test_remasc_payments_move_what_they_log(full_node: DevnetNode) -> None:
    node = full_node
    paying = [b for b in blocks_of(node) if payments(b)]
    assert paying, "REMASC paid nothing in the seeded history"
    by_hash = {"0x" + b.hash.hex(): b for b in blocks_of(node)}
    for block in paying:
        logged = payments(block)
        matured = by_hash[logged[0].paid_block_hash]
        assert matured.number < block.number
        assert "0x" + matured.miner.hex() in {p.receiver for p in logged}
        for receiver in {p.receiver for p in logged}:
            raw = bytes.fromhex(receiver[2:])
            gained = balance(node, block.number, raw) - balance(node, block.number - 1, raw)
            assert gained == sum(p.amount for p in logged if p.receiver == receiver) > 0


def senders_and_receivers(node: DevnetNode) -> Iterator[tuple[int, bytes, bytes | None]]:
    """Yield (block, sender, to) of every transaction of the history."""
    for block in blocks_of(node):
        for tx in block.transactions:
            yield block.number, tx.sender, tx.to


@pytest.mark.slow
def test_the_manifest_names_the_stories_and_they_hold(full_node: DevnetNode) -> None:
    manifest = full_node.manifest
    head = manifest.head_at_build
    assert head == FULL.head
    address = {name: bytes.fromhex(value[2:]) for name, value in
               (("paid", manifest.contract_paid), ("busy", manifest.busy_account),
                ("payout", manifest.payout))}  # fmt: skip
    txs = list(senders_and_receivers(full_node))
    assert not [t for t in txs if address["paid"] in (t[1], t[2])]  # never in a transaction
    assert balance(full_node, head, address["paid"]) > 0  # yet paid: by contract execution
    assert full_node._ledger.engine.state_at(head).get_code(Address(address["payout"]))
    busy_blocks = {number for number, sender, to in txs if address["busy"] in (sender, to)}
    assert len(busy_blocks) >= 300
    for changes, counted in manifest.counted_accounts:
        raw = bytes.fromhex(counted[2:])
        received = {number for number, sender, to in txs if to == raw}
        assert len(received) == changes
        assert not [t for t in txs if t[1] == raw]
    paid = {p.receiver for b in blocks_of(full_node) for p in payments(b)}
    assert set(manifest.miners) & paid  # REMASC pays miners' coinbases
    collectible = bytes.fromhex(manifest.collectible[2:])
    tail_moves = [log for b in blocks_of(full_node)[FULL.busy_head:] for r in b.receipts
                  for log in r.logs if log.address == collectible]  # fmt: skip
    assert len(tail_moves) >= 10  # the ERC-721 keeps changing hands
