"""The transaction pool as rskj keeps it: executable (pending) and nonce-gap (queued) lists.

Facts from rskj's co/rsk/core/bc/TransactionPoolImpl.java, co/rsk/net/handler/
TxPendingValidator.java (and its txvalidator steps) and reference.conf `transaction.*`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

from eth.abc import LegacyTransactionFieldsAPI, SignedTransactionAPI, StateAPI
from eth_keys.constants import SECPK1_N
from eth_typing import Address

from explorer.devnet import errors
from explorer.devnet.errors import RpcFailure, rejected, rskj_invalid_params
from explorer.devnet.evm import GAS_LIMIT, MINIMUM_GAS_PRICE, Engine
from explorer.devnet.profile import PoolPolicy

MAX_TRANSACTION_SIZE = 128 * 1024  # TxPendingValidator.TX_MAX_SIZE


def decode_signed(raw: bytes, chain_id: int) -> SignedTransactionAPI:
    """Decode a raw legacy transaction; a bad signature or another chain id is -32602."""
    try:
        tx = Engine.decode_transaction(raw)
    except Exception as error:
        raise rskj_invalid_params(f"Invalid input: {error}") from None
    legacy = cast(LegacyTransactionFieldsAPI, tx)
    signed_for = tx.chain_id or 0
    try:
        tx.check_signature_validity()
        _ = tx.sender
        valid = 0 < legacy.s <= SECPK1_N // 2 and 0 < legacy.r < SECPK1_N  # EIP-2 low s
    except Exception:
        valid = False
    if not valid or signed_for not in (0, chain_id):
        raise rskj_invalid_params(f"Invalid chainId: {signed_for}")
    return tx


def _cost(tx: SignedTransactionAPI) -> int:
    """Return the most the transaction can take from its sender: value plus gas times price."""
    return int(tx.value + tx.gas * tx.gas_price)


def _validate(tx: SignedTransactionAPI, size: int, state: StateAPI, slots: int) -> None:
    """TxPendingValidator's checks, in its order, against the head state."""
    sender = Address(bytes(tx.sender))
    if not state.account_exists(sender):
        raise rejected(errors.NO_SENDER_ACCOUNT)
    if size > MAX_TRANSACTION_SIZE:
        raise rejected(f"{errors.TOO_LARGE}: {size} > {MAX_TRANSACTION_SIZE}")
    if tx.gas > GAS_LIMIT:
        raise rejected(errors.gas_limit_too_high(tx.gas, GAS_LIMIT))
    state_nonce = state.get_nonce(sender)
    if tx.nonce < state_nonce:
        raise rejected(errors.NONCE_TOO_LOW)
    if tx.nonce >= state_nonce + slots:
        raise rejected(errors.NONCE_TOO_HIGH)
    if state.get_balance(sender) < tx.gas * tx.gas_price:
        raise rejected(errors.INSUFFICIENT_FUNDS)
    if tx.gas_price < MINIMUM_GAS_PRICE:
        raise rejected(errors.GAS_PRICE_TOO_LOW)
    if tx.gas < tx.intrinsic_gas:
        raise rejected(errors.BASIC_COST_TOO_HIGH)


@dataclass(frozen=True)
class PoolEntry:
    """A transaction in the pool and when it came: the head's number and the clock."""

    tx: SignedTransactionAPI
    block: int
    time: float

    @property
    def sender(self) -> bytes:
        """The sender's address."""
        return bytes(self.tx.sender)


class TxPool:
    """Pending (executable) and queued (nonce gap) transactions, in arrival order.

    Only pending ones are found by hash, counted, listed by index and put in the pending
    block; queued ones wait for the nonce before them. Entries older than the policy's
    blocks or seconds are dropped (`expire`).
    """

    def __init__(
        self,
        transactions: Iterable[SignedTransactionAPI] = (),
        policy: PoolPolicy | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.policy = policy or PoolPolicy()
        self.clock = clock
        self.version = 0
        self._unsettled = list(transactions)  # from a snapshot: placed by settle()
        self._pending: dict[bytes, PoolEntry] = {}
        self._queued: dict[bytes, PoolEntry] = {}

    def __len__(self) -> int:
        """How many transactions wait, pending and queued."""
        return len(self._pending) + len(self._queued) + len(self._unsettled)

    def settle(self, state: StateAPI, head: int) -> None:
        """Place the transactions the pool was made with, as if they had just arrived."""
        waiting, self._unsettled = self._unsettled, []
        for tx in sorted(waiting, key=lambda t: (bytes(t.sender), int(t.nonce))):
            entry = PoolEntry(tx, head, self.clock())
            nonce = self.pending_nonce(entry.sender, state.get_nonce(Address(entry.sender)))
            target = self._queued if tx.nonce > nonce else self._pending
            target[bytes(tx.hash)] = entry
        self.version += 1

    def pending(self) -> list[SignedTransactionAPI]:
        """Return the executable transactions, oldest first."""
        return [entry.tx for entry in self._pending.values()]

    def queued(self) -> list[SignedTransactionAPI]:
        """Return the transactions waiting behind a nonce gap, oldest first."""
        return [entry.tx for entry in self._queued.values()]

    def get(self, tx_hash: bytes) -> SignedTransactionAPI | None:
        """Return the pending transaction with this hash (a queued one is not returned)."""
        entry = self._pending.get(tx_hash)
        return None if entry is None else entry.tx

    def is_queued(self, tx_hash: bytes) -> bool:
        """Tell whether a transaction waits behind a nonce gap."""
        return tx_hash in self._queued

    def pending_nonce(self, sender: bytes, state_nonce: int) -> int:
        """Return the nonce after the sender's run of pending transactions (PendingState's)."""
        nonces = {e.tx.nonce for e in self._pending.values() if e.sender == sender}
        nonce = state_nonce
        while nonce in nonces:
            nonce += 1
        return nonce

    def admit(self, tx: SignedTransactionAPI, size: int, state: StateAPI, head: int) -> None:
        """Add a transaction as rskj does, then its queued successors; raise -32010 if refused."""
        self._add(tx, size, state, head)
        sender = bytes(tx.sender)
        successor = self._queued_successor(sender, tx.nonce)
        while successor is not None:
            del self._queued[bytes(successor.tx.hash)]
            try:
                self._add(successor.tx, len(successor.tx.encode()), state, head)
            except RpcFailure:
                break
            successor = self._queued_successor(sender, successor.tx.nonce)
        self.version += 1

    def _queued_successor(self, sender: bytes, nonce: int) -> PoolEntry | None:
        """Return the queued transaction of sender with the next nonce, if any."""
        for entry in self._queued.values():
            if entry.sender == sender and entry.tx.nonce == nonce + 1:
                return entry
        return None

    def _add(self, tx: SignedTransactionAPI, size: int, state: StateAPI, head: int) -> None:
        """TransactionPoolImpl.internalAddTransaction: known, valid, bump, queue, funds."""
        tx_hash = bytes(tx.hash)
        if tx_hash in self._pending:
            raise rejected(errors.PENDING_KNOWN)
        if tx_hash in self._queued:
            raise rejected(errors.QUEUED_KNOWN)
        _validate(tx, size, state, self.policy.account_slots)
        sender = bytes(tx.sender)
        replaced = self._same_nonce(self._pending, sender, tx.nonce)
        if replaced is not None and not self._bumps(tx, replaced.tx):
            raise rejected(errors.BUMP_TOO_LOW)
        entry = PoolEntry(tx, head, self.clock())
        if tx.nonce > self.pending_nonce(sender, state.get_nonce(Address(sender))):
            self._put(self._queued, entry)
            return
        others = (
            e.tx for e in self._pending.values() if e.sender == sender and e.tx.nonce != tx.nonce
        )
        if state.get_balance(Address(sender)) < _cost(tx) + sum(_cost(t) for t in others):
            raise rejected(errors.PENDING_FUNDS)
        self._put(self._pending, entry)

    @staticmethod
    def _same_nonce(entries: dict[bytes, PoolEntry], sender: bytes, nonce: int) -> PoolEntry | None:
        """Return the entry of sender with this nonce, if any."""
        for entry in entries.values():
            if entry.sender == sender and entry.tx.nonce == nonce:
                return entry
        return None

    @staticmethod
    def _put(entries: dict[bytes, PoolEntry], entry: PoolEntry) -> None:
        """Add an entry, replacing the sender's entry with the same nonce (TransactionSet)."""
        old = TxPool._same_nonce(entries, entry.sender, entry.tx.nonce)
        if old is not None:
            del entries[bytes(old.tx.hash)]
        entries[bytes(entry.tx.hash)] = entry

    def _bumps(self, new: SignedTransactionAPI, old: SignedTransactionAPI) -> bool:
        """Tell whether new pays enough more than old to replace it (gasPriceBump percent)."""
        bumped = old.gas_price * (100 + self.policy.price_bump_percent) // 100
        return old.gas_price < new.gas_price and bumped <= new.gas_price

    def expire(self, head: int) -> bool:
        """Drop entries that came more than the policy's blocks or seconds ago; tell if any."""
        policy, now = self.policy, self.clock()
        stale = [
            tx_hash
            for entries in (self._pending, self._queued)
            for tx_hash, entry in entries.items()
            if entry.block < head - policy.expiry_blocks
            or (policy.expiry_seconds > 0 and entry.time <= now - policy.expiry_seconds)
        ]
        self.remove(stale)
        return bool(stale)

    def remove(self, hashes: Iterable[bytes]) -> None:
        """Forget these transactions (mined, or expired)."""
        removed = 0
        for tx_hash in hashes:
            removed += self._pending.pop(tx_hash, None) is not None
            removed += self._queued.pop(tx_hash, None) is not None
        if removed:
            self.version += 1

    def take_ready(
        self, nonce_of: Callable[[Address], int], balance_of: Callable[[Address], int]
    ) -> list[SignedTransactionAPI]:
        """Remove and return what can be mined now (stale pending ones are dropped)."""
        stale = [
            bytes(e.tx.hash)
            for e in self._pending.values()
            if e.tx.nonce < nonce_of(Address(e.sender))
        ]
        self.remove(stale)
        ready = self.ready(nonce_of, balance_of)
        self.remove(bytes(tx.hash) for tx in ready)
        return ready

    def ready(
        self, nonce_of: Callable[[Address], int], balance_of: Callable[[Address], int]
    ) -> list[SignedTransactionAPI]:
        """Return the pending transactions a block can hold now.

        Each sender's run of nonces from its account's, as far as its balance and the block's gas
        limit go.
        """
        ready: list[SignedTransactionAPI] = []
        gas = 0
        by_sender: dict[bytes, list[SignedTransactionAPI]] = {}
        for entry in self._pending.values():
            by_sender.setdefault(entry.sender, []).append(entry.tx)
        for sender, txs in by_sender.items():
            nonce, funds = nonce_of(Address(sender)), balance_of(Address(sender))
            for tx in sorted(txs, key=lambda t: int(t.nonce)):
                if tx.nonce < nonce:
                    continue
                if tx.nonce != nonce or _cost(tx) > funds or gas + tx.gas > GAS_LIMIT:
                    break
                ready.append(tx)
                nonce, funds, gas = nonce + 1, funds - _cost(tx), gas + tx.gas
        return ready
