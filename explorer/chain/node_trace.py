"""A node's own trace of a transaction, read into a call tree.

rskj answers two shapes (co/rsk/rpc/modules/debug/trace/call/CallTraceTransformer.java and
co/rsk/rpc/modules/trace/TraceTransformer.java): `debug_traceTransaction` with `callTracer`, a
nested tree ({type, from, to, value, gas, gasUsed, input, output, error, revertReason,
calls}); `trace_transaction`, Parity's flat list with `traceAddress` paths. Both leave out
calls to precompiled and native contracts (Program.callToPrecompiledAddress adds no subtrace);
rskj's flat list repeats the transaction's input for every internal call (TraceTransformer.
toAction), so an internal input equal to the transaction's is dropped as unknown.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from explorer.chain.hexutil import HexFormatError, parse_data, parse_quantity
from explorer.chain.jsonfields import RecordFormatError
from explorer.chain.trace import REVERTED, CallFrame, CallKind

LEAVES_OUT_NATIVES = (
    "the node's trace leaves out calls to precompiled and native contracts (as rskj's does)"
)
INPUTS_UNKNOWN = "the node's trace_transaction does not give internal calls' inputs"
OUTPUTS_STRIPPED = (
    "the node's callTracer gives outputs as numbers, leading zeros stripped (as rskj does): "
    "they are shown padded to whole 32-byte words"
)
_KINDS = {kind.value: kind for kind in CallKind}


def _field(obj: Mapping[str, Any], name: str) -> Any:
    """Return a field of a trace object (None when absent)."""
    return obj.get(name)


def _quantity(value: Any, what: str) -> int:
    """Parse a hex quantity of a trace, or raise RecordFormatError."""
    if value is None:
        return 0
    try:
        return parse_quantity(value)
    except (HexFormatError, TypeError) as error:
        raise RecordFormatError(f"the trace's {what} is not a quantity: {error}") from None


def _data(value: Any, what: str) -> bytes:
    """Parse hex data of a trace (absent: empty), or raise RecordFormatError."""
    if value is None:
        return b""
    try:
        return parse_data(value)
    except (HexFormatError, TypeError) as error:
        raise RecordFormatError(f"the trace's {what} is not hex data: {error}") from None


def _stripped(value: Any) -> bytes:
    """Parse an output rskj's callTracer wrote as a quantity, padded back to whole words."""
    number = _quantity(value, "output")
    if not number:
        return b""
    size = (number.bit_length() + 7) // 8
    return number.to_bytes((size + 31) // 32 * 32, "big")


def _address(value: Any) -> str | None:
    """Return an address of a trace in lowercase (None when absent)."""
    if not isinstance(value, str) or not value.startswith("0x") or len(value) != 42:
        return None
    return value.lower()


def _error(value: Any) -> str | None:
    """Return a frame's error, a revert said as the replay says it."""
    if value is None or value == "":
        return None
    text = str(value)
    return REVERTED if text.lower() in ("reverted", "execution reverted") else text


def _object(value: Any, what: str) -> Mapping[str, Any]:
    """Return value as a JSON object, or raise RecordFormatError."""
    if not isinstance(value, Mapping):
        raise RecordFormatError(f"{what} is not a JSON object")
    return value


def from_call_tracer(value: Any) -> CallFrame:
    """Read `debug_traceTransaction`'s callTracer answer into a call tree."""
    seq = itertools.count()

    def frame(obj: Any, depth: int) -> CallFrame:
        item = _object(obj, "a callTracer frame")
        kind = _KINDS.get(str(item.get("type", "")).upper())
        if kind is None:
            raise RecordFormatError(f"the trace has a frame of unknown type {item.get('type')!r}")
        calls = item.get("calls") or []
        if not isinstance(calls, list):
            raise RecordFormatError("a callTracer frame's calls are not a list")
        created = kind.creates
        output = _field(item, "output")
        return CallFrame(
            kind=kind,
            sender=_address(item.get("from")) or "",
            to=_address(output if created else item.get("to")),
            value=_quantity(item.get("value"), "value"),
            input=_data(item.get("input"), "input"),
            output=b"" if created else _stripped(output),
            error=_error(item.get("error")),
            gas=_quantity(item.get("gas"), "gas"),
            gas_used=_quantity(item.get("gasUsed"), "gasUsed"),
            depth=depth,
            seq=next(seq),
            calls=tuple(frame(call, depth + 1) for call in calls),
        )

    return frame(value, 0)


def _parity_kind(item: Mapping[str, Any], action: Mapping[str, Any]) -> CallKind:
    """Return a flat trace's kind from its type, callType and creationMethod."""
    kind = str(item.get("type", "")).lower()
    if kind == "suicide":
        return CallKind.SELFDESTRUCT
    if kind == "create":
        return CallKind.CREATE2 if action.get("creationMethod") == "create2" else CallKind.CREATE
    found = _KINDS.get(str(action.get("callType", "call")).upper())
    if found is None:
        raise RecordFormatError(f"the trace has a call of unknown type {action.get('callType')!r}")
    return found


def _parity_frame(item: Mapping[str, Any], seq: int, top_input: bytes | None) -> CallFrame:
    """Return one flat trace as a frame without its calls."""
    action = _object(item.get("action"), "a trace's action")
    result = item.get("result")
    result = result if isinstance(result, Mapping) else {}
    kind = _parity_kind(item, action)
    path = item.get("traceAddress") or []
    if kind is CallKind.SELFDESTRUCT:
        sender, to = _address(action.get("address")) or "", _address(action.get("refundAddress"))
        value = _quantity(action.get("balance"), "balance")
    else:
        sender = _address(action.get("from")) or ""
        to = _address(result.get("address") if kind.creates else action.get("to"))
        value = _quantity(action.get("value"), "value")
    given = _data(action.get("init") if kind.creates else action.get("input"), "input")
    return CallFrame(
        kind=kind, sender=sender, to=to, value=value,
        input=b"" if path and top_input is not None and given == top_input else given,
        output=_data(result.get("output"), "output"), error=_error(item.get("error")),
        gas=_quantity(action.get("gas"), "gas"),
        gas_used=_quantity(result.get("gasUsed"), "gasUsed"), depth=len(path), seq=seq,
    )  # fmt: skip


def from_parity(value: Any) -> CallFrame:
    """Read `trace_transaction`'s flat list into a call tree.

    An internal call's input equal to the transaction's is dropped: rskj repeats it there.
    """
    if not isinstance(value, list) or not value:
        raise RecordFormatError("trace_transaction answered no list of traces")
    items = [_object(item, "a trace") for item in value]
    top_action = _object(items[0].get("action"), "a trace's action")
    top_input = _data(top_action.get("input") or top_action.get("init"), "input")
    frames = [_parity_frame(item, seq, top_input) for seq, item in enumerate(items)]
    paths = [tuple(item.get("traceAddress") or []) for item in items]
    if paths[0] != ():
        raise RecordFormatError("trace_transaction's first trace is not the transaction itself")
    return _nest(frames, paths)


def _nest(frames: Sequence[CallFrame], paths: Sequence[tuple[int, ...]]) -> CallFrame:
    """Return the tree the flat frames and their paths describe."""
    children: dict[tuple[int, ...], list[int]] = {}
    for index, path in enumerate(paths[1:], start=1):
        children.setdefault(path[:-1], []).append(index)

    def build(index: int) -> CallFrame:
        below = children.get(paths[index], [])
        return replace(frames[index], calls=tuple(build(child) for child in below))

    return build(0)


def without_natives(frame: CallFrame) -> CallFrame:
    """Return a tree without precompiled or native contract calls (what rskj's traces show)."""
    kept = tuple(without_natives(call) for call in frame.calls if call.native is None)
    return replace(frame, calls=kept)


def shapes(frame: CallFrame) -> Iterator[tuple[Any, ...]]:
    """Yield what a node's trace and a replay must agree on, frame by frame, in order."""
    for each in frame.walk():
        kind = "CREATE" if each.kind.creates else each.kind.value  # callTracer: no CREATE2
        yield kind, each.sender, each.to, each.value, each.ok, each.depth
