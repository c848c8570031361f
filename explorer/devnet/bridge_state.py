"""The devnet Bridge's state, kept in the Bridge account's storage as rskj keeps it there.

rskj stores each of the Bridge's collections RLP-encoded under its own storage key; the devnet
does the same in EVM storage: a blob's length in the slot keccak(name) and its bytes in the
slots after it. State at any block is then what `eth_call` at that block sees.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import rlp
from eth.abc import StateAPI
from eth_hash.auto import keccak
from eth_typing import Address

from explorer.chain.known import BRIDGE

BRIDGE_ADDRESS = Address(bytes.fromhex(BRIDGE[2:]))
STATE_KEY = b"bridge-state"
WORD = 32


def _slot(name: bytes) -> int:
    """Return the storage slot where a named blob starts."""
    return int.from_bytes(keccak(name), "big")


def read_blob(state: StateAPI, name: bytes) -> bytes:
    """Return a blob kept in the Bridge's storage (empty when never written)."""
    base = _slot(name)
    size = state.get_storage(BRIDGE_ADDRESS, base)
    words = [
        state.get_storage(BRIDGE_ADDRESS, base + 1 + i).to_bytes(WORD, "big")
        for i in range((size + WORD - 1) // WORD)
    ]
    return b"".join(words)[:size]


def write_blob(state: StateAPI, name: bytes, data: bytes) -> None:
    """Keep a blob in the Bridge's storage (longer old blobs leave zeros behind: harmless)."""
    base = _slot(name)
    state.set_storage(BRIDGE_ADDRESS, base, len(data))
    padded = data + bytes(-len(data) % WORD)
    for i in range(0, len(padded), WORD):
        state.set_storage(
            BRIDGE_ADDRESS, base + 1 + i // WORD, int.from_bytes(padded[i : i + WORD])
        )


def processed_height(state: StateAPI, btc_txid: bytes) -> int:
    """Return the RSK block where a Bitcoin txid (display order) was processed, or -1."""
    stored = state.get_storage(BRIDGE_ADDRESS, _slot(b"processed:" + btc_txid))
    return stored - 1 if stored else -1


def mark_processed(state: StateAPI, btc_txid: bytes, height: int) -> None:
    """Record where a Bitcoin txid was processed (getBtcTxHashProcessedHeight)."""
    state.set_storage(BRIDGE_ADDRESS, _slot(b"processed:" + btc_txid), height + 1)


@dataclass(frozen=True)
class Request:
    """A queued peg-out request: destination address, satoshis, the requesting RSK tx."""

    destination: str
    amount_sat: int
    rsk_tx_hash: bytes


@dataclass(frozen=True)
class Utxo:
    """A federation output the Bridge may spend: txid (display order), index, satoshis."""

    txid: bytes
    index: int
    value: int


@dataclass(frozen=True)
class Pending:
    """A peg-out transaction waiting for confirmations or signatures."""

    raw_tx: bytes  # unsigned
    creation_block: int
    creation_tx_hash: bytes
    input_values: tuple[int, ...]
    signatures: tuple[tuple[int, tuple[bytes, ...]], ...] = ()  # (federator index, per input)


@dataclass(frozen=True)
class BridgeState:
    """Everything the devnet Bridge keeps besides the processed-txid map."""

    btc_best_height: int = 0
    fee_per_kb: int = 0
    locking_cap: int = 0
    next_pegout_height: int = 0
    queue: tuple[Request, ...] = ()
    utxos: tuple[Utxo, ...] = ()
    confirming: tuple[Pending, ...] = ()
    signing: tuple[Pending, ...] = ()

    def encode(self) -> bytes:
        """Return the state as RLP."""
        return bytes(
            rlp.encode(
                [
                    self.btc_best_height,
                    self.fee_per_kb,
                    self.locking_cap,
                    self.next_pegout_height,
                    [[r.destination.encode(), r.amount_sat, r.rsk_tx_hash] for r in self.queue],
                    [[u.txid, u.index, u.value] for u in self.utxos],
                    [_pending_items(p) for p in self.confirming],
                    [_pending_items(p) for p in self.signing],
                ]
            )
        )

    @classmethod
    def decode(cls, data: bytes) -> BridgeState:
        """Return the state from RLP (the empty state for no data)."""
        if not data:
            return cls()
        best, fee, cap, next_height, queue, utxos, confirming, signing = rlp.decode(data)
        return cls(
            _int(best),
            _int(fee),
            _int(cap),
            _int(next_height),
            tuple(Request(d.decode(), _int(a), h) for d, a, h in queue),
            tuple(Utxo(t, _int(i), _int(v)) for t, i, v in utxos),
            tuple(_pending(item) for item in confirming),
            tuple(_pending(item) for item in signing),
        )

    def with_(self, **changes: Any) -> BridgeState:
        """Return a copy with some fields changed."""
        return replace(self, **changes)


def _int(value: bytes) -> int:
    """Return an RLP integer."""
    return int.from_bytes(value, "big")


def _pending_items(pending: Pending) -> list[Any]:
    """Return a pending peg-out as RLP items."""
    return [
        pending.raw_tx,
        pending.creation_block,
        pending.creation_tx_hash,
        list(pending.input_values),
        [[index, list(sigs)] for index, sigs in pending.signatures],
    ]


def _pending(items: list[Any]) -> Pending:
    """Return a pending peg-out from RLP items."""
    raw, block, tx_hash, values, signatures = items
    return Pending(
        raw,
        _int(block),
        tx_hash,
        tuple(_int(v) for v in values),
        tuple((_int(i), tuple(sigs)) for i, sigs in signatures),
    )


def load_state(state: StateAPI) -> BridgeState:
    """Return the Bridge's state as stored."""
    return BridgeState.decode(read_blob(state, STATE_KEY))


def save_state(state: StateAPI, bridge: BridgeState) -> None:
    """Store the Bridge's state."""
    write_blob(state, STATE_KEY, bridge.encode())


def genesis_storage(bridge: BridgeState) -> dict[int, int]:
    """Return the storage slots that hold a state, for the genesis account."""
    data = bridge.encode()
    base = _slot(STATE_KEY)
    slots = {base: len(data)}
    padded = data + bytes(-len(data) % WORD)
    for i in range(0, len(padded), WORD):
        slots[base + 1 + i // WORD] = int.from_bytes(padded[i : i + WORD])
    return slots
