"""DevnetNode: every JSON-RPC method of the service over the devnet's chain."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from eth.abc import StateAPI
from eth_hash.auto import keccak
from eth_utils.exceptions import ValidationError

from explorer.chain.hexutil import to_data, to_quantity
from explorer.devnet import params
from explorer.devnet.blockdata import DevBlock, TxRecord
from explorer.devnet.calls import call_output
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import (
    INTERNAL_ERROR,
    METHOD_NOT_FOUND,
    RpcFailure,
    invalid_params,
)
from explorer.devnet.ledger import Ledger
from explorer.devnet.logindex import LogIndex
from explorer.devnet.logs import LogFilter, LogLimits, parse_filter
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.reorg import reorganise
from explorer.devnet.seed import SeedSize
from explorer.devnet.shapes import Json, block_json, receipt_json, tx_json
from explorer.devnet.txpool import TxPool, decode_signed

__all__ = ["DevnetNode", "LogLimits", "RpcFailure", "SeedManifest", "open_node"]

log = logging.getLogger(__name__)
CLIENT_VERSION = "RskJ/6.2.0-devnet/Linux/Python3.11/EXPLORER-DEVNET"
PROTOCOL_VERSION = "0x3e"
Handler = Callable[[list[Any]], Any]
DEFAULT_LOG_LIMITS = LogLimits()


class DevnetNode:
    """A local RSK-like node: the seeded chain, a pool, and the 26 methods of the spec."""

    def __init__(
        self,
        ledger: Ledger,
        manifest: SeedManifest,
        pool: TxPool,
        *,
        instant_mining: bool = True,
        log_limits: LogLimits = DEFAULT_LOG_LIMITS,
        miner: bytes = bytes(20),
    ) -> None:
        self.chain_id = ledger.engine.chain_id
        self.manifest = manifest
        self.log_limits = log_limits
        self.instant_mining = instant_mining
        self._ledger = ledger
        self._pool = pool
        self._miner = miner
        self._lock = threading.RLock()
        self._pending_cache: tuple[tuple[int, int], DevBlock, StateAPI] | None = None
        self._logs = LogIndex()
        self._methods: dict[str, Handler] = {
            name[len("_m_") :]: getattr(self, name) for name in dir(self) if name.startswith("_m_")
        }
        self.seeded_head = ledger.head.number  # blocks above it were mined after start-up
        self.before_mining: Callable[[], None] | None = None  # e.g. demo traffic (traffic.py)

    @property
    def head_number(self) -> int:
        """The number of the latest block."""
        return self._ledger.head.number

    @property
    def methods(self) -> tuple[str, ...]:
        """The names of the methods handle() answers."""
        return tuple(sorted(self._methods))

    def handle(self, method: str, params: list[Any]) -> Any:
        """JSON-ready result for one JSON-RPC call; raises RpcFailure."""
        try:
            handler = self._methods.get(method) if isinstance(method, str) else None
            if handler is None:
                shown = method[:80] if isinstance(method, str) else "?"
                raise RpcFailure(
                    METHOD_NOT_FOUND, f"The method {shown} does not exist/is not available"
                )
            if params is None:
                params = []
            if not isinstance(params, list):
                raise invalid_params("params must be an array")
            with self._lock:
                return handler(list(params))
        except RpcFailure:
            raise
        except Exception:
            log.exception("devnet node failed on %.64s", method)
            raise RpcFailure(INTERNAL_ERROR, "Internal error") from None

    def mine_block(self) -> int:
        """Mine the pool's ready transactions (possibly none) into a new block."""
        with self._lock:
            if self.before_mining is not None:
                self.before_mining()
            state = self._state(self.head_number)
            ready = self._pool.take_ready(state.get_nonce, state.get_balance)
            timestamp = max(int(time.time()), self._ledger.head.timestamp + 1)
            try:
                block = self._ledger.mine(ready, timestamp=timestamp, miner=self._miner)
            except ValidationError:
                log.warning("devnet: a ready transaction failed to apply; mining the rest")
                ready = self._ledger.engine.applicable(ready, timestamp)
                block = self._ledger.mine(ready, timestamp=timestamp, miner=self._miner)
            return block.number

    def reorganise(self, depth: int) -> int:
        """Replace the newest depth blocks with another miner's, then mine one more on top."""
        with self._lock:
            reorganise(self._ledger, depth, floor=self.seeded_head)
            return self.mine_block()  # the new branch is longer, as a winning branch is

    def add_method(self, name: str, handler: Handler) -> None:
        """Answer one more method (the devnet's own controls, see reorg.enable_control)."""
        self._methods[name] = handler

    # --- resolution helpers -------------------------------------------------------------

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

    def _state_number(self, value: object) -> int:
        """Return the block whose state a call reads (latest when omitted); -32602 when unknown."""
        if value is None:
            return self.head_number
        number = self._block_number(params.block_ref(value, allow_hash=True))
        if number is None:
            raise invalid_params("block not found")
        return number

    def _state_for(self, value: object) -> StateAPI:
        """Return the state a query reads: after a mined block, or the pending block's."""
        if value == "pending":
            return self._pending()[1]
        return self._state(self._state_number(value))

    def _block(self, ref: params.BlockRef) -> DevBlock | None:
        """Return the block a selector names; the sample pending block for `pending`."""
        if ref.tag == "pending":
            return self._pending_block()
        number = self._block_number(ref)
        return None if number is None else self._ledger.blocks[number]

    def _pending_block(self) -> DevBlock:
        """Return the sample next block built from the pool."""
        return self._pending()[0]

    def _pending(self) -> tuple[DevBlock, StateAPI]:
        """Return the sample next block and its state, rebuilt when the head or the pool changes."""
        key = (self.head_number, self._pool.version)
        if self._pending_cache is None or self._pending_cache[0] != key:
            state = self._state(self.head_number)
            ready = self._pool.ready(state.get_nonce, state.get_balance)
            waiting = [tx for tx in self._pool.transactions() if tx not in ready]
            timestamp = max(int(time.time()), self._ledger.head.timestamp + 1)
            preview = self._ledger.preview(ready, waiting, timestamp=timestamp, miner=self._miner)
            self._pending_cache = (key, *preview)
        return self._pending_cache[1], self._pending_cache[2]

    def _block_json(self, ref: params.BlockRef, full: bool) -> Json | None:
        """Return a block object for a selector, or None."""
        block = self._block(ref)
        return None if block is None else block_json(block, full=full, pending=ref.tag == "pending")

    # --- the methods of the spec, one handler each ----------------------------------------

    def _m_eth_accounts(self, args: list[Any]) -> list[str]:
        """No accounts: the service holds no keys."""
        params.arity(args, 0)
        return []

    def _m_eth_blockNumber(self, args: list[Any]) -> str:
        """Return the latest block number."""
        params.arity(args, 0)
        return to_quantity(self.head_number)

    def _m_eth_chainId(self, args: list[Any]) -> str:
        """Return the chain id as a quantity."""
        params.arity(args, 0)
        return to_quantity(self.chain_id)

    def _m_net_version(self, args: list[Any]) -> str:
        """Return the chain id as a decimal string."""
        params.arity(args, 0)
        return str(self.chain_id)

    def _m_eth_protocolVersion(self, args: list[Any]) -> str:
        """Return the protocol version rskj reports."""
        params.arity(args, 0)
        return PROTOCOL_VERSION

    def _m_web3_clientVersion(self, args: list[Any]) -> str:
        """Return an RskJ-style client version naming this devnet."""
        params.arity(args, 0)
        return CLIENT_VERSION

    def _m_web3_sha3(self, args: list[Any]) -> str:
        """Keccak-256 of the data."""
        (value,) = params.arity(args, 1)
        return to_data(keccak(params.data(value)))

    def _m_eth_gasPrice(self, args: list[Any]) -> str:
        """Return the latest block's minimum gas price."""
        params.arity(args, 0)
        return to_quantity(self._ledger.head.minimum_gas_price)

    def _m_eth_getBalance(self, args: list[Any]) -> str:
        """Return the balance at a block (latest by default)."""
        account, selector = params.arity(args, 1, 1)
        return to_quantity(self._state_for(selector).get_balance(params.address(account)))

    def _m_eth_getTransactionCount(self, args: list[Any]) -> str:
        """Return the nonce at a block; `pending` counts the pool's contiguous run."""
        account, selector = params.arity(args, 1, 1)
        sender = params.address(account)
        nonce = self._state_for(selector).get_nonce(sender)
        if selector == "pending":
            nonce = self._pool.next_nonce(sender, nonce)
        return to_quantity(nonce)

    def _m_eth_getCode(self, args: list[Any]) -> str:
        """Return the code at an address."""
        account, selector = params.arity(args, 1, 1)
        return to_data(self._state_for(selector).get_code(params.address(account)))

    def _m_eth_getStorageAt(self, args: list[Any]) -> str:
        """One 32-byte storage slot."""
        account, position, selector = params.arity(args, 2, 1)
        state = self._state_for(selector)
        value = state.get_storage(params.address(account), params.quantity(position, "position"))
        return to_data(value.to_bytes(32, "big"))

    def _m_eth_getBlockByHash(self, args: list[Any]) -> Json | None:
        """Return a block by hash, with hashes or full transactions."""
        block_hash, full = params.arity(args, 1, 1)
        ref = params.BlockRef(block_hash=params.block_hash(block_hash))
        return self._block_json(ref, params.boolean(full) if full is not None else False)

    def _m_eth_getBlockByNumber(self, args: list[Any]) -> Json | None:
        """Return a block by number or tag, with hashes or full transactions."""
        selector, full = params.arity(args, 1, 1)
        ref = params.block_ref(selector, allow_hash=False)
        return self._block_json(ref, params.boolean(full) if full is not None else False)

    def _count(self, ref: params.BlockRef, what: Callable[[DevBlock], int]) -> str | None:
        """Return a count about the selected block, or None when there is no such block."""
        block = self._block(ref)
        return None if block is None else to_quantity(what(block))

    def _m_eth_getBlockTransactionCountByHash(self, args: list[Any]) -> str | None:
        """How many transactions a block holds."""
        (block_hash,) = params.arity(args, 1)
        ref = params.BlockRef(block_hash=params.block_hash(block_hash))
        return self._count(ref, lambda b: len(b.transactions))

    def _m_eth_getBlockTransactionCountByNumber(self, args: list[Any]) -> str | None:
        """How many transactions a block holds."""
        (selector,) = params.arity(args, 1)
        return self._count(
            params.block_ref(selector, allow_hash=False), lambda b: len(b.transactions)
        )

    def _m_eth_getUncleCountByBlockHash(self, args: list[Any]) -> str | None:
        """How many uncles a block has."""
        (block_hash,) = params.arity(args, 1)
        ref = params.BlockRef(block_hash=params.block_hash(block_hash))
        return self._count(ref, lambda b: len(b.uncles))

    def _m_eth_getUncleCountByBlockNumber(self, args: list[Any]) -> str | None:
        """How many uncles a block has."""
        (selector,) = params.arity(args, 1)
        return self._count(params.block_ref(selector, allow_hash=False), lambda b: len(b.uncles))

    def _tx_at(self, ref: params.BlockRef, index_value: object) -> Json | None:
        """Return the transaction at an index of the selected block, with `_id`."""
        index = params.quantity(index_value, "index")
        block = self._block(ref)
        if block is None or index >= len(block.transactions):
            return None
        mined = None if ref.tag == "pending" else block
        return tx_json(block.transactions[index], mined, index, with_id=True)

    def _m_eth_getTransactionByBlockHashAndIndex(self, args: list[Any]) -> Json | None:
        """Return a transaction by block hash and index, with `_id`."""
        block_hash, index = params.arity(args, 2)
        return self._tx_at(params.BlockRef(block_hash=params.block_hash(block_hash)), index)

    def _m_eth_getTransactionByBlockNumberAndIndex(self, args: list[Any]) -> Json | None:
        """Return a transaction by block number and index, with `_id`."""
        selector, index = params.arity(args, 2)
        return self._tx_at(params.block_ref(selector, allow_hash=False), index)

    def _m_eth_getTransactionByHash(self, args: list[Any]) -> Json | None:
        """Return a mined or waiting transaction by hash."""
        (value,) = params.arity(args, 1)
        tx_hash = params.block_hash(value, "transaction hash")
        location = self._ledger.tx_locations.get(tx_hash)
        if location is not None:
            block = self._ledger.blocks[location.number]
            return tx_json(block.transactions[location.index], block, location.index)
        waiting = self._pool.get(tx_hash)
        return None if waiting is None else tx_json(TxRecord.from_signed(waiting), None, None)

    def _m_eth_getTransactionReceipt(self, args: list[Any]) -> Json | None:
        """Return the receipt of a mined transaction."""
        (value,) = params.arity(args, 1)
        location = self._ledger.tx_locations.get(params.block_hash(value, "transaction hash"))
        if location is None:
            return None
        return receipt_json(self._ledger.blocks[location.number], location.index)

    def _log_range(self, log_filter: LogFilter) -> tuple[int, int]:
        """Return the first and last block number a filter reads (first > last when none)."""
        if log_filter.block_hash is not None:
            number = self._ledger.by_hash.get(log_filter.block_hash)
            return (0, -1) if number is None else (number, number)
        latest = params.BlockRef(tag="latest")
        first = self._block_number(log_filter.from_block or latest)
        last = self._block_number(log_filter.to_block or latest)
        first = self.head_number + 1 if first is None else first
        last = self.head_number if last is None else last
        return first, last

    def _m_eth_getLogs(self, args: list[Any]) -> EncodedLogs:
        """Return logs matching a filter, within the limits of §8."""
        (value,) = params.arity(args, 1)
        log_filter = parse_filter(value)
        first, last = self._log_range(log_filter)
        return self._logs.collect(self._ledger.blocks, first, last, log_filter, self.log_limits)

    def _m_eth_call(self, args: list[Any]) -> str:
        """Run a call without a transaction; reverts are -32015."""
        call, selector = params.arity(args, 1, 1)
        request = params.call_request(call)
        return to_data(call_output(self._ledger.engine, request, self._state_number(selector)))

    def _m_eth_estimateGas(self, args: list[Any]) -> str:
        """Gas a call needs; an estimate even when it would fail."""
        call, selector = params.arity(args, 1, 1)
        request = params.call_request(call)
        return to_quantity(self._ledger.engine.estimate_gas(request, self._state_number(selector)))

    def _m_eth_sendRawTransaction(self, args: list[Any]) -> str:
        """Admit a signed transaction to the pool (mined at once if instant)."""
        (value,) = params.arity(args, 1)
        raw = params.data(value, "signed transaction")
        tx = decode_signed(raw, self.chain_id)
        self._pool.admit(tx, len(raw), self._state(self.head_number))
        if self.instant_mining:
            self.mine_block()
        return to_data(bytes(tx.hash))


def open_node(
    chain_id: int,
    *,
    cache_dir: Path,
    instant_mining: bool = True,
    log_limits: LogLimits = DEFAULT_LOG_LIMITS,
    progress: Callable[[str, float], None] | None = None,
    seed: SeedSize | None = None,
) -> DevnetNode:
    """Load the seeded history from the snapshot in cache_dir, or build and save it."""
    from explorer.devnet.snapshot import load_or_build

    return load_or_build(
        chain_id,
        cache_dir=cache_dir,
        instant_mining=instant_mining,
        log_limits=log_limits,
        progress=progress,
        seed=seed,
    )
