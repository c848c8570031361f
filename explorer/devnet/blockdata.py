"""The devnet's own records of mined blocks, transactions, receipts and logs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import rlp
from eth.abc import LegacyTransactionFieldsAPI, ReceiptAPI, SignedTransactionAPI
from eth_hash.auto import keccak

from explorer.chain.rskheader import minimal_bytes
from explorer.chain.rsktx import receipt_rlp, remasc_transaction
from explorer.devnet.evm import REMASC_ADDRESS, ZERO_ADDRESS


@dataclass(frozen=True)
class TxRecord:
    """A legacy transaction as the node reports it."""

    hash: bytes
    sender: bytes
    nonce: int
    gas_price: int
    gas: int
    to: bytes | None
    value: int
    data: bytes
    v: int
    r: int
    s: int

    @classmethod
    def from_signed(cls, tx: SignedTransactionAPI) -> TxRecord:
        """Record a signed py-evm transaction."""
        legacy = cast(LegacyTransactionFieldsAPI, tx)
        return cls(
            hash=bytes(tx.hash),
            sender=bytes(tx.sender),
            nonce=tx.nonce,
            gas_price=tx.gas_price,
            gas=tx.gas,
            to=bytes(tx.to) or None,
            value=tx.value,
            data=bytes(tx.data),
            v=legacy.v,
            r=tx.r,
            s=tx.s,
        )

    @classmethod
    def remasc(cls, number: int) -> TxRecord:
        """Return the REMASC transaction that ends block number, as RSK makes it."""
        remasc_hash = keccak(remasc_transaction(number))
        return cls(remasc_hash, ZERO_ADDRESS, number - 1, 0, 0, REMASC_ADDRESS, 0, b"", 0, 0, 0)

    @property
    def is_remasc(self) -> bool:
        """Tell whether this is a block's unsigned REMASC transaction."""
        return self.to == REMASC_ADDRESS and self.sender == ZERO_ADDRESS and not self.v

    @property
    def encoded(self) -> bytes:
        """Return the transaction's RLP as rskj writes it (REMASC's with its zero bytes)."""
        if self.is_remasc:
            return remasc_transaction(self.nonce + 1)
        head = [self.nonce, self.gas_price, self.gas, self.to or b"", self.value, self.data]
        return bytes(rlp.encode([*head, self.v, self.r, self.s]))

    @property
    def fee_cap(self) -> int:
        """The most this transaction can cost its sender: value plus gas times price."""
        return self.value + self.gas * self.gas_price


@dataclass(frozen=True)
class LogRecord:
    """One event log."""

    address: bytes
    topics: tuple[bytes, ...]
    data: bytes


def _topic_bytes(topics: Sequence[int]) -> tuple[bytes, ...]:
    """py-evm's int topics as 32-byte values."""
    return tuple(topic.to_bytes(32, "big") for topic in topics)


@dataclass(frozen=True)
class ReceiptRecord:
    """The outcome of one transaction."""

    status: int
    gas_used: int
    cumulative_gas_used: int
    contract_address: bytes | None
    logs: tuple[LogRecord, ...]
    bloom: int

    @classmethod
    def from_receipt(
        cls, receipt: ReceiptAPI, gas_used: int, contract_address: bytes | None
    ) -> ReceiptRecord:
        """Record a py-evm receipt."""
        logs = tuple(
            LogRecord(bytes(entry.address), _topic_bytes(entry.topics), bytes(entry.data))
            for entry in receipt.logs
        )
        status = 1 if receipt.state_root == b"\x01" else 0
        return cls(status, gas_used, receipt.gas_used, contract_address, logs, receipt.bloom)

    @property
    def encoded(self) -> bytes:
        """Return the receipt's RLP as rskj writes it (for the receipts root)."""
        outcome = b"\x01" if self.status else b""
        logs = [(log.address, log.topics, log.data) for log in self.logs]
        bloom = self.bloom.to_bytes(256, "big")
        cumulative, used = minimal_bytes(self.cumulative_gas_used), minimal_bytes(self.gas_used)
        return receipt_rlp(outcome, outcome, cumulative, used, bloom, logs)


@dataclass(frozen=True)
class MergeMining:
    """The merge-mining fields of a block."""

    header: bytes
    coinbase: bytes
    merkle_proof: bytes
    hash_for_merged_mining: bytes


@dataclass(frozen=True)
class DevBlock:
    """A mined devnet block with every field an RSK node reports."""

    number: int
    hash: bytes
    parent_hash: bytes
    sha3_uncles: bytes
    logs_bloom: int
    transactions_root: bytes
    state_root: bytes
    receipts_root: bytes
    miner: bytes
    difficulty: int
    total_difficulty: int
    cumulative_difficulty: int
    extra_data: bytes
    size: int
    gas_limit: int
    gas_used: int
    timestamp: int
    minimum_gas_price: int
    paid_fees: int
    uncles: tuple[bytes, ...]
    transactions: tuple[TxRecord, ...]
    receipts: tuple[ReceiptRecord, ...]
    merge_mining: MergeMining
