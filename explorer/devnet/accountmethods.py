"""The node's state reads, calls, sends and mining (rskj's evm module controls it)."""

from __future__ import annotations

import logging
import time
from typing import Any

from eth_hash.auto import keccak
from eth_utils.exceptions import ValidationError

from explorer.chain.hexutil import to_data, to_quantity
from explorer.devnet import params
from explorer.devnet.calls import call_output, estimate
from explorer.devnet.chainview import ChainView
from explorer.devnet.errors import rskj_invalid_params
from explorer.devnet.txpool import decode_signed

log = logging.getLogger(__name__)


class AccountMethods(ChainView):
    """eth_getBalance … eth_sendRawTransaction, and mining, over the chain view."""

    def mine_block(self) -> int:
        """Mine the pool's executable transactions (possibly none) into a new block."""
        with self._lock:
            if self.before_mining is not None:
                self.before_mining()
            head = self.head_number
            state = self._state(head)
            ready = self._pool.take_ready(state.get_nonce, state.get_balance)
            timestamp = max(int(time.time()), self._ledger.head.timestamp + 1)
            try:
                block = self._ledger.mine(ready, timestamp=timestamp, miner=self._miner)
            except ValidationError:
                log.warning("devnet: a ready transaction failed to apply; mining the rest")
                ready = self._ledger.engine.applicable(ready, timestamp)
                block = self._ledger.mine(ready, timestamp=timestamp, miner=self._miner)
            self._pool.expire(block.number)
            self.filters.on_block(block, to_data(block.hash))
            return block.number

    def mine_scheduled(self) -> int | None:
        """Mine a block on the interval timer, unless mining is stopped."""
        return self.mine_block() if self.mining else None

    def _m_evm_mine(self, args: list[Any]) -> None:
        """Mine one block now (rskj's evm module)."""
        self.mine_block()

    def _m_evm_stopMining(self, args: list[Any]) -> None:
        """Stop mining: sent transactions stay pending until evm_startMining or evm_mine."""
        self.mining = False

    def _m_evm_startMining(self, args: list[Any]) -> None:
        """Mine again; with instant mining, what waits is mined at once."""
        self.mining = True
        if self.instant_mining and self._pool.pending():
            self.mine_block()

    def _m_eth_getBalance(self, args: list[Any]) -> str:
        """Return the balance at a block (latest when left out)."""
        account, selector = args
        state = self._account_state("latest" if selector is None else selector)
        return to_quantity(state.get_balance(params.address(account)))

    def _m_eth_getTransactionCount(self, args: list[Any]) -> str:
        """Return the nonce at a block; `pending` adds the sender's run of pending transactions."""
        account, selector = args
        selector = "latest" if selector is None else selector
        sender = params.address(account)
        if selector == "pending":
            nonce = self._state(self.head_number).get_nonce(sender)
            return to_quantity(self._pool.pending_nonce(bytes(sender), nonce))
        return to_quantity(self._account_state(selector).get_nonce(sender))

    def _m_eth_getCode(self, args: list[Any]) -> str | None:
        """Return the code at an address; null for a block rskj cannot find."""
        account, selector = args
        address = params.address(account)
        state = self._code_state(selector)
        return None if state is None else to_data(state.get_code(address))

    def _m_eth_getStorageAt(self, args: list[Any]) -> str:
        """One 32-byte storage slot."""
        account, position, selector = args
        state = self._account_state(selector)
        value = state.get_storage(params.address(account), params.quantity(position, "position"))
        return to_data(value.to_bytes(32, "big"))

    def _m_eth_call(self, args: list[Any]) -> str:
        """Run a call without a transaction; a revert is -32015."""
        call, selector, overrides = args
        if overrides:
            raise rskj_invalid_params("State override is not allowed")
        request = params.call_request(call)
        state, context = self._execution(selector)
        return to_data(call_output(self._ledger.engine, request, state, context))

    def _m_eth_estimateGas(self, args: list[Any]) -> str:
        """Return the gas a call needs.

        A bare rskj node answers -32015 for a reverting call, the service an estimate (§4.3.1).
        """
        call, selector = args
        request = params.call_request(call)
        state, context = self._execution("latest" if selector is None else selector)
        engine = self._ledger.engine
        gas = estimate(engine, request, state, context, reverts_fail=self.rules.is_rskj)
        return to_quantity(gas)

    def _m_eth_sendRawTransaction(self, args: list[Any]) -> str:
        """Admit a signed transaction to the pool (mined at once if instant)."""
        (value,) = args
        raw = params.data(value, "signed transaction")
        tx = decode_signed(raw, self.chain_id)
        head = self.head_number
        before = {bytes(waiting.hash) for waiting in self._pool.pending()}
        self._pool.admit(tx, len(raw), self._state(head), head)
        fresh = [bytes(t.hash) for t in self._pool.pending() if bytes(t.hash) not in before]
        self.filters.on_pending([to_data(tx_hash) for tx_hash in fresh])
        if self.instant_mining and self.mining:
            self.mine_block()
        return to_data(bytes(tx.hash))

    def _m_web3_sha3(self, args: list[Any]) -> str:
        """Keccak-256 of the data."""
        (value,) = args
        return to_data(keccak(params.data(value)))
