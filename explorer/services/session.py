"""One connection to one network: endpoint, client, reader, chain check and head follower."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass

import httpx

from explorer.rpc.client import ProbeResult, RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import RpcError
from explorer.services.chaincheck import RETRY_DELAYS, ChainCheck, ChainChecker
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.services.tokens import MULTICALL3

HeadListener = Callable[[int], None]
ErrorListener = Callable[[RpcError], None]


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
        check_delays: tuple[float, ...] = RETRY_DELAYS,
    ) -> None:
        self.network = network
        self.endpoint = endpoint
        self.client = RpcClient(endpoint, http=http)
        self.earlier_today = 0  # requests this key spent today before this session
        self.daily_quota = 0  # requests a day this key may spend (0: none known)
        self.extra_tokens: tuple[str, ...] = ()
        self.multicall = MULTICALL3
        self.reader = ChainReader(self.client)
        self.checker = ChainChecker(self._probe, network.chain_id, check_delays)
        self.client.failure_listeners.append(self.checker.on_failure)
        self.last_latency: float | None = None
        self._follower: asyncio.Task[None] | None = None

    @property
    def usage_id(self) -> str:
        """Return a stable id of the endpoint and key, safe to store (a hash, not the key)."""
        return hashlib.sha256(self.endpoint.url.encode()).hexdigest()[:16]

    @property
    def requests_today(self) -> int:
        """Return the requests spent on this key today (UTC), earlier sessions included."""
        return self.earlier_today + self.client.stats.today

    @property
    def check(self) -> ChainCheck:
        """Return the verdict on whether the node serves the network's chain."""
        return self.checker.check

    def verify(self) -> None:
        """Start the chain check unless it runs or has settled (pages and the shell call it)."""
        self.checker.start()

    async def _probe(self) -> ProbeResult:
        """Ask the node for its chain id, network id and client version."""
        probe = await self.client.probe(self.network.chain_id)
        self.last_latency = probe.latency
        return probe

    async def read_head(self) -> HeadEvent:
        """Ask the node for its head, timing the request."""
        started = time.perf_counter()
        number = await self.reader.latest_number()
        self.last_latency = time.perf_counter() - started
        return HeadEvent(number, self.last_latency)

    def follow_head(
        self, on_head: Callable[[HeadEvent], None], on_error: ErrorListener, interval: float = 5.0
    ) -> None:
        """Poll the head every interval seconds, reporting each new head or error."""
        self.stop_following()
        self._follower = asyncio.ensure_future(self._follow(on_head, on_error, interval))

    async def _follow(
        self, on_head: Callable[[HeadEvent], None], on_error: ErrorListener, interval: float
    ) -> None:
        """Poll for new heads; only a strictly newer head is reported (latest wins)."""
        newest = -1
        while True:
            try:
                event = await self.read_head()
            except RpcError as error:
                on_error(error)
            else:
                if event.number > newest:
                    newest = event.number
                    on_head(event)
            await asyncio.sleep(interval)

    def stop_following(self) -> None:
        """Stop the head follower, if any."""
        if self._follower is not None:
            self._follower.cancel()
            self._follower = None

    def stop(self) -> None:
        """Stop the chain check (its listeners hear nothing more) and the head follower."""
        self.checker.stop()
        self.stop_following()

    async def aclose(self) -> None:
        """Stop everything and close the client."""
        self.checker.stop()
        follower, self._follower = self._follower, None
        if follower is not None:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await follower
        await self.client.aclose()
