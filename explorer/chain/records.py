"""Frozen records for blocks, transactions and receipts, parsed leniently (logs: logrecords)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, overload

from explorer.chain import bounds
from explorer.chain.hexutil import (
    parse_address,
    parse_hash,
    parse_optional_address,
    parse_optional_data,
    parse_optional_hash,
)
from explorer.chain.jsonfields import (
    JsonObject,
    RecordFormatError,
    hash_list,
    json_object,
    optional,
    required,
)
from explorer.chain.logrecords import Log

__all__ = ["Block", "BlockTransactions", "Log", "Receipt", "RecordFormatError", "Transaction"]


@dataclass(frozen=True)
class Transaction:
    """A transaction (docs/service.md §2.4); block fields are None while pending."""

    hash: str
    nonce: int
    sender: str
    to: str | None
    gas: int
    gas_price: int
    value: int
    input: bytes
    block_hash: str | None
    block_number: int | None
    transaction_index: int | None
    v: int | None
    r: int | None
    s: int | None
    type: int | None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_pending(self) -> bool:
        """Tell whether the transaction is not yet in a block."""
        return self.block_hash is None or self.block_number is None

    @property
    def is_contract_creation(self) -> bool:
        """Tell whether the transaction creates a contract (no `to`)."""
        return self.to is None

    @property
    def chain_id(self) -> int | None:
        """Return the EIP-155 chain id encoded in `v`, or None (pre-EIP-155 or unsigned)."""
        if self.v is None or self.v < 35:
            return None
        return (self.v - 35) // 2

    @classmethod
    def from_json(cls, value: object) -> Transaction:
        """Parse a transaction object, unwrapping a one-element array."""
        obj = json_object(value, "transaction")
        return cls(
            hash=required(obj, "hash", parse_hash),
            nonce=required(obj, "nonce", bounds.NONCE.parse),
            sender=required(obj, "from", parse_address),
            to=optional(obj, "to", parse_optional_address),
            gas=required(obj, "gas", bounds.GAS.parse),
            gas_price=optional(obj, "gasPrice", bounds.WORD.parse_optional) or 0,
            value=required(obj, "value", bounds.WORD.parse),
            input=optional(obj, "input", parse_optional_data) or b"",
            block_hash=optional(obj, "blockHash", parse_optional_hash),
            block_number=optional(obj, "blockNumber", bounds.BLOCK_NUMBER.parse_optional),
            transaction_index=optional(obj, "transactionIndex", bounds.INDEX.parse_optional),
            v=optional(obj, "v", bounds.WORD.parse_optional),
            r=optional(obj, "r", bounds.WORD.parse_optional),
            s=optional(obj, "s", bounds.WORD.parse_optional),
            type=optional(obj, "type", bounds.TX_TYPE.parse_optional),
            raw=obj,
        )


@dataclass(frozen=True)
class Receipt:
    """A transaction receipt (docs/service.md §2.5): `status` and/or `root`, as the node sends."""

    transaction_hash: str
    transaction_index: int
    block_hash: str
    block_number: int
    sender: str | None
    to: str | None
    cumulative_gas_used: int
    gas_used: int
    effective_gas_price: int | None
    contract_address: str | None
    logs: tuple[Log, ...]
    logs_bloom: bytes | None
    status: int | None
    root: bytes | None
    type: int | None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @property
    def succeeded(self) -> bool | None:
        """Return True/False from `status`, or None when only `root` was sent."""
        return None if self.status is None else self.status == 1

    def fee(self, gas_price: int) -> int:
        """Return the fee in wei: gasUsed × effective gas price (or the given gas price)."""
        price = self.effective_gas_price if self.effective_gas_price is not None else gas_price
        return self.gas_used * price

    @classmethod
    def from_json(cls, value: object) -> Receipt:
        """Parse a receipt object as any node sends it."""
        obj = json_object(value, "receipt")
        logs = obj.get("logs") or []
        if not isinstance(logs, list):
            raise RecordFormatError("'logs' must be an array")
        return cls(
            transaction_hash=required(obj, "transactionHash", parse_hash),
            transaction_index=required(obj, "transactionIndex", bounds.INDEX.parse),
            block_hash=required(obj, "blockHash", parse_hash),
            block_number=required(obj, "blockNumber", bounds.BLOCK_NUMBER.parse),
            sender=optional(obj, "from", parse_optional_address),
            to=optional(obj, "to", parse_optional_address),
            cumulative_gas_used=required(obj, "cumulativeGasUsed", bounds.GAS.parse),
            gas_used=required(obj, "gasUsed", bounds.GAS.parse),
            effective_gas_price=optional(obj, "effectiveGasPrice", bounds.WORD.parse_optional),
            contract_address=optional(obj, "contractAddress", parse_optional_address),
            logs=tuple(Log.from_json(item) for item in logs),
            logs_bloom=optional(obj, "logsBloom", parse_optional_data),
            status=optional(obj, "status", bounds.STATUS.parse_optional),
            root=optional(obj, "root", parse_optional_data) or None,
            type=optional(obj, "type", bounds.TX_TYPE.parse_optional),
            raw=obj,
        )


class BlockTransactions(Sequence[Transaction]):
    """A block's full transaction objects, each parsed when first read.

    A 1,000-transaction block is shown long before its last row is looked at; only the
    hashes are checked at once (RecordFormatError when one is missing or malformed).
    """

    def __init__(self, items: list[Any]) -> None:
        self._items = items
        self._parsed: list[Transaction | None] = [None] * len(items)
        self.hashes = tuple(
            required(json_object(item, "transaction"), "hash", parse_hash) for item in items
        )

    def __len__(self) -> int:
        """Return the number of transactions."""
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Transaction: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Transaction, ...]: ...

    def __getitem__(self, index: int | slice) -> Transaction | tuple[Transaction, ...]:
        """Return the transaction at index (parsed now if not yet), or a tuple for a slice."""
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        parsed = self._parsed[index]
        if parsed is None:
            parsed = Transaction.from_json(self._items[index])
            position = parsed.transaction_index
            if position is not None and position >= len(self._items):
                raise RecordFormatError(
                    f"transactionIndex {position:,} is not below the block's "
                    f"{len(self._items):,} transactions"
                )
            self._parsed[index] = parsed
        return parsed

    def involving(self, address: str) -> list[Transaction]:
        """Return the transactions from or to address, and every contract creation.

        Only those are parsed: the others are passed over by their raw `from` and `to`.
        """
        wanted = address.lower()
        found = []
        for index, item in enumerate(self._items):
            raw = item if isinstance(item, dict) else {}
            sender, to = str(raw.get("from", "")).lower(), raw.get("to")
            if sender == wanted or to is None or str(to).lower() == wanted:
                found.append(self[index])
        return found

    def well_formed(self, newest_first: bool = False) -> Iterator[Transaction]:
        """Yield the transactions that parse (last first if asked), skipping malformed ones."""
        count = len(self._items)
        for index in range(count - 1, -1, -1) if newest_first else range(count):
            try:
                yield self[index]
            except RecordFormatError:
                continue

    def __eq__(self, other: object) -> bool:
        """Compare by value with any sequence of transactions."""
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        """Show the count only."""
        return f"BlockTransactions({len(self)})"


@dataclass(frozen=True)
class Block:
    """A block (docs/service.md §2.3); a field a node or a pending block omits is None."""

    number: int | None
    hash: str | None
    parent_hash: str
    sha3_uncles: str | None
    logs_bloom: bytes | None
    transactions_root: str | None
    state_root: str | None
    receipts_root: str | None
    miner: str | None
    difficulty: int
    total_difficulty: int | None
    extra_data: bytes
    size: int | None
    gas_limit: int
    gas_used: int
    timestamp: int
    transaction_hashes: tuple[str, ...]
    transactions: BlockTransactions | None
    uncles: tuple[str, ...]
    minimum_gas_price: int | None
    paid_fees: int | None
    cumulative_difficulty: int | None
    bitcoin_merged_mining_header: bytes | None
    bitcoin_merged_mining_coinbase_transaction: bytes | None
    bitcoin_merged_mining_merkle_proof: bytes | None
    hash_for_merged_mining: bytes | None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @property
    def is_pending(self) -> bool:
        """Tell whether this is the sample next block (no number or hash)."""
        return self.number is None or self.hash is None

    @classmethod
    def from_json(cls, value: object) -> Block:
        """Parse a block with transaction hashes or full transaction objects."""
        obj = json_object(value, "block")
        items = obj.get("transactions") or []
        if not isinstance(items, list):
            raise RecordFormatError("'transactions' must be an array")
        full: BlockTransactions | None = None
        if items and not isinstance(items[0], str):
            full = BlockTransactions(items)
            hashes = full.hashes
        else:
            hashes = hash_list(obj, "transactions")
        return cls(
            number=optional(obj, "number", bounds.BLOCK_NUMBER.parse_optional),
            hash=optional(obj, "hash", parse_optional_hash),
            parent_hash=required(obj, "parentHash", parse_hash),
            sha3_uncles=optional(obj, "sha3Uncles", parse_optional_hash),
            logs_bloom=optional(obj, "logsBloom", parse_optional_data),
            transactions_root=optional(obj, "transactionsRoot", parse_optional_hash),
            state_root=optional(obj, "stateRoot", parse_optional_hash),
            receipts_root=optional(obj, "receiptsRoot", parse_optional_hash),
            miner=optional(obj, "miner", parse_optional_address),
            difficulty=optional(obj, "difficulty", bounds.WORD.parse_optional) or 0,
            total_difficulty=optional(obj, "totalDifficulty", bounds.WORD.parse_optional),
            extra_data=optional(obj, "extraData", parse_optional_data) or b"",
            size=optional(obj, "size", bounds.SIZE.parse_optional),
            gas_limit=required(obj, "gasLimit", bounds.GAS.parse),
            gas_used=required(obj, "gasUsed", bounds.GAS.parse),
            timestamp=required(obj, "timestamp", bounds.TIMESTAMP.parse),
            transaction_hashes=hashes,
            transactions=full,
            uncles=hash_list(obj, "uncles"),
            minimum_gas_price=optional(obj, "minimumGasPrice", bounds.WORD.parse_optional),
            paid_fees=optional(obj, "paidFees", bounds.WORD.parse_optional),
            cumulative_difficulty=optional(obj, "cumulativeDifficulty", bounds.WORD.parse_optional),
            bitcoin_merged_mining_header=optional(
                obj, "bitcoinMergedMiningHeader", parse_optional_data
            ),
            bitcoin_merged_mining_coinbase_transaction=optional(
                obj, "bitcoinMergedMiningCoinbaseTransaction", parse_optional_data
            ),
            bitcoin_merged_mining_merkle_proof=optional(
                obj, "bitcoinMergedMiningMerkleProof", parse_optional_data
            ),
            hash_for_merged_mining=optional(obj, "hashForMergedMining", parse_optional_data),
            raw=obj,
        )
