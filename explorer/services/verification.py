"""Verify what an endpoint says of blocks and transactions, and chain each block to the last.

The checks are chain/blockverify's, under the consensus rules of the session's chain id, with
block 0 compared to the genesis the session verified. This adds what needs memory: the blocks
already verified on the endpoint (their hash and parent hash, newest kept), so a block is
chained to its verified neighbours, and a neighbour that contradicts it is named. It asks the
node for nothing: a page verifies what it has read.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections import OrderedDict
from collections.abc import Callable, Sequence

from explorer.chain.blockverify import (
    BlockVerdict,
    Check,
    Finding,
    Outcome,
    give_way,
    readable,
    verify_block,
)
from explorer.chain.rawheader import cross_check
from explorer.chain.records import Block, Receipt, Transaction
from explorer.chain.rskrules import NetworkRules, rules_for_chain
from explorer.chain.rsktx import encode_transaction
from explorer.rpc.errors import NodeError
from explorer.rpc.wrappers import TypedCalls

KEPT_BLOCKS = 4096  # verified blocks remembered per endpoint (a few hours of a chain)


@dataclasses.dataclass(frozen=True)
class KnownBlock:
    """A block verified on the endpoint: what a neighbour is checked against."""

    block_hash: str
    parent_hash: str


class VerifiedChain:
    """The blocks verified on one endpoint, by number, newest kept."""

    def __init__(self, capacity: int = KEPT_BLOCKS) -> None:
        self._blocks: OrderedDict[int, KnownBlock] = OrderedDict()
        self._capacity = capacity

    def newest_below(self, number: int) -> tuple[int, KnownBlock] | None:
        """Return the newest verified block below number, if any."""
        below = [n for n in self._blocks if n < number]
        return (max(below), self._blocks[max(below)]) if below else None

    def link(self, number: int, block: KnownBlock) -> Finding:
        """Check a verified block against its verified parent and child, where known."""
        parent = self._blocks.get(number - 1)
        child = self._blocks.get(number + 1)
        if parent is not None and parent.block_hash != block.parent_hash:
            detail = (
                f"its parent hash is not block {number - 1:,} verified earlier "
                f"({parent.block_hash[:12]}…): a reorganisation, or a node contradicting itself"
            )
            return Finding(Check.PARENT_LINK, Outcome.MISMATCH, detail)
        if child is not None and child.parent_hash != block.block_hash:
            detail = (
                f"block {number + 1:,} verified earlier names another parent "
                f"({child.parent_hash[:12]}…): a reorganisation, or a node contradicting itself"
            )
            return Finding(Check.PARENT_LINK, Outcome.MISMATCH, detail)
        if parent is not None:
            return Finding(Check.PARENT_LINK, Outcome.VERIFIED, f"to block {number - 1:,}")
        if child is not None:
            return Finding(Check.PARENT_LINK, Outcome.VERIFIED, f"from block {number + 1:,}")
        below = self.newest_below(number)
        why = (
            f"block {number - 1:,} has not been verified here (newest below: {below[0]:,})"
            if below is not None
            else "no block before it has been verified on this endpoint"
        )
        return Finding(Check.PARENT_LINK, Outcome.UNCHECKED, why)

    def note(self, number: int, block: KnownBlock) -> None:
        """Remember a verified block (it replaces what was known at its height)."""
        self._blocks.pop(number, None)
        self._blocks[number] = block
        while len(self._blocks) > self._capacity:
            self._blocks.popitem(last=False)

    def __len__(self) -> int:
        """Return how many verified blocks are remembered."""
        return len(self._blocks)


class Verifier:
    """Verify the blocks and transactions one endpoint serves under its chain's rules."""

    def __init__(self, chain_id: int, genesis: Callable[[], str | None]) -> None:
        self._chain_id = chain_id
        self._genesis = genesis
        self.chain = VerifiedChain()

    @property
    def rules(self) -> NetworkRules | None:
        """The chain's rules, with block 0 as the session verified it."""
        rules = rules_for_chain(self._chain_id)
        if rules is None:
            return None
        return dataclasses.replace(rules, genesis_hash=self._genesis() or rules.genesis_hash)

    async def block_off_thread(
        self, block: Block, receipts: Sequence[Receipt] | None = None
    ) -> BlockVerdict:
        """Verify a block (and its receipts, when all are read) on a worker thread.

        A thousand transactions take a noticeable time to hash: the GUI thread goes on
        meanwhile; the verified chain is only touched back on the loop's thread.
        """
        verdict = await asyncio.to_thread(_recompute, block, self.rules, receipts)
        return self._chained(verdict, block)

    def _chained(self, verdict: BlockVerdict, block: Block) -> BlockVerdict:
        """Add the parent link of a verified block and remember it."""
        if not verdict.verified or block.number is None or block.hash is None:
            return verdict
        known = KnownBlock(block.hash, block.parent_hash)
        if block.number == 0:
            self.chain.note(0, known)
            return verdict
        linked = verdict.with_findings(self.chain.link(block.number, known))
        self.chain.note(block.number, known)
        return linked

    async def transaction_off_thread(
        self,
        tx: Transaction,
        receipt: Receipt | None,
        block: Block,
        receipts: Sequence[Receipt] | None = None,
    ) -> BlockVerdict:
        """Verify a mined transaction: its hash, its place in its block, and that block."""
        verdict = await self.block_off_thread(block, receipts)
        finding = readable(
            Check.TRANSACTION, lambda: _transaction_finding(tx, receipt, block, self._chain_id)
        )
        return verdict.with_findings(finding)


def _recompute(
    block: Block, rules: NetworkRules | None, receipts: Sequence[Receipt] | None
) -> BlockVerdict:
    """Recompute a block's checks from its JSON (pure: safe on any thread)."""
    raw_receipts = None if receipts is None else [receipt.raw for receipt in receipts]
    return verify_block(block.raw, rules, receipts=raw_receipts, between=give_way)


def _transaction_finding(
    tx: Transaction, receipt: Receipt | None, block: Block, chain_id: int
) -> Finding:
    """Check a transaction's hash from its fields and its place in the block it names."""
    if not encode_transaction(tx.raw, chain_id).matches:
        return Finding(Check.TRANSACTION, Outcome.MISMATCH, "its fields do not hash to its hash")
    index = tx.transaction_index
    listed = block.transaction_hashes
    if tx.block_hash != block.hash or index is None or index >= len(listed):
        detail = "it is not in the block it names"
        return Finding(Check.TRANSACTION, Outcome.MISMATCH, detail)
    if listed[index] != tx.hash:
        detail = f"the block lists another transaction at index {index}"
        return Finding(Check.TRANSACTION, Outcome.MISMATCH, detail)
    if receipt is not None and (
        receipt.transaction_hash != tx.hash or receipt.block_hash != block.hash
    ):
        detail = "its receipt is another transaction's, or of another block"
        return Finding(Check.TRANSACTION, Outcome.MISMATCH, detail)
    return Finding(Check.TRANSACTION, Outcome.VERIFIED, f"at index {index} of its block")


async def raw_header_finding(
    client: TypedCalls, block: Block, rules: NetworkRules | None
) -> Finding:
    """Cross-check a block with rskj's raw header (one more request), where the node serves it."""
    if rules is None or block.hash is None:
        return Finding(Check.RAW_HEADER, Outcome.UNCHECKED, "no rules to read it with")
    try:
        raw = await client.get_raw_block_header_by_hash(block.hash)
    except NodeError as error:
        return Finding(Check.RAW_HEADER, Outcome.UNCHECKED, f"not served here ({error.message})")
    if raw is None:
        return Finding(Check.RAW_HEADER, Outcome.UNCHECKED, "the node has no raw header for it")
    return cross_check(raw, block.raw, rules)
