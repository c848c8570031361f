"""Reorganise the devnet's newest blocks on request (for tests): another miner, new hashes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from explorer.chain.hexutil import to_quantity
from explorer.devnet import params
from explorer.devnet.accounts import derive_account
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.blocks import BlockDraft, assemble_block
from explorer.devnet.errors import invalid_params
from explorer.devnet.ledger import UNCLE_WINDOW, Ledger

if TYPE_CHECKING:
    from explorer.devnet.node import DevnetNode

#: The miner of the blocks that replace reorganised ones (so every replaced hash changes).
REORG_MINER = derive_account("miner-reorg").address


class ReorgRefused(ValueError):
    """The reorganisation asked for would reach the seeded history or beyond the chain."""


def reorganise(ledger: Ledger, depth: int, *, floor: int) -> list[DevBlock]:
    """Replace the newest depth blocks (all above floor) with blocks of another miner.

    The replacements hold the same transactions on the same state, so every later read of
    balances, receipts and logs stays true; only the blocks' hashes (and miner) change, as
    when a competing miner's branch wins. Return the replaced (old) blocks, oldest first.
    """
    head = ledger.head.number
    if not 1 <= depth <= head - floor:
        raise ReorgRefused(
            f"can reorganise 1 to {head - floor} blocks (only blocks mined after start-up)"
        )
    first = head - depth + 1
    parent = ledger.blocks[first - 1]
    replaced: list[DevBlock] = []
    for number in range(first, head + 1):
        old = ledger.blocks[number]
        recent = ledger.blocks[max(0, number - (UNCLE_WINDOW - 1)) : number]
        draft = BlockDraft(
            number=number,
            timestamp=old.timestamp,
            miner=REORG_MINER,
            gas_limit=old.gas_limit,
            state_root=old.state_root,
            transactions=old.transactions,
            receipts=old.receipts,
            uncle_count=len(old.uncles),
            recent_uncles=len(old.uncles) + sum(len(block.uncles) for block in recent),
            rules=ledger.rules,
        )
        parent = assemble_block(draft, parent)
        ledger.replace(parent)
        replaced.append(old)
    return replaced


def enable_control(node: DevnetNode) -> None:
    """Let clients call `devnet_reorganise [depth]` (tests: `explorer devnet --control`)."""

    def reorganise_call(args: list[Any]) -> str:
        (depth,) = params.arity(args, 1)
        try:
            return to_quantity(node.reorganise(params.quantity(depth, "depth")))
        except ReorgRefused as refused:
            raise invalid_params(str(refused)) from None

    node.add_method("devnet_reorganise", reorganise_call)
