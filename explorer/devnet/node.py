"""DevnetNode: the methods of the service, as the hosted service or a bare rskj node answers."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from explorer.chain.hexutil import to_quantity
from explorer.devnet import params
from explorer.devnet.blockdata import DevBlock, TxRecord
from explorer.devnet.encoded import EncodedLogs
from explorer.devnet.errors import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARAMS_INVALID_TEXT,
    RpcFailure,
    invalid_params,
)
from explorer.devnet.filling import NotYetLoaded
from explorer.devnet.logindex import LogIndex
from explorer.devnet.logs import LogFilter, LogLimits, parse_filter
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.profile import CLIENT_VERSION, MOST_PARAMS, NodeRules
from explorer.devnet.reorg import reorganise
from explorer.devnet.rskjmethods import RskjMethods
from explorer.devnet.seed import SeedSize
from explorer.devnet.shapes import Json, block_json, receipt_json, tx_json
from explorer.devnet.tracing import TraceMethods

__all__ = ["DevnetNode", "LogLimits", "RpcFailure", "SeedManifest", "open_node"]

log = logging.getLogger(__name__)
PROTOCOL_VERSION = "0x3e"
Handler = Callable[[list[Any]], Any]


class DevnetNode(TraceMethods, RskjMethods):
    """A local RSK-like node.

    The seeded chain, a pool, the methods of the spec, and the rules of its profile (`rules`: the
    hosted service by default, or a bare rskj node).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._logs = LogIndex()
        self._methods: dict[str, Handler] = {
            name[len("_m_") :]: getattr(self, name) for name in dir(self) if name.startswith("_m_")
        }
        self._methods.update(self.fixed_answers())
        self.seeded_head = self.head_number  # blocks above it were mined after start-up

    def reorganise(self, depth: int) -> int:
        """Replace the newest depth blocks with another miner's, then mine one more on top."""
        with self._lock:
            reorganise(self._ledger, depth, floor=self.seeded_head)
            return self.mine_block()  # the new branch is longer, as a winning branch is

    def add_method(self, name: str, handler: Handler) -> None:
        """Answer one more method (the devnet's own controls, see reorg.enable_control)."""
        self._methods[name] = handler

    @property
    def methods(self) -> tuple[str, ...]:
        """The names of the methods handle() answers under the node's rules."""
        return tuple(sorted(name for name in self._methods if self.rules.serves(name)))

    def handle(self, method: str, params: list[Any]) -> Any:
        """JSON-ready result for one JSON-RPC call; raises RpcFailure."""
        try:
            handler = self._methods.get(method) if isinstance(method, str) else None
            if handler is None or not self.rules.serves(method):
                raise RpcFailure(METHOD_NOT_FOUND, self.rules.not_found(str(method)))
            if params is None:
                params = []
            if not isinstance(params, list):
                raise invalid_params("params must be an array")
            if not self.rules.accepts(method, len(params)):
                raise RpcFailure(INVALID_PARAMS, PARAMS_INVALID_TEXT)
            padded = params + [None] * (MOST_PARAMS[method] - len(params))
            with self._lock:
                if self._pool.expire(self.head_number):
                    log.debug("devnet: expired pool entries")
                return handler(padded)
        except (RpcFailure, NotYetLoaded):
            raise
        except Exception:
            log.exception("devnet node failed on %.64s", method)
            raise RpcFailure(INTERNAL_ERROR, "Internal error") from None

    def _block_json(self, ref: params.BlockRef, full: bool) -> Json | None:
        """Return a block object for a selector, or None."""
        block = self._block(ref)
        if block is None:
            return None
        pending = ref.tag == "pending"
        return block_json(block, full=full, pending=pending, rskj=self.rules.is_rskj)

    # --- the methods of the spec, one handler each ----------------------------------------

    def _m_eth_accounts(self, args: list[Any]) -> list[str]:
        """No accounts: the service holds no keys."""
        return []

    def _m_eth_blockNumber(self, args: list[Any]) -> str:
        """Return the latest block number."""
        return to_quantity(self.head_number)

    def _m_eth_chainId(self, args: list[Any]) -> str:
        """Return the chain id as a quantity."""
        return to_quantity(self.chain_id)

    def _m_net_version(self, args: list[Any]) -> str:
        """Return the chain id as a decimal string."""
        return str(self.chain_id)

    def _m_eth_protocolVersion(self, args: list[Any]) -> str:
        """Return the protocol version rskj reports."""
        return PROTOCOL_VERSION

    def _m_web3_clientVersion(self, args: list[Any]) -> str:
        """Return an RskJ 9 client version naming this devnet."""
        return CLIENT_VERSION

    def _m_eth_gasPrice(self, args: list[Any]) -> str:
        """Return the minimum gas price × 1.1.

        As rskj answers on an idle chain (GasPriceTracker).
        """
        return to_quantity(self._ledger.head.minimum_gas_price * 11 // 10)

    def _m_eth_getBlockByHash(self, args: list[Any]) -> Json | None:
        """Return a block by hash, with hashes or full transactions."""
        block_hash, full = args
        ref = params.BlockRef(block_hash=params.block_hash(block_hash))
        return self._block_json(ref, params.boolean(full) if full is not None else False)

    def _m_eth_getBlockByNumber(self, args: list[Any]) -> Json | None:
        """Return a block by number or tag, with hashes or full transactions."""
        selector, full = args
        ref = params.block_ref(selector, allow_hash=False)
        return self._block_json(ref, params.boolean(full) if full is not None else False)

    def _known_block(self, selector: object) -> DevBlock:
        """Return the block a number or tag names; rskj's -32600 "Block … not found" otherwise."""
        block = self._block(params.block_ref(selector, allow_hash=False))
        if block is None:
            raise RpcFailure(INVALID_REQUEST, f"Block {selector} not found")
        return block

    def _m_eth_getBlockTransactionCountByHash(self, args: list[Any]) -> str | None:
        """How many transactions a block holds; null for an unknown block."""
        (block_hash,) = args
        block = self._block(params.BlockRef(block_hash=params.block_hash(block_hash)))
        return None if block is None else to_quantity(len(block.transactions))

    def _m_eth_getBlockTransactionCountByNumber(self, args: list[Any]) -> str:
        """How many transactions a block holds; for `pending`, the pool's executable ones."""
        (selector,) = args
        if selector == "pending":
            return to_quantity(len(self._pool.pending()))
        return to_quantity(len(self._known_block(selector).transactions))

    def _m_eth_getUncleCountByBlockHash(self, args: list[Any]) -> str:
        """How many uncles a block has; -32600 for an unknown block."""
        (value,) = args
        block = self._block(params.BlockRef(block_hash=params.block_hash(value)))
        if block is None:
            raise RpcFailure(INVALID_REQUEST, f"Block with hash {value} not found")
        return to_quantity(len(block.uncles))

    def _m_eth_getUncleCountByBlockNumber(self, args: list[Any]) -> str:
        """How many uncles a block has; -32600 for an unknown block."""
        (selector,) = args
        return to_quantity(len(self._known_block(selector).uncles))

    def _m_eth_getTransactionByBlockHashAndIndex(self, args: list[Any]) -> Json | None:
        """Return a transaction by block hash and index (the service adds `_id`)."""
        block_hash, index_value = args
        block = self._block(params.BlockRef(block_hash=params.block_hash(block_hash)))
        index = params.quantity(index_value, "index")
        if block is None or index >= len(block.transactions):
            return None
        return tx_json(block.transactions[index], block, index, with_id=not self.rules.is_rskj)

    def _m_eth_getTransactionByBlockNumberAndIndex(self, args: list[Any]) -> Json | None:
        """Return a transaction by block number and index; `pending` indexes the executable list."""
        selector, index_value = args
        ref = params.block_ref(selector, allow_hash=False)
        index = params.quantity(index_value, "index")
        block = self._block(ref)
        with_id = not self.rules.is_rskj
        if block is None:
            return None
        if ref.tag != "pending":
            if index >= len(block.transactions):
                return None
            return tx_json(block.transactions[index], block, index, with_id=with_id)
        waiting = self._pool.pending()
        if index >= len(waiting):
            return None
        record = TxRecord.from_signed(waiting[index])
        if self.rules.is_rskj:  # rskj puts the sample block's hash and number on it
            return tx_json(record, block, index, with_id=False)
        return tx_json(record, None, None, with_id=True)

    def _m_eth_getTransactionByHash(self, args: list[Any]) -> Json | None:
        """Return a mined or pending transaction by hash; one queued behind a nonce gap is null."""
        (value,) = args
        tx_hash = params.block_hash(value, "transaction hash")
        location = self._ledger.tx_locations.get(tx_hash)
        if location is not None:
            block = self._ledger.blocks[location.number]
            return tx_json(block.transactions[location.index], block, location.index)
        waiting = self._pool.get(tx_hash)
        return None if waiting is None else tx_json(TxRecord.from_signed(waiting), None, None)

    def _m_eth_getTransactionReceipt(self, args: list[Any]) -> Json | None:
        """Return the receipt of a mined transaction."""
        (value,) = args
        location = self._ledger.tx_locations.get(params.block_hash(value, "transaction hash"))
        if location is None:
            return None
        return receipt_json(self._ledger.blocks[location.number], location.index)

    def _log_range(self, log_filter: LogFilter) -> tuple[int, int]:
        """Return the blocks a filter reads, as rskj's LogFilter picks them (first > last: none)."""
        head, nothing = self.head_number, (0, -1)
        if log_filter.block_hash is not None:
            number = self._ledger.by_hash.get(log_filter.block_hash)
            return nothing if number is None else (number, number)
        start, end = log_filter.from_block, log_filter.to_block
        if start is None or start.tag == "latest":
            return head, head  # the latest block alone, whatever toBlock says
        if start.tag == "pending":
            return nothing
        first = self._block_number(start)
        if first is None:
            return nothing
        last = head if end is None or end.tag is not None else self._block_number(end)
        last = head if last is None else last
        return (last, last) if first > last else (first, last)

    def _m_eth_getLogs(self, args: list[Any]) -> EncodedLogs:
        """Return logs matching a filter, within the profile's limits."""
        (value,) = args
        log_filter = parse_filter(value)
        first, last = self._log_range(log_filter)
        return self._logs.collect(self._ledger.blocks, first, last, log_filter, self.log_limits)

    def _m_eth_newFilter(self, args: list[Any]) -> str:
        """Install a log filter (rskj profile) holding the logs eth_getLogs answers for it now.

        It then takes the matching logs of each new block when its range ends at `latest`; from
        `latest` (or no fromBlock) it keeps the newest block's alone (rskj's LogFilter).
        """
        (value,) = args
        log_filter = parse_filter(value)
        historic = self._m_eth_getLogs([value])
        start, end = log_filter.from_block, log_filter.to_block

        def matching(block: DevBlock) -> EncodedLogs:
            blocks = self._ledger.blocks
            return self._logs.collect(blocks, block.number, block.number, log_filter, LogLimits())

        return self.filters.install_logs(
            list(historic),
            matching,
            from_latest=start is None or start.tag == "latest",
            to_latest=end is None or end.tag == "latest",
        )


def open_node(
    chain_id: int,
    *,
    cache_dir: Path,
    instant_mining: bool = True,
    rules: NodeRules | None = None,
    progress: Callable[[str, float], None] | None = None,
    seed: SeedSize | None = None,
    kept_dir: Path | None = None,
    also_read: tuple[Path, ...] = (),
) -> DevnetNode:
    """Load the kept chain, or the seeded history from the snapshot in cache_dir (or build it).

    Then apply a profile's rules (the service's by default).
    """
    from explorer.devnet.snapshot import load_or_build

    rules = rules or NodeRules()
    node = load_or_build(
        chain_id,
        cache_dir=cache_dir,
        instant_mining=instant_mining,
        log_limits=rules.log_limits,
        progress=progress,
        seed=seed,
        kept_dir=kept_dir,
        also_read=also_read,
    )
    node.configure(rules)
    return node
