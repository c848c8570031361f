"""What the client hands back and reads about a node: answers, saved-data sources, a probe.

Kept apart from the client (rpc/client.py) so the probe's reading and its verdict stay small.
"""

from __future__ import annotations

import asyncio
import contextvars
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from explorer.rpc.errors import ChainMismatch, NodeError

if TYPE_CHECKING:
    from explorer.rpc.client import RpcClient

#: Set while a call must reach the node itself, never saved data (the probe).
TO_THE_NODE: contextvars.ContextVar[bool] = contextvars.ContextVar("to_the_node", default=False)


@dataclass(frozen=True)
class NodeAnswer:
    """A call's result and the whole body it came in (the JSON-RPC envelope, as sent)."""

    result: Any
    body: bytes


Ask = Callable[[str, Sequence[Any]], Awaitable[NodeAnswer]]
SavedNote = Callable[[int, float], None]  # a read answered from saved data: its bytes, seconds


@dataclass(frozen=True)
class Read:
    """A read on its way to the node: the method, its JSON params, and those params encoded."""

    method: str
    params: list[Any]
    params_json: str


class AnswerSource(Protocol):
    """What answers reads under the client before the node does: the saved data.

    The client hands it every resendable read (never one sent `TO_THE_NODE`) with `ask`, which
    sends a call to the node (alone, or in the batch being gathered), and `noted`, which it
    calls for a read it answered itself, so the client counts and lists it as answered from
    saved data. It may ask the node for part of a read only (a log range's holes).
    """

    async def answer(self, read: Read, ask: Ask, noted: SavedNote) -> Any:
        """Return a read's result: from what it keeps (telling noted), else through ask."""


@dataclass
class SharedCall:
    """A call in flight and the number of callers waiting for it."""

    task: asyncio.Future[NodeAnswer]
    waiters: int = 0


@dataclass(frozen=True)
class ProbeResult:
    """What a node says about itself: chain id, network id, client, genesis hash, latency.

    A chain is its chain id and its genesis block: genesis_hash is block 0's hash (lowercase
    0x hex; None when the node does not have or give block 0).
    """

    chain_id: int
    net_version: str
    client_version: str | None
    latency: float
    expected_chain_id: int | None
    genesis_hash: str | None = None
    expected_genesis: str | None = None  # the genesis the chosen network must have, if known
    net_version_asked: bool = True  # False: a lean probe (chain id and genesis hash alone)

    @property
    def ids_match(self) -> bool:
        """Tell whether chain id and network id (when asked) match the expected chain id."""
        expected = self.expected_chain_id
        network_id_fits = not self.net_version_asked or self.net_version.strip() == str(expected)
        return expected is None or (self.chain_id == expected and network_id_fits)

    @property
    def matches(self) -> bool:
        """Tell whether the ids match and the genesis block is the expected one (when known)."""
        expected = self.expected_genesis
        return self.ids_match and (expected is None or self.genesis_hash == expected)

    def mismatch(self) -> ChainMismatch | None:
        """Return the error to show when the node serves another chain, else None."""
        expected = self.expected_chain_id
        if self.matches or expected is None:
            return None
        if self.ids_match:
            return ChainMismatch(
                f"the node's genesis block is {self.genesis_hash or '(not given)'}, not "
                f"{self.expected_genesis}: another chain with chain id {expected}",
                expected=expected,
                actual=self.chain_id,
            )
        network = f" (network {self.net_version})" if self.net_version_asked else ""
        return ChainMismatch(
            f"the node serves chain {self.chain_id}{network}, not chain {expected}",
            expected=expected,
            actual=self.chain_id,
        )


def as_node_ask(ask: Callable[[str, Sequence[Any]], Awaitable[Any]]) -> Ask:
    """Wrap a batch's ask (result and envelope) so that the saved data gets a NodeAnswer."""

    async def asked(method: str, params: Sequence[Any]) -> NodeAnswer:
        answer = await ask(method, params)
        return answer if isinstance(answer, NodeAnswer) else NodeAnswer(*answer)

    return asked


async def probe_node(
    client: RpcClient,
    expected_chain_id: int | None,
    expected_genesis: str | None,
    *,
    lean: bool = False,
) -> ProbeResult:
    """Read the chain id, network id, client version and genesis block's hash at once.

    eth_chainId, net_version, web3_clientVersion and eth_getBlockByNumber("0x0", false) go out
    together: one round trip, to the node itself (never saved data). lean: eth_chainId and
    block 0 alone, what a chain is (the command line's reads: two requests of the quota).
    """
    started = time.perf_counter()
    direct = TO_THE_NODE.set(True)
    try:
        if lean:
            chain_id, genesis = await asyncio.gather(client.chain_id(), _genesis_if_told(client))
            net_version, client_version = "", None
        else:
            chain_id, net_version, client_version, genesis = await asyncio.gather(
                client.chain_id(),
                client.net_version(),
                _client_version_if_told(client),
                _genesis_if_told(client),
            )
    finally:
        TO_THE_NODE.reset(direct)
    latency = time.perf_counter() - started
    return ProbeResult(
        chain_id,
        net_version,
        client_version,
        latency,
        expected_chain_id,
        genesis,
        expected_genesis,
        net_version_asked=not lean,
    )


async def _genesis_if_told(client: RpcClient) -> str | None:
    """Return block 0's hash, or None for a node that does not give it."""
    try:
        block = await client.get_block_by_number(0, False)
    except NodeError:
        return None
    return None if block is None else block.hash


async def _client_version_if_told(client: RpcClient) -> str | None:
    """Return web3_clientVersion, or None for a node that refuses to say."""
    try:
        return await client.client_version()
    except NodeError:
        return None
