"""What a run records: each call frame as it opens and closes, with its logs, in execution order.

The VM's opcodes (vm/opcodes.py) and transaction executor (vm/state.py) tell a Recorder when a
frame opens and closes; frames and logs share one sequence (py-evm's log counter), so the
order of calls and events inside a frame is kept. Built while py-evm runs, then turned into
the pure records of chain/trace.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eth.abc import ComputationAPI, MessageAPI
from eth.exceptions import Revert


@dataclass
class Log:
    """One event a frame emitted: its place in the run, address, topics and data."""

    seq: int
    address: bytes
    topics: tuple[int, ...]
    data: bytes


@dataclass
class Frame:
    """One call or creation inside a run, filled in when it closes."""

    kind: str  # CALL, CALLCODE, DELEGATECALL, STATICCALL, CREATE, CREATE2, SELFDESTRUCT
    sender: bytes
    to: bytes  # the callee (the code's address for DELEGATECALL and CALLCODE)
    value: int
    input: bytes
    gas: int
    depth: int
    seq: int
    native: str | None = None  # the precompile's or native contract's name
    note: str | None = None  # how a native call's answer was found (replays)
    output: bytes = b""
    error: str | None = None
    reverted: bool = False
    gas_used: int = 0
    logs: list[Log] = field(default_factory=list)
    children: list[Frame] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Tell whether the frame ended without error or revert."""
        return self.error is None and not self.reverted

    def walk(self) -> list[Frame]:
        """Return this frame and every frame under it, in execution order."""
        found = [self]
        for child in self.children:
            found += child.walk()
        return found


def _error_text(computation: ComputationAPI) -> tuple[str | None, bool]:
    """Return a failed computation's error in words and whether it reverted."""
    if computation.is_success:
        return None, False
    error = computation._error
    if isinstance(error, Revert):
        return "execution reverted", True
    return (str(error) or type(error).__name__) if error else "failed", False


class Recorder:
    """Collects the frame tree of one transaction's run."""

    def __init__(self) -> None:
        self.top: Frame | None = None
        self._open: list[Frame] = []
        self.unknown_opcodes: list[tuple[bytes, int, int]] = []  # (address, pc, opcode)
        self.native_notes: dict[int, str] = {}  # frame seq → note, set by native answers

    def enter(
        self,
        kind: str,
        msg: MessageAPI,
        seq: int,
        to: bytes | None = None,
        sender: bytes | None = None,
    ) -> Frame:
        """Open a frame for a message about to run (to, sender: when not msg's own)."""
        target = to if to is not None else bytes(msg.storage_address)
        caller = sender if sender is not None else bytes(msg.sender)
        data = bytes(msg.code) if msg.is_create else bytes(msg.data_as_bytes)
        frame = Frame(kind, caller, target, msg.value, data, msg.gas, msg.depth, seq)
        if self._open:
            self._open[-1].children.append(frame)
        else:
            self.top = frame
        self._open.append(frame)
        return frame

    @property
    def current(self) -> Frame | None:
        """Return the innermost open frame."""
        return self._open[-1] if self._open else None

    def leave(self, frame: Frame, computation: ComputationAPI | None, gas_used: int) -> None:
        """Close a frame with what its computation produced (None: it never ran)."""
        if self._open and self._open[-1] is frame:
            self._open.pop()
        frame.gas_used = gas_used
        if computation is None:
            return
        frame.error, frame.reverted = _error_text(computation)
        frame.output = bytes(computation.output)
        if frame.ok:
            frame.logs = [Log(seq, bytes(address), tuple(topics), bytes(data))
                          for seq, address, topics, data in computation._log_entries]  # fmt: skip

    def selfdestruct(self, msg: MessageAPI, beneficiary: bytes, value: int, seq: int) -> None:
        """Record a SELFDESTRUCT as a leaf frame moving the balance to the beneficiary."""
        frame = Frame("SELFDESTRUCT", bytes(msg.storage_address), beneficiary, value, b"", 0,
                      msg.depth + 1, seq)  # fmt: skip
        if self._open:
            self._open[-1].children.append(frame)

    def note_unknown_opcode(self, address: bytes, pc: int, opcode: int) -> None:
        """Remember an opcode the rules do not know, met at pc of address's code."""
        self.unknown_opcodes.append((address, pc, opcode))


def recorder_of(computation: Any) -> Recorder | None:
    """Return the recorder of the state a computation runs on, if it records."""
    return getattr(computation.state, "recorder", None)
