"""A transaction's and a receipt's RLP rebuilt from the node's JSON, as rskj encodes them.

Transaction (`org/ethereum/core/Transaction.java`, `encode`): [nonce (a zero nonce written as
nothing), gasPrice (`RLP.encodeCoinNonNullZero`: zero one zero byte, null nothing), gasLimit
(the bytes as sent), receiver (nothing for a creation), value (zero as nothing), data, v, r, s].
An unsigned transaction, the REMASC one (`co/rsk/remasc/RemascTransaction.java`: nonce
block-1, gas price and gas limit one zero byte each, chain id 0), has empty v, r and s, which
the JSON shows as `0x0` (`zeroSignatureIfRemasc`) or null. Its hash is keccak of that RLP, so
the node's `hash` tells which of the few byte readings the JSON allows rskj used. Nodes before
`getEncodedV` (2019 and earlier) showed an EIP-155 transaction's v as 27 or 28; the chain id
then goes back into v (chainId × 2 + 35 + recovery id), as the transaction was signed.

Receipt (`org/ethereum/core/TransactionReceipt.java`, `getEncoded`, as `BlockExecutor` builds
it): [postTxState (one byte 1 on success, nothing on failure), cumulativeGas, bloom, logs
([address, [topics], data]), gasUsed, status (as postTxState)]; gas amounts as Bouncy
Castle's `BigIntegers.asUnsignedByteArray`, which drops the sign byte: zero is nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from eth_hash.auto import keccak
from rlp.codec import encode_raw

from explorer.chain import bounds
from explorer.chain.hexutil import HexFormatError, parse_data, parse_optional_data
from explorer.chain.jsonfields import RecordFormatError, optional, required
from explorer.chain.rskheader import java_bytes, minimal_bytes

RecordJson = Mapping[str, Any]
REMASC_ADDRESS = bytes.fromhex("0000000000000000000000000000000001000008")
LogItems = tuple[bytes, Sequence[bytes], bytes]  # address, topics, data


def remasc_transaction(number: int) -> bytes:
    """Return the RLP of block number's REMASC transaction (`new RemascTransaction(number)`)."""
    nonce = minimal_bytes(number - 1)
    return bytes(encode_raw([nonce, b"\x00", b"\x00", REMASC_ADDRESS, b"", b"", b"", b"", b""]))


def receipt_rlp(
    post_state: bytes,
    status: bytes,
    cumulative_gas: int,
    gas_used: int,
    bloom: bytes,
    logs: Sequence[LogItems],
) -> bytes:
    """Return a receipt's RLP as `TransactionReceipt.getEncoded` writes it."""
    items = [
        post_state,
        minimal_bytes(cumulative_gas),
        bloom,
        [[address, list(topics), data] for address, topics, data in logs],
        minimal_bytes(gas_used),
        status,
    ]
    return bytes(encode_raw(items))


def _hash(value: object, what: str) -> bytes:
    """Parse a 32-byte hash."""
    data = parse_data(value, what)
    if len(data) != 32:
        raise HexFormatError(f"{what} must be 32 bytes")
    return data


def _address(value: object, what: str) -> bytes:
    """Parse a 20-byte address, or nothing for null (a contract creation)."""
    data = parse_optional_data(value, what) or b""
    if len(data) not in (0, 20):
        raise HexFormatError(f"{what} must be 20 bytes")
    return data


def _forms(value: int, zero: tuple[bytes, ...]) -> list[bytes]:
    """Byte readings of a number: minimal, Java's, and the given ones for zero."""
    forms = list(zero) if value == 0 else [minimal_bytes(value)]
    if value and java_bytes(value) != forms[0]:
        forms.append(java_bytes(value))
    return forms


@dataclass(frozen=True)
class TxEncoding:
    """A transaction's RLP as rskj would hash it, and whether it gives the node's hash."""

    hash: bytes
    encoded: bytes
    matches: bool


def _signatures(obj: RecordJson, chain_id: int | None) -> list[list[bytes]]:
    """Return the readings of [v, r, s]: empty for the unsigned (REMASC) transaction."""
    v = optional(obj, "v", bounds.WORD.parse_optional)
    r = optional(obj, "r", bounds.WORD.parse_optional) or 0
    s = optional(obj, "s", bounds.WORD.parse_optional) or 0
    if not v and not r and not s:
        return [[b"", b"", b""]]
    if v is None or not 0 < v <= 0xFF:
        raise RecordFormatError("'v' must be one byte in a signed transaction")
    readings = [v]
    if v in (27, 28) and chain_id is not None and v + chain_id * 2 + 8 <= 0xFF:
        readings.append(v + chain_id * 2 + 8)
    return [[bytes([value]), minimal_bytes(r), minimal_bytes(s)] for value in readings]


def transaction_encodings(obj: RecordJson, chain_id: int | None = None) -> Iterator[bytes]:
    """Yield the RLP readings of a transaction's JSON, rskj's usual one first."""
    nonce = required(obj, "nonce", bounds.NONCE.parse)
    gas_price = optional(obj, "gasPrice", bounds.WORD.parse_optional) or 0
    gas = required(obj, "gas", bounds.WORD.parse)
    value = required(obj, "value", bounds.WORD.parse)
    to = _address(obj.get("to"), "to")
    data = optional(obj, "input", parse_optional_data) or b""
    signatures = _signatures(obj, chain_id)
    unsigned = not signatures[0][0]
    price_zero = (b"\x00", b"")
    gas_zero = (b"\x00", b"") if unsigned else (b"", b"\x00")
    for signature, nonce_bytes, price, limit in product(
        signatures, _forms(nonce, (b"",)), _forms(gas_price, price_zero), _forms(gas, gas_zero)
    ):
        yield bytes(
            encode_raw([nonce_bytes, price, limit, to, minimal_bytes(value), data, *signature])
        )


def encode_transaction(obj: RecordJson, chain_id: int | None = None) -> TxEncoding:
    """Return the reading whose keccak is the node's `hash`, else rskj's usual one."""
    claimed = required(obj, "hash", _hash)
    first: TxEncoding | None = None
    for encoded in transaction_encodings(obj, chain_id):
        digest = keccak(encoded)
        if digest == claimed:
            return TxEncoding(digest, encoded, True)
        first = first or TxEncoding(digest, encoded, False)
    assert first is not None  # transaction_encodings yields at least one reading
    return first


def _log(obj: object) -> LogItems:
    """Return a log's RLP items (address, topics, data)."""
    if not isinstance(obj, Mapping):
        raise RecordFormatError("a log must be a JSON object")
    topics = obj.get("topics") or []
    if not isinstance(topics, list):
        raise RecordFormatError("'topics' must be an array")
    address = required(obj, "address", _address)
    data = optional(obj, "data", parse_optional_data) or b""
    return address, [_hash(topic, "topic") for topic in topics], data


def _outcome(obj: RecordJson) -> tuple[bytes, bytes]:
    """Return (postTxState, status): one byte 1 on success, nothing on failure.

    Older nodes also sent postTxState as `root`; both are bound when both are sent.
    """
    root = optional(obj, "root", parse_optional_data)
    status = optional(obj, "status", bounds.STATUS.parse_optional)
    if root is not None and len(root) > 1:
        root = None  # a state root, as Ethereum had: not what rskj writes
    if status is None and root is None:
        raise RecordFormatError("a receipt needs a status (or a one-byte root)")
    status_byte = (b"\x01" if status else b"") if status is not None else root
    assert status_byte is not None
    return (root if root is not None else status_byte), status_byte


def encode_receipt(obj: RecordJson) -> bytes:
    """Return a receipt's RLP from its JSON, as rskj puts it in the receipts trie."""
    logs = obj.get("logs") or []
    if not isinstance(logs, list):
        raise RecordFormatError("'logs' must be an array")
    bloom = required(obj, "logsBloom", parse_data)
    if len(bloom) != 256:
        raise RecordFormatError("'logsBloom' must be 256 bytes")
    post_state, status = _outcome(obj)
    return receipt_rlp(
        post_state,
        status,
        required(obj, "cumulativeGasUsed", bounds.GAS.parse),
        required(obj, "gasUsed", bounds.GAS.parse),
        bloom,
        [_log(entry) for entry in logs],
    )
