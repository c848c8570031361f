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

from explorer.chain.jsonfields import RecordFormatError
from explorer.chain.keccak import keccak
from explorer.chain.rlpfast import Item
from explorer.chain.rlpfast import encode as encode_raw
from explorer.chain.rskheader import minimal_bytes

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
    cumulative_gas: bytes,
    gas_used: bytes,
    bloom: bytes,
    logs: Sequence[LogItems],
) -> bytes:
    """Return a receipt's RLP as `TransactionReceipt.getEncoded` writes it (gas: minimal)."""
    log_items: list[Item] = [[address, list(topics), data] for address, topics, data in logs]
    items: list[Item] = [post_state, cumulative_gas, bloom, log_items, gas_used, status]
    return encode_raw(items)


def _hex_bytes(value: object, what: str, *, quantity: bool = False) -> bytes:
    """Return the bytes of 0x-prefixed hex (a quantity may have an odd count of digits)."""
    if type(value) is not str or value[:2] not in ("0x", "0X"):
        raise RecordFormatError(f"{what} is not 0x-prefixed hex")
    digits = value[2:]
    if len(digits) % 2:
        if not quantity:
            raise RecordFormatError(f"{what} has an odd number of hex digits")
        digits = "0" + digits
    try:
        data = bytes.fromhex(digits)
    except ValueError:
        raise RecordFormatError(f"{what} is not hex") from None
    if 2 * len(data) != len(digits):  # bytes.fromhex skips whitespace
        raise RecordFormatError(f"{what} has characters that are not hex digits")
    return data


def _quantity(obj: RecordJson, key: str, max_bytes: int = 32, default: str | None = None) -> bytes:
    """Return a hex quantity as minimal big-endian bytes (zero: nothing), within max_bytes."""
    value = obj.get(key)
    data = _hex_bytes(default if value is None else value, key, quantity=True).lstrip(b"\0")
    if len(data) > max_bytes:
        raise RecordFormatError(f"{key} does not fit in {8 * max_bytes} bits")
    return data


def _data(value: object, what: str, sizes: tuple[int, ...] = ()) -> bytes:
    """Return hex data as bytes (of one of the sizes, when given)."""
    data = _hex_bytes(value, what)
    if sizes and len(data) not in sizes:
        raise RecordFormatError(f"{what} must be {' or '.join(map(str, sizes))} bytes")
    return data


def _forms(minimal: bytes, zero: tuple[bytes, ...]) -> list[bytes]:
    """Byte readings of a number: minimal, Java's (a sign byte), and the given ones for zero."""
    if not minimal:
        return list(zero)
    return [minimal, b"\x00" + minimal] if minimal[0] >= 0x80 else [minimal]


@dataclass(frozen=True)
class TxEncoding:
    """A transaction's RLP as rskj would hash it, and whether it gives the node's hash."""

    hash: bytes
    encoded: bytes
    matches: bool


def _signatures(obj: RecordJson, chain_id: int | None) -> list[list[bytes]]:
    """Return the readings of [v, r, s]: empty for the unsigned (REMASC) transaction."""
    v, r, s = (_quantity(obj, key, default="0x0") for key in ("v", "r", "s"))
    if not v and not r and not s:
        return [[b"", b"", b""]]
    if len(v) != 1:
        raise RecordFormatError("'v' must be one byte in a signed transaction")
    readings = [v[0]]
    if v[0] in (27, 28) and chain_id is not None and v[0] + chain_id * 2 + 8 <= 0xFF:
        readings.append(v[0] + chain_id * 2 + 8)
    return [[bytes([value]), r, s] for value in readings]


def transaction_encodings(obj: RecordJson, chain_id: int | None = None) -> Iterator[bytes]:
    """Yield the RLP readings of a transaction's JSON, rskj's usual one first."""
    nonce = _quantity(obj, "nonce", max_bytes=8)
    gas_price = _quantity(obj, "gasPrice", default="0x0")
    gas = _quantity(obj, "gas")
    value = _quantity(obj, "value")
    to = b"" if obj.get("to") is None else _data(obj["to"], "to", (20,))
    data = b"" if obj.get("input") is None else _data(obj["input"], "input")
    signatures = _signatures(obj, chain_id)
    unsigned = not signatures[0][0]
    price_zero = (b"\x00", b"")
    gas_zero = (b"\x00", b"") if unsigned else (b"", b"\x00")
    for signature, nonce_bytes, price, limit in product(
        signatures, _forms(nonce, (b"",)), _forms(gas_price, price_zero), _forms(gas, gas_zero)
    ):
        yield bytes(encode_raw([nonce_bytes, price, limit, to, value, data, *signature]))


def encode_transaction(obj: RecordJson, chain_id: int | None = None) -> TxEncoding:
    """Return the reading whose keccak is the node's `hash`, else rskj's usual one."""
    claimed = _data(obj.get("hash"), "hash", (32,))
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
    address = _data(obj.get("address"), "address", (20,))
    data = b"" if obj.get("data") is None else _data(obj["data"], "data")
    return address, [_data(topic, "topic", (32,)) for topic in topics], data


def _outcome(obj: RecordJson) -> tuple[bytes, bytes]:
    """Return (postTxState, status): one byte 1 on success, nothing on failure.

    Older nodes also sent postTxState as `root`; both are bound when both are sent.
    """
    root = None if obj.get("root") is None else _data(obj["root"], "root")
    status = None if obj.get("status") is None else _quantity(obj, "status", max_bytes=1)
    if status not in (None, b"", b"\x01"):
        raise RecordFormatError("'status' is neither 0 nor 1")
    if root is not None and len(root) > 1:
        root = None  # a state root, as Ethereum had: not what rskj writes
    if status is None and root is None:
        raise RecordFormatError("a receipt needs a status (or a one-byte root)")
    status_byte = status if status is not None else root
    assert status_byte is not None
    return (root if root is not None else status_byte), status_byte


def encode_receipt(obj: RecordJson) -> bytes:
    """Return a receipt's RLP from its JSON, as rskj puts it in the receipts trie."""
    logs = obj.get("logs") or []
    if not isinstance(logs, list):
        raise RecordFormatError("'logs' must be an array")
    bloom = _data(obj.get("logsBloom"), "logsBloom", (256,))
    post_state, status = _outcome(obj)
    return receipt_rlp(
        post_state,
        status,
        _quantity(obj, "cumulativeGasUsed", max_bytes=8),
        _quantity(obj, "gasUsed", max_bytes=8),
        bloom,
        [_log(entry) for entry in logs],
    )
