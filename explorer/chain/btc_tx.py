"""Bitcoin transactions: parse and serialize (with or without witnesses), txid, VarInt lists."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace

from explorer.chain.btc_address import MAX_SATOSHIS, BtcNetwork, script_address, script_kind

MIN_INPUT_BYTES = 41  # outpoint 36, empty script length 1, sequence 4
MIN_OUTPUT_BYTES = 9  # value 8, empty script length 1
MAX_TX_BYTES = 4_000_000  # a Bitcoin block's weight limit bounds any transaction


class BitcoinTxError(ValueError):
    """The bytes are not a serialized Bitcoin transaction (or a VarInt list)."""


def double_sha256(data: bytes) -> bytes:
    """Return SHA-256 of SHA-256 (txids, block hashes, merkle nodes)."""
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def display_hash(internal: bytes) -> str:
    """Return a hash in the byte order explorers show (reversed), as hex without 0x."""
    return internal[::-1].hex()


@dataclass(frozen=True)
class TxInput:
    """One input: the output it spends (txid in display order, index), script, witness."""

    prev_txid: str
    prev_index: int
    script_sig: bytes
    sequence: int
    witness: tuple[bytes, ...] = ()

    @property
    def is_coinbase(self) -> bool:
        """Tell whether the input spends no output (a coinbase)."""
        return self.prev_txid == "00" * 32 and self.prev_index == 0xFFFFFFFF


@dataclass(frozen=True)
class TxOutput:
    """One output: its value in satoshis and the script it pays to."""

    value: int
    script: bytes

    @property
    def kind(self) -> str:
        """Return the script's standard kind (P2PKH, P2SH, P2WPKH, OP_RETURN…)."""
        return script_kind(self.script)

    def address(self, network: BtcNetwork) -> str | None:
        """Return the address it pays to on network, or None."""
        return script_address(self.script, network)


@dataclass(frozen=True)
class BitcoinTx:
    """A Bitcoin transaction, parsed; `txid` is in the byte order explorers show."""

    version: int
    inputs: tuple[TxInput, ...]
    outputs: tuple[TxOutput, ...]
    locktime: int

    @property
    def has_witness(self) -> bool:
        """Tell whether any input carries witness data."""
        return any(i.witness for i in self.inputs)

    def serialize(self, *, witness: bool = True) -> bytes:
        """Return the transaction's bytes (BIP 144 form when it has witnesses and witness=True)."""
        segwit = witness and self.has_witness
        parts = [self.version.to_bytes(4, "little", signed=True)]
        if segwit:
            parts.append(b"\x00\x01")
        parts.append(varint(len(self.inputs)))
        for item in self.inputs:
            parts += [
                bytes.fromhex(item.prev_txid)[::-1],
                item.prev_index.to_bytes(4, "little"),
                varint(len(item.script_sig)),
                item.script_sig,
                item.sequence.to_bytes(4, "little"),
            ]
        parts.append(varint(len(self.outputs)))
        for out in self.outputs:
            parts += [out.value.to_bytes(8, "little"), varint(len(out.script)), out.script]
        if segwit:
            for item in self.inputs:
                parts.append(varint(len(item.witness)))
                parts += [varint(len(w)) + w for w in item.witness]
        parts.append(self.locktime.to_bytes(4, "little"))
        return b"".join(parts)

    @property
    def txid(self) -> str:
        """Return the txid: double SHA-256 of the bytes without witnesses, byte-reversed."""
        return display_hash(double_sha256(self.serialize(witness=False)))

    @property
    def wtxid(self) -> str:
        """Return the witness txid (equal to the txid without witnesses)."""
        return display_hash(double_sha256(self.serialize()))

    @property
    def size(self) -> int:
        """Return the serialized size in bytes, witnesses included."""
        return len(self.serialize())

    @property
    def vsize(self) -> int:
        """Return the virtual size (weight / 4, rounded up)."""
        base = len(self.serialize(witness=False))
        return (3 * base + self.size + 3) // 4

    @property
    def output_total(self) -> int:
        """Return the sum of the outputs, in satoshis."""
        return sum(o.value for o in self.outputs)

    def without_signatures(self) -> BitcoinTx:
        """Return the transaction with empty input scripts and witnesses (unsigned form)."""
        inputs = tuple(replace(i, script_sig=b"", witness=()) for i in self.inputs)
        return replace(self, inputs=inputs)


def varint(value: int) -> bytes:
    """Encode a Bitcoin CompactSize (VarInt)."""
    if value < 0xFD:
        return bytes([value])
    if value <= 0xFFFF:
        return b"\xfd" + value.to_bytes(2, "little")
    if value <= 0xFFFFFFFF:
        return b"\xfe" + value.to_bytes(4, "little")
    return b"\xff" + value.to_bytes(8, "little")


class _Reader:
    """Reads a byte string front to back, failing on anything short."""

    def __init__(self, data: bytes) -> None:
        self.data, self.pos = data, 0

    @property
    def left(self) -> int:
        """Return how many bytes are left."""
        return len(self.data) - self.pos

    def take(self, size: int) -> bytes:
        """Return the next size bytes."""
        if size < 0 or size > self.left:
            raise BitcoinTxError(f"truncated: {size} bytes wanted, {self.left} left")
        chunk = self.data[self.pos : self.pos + size]
        self.pos += size
        return chunk

    def number(self, size: int) -> int:
        """Return a little-endian unsigned number of size bytes."""
        return int.from_bytes(self.take(size), "little")

    def varint(self) -> int:
        """Return a CompactSize number."""
        first = self.number(1)
        sizes = {0xFD: 2, 0xFE: 4, 0xFF: 8}
        return self.number(sizes[first]) if first in sizes else first

    def count(self, smallest_item: int) -> int:
        """Return a VarInt item count, refusing more items than the bytes left could hold."""
        count = self.varint()
        if count * smallest_item > self.left:
            raise BitcoinTxError(f"{count:,} items cannot fit in {self.left:,} bytes")
        return count

    def blob(self) -> bytes:
        """Return VarInt-prefixed bytes."""
        return self.take(self.varint())


def parse_tx(raw: bytes) -> BitcoinTx:
    """Parse a serialized transaction (legacy or BIP 144); BitcoinTxError when it is not one."""
    if len(raw) > MAX_TX_BYTES:
        raise BitcoinTxError("longer than any Bitcoin transaction")
    reader = _Reader(bytes(raw))
    version = int.from_bytes(reader.take(4), "little", signed=True)
    segwit = reader.left >= 2 and reader.data[reader.pos] == 0 and reader.data[reader.pos + 1] == 1
    if segwit:
        reader.take(2)
    inputs = [_input(reader) for _ in range(reader.count(MIN_INPUT_BYTES))]
    outputs = [_output(reader) for _ in range(reader.count(MIN_OUTPUT_BYTES))]
    if segwit:
        inputs = [
            replace(item, witness=tuple(reader.blob() for _ in range(reader.count(1))))
            for item in inputs
        ]
    locktime = reader.number(4)
    if reader.left:
        raise BitcoinTxError(f"{reader.left} bytes after the transaction")
    if not inputs and not segwit:
        raise BitcoinTxError("a transaction without inputs")
    return BitcoinTx(version, tuple(inputs), tuple(outputs), locktime)


def _input(reader: _Reader) -> TxInput:
    """Read one input."""
    prev = display_hash(reader.take(32))
    index = reader.number(4)
    script = reader.blob()
    return TxInput(prev, index, script, reader.number(4))


def _output(reader: _Reader) -> TxOutput:
    """Read one output, range-checking its value."""
    value = reader.number(8)
    if value > MAX_SATOSHIS:
        raise BitcoinTxError(f"an output of {value:,} satoshis is more than exist")
    return TxOutput(value, reader.blob())


def parse_varints(data: bytes) -> tuple[int, ...]:
    """Parse concatenated VarInts (the Bridge's outpoint values); BitcoinTxError when broken."""
    reader = _Reader(bytes(data))
    values: list[int] = []
    while reader.left:
        values.append(reader.varint())
    return tuple(values)


def encode_varints(values: list[int] | tuple[int, ...]) -> bytes:
    """Encode values as concatenated VarInts."""
    return b"".join(varint(v) for v in values)
