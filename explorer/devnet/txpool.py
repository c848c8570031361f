"""The transaction pool: rskj's admission checks and the executable subset."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from eth.abc import SignedTransactionAPI, StateAPI
from eth_typing import Address

from explorer.devnet import errors
from explorer.devnet.blocks import MINIMUM_GAS_PRICE
from explorer.devnet.errors import invalid_params, rejected
from explorer.devnet.evm import GAS_LIMIT, Engine


def decode_signed(raw: bytes, chain_id: int) -> SignedTransactionAPI:
    """Decode a raw legacy transaction and check its signature and chain id."""
    try:
        tx = Engine.decode_transaction(raw)
    except Exception:
        raise invalid_params("cannot decode the signed transaction") from None
    try:
        tx.check_signature_validity()
        _ = tx.sender
    except Exception:
        raise rejected(errors.INVALID_SIGNATURE) from None
    if tx.chain_id not in (None, chain_id):
        raise rejected(errors.INVALID_CHAIN_ID)
    return tx


def _cost(tx: SignedTransactionAPI) -> int:
    """The most the transaction can take from its sender."""
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
        """The waiting transaction with this hash, if any."""
        return self._by_hash.get(tx_hash)

    def admit(self, tx: SignedTransactionAPI, state: StateAPI) -> None:
        """Run rskj's checks against the head state and keep the transaction."""
        sender = Address(bytes(tx.sender))
        if bytes(tx.hash) in self._by_hash:
            raise rejected(errors.ALREADY_KNOWN)
        if tx.gas > GAS_LIMIT:
            raise rejected(errors.GAS_LIMIT_TOO_HIGH)
        if tx.gas < tx.intrinsic_gas:
            raise rejected(errors.BASIC_COST_TOO_HIGH)
        if tx.nonce < state.get_nonce(sender):
            raise rejected(errors.NONCE_TOO_LOW)
        if tx.gas_price < MINIMUM_GAS_PRICE:
            raise rejected(errors.GAS_PRICE_TOO_LOW)
        if state.get_balance(sender) < _cost(tx):
            raise rejected(errors.INSUFFICIENT_FUNDS)
        self._replace_same_nonce(tx, sender)
        self._by_hash[bytes(tx.hash)] = tx
        self.version += 1

    def _replace_same_nonce(self, tx: SignedTransactionAPI, sender: bytes) -> None:
        """Drop a waiting transaction with the same nonce if the new one pays more."""
        for old in self.transactions():
            if bytes(old.sender) == sender and old.nonce == tx.nonce:
                if tx.gas_price <= old.gas_price:
                    raise rejected(errors.REPLACEMENT_UNDERPRICED)
                del self._by_hash[bytes(old.hash)]

    def next_nonce(self, sender: bytes, state_nonce: int) -> int:
        """The nonce after the sender's contiguous run of waiting transactions."""
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
        """What can be mined now: contiguous nonces the balance covers, within the gas limit."""
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
