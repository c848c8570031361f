"""The seeded history's stories for an address's whole history (issue 22), told in the quiet tail.

What real Rootstock has and an indexer of transactions misses: the Payout contract pays RBTC
out inside calls others send (value moved by contract execution, no transaction of the
receiver); `contract-paid` only ever receives that way; `busy` has hundreds of balance
changes; `changes-1`, `changes-10` and `changes-100` receive exactly that many transfers,
spread evenly over the tail (the benchmark's k); the collectible (ERC-721) keeps moving, and
REMASC pays the miners' coinbases (devnet/history_bridge.py, devnet/remasc.py). The stories
ride in the tail's blocks with activity (HistoryBuilder.scene), so most tail blocks still hold
only their REMASC transaction.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from eth._utils.address import generate_contract_address
from eth.abc import SignedTransactionAPI
from eth_typing import Address

from explorer.devnet.abi import call_data
from explorer.devnet.accounts import DevAccount, derive_account
from explorer.devnet.contracts import load_artifact
from explorer.devnet.seed import RBTC

if TYPE_CHECKING:
    from explorer.devnet.history import HistoryBuilder

COUNTED_CHANGES = (1, 10, 100)  # accounts with exactly this many balance changes
POOL = 5_000 * RBTC  # what the Payout contract starts with
BUSY_FUNDS = 1_000 * RBTC
PAY_EVERY = 9  # blocks with activity between the payroll's payouts
SPLIT_EVERY = 13  # … between a user's split through the contract
DEPOSIT_EVERY = 7  # … between the busy account's deposits into the pool
CALL_GAS = 200_000


class Stories:
    """The cast and what each of them does in a block with activity."""

    def __init__(self, builder: HistoryBuilder) -> None:
        self.builder = builder
        self.busy = derive_account("busy")
        self.contract_paid = derive_account("contract-paid")
        self.counted = tuple(derive_account(f"changes-{k}") for k in COUNTED_CHANGES)
        nonce = builder._nonces.get(builder.deployer.address, 0)  # its next transaction's
        self.payout = generate_contract_address(Address(builder.deployer.address), nonce)
        self._due: list[tuple[int, DevAccount]] = []  # (block at or after which, receiver)
        self._scenes = itertools.count()

    def opening(self) -> list[SignedTransactionAPI]:
        """Deploy the Payout contract, fill its pool and fund the busy account."""
        b, deployer = self.builder, self.builder.deployer
        creation = b.send(deployer, None, data=load_artifact("Payout").bytecode, gas=1_000_000)
        deposit = call_data("deposit()")
        fill = b.send(deployer, self.payout, value=POOL, data=deposit, gas=CALL_GAS)
        return [creation, fill, b.send(deployer, self.busy.address, value=BUSY_FUNDS)]

    def plan(self, first: int, last: int) -> None:
        """Spread each counted account's transfers evenly over blocks first..last."""
        span = last - first + 1
        for account, changes in zip(self.counted, COUNTED_CHANGES, strict=True):
            self._due += [(first + (2 * j + 1) * span // (2 * changes), account)
                          for j in range(changes)]  # fmt: skip
        self._due.sort(key=lambda due: due[0])

    def scene(self, number: int) -> list[SignedTransactionAPI]:
        """Return the stories' transactions for block number, which has activity anyway."""
        index = next(self._scenes)
        txs = [self._busy_move(index)]
        while self._due and self._due[0][0] <= number:
            receiver = self._due.pop(0)[1]
            value = (index % 97 + 1) * RBTC // 1000
            txs.append(self.builder.send(self.busy, receiver.address, value=value))
        if index % PAY_EVERY == 0:
            txs.append(self._payroll(index))
        if index % SPLIT_EVERY == 5:
            txs.append(self._split(index))
        return txs

    def _busy_move(self, index: int) -> SignedTransactionAPI:
        """Move RBTC to or from the busy account: a change in every block with activity."""
        b = self.builder
        user = b.users[index % len(b.users)]
        value = (index % 89 + 1) * RBTC // 100
        if index % DEPOSIT_EVERY == 3:
            return b.send(self.busy, self.payout, value=value, data=call_data("deposit()"),
                          gas=CALL_GAS)  # fmt: skip
        if index % 2:
            return b.send(user, self.busy.address, value=value)
        return b.send(self.busy, user.address, value=value // 3)

    def _payroll(self, index: int) -> SignedTransactionAPI:
        """Have the contract pay the contract-paid account and a user (sent by the deployer)."""
        b = self.builder
        user = b.users[(index // PAY_EVERY) % len(b.users)]
        receivers = [self.contract_paid.address, user.address]
        amounts = [(index % 50 + 1) * RBTC // 10, RBTC // 4]
        data = call_data("pay(address[],uint256[])", receivers, amounts)
        return b.send(b.deployer, self.payout, data=data, gas=CALL_GAS)

    def _split(self, index: int) -> SignedTransactionAPI:
        """Send a user's value through the contract to the contract-paid account and another."""
        b = self.builder
        sender = b.users[(index * 7) % len(b.users)]
        other = b.users[(index * 7 + 1) % len(b.users)]
        data = call_data("split(address[])", [self.contract_paid.address, other.address])
        return b.send(sender, self.payout, value=2 * RBTC // 5, data=data, gas=CALL_GAS)

    def facts(self) -> dict[str, Any]:
        """Return the manifest's entries for the stories."""
        return {
            "payout": "0x" + bytes(self.payout).hex(),
            "contract_paid": self.contract_paid.address_hex,
            "busy_account": self.busy.address_hex,
            "counted_accounts": tuple(
                (k, a.address_hex) for k, a in zip(COUNTED_CHANGES, self.counted, strict=True)
            ),
            "miners": tuple("0x" + miner.hex() for miner in self.builder.miners),
        }


def tell(builder: HistoryBuilder) -> None:
    """Open the stories (one block), then have every quiet-tail block with activity tell them."""
    stories = Stories(builder)
    builder.mine(stories.opening())
    stories.plan(builder.ledger.head.number + 1, builder.size.head)
    builder.scene = stories.scene
    builder._facts.stories.update(stories.facts())
