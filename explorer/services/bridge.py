"""Read the Bridge: its read methods with eth_call, all in one round trip, at one block.

A read the node refuses because this network's upgrades lack the method is "not on this
network": rskj answers such a call with empty data (its precompile fails), another node may
answer with an execution error; neither is a failure of the page.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eth_abi.abi import decode, encode
from eth_abi.exceptions import DecodingError

from explorer.chain.bridge_abi import bridge_function, bridge_outputs
from explorer.chain.bridge_events import DecodedBridgeLog
from explorer.chain.bridge_logs import decode_bridge_log
from explorer.chain.known import BRIDGE
from explorer.chain.logrecords import Log
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.params import BlockSelector, CallRequest
from explorer.services.reader import ChainReader

#: What the Bridge page reads, in the order it shows them.
PAGE_READS = (
    "getFederationAddress",
    "getFederationSize",
    "getFederationThreshold",
    "getRetiringFederationAddress",
    "getProposedFederationAddress",
    "getLockingCap",
    "getMinimumLockTxValue",
    "getFeePerKb",
    "getBtcBlockchainBestChainHeight",
    "getQueuedPegoutsCount",
    "getNextPegoutCreationBlockNumber",
    "getEstimatedFeesForNextPegOutEvent",
)
REFUSED_KINDS = (ErrorKind.NODE,)  # an execution error (a revert) is the node saying no


@dataclass(frozen=True)
class Found:
    """A Bridge log and what it decodes to."""

    log: Log
    decoded: DecodedBridgeLog

    @property
    def block(self) -> int:
        """Return the log's block number."""
        return self.log.block_number or 0


def decoded_logs(logs: Sequence[Log]) -> list[Found]:
    """Return the Bridge's logs among logs, decoded (the undecodable left out)."""
    found = []
    for log in logs:
        decoded = decode_bridge_log(log.topics, log.data) if log.address == BRIDGE else None
        if decoded is not None:
            found.append(Found(log, decoded))
    return found


@dataclass(frozen=True)
class BridgeRead:
    """One read's answer: its value, or that this network does not have the method."""

    name: str
    value: Any = None
    refused: bool = False
    detail: str = ""  # why it counts as refused (the node's words), for a tooltip


@dataclass(frozen=True)
class BridgeOverview:
    """The Bridge at one block: every page read and its RBTC balance."""

    block: BlockSelector
    reads: dict[str, BridgeRead]
    balance: int


def call_data(name: str, *args: Any) -> bytes:
    """Return the input of a call to a Bridge method."""
    function = bridge_function(name)
    return function.key + encode([p.type for p in function.params], list(args))


def decode_output(name: str, output: bytes) -> BridgeRead:
    """Return a read's value; empty or undecodable data is a refusal (rskj's empty answer)."""
    if not output:
        return BridgeRead(name, refused=True, detail="the node answered with no data")
    try:
        (value,) = decode(list(bridge_outputs(name)), output)
    except (DecodingError, ValueError, OverflowError) as error:
        return BridgeRead(name, refused=True, detail=f"undecodable answer: {error}")
    return BridgeRead(name, value)


async def read_method(
    reader: ChainReader, name: str, *args: Any, block: BlockSelector = "latest"
) -> BridgeRead:
    """Call one read method of the Bridge; a refusal is a BridgeRead, a failure raises."""
    request = CallRequest(to=BRIDGE, data=call_data(name, *args))
    try:
        output = await reader.client.eth_call(request, block)
    except RpcError as error:
        if error.kind not in REFUSED_KINDS:
            raise
        return BridgeRead(name, refused=True, detail=error.message)
    return decode_output(name, output)


async def read_bridge(reader: ChainReader, block: BlockSelector | None = None) -> BridgeOverview:
    """Read everything the Bridge page shows at once, at one block (the known head)."""
    at: BlockSelector = block if block is not None else (reader.head or "latest")
    reads, balance = await asyncio.gather(
        asyncio.gather(*(read_method(reader, name, block=at) for name in PAGE_READS)),
        reader.client.get_balance(BRIDGE, at),
    )
    return BridgeOverview(at, {read.name: read for read in reads}, balance)
