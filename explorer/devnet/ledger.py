"""The mined chain: the engine's state under RSK-shaped block records, with indexes."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass

from eth._utils.address import generate_contract_address
from eth.abc import ReceiptAPI, SignedTransactionAPI, StateAPI
from eth_typing import Address

from explorer.chain.rskrules import NetworkRules
from explorer.devnet.blockdata import DevBlock, ReceiptRecord, TxRecord
from explorer.devnet.blocks import BlockDraft, assemble_block, devnet_rules, difficulty_of
from explorer.devnet.evm import GAS_LIMIT, Engine
from explorer.devnet.remasc import RemascSettlement

UNCLE_WINDOW = 32


@dataclass(frozen=True)
class TxLocation:
    """Where a mined transaction sits: block number and index."""

    number: int
    index: int


@functools.lru_cache(maxsize=256)
def remasc_receipt(cumulative_gas_used: int) -> ReceiptRecord:
    """Return a REMASC transaction's receipt: success, no gas, no logs (shared: stored once)."""
    return ReceiptRecord(1, 0, cumulative_gas_used, None, (), 0)


class Ledger:
    """Blocks by number and hash, transactions by hash, and the engine below them."""

    def __init__(self, engine: Engine, blocks: Sequence[DevBlock]) -> None:
        self.engine = engine
        self.blocks: list[DevBlock] = []
        self.by_hash: dict[bytes, int] = {}
        self.tx_locations: dict[bytes, TxLocation] = {}
        for block in blocks:
            self._index(block)

    @property
    def rules(self) -> NetworkRules:
        """The consensus rules the chain's blocks follow (by its chain id)."""
        return devnet_rules(self.engine.chain_id)

    @property
    def head(self) -> DevBlock:
        """The latest mined block."""
        return self.blocks[-1]

    def _index(self, block: DevBlock) -> None:
        """Add a block to the indexes."""
        self.blocks.append(block)
        self.by_hash[block.hash] = block.number
        for index, tx in enumerate(block.transactions):
            self.tx_locations[tx.hash] = TxLocation(block.number, index)

    def replace(self, block: DevBlock) -> None:
        """Put a block in place of the mined block of its number (see devnet/reorg.py)."""
        old = self.blocks[block.number]
        self.by_hash.pop(old.hash, None)
        self.blocks[block.number] = block
        self.by_hash[block.hash] = block.number
        for index, tx in enumerate(block.transactions):
            self.tx_locations[tx.hash] = TxLocation(block.number, index)

    def add_genesis(self, miner: bytes, timestamp: int) -> DevBlock:
        """Record block 0 (no transactions) over the engine's genesis state."""
        draft = BlockDraft(0, timestamp, miner, GAS_LIMIT, self._state_root(0), (), ())
        draft = dataclasses.replace(draft, rules=self.rules)
        block = assemble_block(draft, None)
        self._index(block)
        return block

    def _state_root(self, number: int) -> bytes:
        """Return the engine's state root after block number."""
        return bytes(self.engine.header_at(number).state_root)

    def mine(
        self,
        transactions: Sequence[SignedTransactionAPI],
        *,
        timestamp: int,
        miner: bytes,
        uncle_count: int = 0,
        remasc: RemascSettlement | None = None,
    ) -> DevBlock:
        """Execute transactions into a new block ending with its REMASC transaction.

        REMASC's payments, when given, move balances and are logged in its receipt.
        """
        moves = remasc.moves if remasc is not None else ()
        number = self.head.number + 1
        batch = self.engine.mine(transactions, timestamp, moves, miner, difficulty_of(number))
        records = [TxRecord.from_signed(tx) for tx in transactions]
        receipts = _receipts(records, batch.receipts)
        state_root = bytes(batch.header.state_root)
        draft = self._draft(records, receipts, state_root, timestamp, miner, uncle_count, remasc)
        block = assemble_block(draft, self.head)
        self._index(block)
        return block

    def preview(
        self, ready: Sequence[SignedTransactionAPI], *, timestamp: int, miner: bytes
    ) -> tuple[DevBlock, StateAPI]:
        """Return the sample next block: the executable transactions run on top of the head."""
        executed, state = self.engine.preview(ready, timestamp)
        records = [TxRecord.from_signed(tx) for tx in ready]
        receipts = _receipts(records, executed)
        state_root = bytes(state.make_state_root()) if ready else self.head.state_root
        draft = self._draft(records, receipts, state_root, timestamp, miner, 0)
        return assemble_block(draft, self.head), state

    def _draft(
        self,
        records: list[TxRecord],
        receipts: list[ReceiptRecord],
        state_root: bytes,
        timestamp: int,
        miner: bytes,
        uncle_count: int,
        remasc: RemascSettlement | None = None,
    ) -> BlockDraft:
        """Return the next block's draft, its REMASC transaction appended."""
        number = self.head.number + 1
        records.append(TxRecord.remasc(number))
        cumulative = receipts[-1].cumulative_gas_used if receipts else 0
        if remasc is None:
            receipts.append(remasc_receipt(cumulative))
        else:
            receipts.append(ReceiptRecord(1, 0, cumulative, None, remasc.logs, remasc.bloom))
        recent = self.blocks[-(UNCLE_WINDOW - 1) :]
        return BlockDraft(
            number=number,
            timestamp=timestamp,
            miner=miner,
            gas_limit=GAS_LIMIT,
            state_root=state_root,
            transactions=tuple(records),
            receipts=tuple(receipts),
            uncle_count=uncle_count,
            recent_uncles=uncle_count + sum(len(b.uncles) for b in recent),
            rules=self.rules,
        )


def _receipts(records: Sequence[TxRecord], receipts: Sequence[ReceiptAPI]) -> list[ReceiptRecord]:
    """Receipt records with each transaction's own gas and created contract."""
    result: list[ReceiptRecord] = []
    previous = 0
    for tx, receipt in zip(records, receipts, strict=True):
        cumulative = receipt.gas_used
        created = None if tx.to else generate_contract_address(Address(tx.sender), tx.nonce)
        result.append(ReceiptRecord.from_receipt(receipt, cumulative - previous, created))
        previous = cumulative
    return result
