"""Frozen records for blocks, transactions, receipts and logs, parsed leniently."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from typing import Any, TypeVar, dataclass_transform, overload

from explorer.chain.hexutil import (
    HexFormatError,
    parse_address,
    parse_hash,
    parse_optional_address,
    parse_optional_data,
    parse_optional_hash,
    parse_optional_quantity,
    parse_quantity,
)

JsonObject = Mapping[str, Any]
T = TypeVar("T")


class RecordFormatError(ValueError):
    """A node's JSON object lacks a required field or has one of the wrong form."""


def _required(obj: JsonObject, key: str, parse: Callable[[object, str], T]) -> T:
    """Parse a field that must be present and non-null."""
    if key not in obj or obj[key] is None:
        raise RecordFormatError(f"missing field {key!r}")
    try:
        return parse(obj[key], key)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc


def _optional(obj: JsonObject, key: str, parse: Callable[[object, str], T | None]) -> T | None:
    """Parse a field that may be absent or null."""
    try:
        return parse(obj.get(key), key)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc


def _object(value: object, what: str) -> JsonObject:
    """Return value as a JSON object; unwrap a one-element array (docs/service.md §10)."""
    if isinstance(value, list) and len(value) == 1:
        value = value[0]
    if not isinstance(value, Mapping):
        raise RecordFormatError(f"{what} must be a JSON object, got {type(value).__name__}")
    return value


def _hash_list(obj: JsonObject, key: str) -> tuple[str, ...]:
    """Parse an optional array of 32-byte hashes."""
    items = obj.get(key) or []
    if not isinstance(items, list):
        raise RecordFormatError(f"{key!r} must be an array")
    try:
        return tuple(parse_hash(item, key) for item in items)
    except HexFormatError as exc:
        raise RecordFormatError(str(exc)) from exc


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def _bulk_record(cls: type[T]) -> type[T]:
    """Make a slotted, hashable dataclass that the type checker holds frozen; at run time it is
    not, because a frozen init sets each field through object.__setattr__, a third of the time
    of parsing a scan's logs (~1.5 us a log, 20 ms for a 13k-log answer)."""
    return dataclass(slots=True, unsafe_hash=True)(cls)


@_bulk_record
class Log:
    """An event log (docs/service.md §2.6), keyed by (transaction_hash, log_index). Slotted: scans
    hold thousands at a time, and the collector then has one object less to walk for each."""

    address: str
    topics: tuple[str, ...]
    data: bytes
    log_index: int | None
    transaction_index: int | None
    transaction_hash: str | None
    block_hash: str | None
    block_number: int | None
    raw: JsonObject = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_json(cls, value: object) -> Log:
        """Parse a log object as any node sends it."""
        obj = _object(value, "log")
        return _plain_log(obj) or _careful_log(obj)

    @classmethod
    def many_from_json(cls, values: Sequence[object]) -> list[Log]:
        """Parse many logs as from_json does (same logs, same errors), the plain form checked
        for all of them together."""
        plain = _plain_logs(values)
        return plain if plain is not None else [cls.from_json(value) for value in values]


_LOG_NUMBERS = ("logIndex", "transactionIndex", "blockNumber")  # in Log's order
_LOG_FIELDS = ("address", "data", *_LOG_NUMBERS)


def _plain_log(obj: JsonObject) -> Log | None:
    """Parse one log in the plain form nodes send (as _plain_logs judges it, without its
    per-list overhead: rows are formatted one at a time); None when anything differs."""
    try:
        address, data, *numbers = [obj[key] for key in _LOG_FIELDS]
        hashes = [obj["transactionHash"], obj["blockHash"], *obj["topics"]]
        if not (_plain_hex([address], 42) and _plain_hex(hashes, 66) and _only_hex([data])):
            return None
        parsed = _hex_numbers(numbers)
        if parsed is None:
            return None
        payload = bytes.fromhex(data[2:])
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    log_index, tx_index, block = parsed
    tx_hash, block_hash, *topics = hashes
    return Log(
        address, tuple(topics), payload, log_index, tx_index, tx_hash, block_hash, block, obj
    )


_HEX_DIGITS = b"0123456789abcdef"


def _only_hex(texts: list[Any]) -> bool:
    """Tell whether every text is 0x then lowercase hex digits only (one C pass over them all)."""
    if not all(map(str.startswith, texts, repeat("0x"))):
        return False  # also no sign or space: int() and bytes.fromhex() would take some
    joined = "".join(texts)
    return joined.isascii() and joined.encode().translate(None, _HEX_DIGITS) == b"x" * len(texts)


def _plain_hex(texts: list[Any], width: int) -> bool:
    """Tell whether every text is 0x and lowercase hex, `width` characters in all."""
    return not set(map(len, texts)) - {width} and _only_hex(texts)


def _hex_numbers(texts: list[Any]) -> list[int] | None:
    """Return the numbers of 0x-hex texts, each distinct text read once; None when one is not
    0x and lowercase hex digits (leading zeros are fine, as for parse_quantity)."""
    if not _only_hex(texts):
        return None
    values = {text: int(text, 16) for text in set(texts)}
    return list(map(values.__getitem__, texts))


def _plain_logs(values: Sequence[object]) -> list[Log] | None:
    """Parse logs that are all in the plain form nodes send, checked together; None when any
    differs (they are then parsed one by one)."""
    try:
        objs: list[dict[str, Any]] = [value for value in values if type(value) is dict]
        topic_lists = [obj["topics"] for obj in objs]
        if len(objs) != len(values) or not all(type(item) is list for item in topic_lists):
            return None
        addresses = [obj["address"] for obj in objs]
        tx_hashes = [obj["transactionHash"] for obj in objs]
        block_hashes = [obj["blockHash"] for obj in objs]
        hashes = tx_hashes + block_hashes + [topic for item in topic_lists for topic in item]
        data = [obj["data"] for obj in objs]
        if not (_plain_hex(addresses, 42) and _plain_hex(hashes, 66) and _only_hex(data)):
            return None
        parsed = _hex_numbers([obj[key] for key in _LOG_NUMBERS for obj in objs])
        if parsed is None:
            return None
        payloads = [bytes.fromhex(text[2:]) for text in data]
    except (KeyError, TypeError, ValueError, AttributeError):
        return None
    count = len(objs)
    return [
        Log(
            addresses[i],
            tuple(topic_lists[i]),
            payloads[i],
            parsed[i],
            parsed[count + i],
            tx_hashes[i],
            block_hashes[i],
            parsed[2 * count + i],
            objs[i],
        )
        for i in range(count)
    ]


def _careful_log(obj: JsonObject) -> Log:
    """Parse a log field by field, leniently, naming the field that is wrong."""
    return Log(
        address=_required(obj, "address", parse_address),
        topics=_hash_list(obj, "topics"),
        data=_optional(obj, "data", parse_optional_data) or b"",
        log_index=_optional(obj, "logIndex", parse_optional_quantity),
        transaction_index=_optional(obj, "transactionIndex", parse_optional_quantity),
        transaction_hash=_optional(obj, "transactionHash", parse_optional_hash),
        block_hash=_optional(obj, "blockHash", parse_optional_hash),
        block_number=_optional(obj, "blockNumber", parse_optional_quantity),
        raw=obj,
    )


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
        obj = _object(value, "transaction")
        return cls(
            hash=_required(obj, "hash", parse_hash),
            nonce=_required(obj, "nonce", parse_quantity),
            sender=_required(obj, "from", parse_address),
            to=_optional(obj, "to", parse_optional_address),
            gas=_required(obj, "gas", parse_quantity),
            gas_price=_optional(obj, "gasPrice", parse_optional_quantity) or 0,
            value=_required(obj, "value", parse_quantity),
            input=_optional(obj, "input", parse_optional_data) or b"",
            block_hash=_optional(obj, "blockHash", parse_optional_hash),
            block_number=_optional(obj, "blockNumber", parse_optional_quantity),
            transaction_index=_optional(obj, "transactionIndex", parse_optional_quantity),
            v=_optional(obj, "v", parse_optional_quantity),
            r=_optional(obj, "r", parse_optional_quantity),
            s=_optional(obj, "s", parse_optional_quantity),
            type=_optional(obj, "type", parse_optional_quantity),
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
        obj = _object(value, "receipt")
        logs = obj.get("logs") or []
        if not isinstance(logs, list):
            raise RecordFormatError("'logs' must be an array")
        return cls(
            transaction_hash=_required(obj, "transactionHash", parse_hash),
            transaction_index=_required(obj, "transactionIndex", parse_quantity),
            block_hash=_required(obj, "blockHash", parse_hash),
            block_number=_required(obj, "blockNumber", parse_quantity),
            sender=_optional(obj, "from", parse_optional_address),
            to=_optional(obj, "to", parse_optional_address),
            cumulative_gas_used=_required(obj, "cumulativeGasUsed", parse_quantity),
            gas_used=_required(obj, "gasUsed", parse_quantity),
            effective_gas_price=_optional(obj, "effectiveGasPrice", parse_optional_quantity),
            contract_address=_optional(obj, "contractAddress", parse_optional_address),
            logs=tuple(Log.from_json(item) for item in logs),
            logs_bloom=_optional(obj, "logsBloom", parse_optional_data),
            status=_optional(obj, "status", parse_optional_quantity),
            root=_optional(obj, "root", parse_optional_data) or None,
            type=_optional(obj, "type", parse_optional_quantity),
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
            _required(_object(item, "transaction"), "hash", parse_hash) for item in items
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
            parsed = self._parsed[index] = Transaction.from_json(self._items[index])
        return parsed

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
        obj = _object(value, "block")
        items = obj.get("transactions") or []
        if not isinstance(items, list):
            raise RecordFormatError("'transactions' must be an array")
        full: BlockTransactions | None = None
        if items and not isinstance(items[0], str):
            full = BlockTransactions(items)
            hashes = full.hashes
        else:
            hashes = _hash_list(obj, "transactions")
        return cls(
            number=_optional(obj, "number", parse_optional_quantity),
            hash=_optional(obj, "hash", parse_optional_hash),
            parent_hash=_required(obj, "parentHash", parse_hash),
            sha3_uncles=_optional(obj, "sha3Uncles", parse_optional_hash),
            logs_bloom=_optional(obj, "logsBloom", parse_optional_data),
            transactions_root=_optional(obj, "transactionsRoot", parse_optional_hash),
            state_root=_optional(obj, "stateRoot", parse_optional_hash),
            receipts_root=_optional(obj, "receiptsRoot", parse_optional_hash),
            miner=_optional(obj, "miner", parse_optional_address),
            difficulty=_optional(obj, "difficulty", parse_optional_quantity) or 0,
            total_difficulty=_optional(obj, "totalDifficulty", parse_optional_quantity),
            extra_data=_optional(obj, "extraData", parse_optional_data) or b"",
            size=_optional(obj, "size", parse_optional_quantity),
            gas_limit=_required(obj, "gasLimit", parse_quantity),
            gas_used=_required(obj, "gasUsed", parse_quantity),
            timestamp=_required(obj, "timestamp", parse_quantity),
            transaction_hashes=hashes,
            transactions=full,
            uncles=_hash_list(obj, "uncles"),
            minimum_gas_price=_optional(obj, "minimumGasPrice", parse_optional_quantity),
            paid_fees=_optional(obj, "paidFees", parse_optional_quantity),
            cumulative_difficulty=_optional(obj, "cumulativeDifficulty", parse_optional_quantity),
            bitcoin_merged_mining_header=_optional(
                obj, "bitcoinMergedMiningHeader", parse_optional_data
            ),
            bitcoin_merged_mining_coinbase_transaction=_optional(
                obj, "bitcoinMergedMiningCoinbaseTransaction", parse_optional_data
            ),
            bitcoin_merged_mining_merkle_proof=_optional(
                obj, "bitcoinMergedMiningMerkleProof", parse_optional_data
            ),
            hash_for_merged_mining=_optional(obj, "hashForMergedMining", parse_optional_data),
            raw=obj,
        )
