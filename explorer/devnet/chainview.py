"""The devnet node's chain, pool and rules, and how block selectors resolve against them."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from typing import Any

from eth.abc import StateAPI

from explorer.devnet import params
from explorer.devnet.blockdata import DevBlock
from explorer.devnet.errors import block_not_found, rskj_invalid_params
from explorer.devnet.evm import BlockContext
from explorer.devnet.filters import FilterBook
from explorer.devnet.ledger import Ledger
from explorer.devnet.logs import LogLimits
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.profile import NodeRules
from explorer.devnet.txpool import TxPool

BLOCKHASH_WINDOW = 256  # BLOCKHASH answers for the 256 blocks before


class ChainView:
    """The seeded chain, the pool and the profile's rules; selectors resolved as rskj does."""

    def __init__(
        self,
        ledger: Ledger,
        manifest: SeedManifest,
        pool: TxPool,
        *,
        instant_mining: bool = True,
        log_limits: LogLimits | None = None,
        miner: bytes = bytes(20),
        rules: NodeRules | None = None,
    ) -> None:
        self.chain_id = ledger.engine.chain_id
        self.manifest = manifest
        self.rules = rules or NodeRules(log_limits=log_limits or LogLimits())
        self.instant_mining = instant_mining
        self.mining = True  # evm_stopMining / evm_startMining
        self.before_mining: Callable[[], None] | None = None  # e.g. demo traffic (traffic.py)
        self._ledger = ledger
        self._pool = pool
        self._miner = miner
        self._lock = threading.RLock()
        self._pending_cache: tuple[tuple[int, int], DevBlock, StateAPI] | None = None
        self.filters = FilterBook()  # eth_newFilter and its kin (the rskj profile)
        pool.policy = self.rules.pool
        pool.settle(self._state(self.head_number), self.head_number)

    def configure(self, rules: NodeRules) -> None:
        """Apply a profile's rules (log limits, pool policy, parameter forms)."""
        with self._lock:
            self.rules = rules
            self._pool.policy = rules.pool

    @property
    def log_limits(self) -> LogLimits:
        """The eth_getLogs limits in force."""
        return self.rules.log_limits

    @log_limits.setter
    def log_limits(self, limits: LogLimits) -> None:
        """Change the eth_getLogs limits."""
        self.rules = dataclasses.replace(self.rules, log_limits=limits)

    @property
    def head_number(self) -> int:
        """The number of the latest block."""
        return self._ledger.head.number

    @property
    def ledger(self) -> Ledger:
        """The mined chain."""
        return self._ledger

    @property
    def pool(self) -> TxPool:
        """The transaction pool (pending and queued)."""
        return self._pool

    def _state(self, number: int) -> StateAPI:
        """Return the state after block number."""
        return self._ledger.engine.state_at(number)

    def _block_number(self, ref: params.BlockRef) -> int | None:
        """Return the mined block a selector names (pending means latest here), or None."""
        if ref.tag == "earliest":
            return 0
        if ref.tag in ("latest", "pending"):
            return self.head_number
        if ref.block_hash is not None:
            return self._ledger.by_hash.get(ref.block_hash)
        assert ref.number is not None
        return ref.number if ref.number <= self.head_number else None

    def _block(self, ref: params.BlockRef) -> DevBlock | None:
        """Return the block a selector names; the sample pending block for `pending`."""
        if ref.tag == "pending":
            return self._pending()[0]
        number = self._block_number(ref)
        return None if number is None else self._ledger.blocks[number]

    def _pending(self) -> tuple[DevBlock, StateAPI]:
        """Return the sample next block (the pool's executable transactions run) and its state."""
        key = (self.head_number, self._pool.version)
        if self._pending_cache is None or self._pending_cache[0] != key:
            state = self._state(self.head_number)
            ready = self._pool.ready(state.get_nonce, state.get_balance)
            timestamp = max(int(time.time()), self._ledger.head.timestamp + 1)
            preview = self._ledger.preview(ready, timestamp=timestamp, miner=self._miner)
            self._pending_cache = (key, *preview)
        return self._pending_cache[1], self._pending_cache[2]

    def _account_state(self, value: Any) -> StateAPI:
        """Return the state a balance, nonce or storage read names (Web3InformationRetriever).

        -32600 "Block … not found" for a block the chain does not have.
        """
        if value == "pending":
            return self._pending()[1]
        ref = params.block_ref(value, allow_hash=True)
        number = self._block_number(ref)
        if number is None:
            raise self._unknown_block(value, ref)
        return self._state(number)

    @staticmethod
    def _unknown_block(value: Any, ref: params.BlockRef) -> Exception:
        """Return rskj's -32600 for a block it does not have, in its two wordings."""
        if isinstance(value, dict) and ref.block_hash is not None:
            return block_not_found(f"with hash {value.get('blockHash')}")
        return block_not_found(str(value))

    def _code_state(self, value: Any) -> StateAPI | None:
        """Return the state eth_getCode reads (EthModule.getCode), or None for no such block.

        rskj reads a bare identifier as a tag or a number, so a bare block hash names no
        block on the rskj profile; the service takes one (§4.2). An EIP-1898 object is
        resolved first, as for the other state reads.
        """
        if value == "pending":
            return self._pending()[1]
        ref = params.block_ref(value, allow_hash=True)
        if isinstance(value, dict):
            return self._account_state(value)
        if ref.block_hash is not None and self.rules.is_rskj:
            return None
        number = self._block_number(ref)
        return None if number is None else self._state(number)

    def _execution(self, value: Any) -> tuple[StateAPI, BlockContext]:
        """Return the state and the block a call or an estimate runs in (ExecutionBlockRetriever).

        Block N's own context and the state after it, as rskj and geth run a call; `pending`
        runs in the sample next block on the pool's state. -32602 "Invalid block number N" for
        a number past the head.
        """
        if value == "pending":
            block, state = self._pending()
            return state, self._context(block)
        ref = params.block_ref(value, allow_hash=True)
        number = self._block_number(ref)
        if number is not None:
            return self._state(number), self._context(self._ledger.blocks[number])
        if ref.number is not None:
            raise rskj_invalid_params(f"Invalid block number {ref.number}")
        raise self._unknown_block(value, ref)

    def _context(self, block: DevBlock) -> BlockContext:
        """Return what the EVM sees of a block: number, time, miner, difficulty, gas limit."""
        first = max(block.number - BLOCKHASH_WINDOW, 0)
        earlier = self._ledger.blocks[first : block.number]
        return BlockContext(
            number=block.number,
            timestamp=block.timestamp,
            coinbase=block.miner,
            difficulty=block.difficulty,
            gas_limit=block.gas_limit,
            previous_hashes=tuple(b.hash for b in reversed(earlier)),
        )
