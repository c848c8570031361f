"""The transaction pool: rskj's admission checks and the executable subset."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import cast

from eth.abc import LegacyTransactionFieldsAPI, SignedTransactionAPI, StateAPI
from eth_keys.constants import SECPK1_N
from eth_typing import Address

from explorer.devnet import errors
from explorer.devnet.blocks import MINIMUM_GAS_PRICE
from explorer.devnet.errors import invalid_params, rejected
from explorer.devnet.evm import GAS_LIMIT, Engine

ACCOUNT_SLOTS = 16  # rskj queues at most this many nonces ahead of the account's
MAX_TRANSACTION_SIZE = 128 * 1024
PRICE_BUMP_PERCENT = 10  # a same-nonce replacement must pay this much more


def decode_signed(raw: bytes, chain_id: int) -> SignedTransactionAPI:
    """Decode a raw legacy transaction and check its signature and chain id."""
    try:
        tx = Engine.decode_transaction(raw)
    except Exception:
        raise invalid_params("cannot decode the signed transaction") from None
    try:
        tx.check_signature_validity()
        _ = tx.sender
        high_s = cast(LegacyTransactionFieldsAPI, tx).s > SECPK1_N // 2  # EIP-2
    except Exception:
        raise rejected(errors.INVALID_SIGNATURE) from None
    if high_s:
        raise rejected(errors.INVALID_SIGNATURE)
    if tx.chain_id not in (None, chain_id):
        raise rejected(errors.INVALID_CHAIN_ID)
    return tx


def _check_static(tx: SignedTransactionAPI, size: int) -> None:
    """Run the checks that need no state: size, gas limit, basic cost and gas price."""
    if size > MAX_TRANSACTION_SIZE:
        raise rejected(errors.TOO_LARGE)
    if tx.gas > GAS_LIMIT:
        raise rejected(errors.gas_limit_too_high(tx.gas, GAS_LIMIT))
    if tx.gas < tx.intrinsic_gas:
        raise rejected(errors.BASIC_COST_TOO_HIGH)
    if tx.gas_price < MINIMUM_GAS_PRICE:
        raise rejected(errors.GAS_PRICE_TOO_LOW)


def _cost(tx: SignedTransactionAPI) -> int:
    """Return the most the transaction can take from its sender."""
    return int(tx.value + tx.gas * tx.gas_price)


class TxPool:
    """Transactions accepted but not mined, in arrival order."""

    def __init__(self, transactions: Iterable[SignedTransactionAPI] = ()) -> None:
        self._by_hash: dict[bytes, SignedTransactionAPI] = {bytes(t.hash): t for t in transactions}
        self.version = 0

    def __len__(self) -> int:
        """How many transactions wait."""
        return len(self._by_hash)

    def transactions(self) -> list[SignedTransactionAPI]:
        """Every waiting transaction, oldest first."""
        return list(self._by_hash.values())

    def get(self, tx_hash: bytes) -> SignedTransactionAPI | None:
        """Return the waiting transaction with this hash, if any."""
        return self._by_hash.get(tx_hash)

    def admit(self, tx: SignedTransactionAPI, size: int, state: StateAPI) -> None:
        """Run rskj's admission checks against the head state, then keep the transaction."""
        sender = Address(bytes(tx.sender))
        state_nonce = state.get_nonce(sender)
        if bytes(tx.hash) in self._by_hash:
            queued = tx.nonce >= self.next_nonce(sender, state_nonce)
            raise rejected(errors.QUEUED_KNOWN if queued else errors.PENDING_KNOWN)
        _check_static(tx, size)
        if tx.nonce < state_nonce:
            raise rejected(errors.NONCE_TOO_LOW)
        if tx.nonce >= state_nonce + ACCOUNT_SLOTS:
            raise rejected(errors.NONCE_TOO_HIGH)
        if not state.account_exists(sender):
            raise rejected(errors.NO_SENDER_ACCOUNT)
        replaced = self._same_nonce(sender, tx)
        self._check_funds(tx, sender, state.get_balance(sender), replaced)
        if replaced is not None:
            del self._by_hash[bytes(replaced.hash)]
        self._by_hash[bytes(tx.hash)] = tx
        self.version += 1

    def _same_nonce(self, sender: Address, tx: SignedTransactionAPI) -> SignedTransactionAPI | None:
        """Return the waiting transaction tx would replace; rejected unless tx bumps the price."""
        for old in self._by_hash.values():
            if old.sender == sender and old.nonce == tx.nonce:
                if tx.gas_price * 100 < old.gas_price * (100 + PRICE_BUMP_PERCENT):
                    raise rejected(errors.BUMP_TOO_LOW)
                return old
        return None

    def _check_funds(
        self,
        tx: SignedTransactionAPI,
        sender: Address,
        balance: int,
        replaced: SignedTransactionAPI | None,
    ) -> None:
        """Check the balance covers the transaction, and it with the sender's other waiting ones."""
        if balance < _cost(tx):
            raise rejected(errors.INSUFFICIENT_FUNDS)
        others = (t for t in self._by_hash.values() if t.sender == sender and t is not replaced)
        if balance < _cost(tx) + sum(_cost(t) for t in others):
            raise rejected(errors.PENDING_FUNDS)

    def next_nonce(self, sender: bytes, state_nonce: int) -> int:
        """Return the nonce after the sender's contiguous run of waiting transactions."""
        nonces = {t.nonce for t in self._by_hash.values() if bytes(t.sender) == sender}
        nonce = state_nonce
        while nonce in nonces:
            nonce += 1
        return nonce

    def take_ready(
        self, nonce_of: Callable[[Address], int], balance_of: Callable[[Address], int]
    ) -> list[SignedTransactionAPI]:
        """Remove and return what can be mined now (stale transactions are dropped)."""
        ready = self.ready(nonce_of, balance_of, drop_stale=True)
        for tx in ready:
            del self._by_hash[bytes(tx.hash)]
        self.version += 1
        return ready

    def ready(
        self,
        nonce_of: Callable[[Address], int],
        balance_of: Callable[[Address], int],
        *,
        drop_stale: bool = False,
    ) -> list[SignedTransactionAPI]:
        """Return what to mine now: contiguous nonces the balance covers, within the gas limit."""
        ready: list[SignedTransactionAPI] = []
        gas = 0
        by_sender: dict[Address, list[SignedTransactionAPI]] = {}
        for tx in self._by_hash.values():
            by_sender.setdefault(tx.sender, []).append(tx)
        for sender, txs in by_sender.items():
            nonce, funds = nonce_of(sender), balance_of(sender)
            for tx in sorted(txs, key=lambda t: int(t.nonce)):
                if tx.nonce < nonce:
                    if drop_stale:
                        del self._by_hash[bytes(tx.hash)]
                    continue
                if tx.nonce != nonce or _cost(tx) > funds or gas + tx.gas > GAS_LIMIT:
                    break
                ready.append(tx)
                nonce, funds, gas = nonce + 1, funds - _cost(tx), gas + tx.gas
        return ready
