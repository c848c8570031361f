"""REMASC's payments: the `mining_fee_topic` logs of a block's last transaction (rskj)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rlp.exceptions import DecodingError

from explorer.chain.bridge_legacy import ascii_topic
from explorer.chain.rlpbound import RlpBoundError, decode

MINING_FEE_TOPIC = ascii_topic("mining_fee_topic")
REMASC_DATA_SIZE = 128  # RLP [32-byte block hash, amount]: well under this


@dataclass(frozen=True)
class RemascPayment:
    """One payment: who got how much (wei) for the block whose hash it names."""

    receiver: str
    paid_block_hash: str
    amount: int


def decode_remasc_log(topics: Sequence[str], data: bytes) -> RemascPayment | None:
    """Decode a REMASC payment log (topic1 the receiver, data RLP [block hash, amount])."""
    if len(topics) != 2 or topics[0].lower() != MINING_FEE_TOPIC:
        return None
    receiver = topics[1].lower()
    if not receiver.startswith("0x") or receiver[2:26] != "0" * 24:
        return None
    try:
        items = decode(bytes(data), max_size=REMASC_DATA_SIZE, max_depth=1)
    except (DecodingError, RlpBoundError):
        return None
    if not isinstance(items, list) or len(items) != 2:
        return None
    block_hash, amount = items
    if not isinstance(block_hash, bytes) or len(block_hash) != 32 or not isinstance(amount, bytes):
        return None
    if len(amount) > 32:
        return None
    return RemascPayment("0x" + receiver[26:], "0x" + block_hash.hex(), int.from_bytes(amount))
