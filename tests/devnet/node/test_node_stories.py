"""The seeded history's address stories: REMASC paying coinbases, the Payout contract, the cast."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import rlp
from eth_typing import Address

from explorer.devnet.blockdata import DevBlock
from explorer.devnet.evm import REMASC_ADDRESS
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.remasc import MATURITY, MINING_FEE_TOPIC, RSK_LABS
from explorer.devnet.seed import FULL
from tests.helpers.devnet import devnet_cache_dir


def blocks_of(node: DevnetNode) -> list[DevBlock]:
    """Return the node's block records."""
    return node._ledger.blocks


def payments(block: DevBlock) -> Iterator[tuple[bytes, int, bytes]]:
    """Yield (receiver, amount, paid block hash) of the REMASC payments a block logs."""
    if not block.receipts:  # the genesis block
        return
    for log in block.receipts[-1].logs:
        assert log.address == REMASC_ADDRESS
        assert log.topics[0] == MINING_FEE_TOPIC
        paid, amount = rlp.decode(log.data)
        yield log.topics[1][12:], int.from_bytes(amount, "big"), paid


def balance(node: DevnetNode, number: int, address: bytes) -> int:
    """Return an address's balance after block number (in-process)."""
    return int(node._ledger.engine.state_at(number).get_balance(Address(address)))


def test_remasc_pays_the_matured_blocks_coinbase_as_it_logs(node: DevnetNode) -> None:
    paying = [b for b in blocks_of(node) if list(payments(b))]
    assert paying, "REMASC paid nothing in the small history"
    by_hash = {b.hash: b for b in blocks_of(node)}
    for block in paying:
        logged = list(payments(block))
        receivers = {receiver for receiver, _amount, _paid in logged}
        assert RSK_LABS in receivers
        for receiver, amount, paid in logged:
            assert amount > 0
            matured = by_hash[paid]
            assert matured.number == block.number - MATURITY
            assert receiver in (RSK_LABS, matured.miner)
        gained = {r: balance(node, block.number, r) - balance(node, block.number - 1, r)
                  for r in receivers}  # fmt: skip
        assert gained == {r: sum(a for x, a, _ in logged if x == r) for r in receivers}


def test_fees_go_to_remasc_and_it_pays_out_of_them(node: DevnetNode) -> None:
    head = node.head_number
    fees = sum(b.paid_fees for b in blocks_of(node))
    paid = sum(a for b in blocks_of(node) for _r, a, _p in payments(b))
    assert balance(node, head, REMASC_ADDRESS) == fees - paid > 0


@pytest.fixture(scope="module")
def full_node() -> DevnetNode:
    """Return the test network with the full seeded history."""
    return open_node(31, cache_dir=devnet_cache_dir())


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
    paid_miners = {r for b in blocks_of(full_node) for r, _a, _p in payments(b)}
    assert {bytes.fromhex(m[2:]) for m in manifest.miners} <= paid_miners
    assert manifest.rsk_labs == "0x" + RSK_LABS.hex()
    collectible = bytes.fromhex(manifest.collectible[2:])
    tail_moves = [log for b in blocks_of(full_node)[FULL.busy_head:] for r in b.receipts
                  for log in r.logs if log.address == collectible]  # fmt: skip
    assert len(tail_moves) >= 10  # the ERC-721 keeps changing hands
