"""A transaction as a pool judges it: its sender, nonce, gas price, gas and value, and hash."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.records import Transaction

PRICE_BUMP_PERCENT = 40  # rskj's transaction.gasPriceBump: a same-nonce replacement pays more


@dataclass(frozen=True)
class PooledTx:
    """What decides whether a pool mines, queues, replaces or drops a transaction."""

    hash: str
    sender: str
    nonce: int
    gas_price: int
    gas: int
    value: int

    @property
    def max_cost(self) -> int:
        """Return value + gas × gas price: what the sender must hold for it to be mined."""
        return self.value + self.gas * self.gas_price

    @property
    def bump_price(self) -> int:
        """Return the least gas price a same-nonce replacement must pay (rskj's 40 % bump)."""
        bumped = self.gas_price * (100 + PRICE_BUMP_PERCENT) // 100
        return max(bumped, self.gas_price + 1)

    @classmethod
    def of_tx(cls, tx: Transaction) -> PooledTx:
        """Return the pool's view of a transaction the node returned."""
        return cls(tx.hash, tx.sender, tx.nonce, tx.gas_price, tx.gas, tx.value)
