"""The reads a trace needs: a node's own trace, and a replay's state at block N−1, batched.

A replay's needs (vm/lazy.py) become the service's own methods at N−1 (`eth_getBalance`,
`eth_getTransactionCount`, `eth_getCode`, `eth_getStorageAt`, `eth_call` for a native
contract's read, `eth_getBlockByNumber` for BLOCKHASH), all sent at once: batches of at most
rskj's 50 calls, concurrently, so one round of needs is one round trip. A node error on a
state read means the node keeps no state that old.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterable, Sequence
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_data
from explorer.chain.jsonfields import RecordFormatError
from explorer.chain.node_trace import from_call_tracer, from_parity
from explorer.chain.trace import CallFrame
from explorer.rpc.batch import MAX_BATCH
from explorer.rpc.errors import MalformedResponse, NodeError, RpcError
from explorer.services.probes import Call, ReadCounts, code_of, quantity, read_together
from explorer.vm.lazy import NativeAnswer, Need, NeedKind

#: The node-trace methods asked, in order (rskj's debug and trace modules, each switchable).
TRACE_METHODS = ("debug_traceTransaction", "trace_transaction")
_UNSERVED: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()


class NoOldState(Exception):
    """The node answered a state read at N−1 with an error: it keeps no state that old."""

    def __init__(self, block: int, reason: str) -> None:
        super().__init__(
            f"this node keeps no state before block {block + 1:,}: the replay needs an archive "
            f"node ({reason})"
        )
        self.block = block


def need_call(need: Need, block: int) -> Call:
    """Return the read that answers a need, at block."""
    where, address = hex(block), "0x" + need.address.hex()
    if need.kind is NeedKind.BALANCE:
        return "eth_getBalance", (address, where)
    if need.kind is NeedKind.NONCE:
        return "eth_getTransactionCount", (address, where)
    if need.kind is NeedKind.CODE:
        return "eth_getCode", (address, where)
    if need.kind is NeedKind.STORAGE:
        return "eth_getStorageAt", (address, hex(need.slot), where)
    if need.kind is NeedKind.BLOCK_HASH:
        return "eth_getBlockByNumber", (hex(need.number), False)
    call = {"from": "0x" + need.sender.hex(), "to": address, "data": "0x" + need.data.hex()}
    if need.value:
        call["value"] = hex(need.value)
    return "eth_call", (call, where)


def _native_answer(result: Any) -> NativeAnswer:
    """Return what eth_call answered for a native contract call (a node error: it failed)."""
    if isinstance(result, NodeError):
        data = result.data if isinstance(result.data, str) else "0x"
        try:
            output = parse_data(data)
        except HexFormatError:
            output = b""
        return NativeAnswer(False, output, result.node_message)
    try:
        return NativeAnswer(True, parse_data(result or "0x"))
    except (HexFormatError, TypeError) as error:
        raise MalformedResponse(f"eth_call answered no data: {error}") from None


def need_value(need: Need, result: Any, block: int) -> Any:
    """Return a need's value from its read's result; raise on a node error for state."""
    if need.kind is NeedKind.NATIVE_CALL:
        return _native_answer(result)
    if isinstance(result, NodeError):
        raise NoOldState(block, result.node_message)
    if isinstance(result, RpcError):
        raise result
    if need.kind is NeedKind.CODE:
        return code_of(result)
    if need.kind is NeedKind.BLOCK_HASH:
        found = result.get("hash") if isinstance(result, dict) else None
        if not isinstance(found, str):
            raise MalformedResponse(f"block {need.number:,} has no hash")
        return bytes.fromhex(found[2:])
    return quantity(result, need.kind.value)


async def fetch_needs(
    client: Any, needs: Iterable[Need], block: int, counts: ReadCounts
) -> dict[Need, Any]:
    """Read every need at block in one round trip (batches of 50 sent concurrently)."""
    ordered = sorted(needs, key=lambda n: (n.kind.value, n.address, n.slot, n.number, n.data))
    chunks = [ordered[i : i + MAX_BATCH] for i in range(0, len(ordered), MAX_BATCH)]

    async def one(chunk: Sequence[Need]) -> list[Any]:
        return await read_together(client, [need_call(n, block) for n in chunk], counts)

    answers = await asyncio.gather(*(one(chunk) for chunk in chunks))
    found: dict[Need, Any] = {}
    for chunk, results in zip(chunks, answers, strict=True):
        for need, result in zip(chunk, results, strict=True):
            found[need] = need_value(need, result, block)
    return found


def serves(client: Any, method: str) -> bool:
    """Tell whether the node may serve a trace method (not refused before)."""
    return method not in _UNSERVED.get(client, set())


def trace_call(method: str, tx_hash: str) -> Call:
    """Return the request of a node's trace of a transaction."""
    if method == "debug_traceTransaction":
        return method, (tx_hash, {"tracer": "callTracer"})
    return method, (tx_hash,)


async def node_trace(
    client: Any, tx_hash: str, counts: ReadCounts, methods: Sequence[str] = TRACE_METHODS
) -> tuple[CallFrame, bool] | None:
    """Return the node's trace (and whether it is trace_transaction's), or None.

    A method the node refuses is remembered for this client and not asked again.
    """
    for method in methods:
        if not serves(client, method):
            continue
        name, params = trace_call(method, tx_hash)
        counts.add(1, 1)
        try:
            result = await client.call(name, list(params))
        except NodeError:
            _UNSERVED.setdefault(client, set()).add(method)
            continue
        if result is None:
            return None
        try:
            if method == "debug_traceTransaction":
                return from_call_tracer(result), False
            return from_parity(result), True
        except RecordFormatError as error:
            what = f"{method} answered a trace that cannot be read: {error}"
            raise MalformedResponse(what) from None
    return None
