"""A replay run turned into the records of chain/trace.py: call tree, state diff, run facts."""

from __future__ import annotations

from explorer.chain.trace import (
    AccountChange,
    CallFrame,
    CallKind,
    CodeChange,
    StateDiff,
    StorageChange,
    TraceLog,
)
from explorer.chain.trace_proof import RunFacts
from explorer.vm.frames import Frame, Log
from explorer.vm.lazy import NeedKind
from explorer.vm.replay import TxRun


def _hex(value: bytes) -> str:
    """Return 0x-prefixed lowercase hex."""
    return "0x" + value.hex()


def _log(log: Log) -> TraceLog:
    """Return a recorded event as a TraceLog."""
    return TraceLog(_hex(log.address), tuple(f"0x{t:064x}" for t in log.topics), log.data, log.seq)


def call_frame(frame: Frame) -> CallFrame:
    """Return a recorded frame and everything under it as a CallFrame."""
    return CallFrame(
        kind=CallKind(frame.kind),
        sender=_hex(frame.sender),
        to=_hex(frame.to) if frame.to else None,
        value=frame.value,
        input=frame.input,
        output=frame.output,
        error=frame.error,
        gas=frame.gas,
        gas_used=frame.gas_used,
        depth=frame.depth,
        seq=frame.seq,
        logs=tuple(_log(log) for log in frame.logs),
        calls=tuple(call_frame(child) for child in frame.children),
        native=frame.native,
        note=frame.note,
    )


def state_diff(run: TxRun) -> StateDiff:
    """Return what a transaction changed: every field and slot whose value moved."""
    balances, nonces, storage = [], [], []
    for key, before in run.before.items():
        kind, address, slot = key
        after = run.after.get(key, before)
        if after == before:
            continue
        if kind is NeedKind.BALANCE:
            balances.append(AccountChange(_hex(address), before, after))
        elif kind is NeedKind.NONCE:
            nonces.append(AccountChange(_hex(address), before, after))
        elif kind is NeedKind.STORAGE:
            storage.append(StorageChange(_hex(address), slot, before, after))
    codes = tuple(CodeChange(_hex(a), code) for a, code in sorted(run.codes.items()))
    return StateDiff(
        tuple(sorted(balances, key=lambda c: c.address)),
        tuple(sorted(nonces, key=lambda c: c.address)),
        tuple(sorted(storage, key=lambda c: (c.address, c.slot))),
        codes,
    )


def run_facts(run: TxRun) -> RunFacts:
    """Return what the run says the receipt should hold."""
    return RunFacts(run.status, run.gas_used, run.logs)


def unknown_opcodes(run: TxRun) -> list[str]:
    """Describe the opcodes the rules did not know that the run met (for a divergence)."""
    return [
        f"opcode 0x{opcode:02x} at position {pc} of {_hex(address)}'s code"
        for address, pc, opcode in run.recorder.unknown_opcodes
    ]
