"""What a node says about itself: identity, software, head, gas price, accounts, latency."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from explorer.rpc.endpoint import Endpoint, UrlForm
from explorer.rpc.errors import RpcError
from explorer.rpc.wrappers import TypedCalls
from explorer.services.networks import Network, NetworkKind

T = TypeVar("T")

HOSTED_DAILY_QUOTA = 25_000  # the public Rootstock RPC API's requests per key per day


@dataclass(frozen=True)
class Answer(Generic[T]):
    """One method's answer or its error, and how long the round trip took."""

    method: str
    value: T | None
    error: RpcError | None
    seconds: float

    @property
    def ok(self) -> bool:
        """Tell whether the node answered."""
        return self.error is None


@dataclass(frozen=True)
class ClientVersion:
    """`web3_clientVersion` in parts: RskJ / 6.2.0 / Linux / Java1.8 / ARROWHEAD-45eb751."""

    raw: str
    client: str
    version: str
    platform: str
    runtime: str
    build: str

    @classmethod
    def parse(cls, raw: str) -> ClientVersion:
        """Split a `client/version/platform/runtime/build` string (missing parts are '')."""
        parts = [part.strip() for part in raw.split("/")]
        parts += [""] * (5 - len(parts))
        build = "/".join(parts[4:]).strip("/")
        return cls(raw, parts[0], parts[1].removeprefix("v"), parts[2], parts[3], build)


@dataclass(frozen=True)
class NodeFacts:
    """Everything the node page and `explorer node` show."""

    network: Network
    endpoint: str  # redacted
    url_form: UrlForm
    chain_id: Answer[int]
    net_version: Answer[str]
    client_version: Answer[str]
    protocol_version: Answer[str]
    gas_price: Answer[int]
    head: Answer[int]
    accounts: Answer[list[str]]
    requests_today: int
    daily_quota: int  # 0: none known

    @property
    def answers(self) -> tuple[Answer[Any], ...]:
        """Return every method's answer, in the order they are shown."""
        return (
            self.chain_id,
            self.net_version,
            self.client_version,
            self.protocol_version,
            self.gas_price,
            self.head,
            self.accounts,
        )

    @property
    def ids_agree(self) -> bool | None:
        """Tell whether eth_chainId and net_version name the same chain (None: unknown)."""
        if self.chain_id.value is None or self.net_version.value is None:
            return None
        return str(self.chain_id.value) == self.net_version.value.strip()

    @property
    def serves_network(self) -> bool | None:
        """Tell whether the node serves the chosen network's chain (None: unknown)."""
        if self.chain_id.value is None:
            return None
        return self.chain_id.value == self.network.chain_id and self.ids_agree is not False

    @property
    def client(self) -> ClientVersion | None:
        """Return the parsed client version, when the node sent one."""
        raw = self.client_version.value
        return None if raw is None else ClientVersion.parse(raw)

    @property
    def latencies(self) -> list[float]:
        """Return the round trips of the answered requests, fastest first."""
        return sorted(answer.seconds for answer in self.answers if answer.ok)

    def raw(self) -> dict[str, Any]:
        """Return the answers as JSON-ready data (the page's raw JSON)."""
        return {
            answer.method: answer.value if answer.ok else {"error": str(answer.error)}
            for answer in self.answers
        }


async def _timed(method: str, call: Awaitable[T]) -> Answer[T]:
    """Await one call, timing it and keeping its error."""
    started = time.perf_counter()
    try:
        value = await call
    except RpcError as error:
        return Answer(method, None, error, time.perf_counter() - started)
    return Answer(method, value, None, time.perf_counter() - started)


async def read_node_facts(
    client: TypedCalls,
    network: Network,
    endpoint: Endpoint,
    requests_today: int = 0,
    daily_quota: int = 0,
) -> NodeFacts:
    """Ask the node the seven questions about itself at once (seven requests)."""
    identity = asyncio.gather(
        _timed("eth_chainId", client.chain_id()),
        _timed("net_version", client.net_version()),
        _timed("web3_clientVersion", client.client_version()),
        _timed("eth_protocolVersion", client.protocol_version()),
    )
    state = asyncio.gather(
        _timed("eth_gasPrice", client.gas_price()),
        _timed("eth_blockNumber", client.block_number()),
        _timed("eth_accounts", client.accounts()),
    )
    (
        (chain_id, net_version, client_version, protocol_version),
        (gas_price, head, accounts),
    ) = await asyncio.gather(identity, state)
    return NodeFacts(
        network=network,
        endpoint=endpoint.redacted,
        url_form=endpoint.url_form,
        chain_id=chain_id,
        net_version=net_version,
        client_version=client_version,
        protocol_version=protocol_version,
        gas_price=gas_price,
        head=head,
        accounts=accounts,
        requests_today=requests_today,
        daily_quota=daily_quota,
    )


def default_daily_quota(network: Network, endpoint: Endpoint) -> int:
    """Return the daily quota a key has by default: the hosted service's, else none (0)."""
    hosted = network.kind is NetworkKind.HOSTED and endpoint.api_key is not None
    return HOSTED_DAILY_QUOTA if hosted else 0
