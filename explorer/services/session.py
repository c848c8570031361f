"""One connection to one network: endpoint, client, reader, chain check and head follower."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace

import httpx

from explorer.rpc.calltime import DEFAULT_CALL_TIMEOUT
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RpcError, TransportError
from explorer.rpc.journal import RequestJournal
from explorer.rpc.node_answers import ProbeResult
from explorer.rpc.retry import Attempt, RetryPolicy
from explorer.rpc.transport import DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT
from explorer.saved.cache import CacheMode, Reorganised, SessionCache
from explorer.saved.directory import CacheDirectory
from explorer.services.chaincheck import RETRY_DELAYS, ChainCheck, ChainChecker, Verification
from explorer.services.chainwatch import ChainWatch
from explorer.services.genesis import GenesisBook
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.services.verification import Verifier

HeadListener = Callable[[int], None]
OFFLINE_KINDS = (ErrorKind.TRANSPORT, ErrorKind.SERVER)  # the node cannot be reached
ErrorListener = Callable[[RpcError], None]


@dataclass(frozen=True)
class WaitBudget:
    """How long the app waits for a node before it says so, and before it gives up."""

    connect_timeout: float = DEFAULT_CONNECT_TIMEOUT  # per request, to connect
    read_timeout: float = DEFAULT_TIMEOUT  # per request, between bytes of the answer
    call_timeout: float = DEFAULT_CALL_TIMEOUT  # per call, every retry included (Settings)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    page_deadline: float = 45.0  # a page's whole load, retries included
    check_deadline: float = 20.0  # one try of the chain check, retries included
    check_delays: tuple[float, ...] = RETRY_DELAYS  # between tries of the chain check
    slow_after: float = 2.0  # a screen says what it waits for after this many seconds


DEFAULT_BUDGET = WaitBudget()


@dataclass(frozen=True)
class HeadEvent:
    """A head number read from the node, with how long the read took."""

    number: int
    latency: float


class Session:
    """Everything needed to read one network; close it when switching networks."""

    def __init__(
        self,
        network: Network,
        endpoint: Endpoint,
        http: httpx.AsyncClient | None = None,
        check_delays: tuple[float, ...] | None = None,
        budget: WaitBudget | None = None,
        genesis: GenesisBook | None = None,
        saved: CacheDirectory | None = None,
        journal: RequestJournal | None = None,
    ) -> None:
        """Read network through endpoint (over http when given) within budget.

        genesis says which genesis block the node must have (and remembers the first one
        seen); without it, the public chains' are known and others are pinned for the session.
        With saved, settled answers are kept in and read from the chain's saved data.
        """
        self.network = network
        self.endpoint = endpoint
        self.budget = budget or DEFAULT_BUDGET
        self.client = RpcClient(
            endpoint,
            http=http,
            retry=self.budget.retry,
            timeout=self.budget.read_timeout,
            connect_timeout=self.budget.connect_timeout,
            call_timeout=self.budget.call_timeout,
            journal=journal,
        )
        self.earlier_today = 0  # requests this key spent today before this session
        self.daily_quota = 0  # requests a day this key may spend (0: none known)
        self.extra_tokens: tuple[str, ...] = ()
        self.cache: SessionCache | None = None
        confirmations = saved.confirmations(network.id) if saved is not None else None
        self.reader = ChainReader(self.client, confirmations)
        delays = check_delays or self.budget.check_delays
        book = genesis or GenesisBook()
        expected = book.expected(network, endpoint)
        self.checker = ChainChecker(
            self._probe,
            network.chain_id,
            delays,
            genesis=expected.hash,
            genesis_known=expected.known,
            on_pin=lambda found: book.remember(network, expected, found),
        )
        self.client.failure_listeners.append(self.checker.on_failure)
        self.reader.suspect = self.checker.suspect  # a settled block that changed
        self.reader.verifier = Verifier(network.chain_id, self._verified_genesis)
        self.checker.listen(self._on_suspicion)
        if saved is not None:
            self.cache = SessionCache(self.client.ask, saved, endpoint, self.reader.confirmations)
            self.client.answers = self.cache
            self.cache.mode_listeners.append(self._on_cache_mode)
            self.cache.reorg_listeners.append(lambda _event: self.reader.forget())
            self.checker.listen(self._on_check_for_cache)
        self.watch = ChainWatch(self.reader, self.checker, self.cache)
        self.checker.listen(lambda check: self.watch.verified() if check.verified else None)
        self._offline_task: asyncio.Task[bool] | None = None
        self.last_latency: float | None = None
        self._follower: asyncio.Task[None] | None = None
        self._wake_follower: asyncio.Event | None = None

    def _verified_genesis(self) -> str | None:
        """Return block 0's hash once the chain check verified it, else the network's known one."""
        check = self.checker.check
        return check.genesis_hash if check.verified else self.network.genesis_hash

    def set_call_timeout(self, seconds: float) -> None:
        """Give up on each later call after seconds, retries included (the Settings choice)."""
        self.budget = replace(self.budget, call_timeout=seconds)
        self.client.call_timeout = seconds

    @property
    def multicall(self) -> str:
        """Return where Multicall3 is on this network (the devnet's differs)."""
        return self.reader.token_units.multicall

    @multicall.setter
    def multicall(self, address: str) -> None:
        """Say where Multicall3 is on this network."""
        self.reader.token_units.multicall = address

    @property
    def usage_id(self) -> str:
        """Return a stable id of the endpoint and key (a hash; files keep it salted again)."""
        return hashlib.sha256(self.endpoint.url.encode()).hexdigest()[:16]

    @property
    def requests_today(self) -> int:
        """Return the requests spent on this key today (UTC), earlier sessions included."""
        return self.earlier_today + self.client.stats.today

    @property
    def offline(self) -> bool:
        """Tell whether the node cannot be reached and pages are read from the saved data."""
        return self.cache is not None and self.cache.offline

    @property
    def readable(self) -> bool:
        """Tell whether pages may be read: the chain is verified, or saved data stands in."""
        return self.check.verified or self.offline

    def listen_saved(
        self, on_mode: Callable[[CacheMode], None], on_reorganised: Callable[[Reorganised], None]
    ) -> Callable[[], None]:
        """Hear the saved data's mode changes and reorganisations; return a function to stop."""
        cache = self.cache
        if cache is None:
            return lambda: None
        cache.mode_listeners.append(on_mode)
        cache.reorg_listeners.append(on_reorganised)

        def stop() -> None:
            for listeners, listener in (
                (cache.mode_listeners, on_mode),
                (cache.reorg_listeners, on_reorganised),
            ):
                if listener in listeners:
                    listeners.remove(listener)  # type: ignore[arg-type]

        return stop

    def _on_check_for_cache(self, check: ChainCheck) -> None:
        """Follow the chain check with the saved data: online, offline or none."""
        cache = self.cache
        if cache is None:
            return
        state = check.verification
        if state is Verification.VERIFIED and check.chain_id is not None:
            cache.go_online(check.chain_id, check.genesis_hash)
        elif state is Verification.MISMATCH:
            cache.go_off()
        elif state is Verification.UNREACHABLE and self._may_go_offline(check):
            self._offline_task = asyncio.ensure_future(self._go_offline())

    def _may_go_offline(self, check: ChainCheck) -> bool:
        """Tell whether an unreachable node calls for the saved data (not tried yet)."""
        cache = self.cache
        return (
            cache is not None
            and check.error_kind in OFFLINE_KINDS
            and cache.mode is not CacheMode.OFFLINE
            and self._offline_task is None
        )

    async def _go_offline(self) -> bool:
        """Answer from the saved data while the node cannot be reached (when there is any)."""
        try:
            if self.cache is None or self.check.verified:
                return False
            return await self.cache.go_offline(self.network.chain_id)
        finally:
            self._offline_task = None

    def _on_cache_mode(self, mode: CacheMode) -> None:
        """Offline, the head is the saved one: pages show what they showed then."""
        if mode is CacheMode.OFFLINE and self.cache is not None:
            self.reader.head = self.cache.saved_head

    @property
    def check(self) -> ChainCheck:
        """Return the verdict on whether the node serves the network's chain."""
        return self.checker.check

    def verify(self) -> None:
        """Start the chain check unless it runs or has settled (pages and the shell call it)."""
        self.checker.start()

    def longest_wait(self) -> Attempt | None:
        """Return the request waiting longest for the node, if one is being sent."""
        return self.client.longest_wait()

    @contextlib.asynccontextmanager
    async def deadline(self, seconds: float) -> AsyncIterator[None]:
        """Give up on the block after seconds (RateLimited: while the node asked for a pause)."""
        try:
            async with asyncio.timeout(seconds):
                yield
        except TimeoutError:
            if (left := self.client.pause.left()) > 0:  # waiting out the pause the node asked
                raise self.client.pause.error(left) from None
            raise TransportError(
                f"{self.endpoint.host} did not answer within {seconds:g} s"
            ) from None

    def _on_suspicion(self, check: ChainCheck) -> None:
        """Forget the head while the chain is checked again for a reason (it may be another's)."""
        if check.reason:
            self.reader.forget_head()

    async def reverify(self, reason: str) -> bool:
        """Check the chain again before something odd is shown; tell whether it still is ours."""
        self.checker.suspect(reason)
        return (await self.settled_check()).verified

    async def settled_check(self) -> ChainCheck:
        """Start the chain check and wait until the node has answered it (either way)."""
        if not self.check.settled:
            settled: asyncio.Future[ChainCheck] = asyncio.get_running_loop().create_future()

            def on_check(check: ChainCheck) -> None:
                if check.settled and not settled.done():
                    settled.set_result(check)

            stop = self.checker.listen(on_check)
            try:
                self.verify()
                await settled
            finally:
                stop()
        return self.check

    async def _probe(self) -> ProbeResult:
        """Ask the node for its chain id, network id and client version (within the budget)."""
        async with self.deadline(self.budget.check_deadline):
            probe = await self.client.probe(self.network.chain_id)
        self.last_latency = probe.latency  # (a key echoed in its words is gone: the client)
        return probe

    async def read_head(self) -> HeadEvent:
        """Ask the node for its head (and, when due, its chain id: chainwatch.py), timing it."""
        started = time.perf_counter()
        number = await self.watch.poll()
        self.last_latency = time.perf_counter() - started
        return HeadEvent(number, self.last_latency)

    def follow_head(
        self, on_head: Callable[[HeadEvent], None], on_error: ErrorListener, interval: float = 5.0
    ) -> None:
        """Poll the head every interval seconds, reporting each new head or error."""
        self.stop_following()
        self._wake_follower = asyncio.Event()
        self._follower = asyncio.ensure_future(
            self._follow(on_head, on_error, interval, self._wake_follower)
        )

    def refresh_head(self) -> None:
        """Read the head now rather than at the next poll (after a Retry)."""
        if self._wake_follower is not None:
            self._wake_follower.set()

    async def _follow(
        self,
        on_head: Callable[[HeadEvent], None],
        on_error: ErrorListener,
        interval: float,
        wake: asyncio.Event,
    ) -> None:
        """Poll for heads and report each newer one (latest wins).

        The first head read after a failed read is reported too, so that the failure can be
        forgotten even when the head did not move.
        """
        newest = -1
        failing = False
        while True:
            try:
                event = await self.read_head()
            except RpcError as error:
                failing = True
                on_error(error)
            else:
                if event.number > newest or failing:
                    newest, failing = max(newest, event.number), False
                    on_head(event)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), interval)
            wake.clear()

    def stop_following(self) -> None:
        """Stop the head follower, if any."""
        if self._follower is not None:
            self._follower.cancel()
            self._follower = None
        self._wake_follower = None

    def stop(self) -> None:
        """Stop the chain check (its listeners hear nothing more), the head follower, the watch."""
        self.checker.stop()
        self.watch.stop()
        self.stop_following()

    async def aclose(self) -> None:
        """Stop everything and close the client."""
        self.checker.stop()
        self.watch.stop()
        follower, self._follower = self._follower, None
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
        if self.cache is not None:
            await self.cache.settle()
        await self.client.aclose()
