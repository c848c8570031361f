"""A TraceResult as plain JSON values and back: how a settled trace is kept in the saved data.

Bytes as 0x hex, ints as decimal strings where they may pass 2^53, enums by value. A record of
another format version reads as None (it is made again).
"""

from __future__ import annotations

from typing import Any

from explorer.chain.trace import (
    AccountChange,
    AssetKind,
    CallFrame,
    CallKind,
    CodeChange,
    Divergence,
    DivergenceKind,
    StateDiff,
    StorageChange,
    TraceLog,
    TraceResult,
    TraceSource,
    Transfer,
)

VERSION = 1


def _hex(value: bytes) -> str:
    """Return 0x hex."""
    return "0x" + value.hex()


def _bytes(value: str) -> bytes:
    """Return the bytes of 0x hex."""
    return bytes.fromhex(value[2:])


def _frame(frame: CallFrame) -> dict[str, Any]:
    """Return a frame and its calls as plain values."""
    return {
        "kind": frame.kind.value, "sender": frame.sender, "to": frame.to,
        "value": str(frame.value), "input": _hex(frame.input), "output": _hex(frame.output),
        "error": frame.error, "gas": frame.gas, "gas_used": frame.gas_used,
        "depth": frame.depth, "seq": frame.seq, "native": frame.native, "note": frame.note,
        "logs": [[log.address, list(log.topics), _hex(log.data), log.seq] for log in frame.logs],
        "calls": [_frame(call) for call in frame.calls],
    }  # fmt: skip


def _unframe(value: dict[str, Any]) -> CallFrame:
    """Return a frame from plain values."""
    return CallFrame(
        kind=CallKind(value["kind"]), sender=value["sender"], to=value["to"],
        value=int(value["value"]), input=_bytes(value["input"]), output=_bytes(value["output"]),
        error=value["error"], gas=value["gas"], gas_used=value["gas_used"],
        depth=value["depth"], seq=value["seq"], native=value["native"], note=value["note"],
        logs=tuple(TraceLog(a, tuple(t), _bytes(d), s) for a, t, d, s in value["logs"]),
        calls=tuple(_unframe(call) for call in value["calls"]),
    )  # fmt: skip


def _diff(diff: StateDiff) -> dict[str, Any]:
    """Return a state diff as plain values."""
    return {
        "balances": [[c.address, str(c.before), str(c.after)] for c in diff.balances],
        "nonces": [[c.address, c.before, c.after] for c in diff.nonces],
        "storage": [[c.address, str(c.slot), str(c.before), str(c.after)] for c in diff.storage],
        "codes": [[c.address, _hex(c.code)] for c in diff.codes],
    }


def _undiff(value: dict[str, Any]) -> StateDiff:
    """Return a state diff from plain values."""
    return StateDiff(
        tuple(AccountChange(a, int(b), int(c)) for a, b, c in value["balances"]),
        tuple(AccountChange(a, b, c) for a, b, c in value["nonces"]),
        tuple(StorageChange(a, int(s), int(b), int(c)) for a, s, b, c in value["storage"]),
        tuple(CodeChange(a, _bytes(code)) for a, code in value["codes"]),
    )


def encode(result: TraceResult) -> dict[str, Any]:
    """Return a trace as plain JSON values."""
    divergence = result.divergence
    return {
        "version": VERSION, "tx": result.tx, "block": result.block,
        "block_hash": result.block_hash, "index": result.index, "source": result.source.value,
        "faithful": result.faithful, "status": result.status, "gas_used": result.gas_used,
        "fee": str(result.fee), "notes": list(result.notes), "rules": result.rules,
        "read": [result.round_trips, result.accounts_read, result.slots_read],
        "divergence": None if divergence is None else
        [divergence.kind.value, divergence.text, divergence.log_index],
        "root": None if result.root is None else _frame(result.root),
        "transfers": [[t.kind.value, t.asset, t.sender, t.receiver, str(t.amount), t.depth, t.seq]
                      for t in result.transfers],
        "diff": None if result.diff is None else _diff(result.diff),
    }  # fmt: skip


def decode(value: Any) -> TraceResult | None:
    """Return a kept trace, or None when it is of another version or damaged."""
    if not isinstance(value, dict) or value.get("version") != VERSION:
        return None
    try:
        divergence = value["divergence"]
        return TraceResult(
            tx=value["tx"], block=value["block"], block_hash=value["block_hash"],
            index=value["index"], source=TraceSource(value["source"]),
            faithful=value["faithful"],
            divergence=None if divergence is None else Divergence(
                DivergenceKind(divergence[0]), divergence[1], divergence[2]),
            status=value["status"], gas_used=value["gas_used"], fee=int(value["fee"]),
            root=None if value["root"] is None else _unframe(value["root"]),
            transfers=tuple(Transfer(AssetKind(k), a, s, r, int(m), d, q)
                            for k, a, s, r, m, d, q in value["transfers"]),
            diff=None if value["diff"] is None else _undiff(value["diff"]),
            notes=tuple(value["notes"]), rules=value["rules"],
            round_trips=value["read"][0], accounts_read=value["read"][1],
            slots_read=value["read"][2],
        )  # fmt: skip
    except (KeyError, TypeError, ValueError, IndexError):
        return None
