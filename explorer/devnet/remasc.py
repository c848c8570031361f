"""REMASC in the devnet: each block pays a matured block's miner out of the smoothed fee pool.

As rskj's `co/rsk/remasc/Remasc.java` does, with the constants of its `remasc.json` for a
devnet: block N adds the fees of block N − MATURITY to the reward pool and, once the pool has
run SYNTHETIC_SPAN blocks, pays a tenth of it when that tenth reaches the minimum payable
(the block's minimum gas price × 200,000 gas): a fifth to RSK Labs, 1 % of the rest kept for
the federation (the devnet has none, so it stays in REMASC's balance), the rest to the
matured block's coinbase. Each payment logs `mining_fee_topic` with the receiver as topic 1
and RLP [paid block hash, amount] as data (`RemascFeesPayer.java`). Siblings (uncles) are
not paid separately. The fees themselves accrue to REMASC's balance (the VM's coinbase).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import rlp
from eth_bloom.bloom import BloomFilter

from explorer.devnet.blockdata import DevBlock, LogRecord, ReceiptRecord
from explorer.devnet.evm import REMASC_ADDRESS

MATURITY = 20
SYNTHETIC_SPAN = 10
RSK_LABS_DIVISOR = 5
FEDERATION_DIVISOR = 100
MINIMUM_PAYABLE_GAS = 200_000
RSK_LABS = bytes.fromhex("dabadabadabadabadabadabadabadabadaba0002")
MINING_FEE_TOPIC = b"mining_fee_topic".rjust(32, b"\0")


@dataclass(frozen=True)
class Payment:
    """One REMASC payment: who, how much, for which block."""

    receiver: bytes
    amount: int
    paid_block: bytes  # the hash of the matured block the fees came from

    def log(self) -> LogRecord:
        """Return the log REMASC writes for it."""
        data = rlp.encode([self.paid_block, self.amount])
        return LogRecord(REMASC_ADDRESS, (MINING_FEE_TOPIC, self.receiver.rjust(32, b"\0")), data)


class RewardPool:
    """The fees REMASC holds back, smoothed over SYNTHETIC_SPAN blocks, as blocks are mined."""

    def __init__(self) -> None:
        self.balance = 0

    @classmethod
    def replay(cls, blocks: Sequence[DevBlock]) -> RewardPool:
        """Return the pool as it stands after the given chain (a snapshot keeps only blocks)."""
        pool = cls()
        for number in range(1, len(blocks)):
            pool.payments(number, blocks, blocks[number].minimum_gas_price)
        return pool

    def payments(
        self, number: int, chain: Sequence[DevBlock], minimum_gas_price: int
    ) -> list[Payment]:
        """Return what block number pays (chain holds at least blocks 0..number−1)."""
        matured = number - MATURITY
        if matured < 1:
            return []
        paid = chain[matured]
        self.balance += paid.paid_fees
        if matured - SYNTHETIC_SPAN < 0:
            return []
        reward = self.balance // SYNTHETIC_SPAN
        if reward < minimum_gas_price * MINIMUM_PAYABLE_GAS:
            return []
        self.balance -= reward
        to_labs = reward // RSK_LABS_DIVISOR
        rest = reward - to_labs
        to_miner = rest - rest // FEDERATION_DIVISOR
        return [Payment(RSK_LABS, to_labs, paid.hash), Payment(paid.miner, to_miner, paid.hash)]


def remasc_receipt_paying(cumulative_gas_used: int, payments: Sequence[Payment]) -> ReceiptRecord:
    """Return the REMASC transaction's receipt with a log per payment."""
    logs = tuple(payment.log() for payment in payments)
    bloom = BloomFilter()
    for log in logs:
        bloom.add(log.address)
        for topic in log.topics:
            bloom.add(topic)
    return ReceiptRecord(1, 0, cumulative_gas_used, None, logs, int(bloom))
