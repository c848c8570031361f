"""REMASC on the devnet: a block's last transaction pays for an older block's fees, and logs it.

As rskj's Remasc and RemascFeesPayer: block N pays block N − maturity's fees — a fifth to RSK
Labs, a hundredth of the rest to the federators, the rest to that block's miner — each payment
logged under the ASCII topic `mining_fee_topic` with RLP [paid block hash, amount]. Unlike rskj,
the devnet pays in a few chosen blocks (devnet/history_bridge.py), not smoothed over ten.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import rlp
from eth_bloom.bloom import BloomFilter

from explorer.chain.remasc import MINING_FEE_TOPIC
from explorer.devnet.blockdata import DevBlock, LogRecord
from explorer.devnet.evm import REMASC_ADDRESS

RSK_LABS_DIVISOR = 5
FEDERATION_DIVISOR = 100


@dataclass(frozen=True)
class RemascSettlement:
    """The payments of one block's REMASC transaction: its logs and the balances they move."""

    logs: tuple[LogRecord, ...]
    moves: tuple[tuple[bytes, int], ...]

    @property
    def bloom(self) -> int:
        """Return the bloom of the REMASC receipt's logs."""
        bloom = BloomFilter()
        for log in self.logs:
            bloom.add(log.address)
            for topic in log.topics:
                bloom.add(topic)
        return int(bloom)


def settlement(paid: DevBlock, rsk_labs: bytes, federators: Sequence[bytes]) -> RemascSettlement:
    """Return the payments for one block's fees, in rskj's order: RSK Labs, federators, miner."""
    fees = paid.paid_fees
    labs = fees // RSK_LABS_DIVISOR
    rest = fees - labs
    federation = rest // FEDERATION_DIVISOR
    share, remainder = divmod(federation, len(federators))
    payments = [(rsk_labs, labs)]
    payments += [
        (f, share + (remainder if i == len(federators) - 1 else 0))
        for i, f in enumerate(federators)
    ]
    payments.append((paid.miner, rest - federation))
    topic = bytes.fromhex(MINING_FEE_TOPIC[2:])
    logs = tuple(
        LogRecord(
            REMASC_ADDRESS, (topic, receiver.rjust(32, b"\0")), rlp.encode([paid.hash, amount])
        )
        for receiver, amount in payments
    )
    moves = ((REMASC_ADDRESS, -fees), *payments)
    return RemascSettlement(logs, moves)
