"""Saved data shared by the endpoints of one chain: only what was verified, only when confirmed.

Each endpoint keeps its own file of a chain (what it said alone). Beside them the chain has one
shared file (scope SHARED_SCOPE) that holds only what this app recomputed: blocks whose hash
(and, with their transactions, transactions root) recomputes from their fields under the
chain's rules; transactions whose hash recomputes and that such a block lists at their index;
receipts once every receipt of such a block was read and its receipts root recomputes. Another
endpoint of the chain answers a read from it only after it served the same hash at that height
itself: one `eth_getBlockByNumber(n, false)` per height (in the batch being gathered, never
twice), remembered for the session. Offline nothing is taken from it: no endpoint to confirm.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer.chain.blockverify import Check, Outcome, give_way, verify_block
from explorer.chain.hexutil import HexFormatError, parse_hash
from explorer.chain.rskrules import NetworkRules, rules_for_chain
from explorer.chain.rsktx import encode_transaction
from explorer.rpc.envelope import encode_params
from explorer.rpc.errors import RpcError
from explorer.rpc.node_answers import Ask, Read, SavedNote
from explorer.saved import rules
from explorer.saved.schema import Row
from explorer.saved.sql import Anchored
from explorer.saved.store import ChainStore

SHARED_SCOPE = "verified"  # the file name's scope of a chain's shared, verified data
KEPT_BLOCKS = 32  # verified blocks (parsed, in memory) whose receipts may still be shared
RECEIPT = "eth_getTransactionReceipt"
TRANSACTION = "eth_getTransactionByHash"
Kept = tuple[rules.Placement, bytes]


@dataclass
class VerifiedBlock:
    """A block verified in this session: what its transactions and receipts are checked by."""

    raw: dict[str, Any]
    listed: list[str]  # its transactions' hashes, in order
    transactions_bound: bool  # its transactions root was recomputed from its transactions
    receipts: dict[int, Kept] = dataclasses.field(default_factory=dict)  # index → kept receipt


@dataclass(frozen=True)
class Taken:
    """An answer taken from the shared data: its result, and the row this endpoint now keeps."""

    result: Any
    row: Row


def chain_rules(chain_id: int, genesis: str) -> NetworkRules | None:
    """Return the chain's rules with block 0 as the session verified it (None: no rules)."""
    found = rules_for_chain(chain_id)
    return None if found is None else dataclasses.replace(found, genesis_hash=genesis)


def _result(body: bytes) -> Any:
    """Return a kept body's result (None when it cannot be read)."""
    try:
        value = json.loads(body)
    except ValueError:
        return None
    return value.get("result") if isinstance(value, dict) else None


def _method(item: Kept) -> str:
    """Return the method of a kept answer (its key begins with it)."""
    return item[0].key.split(" ", 1)[0]


def _compact(value: Any) -> str:
    """Return value as the client sends parameters: compact JSON."""
    return json.dumps(value, separators=(",", ":"))


def _body(result: Any) -> bytes:
    """Return a result kept as a node's answer body."""
    return _compact({"result": result}).encode()


def _hash_of(value: Any) -> str | None:
    """Return a hash field as canonical hex, or None."""
    try:
        return parse_hash(value, "hash")
    except (HexFormatError, TypeError):
        return None


class SharedData:
    """One session's use of its chain's shared file: what it offers, what it takes."""

    def __init__(self) -> None:
        self.store: ChainStore | None = None
        self.rules: NetworkRules | None = None
        self.chain_id: int | None = None
        self.confirmations = 0  # requests sent to confirm a height (counted by the client too)
        self._blocks: OrderedDict[str, VerifiedBlock] = OrderedDict()
        self._served: dict[int, str | None] = {}  # heights this endpoint answered, and the hash
        self._asking: dict[int, asyncio.Future[str | None]] = {}
        self._offering: asyncio.Future[None] | None = None

    def use(self, store: ChainStore | None, chain_id: int, genesis: str) -> None:
        """Share through a chain's store (None: not at all), under its rules."""
        self.rules = chain_rules(chain_id, genesis)
        self.chain_id = chain_id
        self.store = store if self.rules is not None else None

    def forget_from(self, number: int) -> None:
        """Forget the heights this endpoint answered from a replaced height up."""
        self._served = {n: h for n, h in self._served.items() if n < number}

    # --- offering: what this endpoint said, once recomputed ---------------------------------

    def offer(self, items: Sequence[Kept]) -> None:
        """Share the settled answers that verify (on a worker thread, one batch after another)."""
        store = self.store
        if store is None or not items:
            return
        previous = self._offering

        async def offer_after() -> None:
            if previous is not None:
                await asyncio.wait({previous})
            verified = await asyncio.to_thread(self._verified_rows, list(items))
            if verified:
                store.put(verified)

        self._offering = asyncio.ensure_future(offer_after())

    async def offered(self) -> None:
        """Wait until what was offered is verified and queued for the shared file."""
        while self._offering is not None and not self._offering.done():
            await asyncio.wait({self._offering})

    def _verified_rows(self, items: list[Kept]) -> list[Row]:
        """Return the rows of items that verify (worker thread; batches never overlap)."""
        rows: list[Row] = []
        for where, body in sorted(items, key=lambda item: _method(item) not in rules.BLOCK_READS):
            number, block_hash = where.anchor.number, where.anchor.block_hash
            if number is None or block_hash is None:
                continue
            method = _method((where, body))
            if method in rules.BLOCK_READS:
                shared = self._block_verifies(block_hash, body)
                rows += self._derived_rows(number, block_hash) if shared else []
            elif method == TRANSACTION:
                shared = self._transaction_verifies(block_hash, body)
            elif method == RECEIPT:
                rows += self._receipts_verified(where, body)
                continue
            else:
                shared = False
            if shared:
                rows.append(Row(where.key, number, block_hash, body, canonical=True))
        return rows

    def _block_verifies(self, block_hash: str, body: bytes) -> bool:
        """Tell whether a block's hash recomputes; remember it for its transactions."""
        raw = _result(body)
        if not isinstance(raw, dict) or _hash_of(raw.get("hash")) != block_hash:
            return False
        verdict = verify_block(raw, self.rules, between=give_way)  # on a worker thread
        if not verdict.verified:
            return False
        listed = raw.get("transactions")
        listed = listed if isinstance(listed, list) else []
        hashes = [_hash_of(tx.get("hash") if isinstance(tx, dict) else tx) or "" for tx in listed]
        bound = any(
            f.check is Check.TRANSACTIONS_ROOT and f.outcome is Outcome.VERIFIED
            for f in verdict.findings
        )
        known = self._blocks.get(block_hash)
        if known is None or (bound and not known.transactions_bound):
            receipts = known.receipts if known is not None else {}
            self._blocks[block_hash] = VerifiedBlock(raw, hashes, bound, receipts)
        self._blocks.move_to_end(block_hash)
        while len(self._blocks) > KEPT_BLOCKS:
            self._blocks.popitem(last=False)
        return True

    def _derived_rows(self, number: int, block_hash: str) -> list[Row]:
        """Return the bare block and each transaction a block verified with them answers too."""
        block = self._blocks[block_hash]
        listed = block.raw.get("transactions")
        if not block.transactions_bound or not listed or not isinstance(listed[0], dict):
            return []
        bare = {**block.raw, "transactions": block.listed}
        rows = [Row(rules.block_key(block_hash, False), number, block_hash, _body(bare), True)]
        for tx in listed:
            if self._place(block_hash, tx) is not None and self._recomputes(tx):
                key = rules.call_key(TRANSACTION, encode_params(TRANSACTION, [tx["hash"]]))
                rows.append(Row(key, number, block_hash, _body(tx), True))
        return rows

    def _recomputes(self, tx: Any) -> bool:
        """Tell whether a transaction's hash recomputes from its fields."""
        try:
            return encode_transaction(tx, self.chain_id).matches
        except (ValueError, TypeError, KeyError):
            return False

    def _place(self, block_hash: str, raw: Any) -> int | None:
        """Return a transaction's (or receipt's) index in its bound verified block, else None."""
        block = self._blocks.get(block_hash)
        if block is None or not block.transactions_bound or not isinstance(raw, dict):
            return None
        own = _hash_of(raw.get("hash") if "hash" in raw else raw.get("transactionHash"))
        index = raw.get("transactionIndex")
        try:
            position = int(index, 16) if isinstance(index, str) else -1
        except ValueError:
            return None
        if own is None or not 0 <= position < len(block.listed) or block.listed[position] != own:
            return None
        return position

    def _transaction_verifies(self, block_hash: str, body: bytes) -> bool:
        """Tell whether a transaction's hash recomputes and its verified block lists it."""
        raw = _result(body)
        return self._place(block_hash, raw) is not None and self._recomputes(raw)

    def _receipts_verified(self, where: rules.Placement, body: bytes) -> list[Row]:
        """Hold a receipt of a verified block; return all of them once their root recomputes."""
        block_hash = where.anchor.block_hash or ""
        position = self._place(block_hash, _result(body))
        block = self._blocks.get(block_hash)
        if position is None or block is None:
            return []
        block.receipts[position] = (where, body)
        if len(block.receipts) < len(block.listed):
            return []
        ordered = [block.receipts[i] for i in range(len(block.listed))]
        receipts = [_result(body) for _where, body in ordered]
        verdict = verify_block(block.raw, self.rules, receipts=receipts, between=give_way)
        receipts_bound = any(
            f.check is Check.RECEIPTS_ROOT and f.outcome is Outcome.VERIFIED
            for f in verdict.findings
        )
        block.receipts = {}
        if not verdict.verified or not receipts_bound:
            return []
        number = where.anchor.number
        return [Row(w.key, number, block_hash, b, canonical=True) for w, b in ordered]

    # --- taking: what another endpoint said, once this one serves the same block -------------

    async def answer(self, read: Read, ask: Ask, noted: SavedNote) -> Taken | None:
        """Return the answer to a read the shared file holds and this endpoint confirms, or None."""
        store = self.store
        if store is None:
            return None
        started = time.perf_counter()
        key, found = await self._found(store, read)
        if key is None or found is None or found.number is None or found.block_hash is None:
            return None
        result = await asyncio.to_thread(self._readable, found)
        if result is None or not await self.serves(found.number, found.block_hash, ask):
            return None
        noted(len(found.body), time.perf_counter() - started)
        return Taken(result, Row(key, found.number, found.block_hash, found.body, True))

    async def _found(self, store: ChainStore, read: Read) -> tuple[str | None, Anchored | None]:
        """Return the key and the shared answer to a read with its block (None, None: none)."""
        by_number = rules.block_by_number(read.method, read.params)
        if by_number is not None:
            found = await store.anchored_block_at(*by_number)
            key = None if found is None else rules.block_key(found.block_hash or "", by_number[1])
            return key, found
        key = rules.lookup_key(read.method, read.params, read.params_json)
        return (None, None) if key is None else (key, await store.anchored(key))

    def _readable(self, found: Anchored) -> Any:
        """Return a shared answer's result; a block's only when its hash recomputes again."""
        result = _result(found.body)
        if not isinstance(result, dict):
            return None
        if "parentHash" in result:
            same = _hash_of(result.get("hash")) == found.block_hash
            return result if same and verify_block(result, self.rules).verified else None
        return result

    async def serves(self, number: int, block_hash: str, ask: Ask) -> bool:
        """Tell whether this endpoint serves block_hash at number (one request per height)."""
        if number not in self._served:
            asking = self._asking.get(number)
            if asking is None:
                asking = asyncio.ensure_future(self._served_at(number, ask))
                self._asking[number] = asking
            try:
                self._served[number] = await asyncio.shield(asking)
            except RpcError:
                return False
            finally:
                self._asking.pop(number, None)
        return self._served[number] == block_hash

    async def _served_at(self, number: int, ask: Ask) -> str | None:
        """Ask this endpoint for the hash of its block at a height."""
        self.confirmations += 1
        answer = await ask("eth_getBlockByNumber", [hex(number), False])
        block = answer.result
        return _hash_of(block.get("hash")) if isinstance(block, dict) else None
