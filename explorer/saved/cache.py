"""A session's saved data: settled reads answered from the chain's file, the rest from the node.

Set as the client's `answers` (below the ChainReader and the log scanner, so every reader
benefits). It knows the chain once the chain check has passed and the genesis hash is read
(`cache_identity.py`); until then reads go to the node. What the node answers is kept when
the rules allow (`cache_rules.py`): at once when settled, or once the head has passed it by
N blocks (kept meanwhile in memory). Answers are watched for heights reported with another
hash than the one saved: a reorganisation drops everything from there on. Offline, reads are
answered from the file only: what is not saved fails with NotSaved.
"""

from __future__ import annotations

import asyncio
import enum
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from explorer.rpc.answers import SLICED_BYTES
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.envelope import parse_json
from explorer.rpc.errors import MalformedResponse, RpcError, TransportError
from explorer.rpc.node_answers import Ask, NodeAnswer
from explorer.rpc.sliced import parse_json_sliced
from explorer.saved import rules
from explorer.saved.directory import CacheDirectory
from explorer.saved.identity import genesis_hash
from explorer.saved.logs import LogCoverage
from explorer.saved.reorg import Reorganised, ReorgWatch
from explorer.saved.schema import Row
from explorer.saved.store import ChainIdentity, ChainStore

CHAIN_CHECK = ("eth_chainId", "net_version", "web3_clientVersion")  # offline, asked all the same
HEAD_NOTE_SECONDS = 10.0  # at most this often the endpoint's head is written down
UNDECIDED_KEEP = 512  # answers kept in memory until the head passes them by N blocks


class CacheMode(enum.Enum):
    """Where a session's reads are answered from."""

    WAITING = "waiting"  # the chain is not known yet: every read goes to the node
    ONLINE = "online"  # verified: settled reads come from the file first
    OFFLINE = "offline"  # the node cannot be reached: reads come from the file only
    OFF = "off"  # no saved data for this session


class NotSaved(TransportError):
    """Offline, and what was asked is not in the saved data."""


def saved_data_of(client: object) -> SessionCache | None:
    """Return the saved data a client answers from (for records), or None."""
    answers = getattr(client, "answers", None)
    return answers if isinstance(answers, SessionCache) else None


def rests_on(method: str, params: Sequence[Any], result: Any) -> int | None:
    """Return the height a saved answer rests on (named in the read, or in the answer)."""
    anchor = rules.request_anchor(method, params) or rules.answer_anchor(result)
    return anchor.number if anchor is not None else None


async def result_of_body(body: bytes) -> Any:
    """Return the `result` of a kept body (a big one decoded a slice per loop turn)."""
    value = await parse_json_sliced(body) if len(body) > SLICED_BYTES else parse_json(body)
    if not isinstance(value, dict) or "result" not in value:
        raise MalformedResponse("a saved answer has no result")
    return value["result"]


class SessionCache:
    """Answers one session's reads from its chain's saved data, and keeps what settles.

    Listeners: `mode_listeners` hear each change of mode; `reorg_listeners` each
    reorganisation that dropped saved data.
    """

    def __init__(
        self,
        client: RpcClient,
        directory: CacheDirectory,
        endpoint: Endpoint,
        confirmations: int = rules.DEFAULT_CONFIRMATIONS,
    ) -> None:
        self.client = client
        self.directory = directory
        self.endpoint = endpoint
        self.confirmations = confirmations
        self.mode = CacheMode.WAITING
        self.store: ChainStore | None = None
        self.head: int | None = None
        self.saved_at: float | None = None  # when the data of an offline session was saved
        self.saved_head: int | None = None
        self.served_chain_id: int | None = None  # offline: the chain the endpoint last served
        self.mode_listeners: list[Callable[[CacheMode], None]] = []
        self.reorgs = ReorgWatch(self)
        self.reorg_listeners: list[Callable[[Reorganised], None]] = self.reorgs.listeners
        self.logs = LogCoverage(self)
        self._genesis: asyncio.Future[str] | None = None
        self._opening: asyncio.Future[None] | None = None
        self._undecided: OrderedDict[str, tuple[rules.Placement, bytes]] = OrderedDict()
        self._settled_hashes: dict[str, int] = {}  # hash → height of settled blocks seen
        self._records_waiting: dict[tuple[str, str], tuple[Any, int]] = {}  # until N deep
        self._head_noted = -HEAD_NOTE_SECONDS  # when this endpoint's head was last noted
        self._noting: asyncio.Future[None] | None = None

    # --- which chain, online or offline ----------------------------------------------------

    async def _read_genesis(self, check: object | None) -> str:
        """Return the genesis hash (the check's, or block 0 read from the node)."""

        async def block_zero() -> Any:
            return (await self.client.ask("eth_getBlockByNumber", ["0x0", False])).result

        return await genesis_hash(check, block_zero)

    def go_online(self, chain_id: int, check: object | None = None) -> asyncio.Future[None]:
        """Use the chain's saved data now that the node is verified to serve chain_id."""
        if self.mode is CacheMode.ONLINE:
            return self._opening or _done()
        self._opening = asyncio.ensure_future(self._open_online(chain_id, check))
        return self._opening

    async def _open_online(self, chain_id: int, check: object | None) -> None:
        """Read the genesis hash, open the chain's store and remember the endpoint served it."""
        try:
            if self._genesis is None or (self._genesis.done() and self._genesis.exception()):
                self._genesis = asyncio.ensure_future(self._read_genesis(check))
            genesis = await asyncio.shield(self._genesis)
        except RpcError:
            self._set_mode(CacheMode.OFF, None)  # this session goes without saved data
            return
        identity = ChainIdentity(chain_id, genesis)
        self._set_mode(CacheMode.ONLINE, self.directory.store(identity))
        await self.directory.remember(self.endpoint, identity)
        if self.head is not None:  # a head the node gave before it was verified
            self._head_noted = time.monotonic()
            await self.directory.note_head(self.endpoint, self.head)

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
        store = self.directory.store(served.identity)
        state = await store.state()
        if state.saved_at is None:
            return False
        # this endpoint's own head and last answer: the file may hold another session's newer
        self.saved_at = served.answered if served.answered is not None else state.saved_at
        self.saved_head = served.head
        self._set_mode(CacheMode.OFFLINE, store)
        return True

    def go_off(self) -> None:
        """Stop using saved data (another chain, or the user turned it off)."""
        self._set_mode(CacheMode.OFF, None)

    def _set_mode(self, mode: CacheMode, store: ChainStore | None) -> None:
        """Switch mode and store, telling the listeners."""
        self.store = store
        if mode is not self.mode:
            self.mode = mode
            for listener in list(self.mode_listeners):
                listener(mode)

    @property
    def offline(self) -> bool:
        """Tell whether reads are answered from the saved data only."""
        return self.mode is CacheMode.OFFLINE

    @property
    def writable(self) -> bool:
        """Tell whether answers are being saved (online, with a store)."""
        return self.mode is CacheMode.ONLINE and self.store is not None

    @staticmethod
    def not_saved(method: str) -> NotSaved:
        """Return the error of an offline read that is not in the saved data."""
        return NotSaved(f"{method} is not in the saved data (the node cannot be reached)")

    result_of_body = staticmethod(result_of_body)

    async def usable(self) -> ChainStore | None:
        """Return the store to answer from, waiting for one being opened."""
        if self._opening is not None and not self._opening.done():
            await asyncio.shield(self._opening)
        return self.store if self.mode in (CacheMode.ONLINE, CacheMode.OFFLINE) else None

    # --- answering ----------------------------------------------------------------------------

    async def answer(self, method: str, params: Sequence[Any], params_json: str, ask: Ask) -> Any:
        """Return a read's result: from the saved data when it is there, else from the node."""
        if method == "eth_getLogs":
            return await self.logs.answer(params, params_json, ask)
        store = await self.usable() if method in rules.KEPT_METHODS else None
        if store is not None:
            started = time.perf_counter()
            body = await self._saved(store, method, params, params_json)
            if body is not None:
                try:
                    result = await result_of_body(body)
                except MalformedResponse:
                    result = None
                else:
                    if not self.reorgs.stale(rests_on(method, params, result)):
                        anchor = rules.answer_anchor(result)  # its block: known settled
                        if anchor is not None:
                            self.reorgs.note(anchor.number, anchor.block_hash)
                        seconds = time.perf_counter() - started
                        self.client.record_cached(method, params_json, len(body), seconds)
                        return result
        if self.offline and method not in CHAIN_CHECK:
            raise self.not_saved(method)  # no wait for a node known to be away
        fresh = await ask(method, params)
        self.observe(method, params, params_json, fresh)
        return fresh.result

    async def _saved(
        self, store: ChainStore, method: str, params: Sequence[Any], params_json: str
    ) -> bytes | None:
        """Return the kept body answering a read, or None."""
        by_number = rules.block_by_number(method, params)
        if by_number is not None:
            return await store.block_at(*by_number)
        key = rules.lookup_key(method, params, params_json)
        if key is None:
            return None
        return await store.get(key, rules.null_if(method, params))

    def observe(
        self, method: str, params: Sequence[Any], params_json: str, fresh: NodeAnswer
    ) -> None:
        """Learn from a node's answer: the head, a reorganisation, and what to keep."""
        result = fresh.result
        if method == "eth_blockNumber" and isinstance(result, str):
            self.note_head(int(result, 16) if result.startswith("0x") else None)
            return
        if method == "eth_getBlockByNumber" and params and params[0] == "latest":
            anchor = rules.answer_anchor(result)
            self.note_head(anchor.number if anchor else None)
        self.watch(result)
        where = rules.placement(method, params, params_json, result)
        if where is not None:
            self._keep(where, fresh.body)

    def note_head(self, number: int | None) -> None:
        """Record a head the node reported; keep what it has settled."""
        if number is None or (self.head is not None and number <= self.head):
            return
        self.head = number
        self._promote()
        self._note_endpoint()

    def _note_endpoint(self) -> None:
        """Note (at most every HEAD_NOTE_SECONDS) this endpoint's head and that it answered now.

        Offline, its pages count from that head and say "saved data from" that time: the
        chain's file may hold newer data another session (another profile's node) saved.
        """
        now, head = time.monotonic(), self.head
        if self.mode is not CacheMode.ONLINE or head is None:
            return
        if now - self._head_noted > HEAD_NOTE_SECONDS:
            self._head_noted = now
            self._noting = asyncio.ensure_future(self.directory.note_head(self.endpoint, head))

    def settled(self, number: int | None) -> bool:
        """Tell whether a height is N confirmations deep under the known head."""
        return rules.settled(number, self.head, self.confirmations)

    def _keep(self, where: rules.Placement, body: bytes) -> None:
        """Keep a settled answer now; hold an unsettled mined one until it settles."""
        anchor = where.anchor
        number = anchor.number
        if number is None and anchor.block_hash is not None:
            number = self._settled_hashes.get(anchor.block_hash)
        if self.settled(number):
            self._write(
                [(rules.Placement(where.key, rules.Anchor(number, anchor.block_hash)), body)]
            )
        elif anchor.number is not None:
            self._undecided[where.key] = (where, body)
            self._undecided.move_to_end(where.key)
            while len(self._undecided) > UNDECIDED_KEEP:
                self._undecided.popitem(last=False)

    def _promote(self) -> None:
        """Write the answers held in memory that the head has now settled."""
        ready = [
            (key, item)
            for key, item in self._undecided.items()
            if self.settled(item[0].anchor.number)
        ]
        for key, _item in ready:
            del self._undecided[key]
        self._write([item for _key, item in ready])
        for (kind, key), (value, number) in list(self._records_waiting.items()):
            if self.settled(number):
                del self._records_waiting[(kind, key)]
                self.keep_record(kind, key, value, number)

    def _write(self, items: Sequence[tuple[rules.Placement, bytes]]) -> None:
        """Queue settled answers for the file (when one is in use)."""
        rows = []
        for where, body in items:
            number, block_hash = where.anchor.number, where.anchor.block_hash
            if block_hash is not None and number is not None:
                self._settled_hashes[block_hash] = number
                self.reorgs.note(number, block_hash)
            rows.append(Row(where.key, number, block_hash, body, canonical=block_hash is not None))
        if rows and self.store is not None and self.writable:
            self.store.put(rows, self.head)
            self._note_endpoint()

    # --- reorganisations ----------------------------------------------------------------------

    def watch(self, result: Any) -> None:
        """Check the settled heights an answer reports for a reorganisation."""
        self.reorgs.watch(result)

    def forget_from(self, number: int) -> None:
        """Forget what this session holds in memory from a replaced height up."""
        for key in [
            k for k, (where, _b) in self._undecided.items() if (where.anchor.number or 0) >= number
        ]:
            del self._undecided[key]
        self._settled_hashes = {h: n for h, n in self._settled_hashes.items() if n < number}
        waiting = self._records_waiting.items()
        self._records_waiting = {k: item for k, item in waiting if item[1] < number}

    # --- derived records (other services' own, e.g. token metadata, address history) -------

    async def record(self, kind: str, key: str) -> Any:
        """Return a derived record kept for this chain (its JSON value), or None."""
        store = await self.usable()
        if store is None:
            return None
        body = await store.record(kind, key)
        try:
            return None if body is None else json.loads(body)
        except ValueError:
            return None

    def keep_record(self, kind: str, key: str, value: Any, number: int | None = None) -> None:
        """Keep a derived record resting on block `number` (None: on no block).

        A record resting on a block is written once that block is N deep (held in memory
        until then) and dropped with it in a reorganisation.
        """
        if number is not None and not self.settled(number):
            self._records_waiting[(kind, key)] = (value, number)
            return
        if self.store is not None and self.writable:
            self.store.put_record(kind, key, json.dumps(value).encode(), number)


async def _nothing() -> None:
    """Do nothing (an already finished future's coroutine)."""


def _done() -> asyncio.Future[None]:
    """Return a finished future."""
    return asyncio.ensure_future(_nothing())
