"""Why a transaction is pending, read from the sender's state and the chain with five requests.

A pending transaction waits for one or more reasons: nonces before it not mined yet (or never
seen by the node: a gap, docs/service.md §15.5), a gas price below the block's minimum, a
sender who cannot pay value + gas × gas price. How long it has waited is measured from when
this app first saw it (saved/seen.py), against rskj's eviction of pool entries after
10 blocks or 650 s (reference.conf `transaction.outdated.threshold` / `.timeout`); a
replacement with the same nonce must pay 40 % more (`transaction.gasPriceBump`).
"""

from __future__ import annotations

import asyncio
import enum
from dataclasses import dataclass

from explorer.chain.pooled import PooledTx
from explorer.saved.seen import SeenTx
from explorer.services.reader import ChainReader

POOL_EXPIRY_BLOCKS = 10
POOL_EXPIRY_SECONDS = 650


@dataclass(frozen=True)
class SenderState:
    """The sender's nonces and balance and the chain's prices, read at one moment."""

    mined_nonce: int  # eth_getTransactionCount(sender, "latest"): the next nonce to mine
    pending_nonce: int  # (sender, "pending"): after the run of executable pool entries
    balance: int
    head: int
    head_timestamp: int
    minimum_gas_price: int | None  # the latest block's minimumGasPrice
    gas_price: int  # eth_gasPrice
    block_gas_limit: int


async def read_sender_state(reader: ChainReader, sender: str) -> SenderState:
    """Read the sender's nonces and balance, the latest block and the gas price at once.

    Five requests in one round trip: two eth_getTransactionCount, eth_getBalance,
    eth_getBlockByNumber("latest") and eth_gasPrice.
    """
    client = reader.client
    mined, pending, balance, latest, price = await asyncio.gather(
        client.get_transaction_count(sender, "latest"),
        client.get_transaction_count(sender, "pending"),
        client.get_balance(sender, "latest"),
        reader.block("latest"),
        client.gas_price(),
    )
    head = latest.number if latest is not None and latest.number is not None else 0
    reader.note_head(head)
    return SenderState(
        mined_nonce=mined,
        pending_nonce=max(pending, mined),
        balance=balance,
        head=head,
        head_timestamp=latest.timestamp if latest is not None else 0,
        minimum_gas_price=latest.minimum_gas_price if latest is not None else None,
        gas_price=price,
        block_gas_limit=latest.gas_limit if latest is not None else 0,
    )


class Hold(enum.Enum):
    """One reason a transaction is not mined yet (several may hold at once)."""

    INSUFFICIENT_FUNDS = "the sender cannot pay"
    PRICE_BELOW_MINIMUM = "gas price below the block minimum"
    NONCE_GAP = "waiting for nonces the node has not seen"
    BEHIND_PENDING = "behind the sender's pending transactions"
    NONCE_USED = "its nonce is already used"
    NEXT_IN_LINE = "next in line"


@dataclass(frozen=True)
class Wait:
    """How long a transaction has waited since this app first saw it, against the eviction."""

    seconds: float
    blocks: int | None
    first_seen: float
    first_block: int | None

    @property
    def seconds_left(self) -> float:
        """Return the seconds before rskj's timeout drops it (0 when passed)."""
        return max(0.0, POOL_EXPIRY_SECONDS - self.seconds)

    @property
    def blocks_left(self) -> int | None:
        """Return the blocks before rskj's threshold drops it (0 when passed), if known."""
        return None if self.blocks is None else max(0, POOL_EXPIRY_BLOCKS - self.blocks)

    @property
    def expired(self) -> bool:
        """Tell whether rskj would have dropped it by now (more than 10 blocks or 650 s)."""
        by_blocks = self.blocks is not None and self.blocks > POOL_EXPIRY_BLOCKS
        return by_blocks or self.seconds >= POOL_EXPIRY_SECONDS


def wait_since(seen: SeenTx | None, head: int, now: float) -> Wait | None:
    """Return how long a transaction has waited since first seen here, or None if never seen."""
    if seen is None:
        return None
    blocks = None if seen.first_block is None else max(0, head - seen.first_block)
    return Wait(max(0.0, now - seen.first_seen), blocks, seen.first_seen, seen.first_block)


@dataclass(frozen=True)
class PendingDiagnosis:
    """What holds a transaction, with the numbers: its own, the sender's and the chain's."""

    candidate: PooledTx
    state: SenderState
    holds: tuple[Hold, ...]  # the most telling first
    wait: Wait | None

    @property
    def main(self) -> Hold:
        """Return the reason the one-line verdict names."""
        return self.holds[0]

    @property
    def missing_nonces(self) -> range:
        """Return the nonces the node has not seen before this one (a gap; empty if none)."""
        return range(self.state.pending_nonce, self.candidate.nonce)

    @property
    def earlier_nonces(self) -> range:
        """Return the nonces before this one still to be mined (the node may hold them)."""
        return range(self.state.mined_nonce, min(self.candidate.nonce, self.state.pending_nonce))

    @property
    def shortfall(self) -> int:
        """Return how much the sender lacks for value + gas × gas price (0 when enough)."""
        return max(0, self.candidate.max_cost - self.state.balance)


def judge_pending(candidate: PooledTx, state: SenderState, wait: Wait | None) -> PendingDiagnosis:
    """Name every reason that holds the transaction, the blocking ones first."""
    holds: list[Hold] = []
    if state.balance < candidate.max_cost:
        holds.append(Hold.INSUFFICIENT_FUNDS)
    minimum = state.minimum_gas_price
    if minimum is not None and candidate.gas_price < minimum:
        holds.append(Hold.PRICE_BELOW_MINIMUM)
    if candidate.nonce < state.mined_nonce:
        holds.insert(0, Hold.NONCE_USED)
    elif candidate.nonce > state.pending_nonce:
        holds.append(Hold.NONCE_GAP)
    elif candidate.nonce > state.mined_nonce:
        holds.append(Hold.BEHIND_PENDING)
    if not holds:
        holds.append(Hold.NEXT_IN_LINE)
    return PendingDiagnosis(candidate, state, tuple(holds), wait)


async def diagnose_pending(
    reader: ChainReader, candidate: PooledTx, seen: SeenTx | None, now: float
) -> PendingDiagnosis:
    """Read the sender's state (one round trip) and judge what holds the transaction."""
    state = await read_sender_state(reader, candidate.sender)
    return judge_pending(candidate, state, wait_since(seen, state.head, now))
