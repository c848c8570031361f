"""A session's saved data: settled reads answered from the chain's file, the rest from the node.

The services' door to the saved-data layer. A `SessionCache` is the `AnswerSource` under one
session's client (below the ChainReader and the log scanner, so every reader benefits). It
knows the chain once the chain check has passed and the genesis hash is read (`identity.py`);
until then reads go to the node. What the node answers is kept when the rules allow
(`rules.py`): at once when settled, or once the head has passed it by N blocks (kept meanwhile
in memory). Answers are watched for heights reported with another hash than the one saved: a
reorganisation drops everything from there on (`reorg.py`). Offline, reads are answered from
the file only: what is not saved fails with NotSaved. Services keep their own derived records
beside the answers through `records_of(client)` (`records.py`).
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import MalformedResponse, RpcError
from explorer.rpc.node_answers import Ask, NodeAnswer, Read, SavedNote
from explorer.rpc.wrappers import TypedCalls
from explorer.saved import rules
from explorer.saved.bodies import result_of_body
from explorer.saved.directory import CacheDirectory
from explorer.saved.guarded import FileUnavailable
from explorer.saved.identity import genesis_hash
from explorer.saved.log_ranges import log_read
from explorer.saved.logs import LogCoverage
from explorer.saved.records import DerivedRecords
from explorer.saved.reorg import Reorganised, ReorgWatch
from explorer.saved.schema import Row
from explorer.saved.sharing import SHARED_SCOPE, SharedData
from explorer.saved.state import CacheMode, NotSaved, SessionState
from explorer.saved.store import ChainIdentity, ChainStore

__all__ = ["CacheMode", "DerivedRecords", "NotSaved", "Reorganised", "SessionCache", "records_of"]

CHAIN_CHECK = ("eth_chainId", "net_version", "web3_clientVersion")  # offline, asked all the same
HEAD_NOTE_SECONDS = 10.0  # at most this often the endpoint's head is written down
UNDECIDED_KEEP = 512  # answers kept in memory until the head passes them by N blocks


def records_of(client: TypedCalls) -> DerivedRecords | None:
    """Return the derived records of the saved data a client answers from, or None."""
    answers = client.answers if isinstance(client, RpcClient) else None
    return answers.records if isinstance(answers, SessionCache) else None


def rests_on(method: str, params: Sequence[Any], result: Any) -> int | None:
    """Return the height a saved answer rests on (named in the read, or in the answer)."""
    anchor = rules.request_anchor(method, params) or rules.answer_anchor(result)
    return anchor.number if anchor is not None else None


class SessionCache:
    """Answers one session's reads from its chain's saved data, and keeps what settles.

    ask sends a call to the node (the genesis read); listeners: `mode_listeners` hear each
    change of mode, `reorg_listeners` each reorganisation that dropped saved data.
    """

    def __init__(
        self,
        ask: Ask,
        directory: CacheDirectory,
        endpoint: Endpoint,
        confirmations: int = rules.DEFAULT_CONFIRMATIONS,
    ) -> None:
        self.ask = ask
        self.directory = directory
        self.endpoint = endpoint
        self.state = SessionState(confirmations)
        self.saved_at: float | None = None  # when the data of an offline session was saved
        self.saved_head: int | None = None
        self.served_chain_id: int | None = None  # offline: the chain the endpoint last served
        self.mode_listeners = self.state.mode_listeners
        self.reorgs = ReorgWatch(self.state, self.forget_from)
        self.reorg_listeners: list[Callable[[Reorganised], None]] = self.reorgs.listeners
        self.logs = LogCoverage(self.state, self.reorgs)
        self.records = DerivedRecords(self.state)
        self.shared = SharedData()  # the chain's verified data, shared by its endpoints
        self._genesis: asyncio.Future[str] | None = None
        self._undecided: OrderedDict[str, tuple[rules.Placement, bytes]] = OrderedDict()
        self._settled_hashes: dict[str, int] = {}  # hash → height of settled blocks seen
        self._head_noted = -HEAD_NOTE_SECONDS  # when this endpoint's head was last noted
        self._noting: asyncio.Future[None] | None = None

    @property
    def mode(self) -> CacheMode:
        """Return where reads are answered from."""
        return self.state.mode

    @property
    def store(self) -> ChainStore | None:
        """Return the chain's store in use, if any."""
        return self.state.store

    @property
    def offline(self) -> bool:
        """Tell whether reads are answered from the saved data only."""
        return self.state.offline

    @property
    def writable(self) -> bool:
        """Tell whether answers are being saved (online, with a store)."""
        return self.state.writable

    async def usable(self) -> ChainStore | None:
        """Return the store to answer from, waiting for one being opened."""
        return await self.state.usable()

    # --- which chain, online or offline ----------------------------------------------------

    def go_online(self, chain_id: int, genesis: str | None = None) -> asyncio.Future[None]:
        """Use the chain's saved data now that the node is verified to serve chain_id.

        genesis is the genesis hash the chain check read beside it; without it, block 0 is
        read once.
        """
        state = self.state
        if state.mode is CacheMode.ONLINE and state.opening is not None:
            return state.opening
        state.opening = asyncio.ensure_future(self._open_online(chain_id, genesis))
        return state.opening

    async def _open_online(self, chain_id: int, carried: str | None) -> None:
        """Read the genesis hash, open the chain's store and remember the endpoint served it."""

        async def block_zero() -> Any:
            return (await self.ask("eth_getBlockByNumber", ["0x0", False])).result

        try:
            if self._genesis is None or (self._genesis.done() and self._genesis.exception()):
                self._genesis = asyncio.ensure_future(genesis_hash(carried, block_zero))
            genesis = await asyncio.shield(self._genesis)
        except RpcError:
            self.state.set_mode(CacheMode.OFF, None)  # this session goes without saved data
            return
        identity = ChainIdentity(chain_id, genesis)
        store = await self._own_store(identity)
        if store is None:
            self.state.set_mode(CacheMode.OFF, None)  # never another endpoint's file instead
            return
        self.shared.use(self.directory.store(identity, SHARED_SCOPE), chain_id, genesis)
        self.state.set_mode(CacheMode.ONLINE, store)
        await self.directory.remember(self.endpoint, identity)
        if self.state.head is not None:  # a head the node gave before it was verified
            self._head_noted = time.monotonic()
            await self.directory.note_head(self.endpoint, self.state.head)

    async def _own_store(self, identity: ChainIdentity) -> ChainStore | None:
        """Return this endpoint's store of a chain (what it said alone), None if unknowable."""
        try:
            scope = await self.directory.endpoint_scope(self.endpoint)
        except (OSError, sqlite3.Error, FileUnavailable):
            return None
        return self.directory.store(identity, scope)

    async def go_offline(self, expected_chain_id: int | None) -> bool:
        """Answer from the saved data of the chain this endpoint last served, if it is expected's.

        Return whether there is any; the endpoint's memory decides which chain, so another
        chain's data is never answered for this one (None: whatever chain it served).
        """
        served = await self.directory.served(self.endpoint)
        if served is None:
            return False
        if expected_chain_id is not None and served.identity.chain_id != expected_chain_id:
            return False
        self.served_chain_id = served.identity.chain_id
        store = await self._own_store(served.identity)
        if store is None:
            return False
        saved = await store.state()
        if saved.saved_at is None:
            return False
        # this endpoint's own head and last answer, else what its file says
        self.saved_at = served.answered if served.answered is not None else saved.saved_at
        self.saved_head = served.head if served.head is not None else saved.head
        self.state.set_mode(CacheMode.OFFLINE, store)
        return True

    def go_off(self) -> None:
        """Stop using saved data (another chain, or the user turned it off)."""
        self.shared.store = None
        self.state.set_mode(CacheMode.OFF, None)

    async def settle(self) -> None:
        """Wait until what was offered to the shared data is verified and queued (closing)."""
        await self.shared.offered()

    # --- answering ----------------------------------------------------------------------------

    async def answer(self, read: Read, ask: Ask, noted: SavedNote) -> Any:
        """Return a read's result: from the saved data when it is there, else from the node."""
        method, params = read.method, read.params
        logs = log_read(params) if method == "eth_getLogs" else None
        kept = method in rules.KEPT_METHODS or logs is not None
        store = await self.state.usable() if kept else None
        if store is not None and logs is not None:
            return await self.logs.answer(store, logs, ask, noted)
        if store is not None:
            found, result = await self._from_file(store, read, noted)
            if found:
                return result
            if self.state.mode is CacheMode.ONLINE:
                taken = await self.shared.answer(read, ask, noted)
                if taken is not None and not self.reorgs.stale(taken.row.number):
                    self.reorgs.note(taken.row.number, taken.row.block_hash)
                    store.put([taken.row], self.state.head)  # this endpoint served it too
                    return taken.result
        if self.state.offline and method not in CHAIN_CHECK:
            raise NotSaved.of(method)  # no wait for a node known to be away
        fresh = await ask(method, params)
        self.observe(read, fresh)
        return fresh.result

    async def _from_file(self, store: ChainStore, read: Read, noted: SavedNote) -> tuple[bool, Any]:
        """Return (True, result) for a read the file answers (null included), else (False, None)."""
        started = time.perf_counter()
        body = await self._saved(store, read)
        if body is None:
            return False, None
        try:
            result = await result_of_body(body)
        except MalformedResponse:
            return False, None
        if self.reorgs.stale(rests_on(read.method, read.params, result)):
            return False, None
        anchor = rules.answer_anchor(result)  # its block: known settled
        if anchor is not None:
            self.reorgs.note(anchor.number, anchor.block_hash)
        noted(len(body), time.perf_counter() - started)
        return True, result

    async def _saved(self, store: ChainStore, read: Read) -> bytes | None:
        """Return the kept body answering a read, or None."""
        by_number = rules.block_by_number(read.method, read.params)
        if by_number is not None:
            return await store.block_at(*by_number)
        key = rules.lookup_key(read.method, read.params, read.params_json)
        if key is None:
            return None
        return await store.get(key, rules.null_if(read.method, read.params))

    def observe(self, read: Read, fresh: NodeAnswer) -> None:
        """Learn from a node's answer: the head, a reorganisation, and what to keep."""
        method, params, result = read.method, read.params, fresh.result
        if method == "eth_blockNumber" and isinstance(result, str):
            self.note_head(int(result, 16) if result.startswith("0x") else None)
            return
        if method == "eth_getBlockByNumber" and params and params[0] == "latest":
            anchor = rules.answer_anchor(result)
            self.note_head(anchor.number if anchor else None)
        self.reorgs.watch(result)
        where = rules.placement(method, params, read.params_json, result)
        if where is not None:
            self._keep(where, fresh.body)

    def note_head(self, number: int | None) -> None:
        """Record a head the node reported; keep what it has settled."""
        if self.state.advance(number):
            self._promote()
            self._note_endpoint()

    def _note_endpoint(self) -> None:
        """Note (at most every HEAD_NOTE_SECONDS) this endpoint's head and that it answered now.

        Offline, its pages count from that head and say "saved data from" that time, not
        whatever another session of the endpoint (a command line, another profile) saved last.
        """
        now, head = time.monotonic(), self.state.head
        if self.state.mode is not CacheMode.ONLINE or head is None:
            return
        if now - self._head_noted > HEAD_NOTE_SECONDS:
            self._head_noted = now
            self._noting = asyncio.ensure_future(self.directory.note_head(self.endpoint, head))

    def _keep(self, where: rules.Placement, body: bytes) -> None:
        """Keep a settled answer now; hold an unsettled mined one until it settles."""
        anchor = where.anchor
        number = anchor.number
        if number is None and anchor.block_hash is not None:
            number = self._settled_hashes.get(anchor.block_hash)
        if self.state.settled(number):
            self._write(
                [(rules.Placement(where.key, rules.Anchor(number, anchor.block_hash)), body)]
            )
        elif anchor.number is not None:
            self._undecided[where.key] = (where, body)
            self._undecided.move_to_end(where.key)
            while len(self._undecided) > UNDECIDED_KEEP:
                self._undecided.popitem(last=False)

    def _promote(self) -> None:
        """Write the answers and records held in memory that the head has now settled."""
        settled = self.state.settled
        ready = [(k, item) for k, item in self._undecided.items() if settled(item[0].anchor.number)]
        for key, _item in ready:
            del self._undecided[key]
        self._write([item for _key, item in ready])
        self.records.promote()

    def _write(self, items: Sequence[tuple[rules.Placement, bytes]]) -> None:
        """Queue settled answers for the file (when one is in use)."""
        rows = []
        for where, body in items:
            number, block_hash = where.anchor.number, where.anchor.block_hash
            if block_hash is not None and number is not None:
                self._settled_hashes[block_hash] = number
                self.reorgs.note(number, block_hash)
            rows.append(Row(where.key, number, block_hash, body, canonical=block_hash is not None))
        store = self.state.store
        if rows and store is not None and self.state.writable:
            store.put(rows, self.state.head)
            self.shared.offer(items)
            self._note_endpoint()

    def forget_from(self, number: int) -> None:
        """Forget what this session holds in memory from a replaced height up."""
        for key in [
            k for k, (where, _b) in self._undecided.items() if (where.anchor.number or 0) >= number
        ]:
            del self._undecided[key]
        self._settled_hashes = {h: n for h, n in self._settled_hashes.items() if n < number}
        self.shared.forget_from(number)
        self.records.forget_from(number)
