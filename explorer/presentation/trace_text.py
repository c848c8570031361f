"""`explorer trace` as text: the verdict first, then the call tree, money trail and state diff.

A trace that diverged from its receipt says so first and where; its tree is printed under
that warning as what the replay did, never as what happened.
"""

from __future__ import annotations

from explorer.chain.abi import method_label, quoted
from explorer.chain.revert import decode_revert_reason
from explorer.chain.trace import (
    NOT_REPLAYED,
    AssetKind,
    CallFrame,
    StateDiff,
    TraceResult,
    TraceSource,
    Transfer,
)
from explorer.chain.trace_money import NATIVE
from explorer.chain.units import format_rbtc
from explorer.presentation.trace_json import Checksums

INDENT = "  "
SOURCES = {
    TraceSource.NODE_TRACE: "the node's own trace",
    TraceSource.REPLAY: "replayed here",
    TraceSource.REPLAY_WITH_BLOCK: "replayed here, after the block's earlier transactions",
}


def verdict(result: TraceResult) -> str:
    """Return the trace's first line: where it came from and whether it matches the receipt."""
    where = SOURCES[result.source]
    if result.faithful and result.root is not None and result.root.note == NOT_REPLAYED:
        return (f"Matches the receipt: status, gas used ({result.gas_used:,}) and logs; the "
                f"{result.root.native or 'native'} contract itself is not replayed: what it did "
                "is what its events say")  # fmt: skip
    if result.faithful:
        return (f"Faithful ({where}): status, gas used ({result.gas_used:,}) and logs match "
                "the receipt")  # fmt: skip
    text = result.divergence.text if result.divergence else "it does not match the receipt"
    return (f"The replay diverged ({where}): {text}. What follows is what the replay did, "
            "not what happened; the receipt's facts stand")  # fmt: skip


def _frame_line(frame: CallFrame, checksum: Checksums, currency: str) -> str:
    """Return one frame as a line."""
    parts = [frame.kind.value, f"{checksum(frame.sender)} → {checksum(frame.to) or '(none)'}"]
    if frame.native:
        parts.append(f"[{frame.native}]")
    if frame.value:
        parts.append(format_rbtc(frame.value, currency))
    label = method_label(frame.input) if not frame.kind.creates else ""
    if label:
        parts.append(label)
    parts.append(f"gas {frame.gas_used:,}")
    reason = decode_revert_reason(frame.output) if frame.reverted else None
    if frame.error:
        parts.append(f"— {frame.error}" + (f": {quoted(reason)}" if reason else ""))
    if frame.note:
        parts.append(f"({frame.note})")
    return " ".join(parts)


def tree_lines(frame: CallFrame, checksum: Checksums, currency: str) -> list[str]:
    """Return the call tree as indented lines."""
    lines = [INDENT * (frame.depth + 1) + _frame_line(frame, checksum, currency)]
    for call in frame.calls:
        lines += tree_lines(call, checksum, currency)
    return lines


def _move_line(index: int, move: Transfer, checksum: Checksums, currency: str) -> str:
    """Return one move of the money trail as a line."""
    if move.kind is AssetKind.FEE:
        shown = f"fee {format_rbtc(move.amount, currency)}"
    elif move.asset == NATIVE:
        shown = format_rbtc(move.amount, currency)
    else:
        unit = "token id" if move.kind is AssetKind.ERC721 else "base units of"
        shown = f"{move.amount:,} {unit} {checksum(move.asset)}"
    depth = "the receipt" if move.depth is None else f"depth {move.depth}"
    return (
        f"{INDENT}{index}. {shown}: {checksum(move.sender)} → {checksum(move.receiver)} ({depth})"
    )


def diff_lines(diff: StateDiff, checksum: Checksums, currency: str) -> list[str]:
    """Return the state diff, one line per change."""
    lines = [f"{INDENT}{checksum(c.address)} balance {format_rbtc(c.before, currency)} → "
             f"{format_rbtc(c.after, currency)}" for c in diff.balances]  # fmt: skip
    lines += [f"{INDENT}{checksum(c.address)} nonce {c.before} → {c.after}" for c in diff.nonces]
    lines += [f"{INDENT}{checksum(c.address)} slot 0x{c.slot:x}: 0x{c.before:x} → 0x{c.after:x}"
              for c in diff.storage]  # fmt: skip
    lines += [f"{INDENT}{checksum(c.address)} code created, {len(c.code):,} bytes"
              for c in diff.codes]  # fmt: skip
    return lines


def trace_text(result: TraceResult, chain_id: int | None, currency: str) -> str:
    """Return the trace as the text `explorer trace` prints."""
    checksum = Checksums(chain_id)
    lines = [f"Transaction {result.tx}, block {result.block:,} (index {result.index})",
             verdict(result), "", "Calls"]  # fmt: skip
    lines += tree_lines(result.root, checksum, currency) if result.root else [f"{INDENT}none"]
    lines += ["", "Money trail"]
    moves = [_move_line(i, m, checksum, currency) for i, m in enumerate(result.transfers, 1)]
    lines += moves or [f"{INDENT}nothing moved"]
    lines += ["", "State diff"]
    if result.diff is None and result.source is TraceSource.NODE_TRACE:
        lines.append(f"{INDENT}not available from a node's trace (choose --source replay)")
    elif result.diff is None:
        lines.append(f"{INDENT}not known: nothing was replayed")
    else:
        lines += diff_lines(result.diff, checksum, currency) or [f"{INDENT}nothing changed"]
    if result.notes:
        lines += ["", "Notes", *(f"{INDENT}- {note}" for note in result.notes)]
    cost = (f"{result.requests:,} requests in {result.round_trips:,} round trips"
            if result.requests else "no request: from the saved data")  # fmt: skip
    if result.accounts_read or result.slots_read:
        cost += (f"; read {result.accounts_read:,} accounts and {result.slots_read:,} slots "
                 f"at block {max(result.block - 1, 0):,}")  # fmt: skip
    return "\n".join([*lines, "", f"Cost: {cost}"]) + "\n"
