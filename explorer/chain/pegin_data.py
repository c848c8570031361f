"""Peg-in instructions in a Bitcoin OP_RETURN output (RSKIP170, PeginInstructionsVersion1)."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.btc_address import BtcNetwork, op_return_data, p2pkh_address, p2sh_address
from explorer.chain.btc_tx import BitcoinTx

PEGIN_PREFIX = b"RSKT"  # 52534b54
REFUND_KINDS = {1: "P2PKH", 2: "P2SH"}


@dataclass(frozen=True)
class PeginInstructions:
    """Version 1 instructions: the RSK receiver and, optionally, a Bitcoin refund address."""

    version: int
    receiver: str
    refund_kind: int | None = None
    refund_hash: bytes | None = None

    def refund_address(self, network: BtcNetwork) -> str | None:
        """Return the refund address on network, if the instructions give one."""
        if self.refund_hash is None:
            return None
        if self.refund_kind == 1:
            return p2pkh_address(self.refund_hash, network)
        return p2sh_address(self.refund_hash, network)


class PeginDataError(ValueError):
    """An OP_RETURN starts with RSKT but its instructions are invalid."""


def encode_instructions(receiver: bytes, refund: tuple[int, bytes] | None = None) -> bytes:
    """Return version 1 instructions for an RSK receiver (and a refund address kind, hash)."""
    data = PEGIN_PREFIX + b"\x01" + receiver
    if refund is not None:
        data += bytes([refund[0]]) + refund[1]
    return data


def pegin_instructions(tx: BitcoinTx) -> PeginInstructions | None:
    """Return the peg-in instructions of a transaction; None when it carries none.

    PeginDataError when an RSKT output holds invalid instructions (the Bridge refuses those).
    """
    found = [
        data
        for out in tx.outputs
        if (data := op_return_data(out.script)) is not None and data.startswith(PEGIN_PREFIX)
    ]
    if not found:
        return None
    if len(found) > 1:
        raise PeginDataError("more than one RSKT output")
    data = found[0]
    if len(data) < 5:
        raise PeginDataError("no protocol version")
    version = data[4]
    if version != 1 or len(data) not in (25, 46):
        raise PeginDataError(f"protocol version {version} with {len(data)} bytes")
    receiver = "0x" + data[5:25].hex()
    if len(data) == 25:
        return PeginInstructions(1, receiver)
    kind = data[25]
    if kind not in REFUND_KINDS:
        raise PeginDataError(f"refund address kind {kind}")
    return PeginInstructions(1, receiver, kind, bytes(data[26:46]))
