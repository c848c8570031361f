"""The Inside tab's call tree and money trail as rows of cells (pure: no Qt).

A frame's call is decoded by the bundled signatures (the Bridge's by its bundled ABI); its
result is the revert reason, the error, or the output. The money trail keeps execution
order and gives each move the running totals of its two addresses.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

from explorer.chain.abi import decode_call, quoted
from explorer.chain.bridge_abi import bridge_table
from explorer.chain.known import BRIDGE
from explorer.chain.revert import decode_revert_reason
from explorer.chain.trace import AssetKind, CallFrame, Transfer
from explorer.chain.trace_money import NATIVE
from explorer.presentation.inside_cells import (
    EMPTY,
    Cell,
    Labels,
    amount_cell,
    count_cell,
    signed_cell,
)

FRAME_COLUMNS = ("Call", "From", "To", "Value", "Gas used", "Result")
GAS_COLUMN = FRAME_COLUMNS.index("Gas used")
MOVE_COLUMNS = ("#", "Asset", "Amount", "From", "To", "Depth", "From's total", "To's total")
WORD = 32
SHOWN_BYTES = 24  # an output longer than this is shortened (the whole on hover and copy)
_bridge_table = cache(bridge_table)


@dataclass(frozen=True)
class FrameRow:
    """One frame of the call tree: its place in execution order, its parent's, its cells."""

    index: int
    parent: int | None  # the calling frame's index (None: the transaction's own call)
    depth: int
    failed: bool
    cells: tuple[Cell, ...]


def call_text(frame: CallFrame) -> Cell:
    """Return the frame's kind, function and arguments (decoded where known), or the selector."""
    kind = frame.kind.value
    if frame.native:
        kind += f" [{frame.native}]"
    if frame.kind.creates:
        return Cell(f"{kind} ({len(frame.input):,} bytes of code)", "0x" + frame.input.hex())
    if not frame.input and frame.to == BRIDGE:
        return Cell(f"{kind} releaseBtc() — a plain transfer to the Bridge: a peg-out")
    if not frame.input:
        return Cell(f"{kind} (plain transfer)" if frame.value else kind)
    table = _bridge_table() if frame.to == BRIDGE else None
    decoded = decode_call(frame.input, table)
    raw = "0x" + frame.input.hex()
    if decoded is None:
        return Cell(f"{kind} 0x{frame.input[:4].hex()}", raw)
    arguments = ", ".join(f"{p.name}={p.text}" if p.name else p.text for p in decoded.params)
    return Cell(f"{kind} {decoded.name}({arguments})", f"{decoded.signature}\n{raw}")


def result_cell(frame: CallFrame) -> Cell:
    """Return how the frame ended: the output, the revert reason, or the error."""
    raw = "0x" + frame.output.hex()
    if frame.reverted:
        reason = decode_revert_reason(frame.output)
        text = f"reverted: {quoted(reason)}" if reason else "reverted (no reason given)"
        return Cell(text, raw if frame.output else "")
    if frame.error:
        return Cell(frame.error)
    if frame.note:
        return Cell(frame.note)
    if not frame.output or frame.kind.creates:
        return Cell("ok")
    if len(frame.output) == WORD:  # one word: its value, short
        return Cell(f"→ 0x{int.from_bytes(frame.output, 'big'):x}", raw)
    shown = raw if len(frame.output) <= SHOWN_BYTES else f"0x{frame.output[:SHOWN_BYTES].hex()}…"
    return Cell(f"→ {shown}", raw)


def frame_rows(root: CallFrame, labels: Labels, currency: str) -> Iterator[FrameRow]:
    """Yield every frame of the tree as a row, in execution order (parents first)."""
    parents: list[int] = []  # the open frames' indexes, by depth
    for index, frame in enumerate(root.walk()):
        del parents[frame.depth - root.depth :]
        cells = (
            call_text(frame),
            labels.cell(frame.sender),
            labels.cell(frame.to, empty="(none)"),
            amount_cell(frame.value, currency, empty="—") if frame.kind.moves_value else EMPTY,
            count_cell(frame.gas_used),
            result_cell(frame),
        )
        yield FrameRow(index, parents[-1] if parents else None, frame.depth, not frame.ok, cells)
        parents.append(index)


def _amount(move: Transfer, labels: Labels, currency: str) -> tuple[Cell, Cell]:
    """Return a move's asset (the token as the app names it) and amount cells."""
    if move.native:
        asset = Cell("fee" if move.kind is AssetKind.FEE else currency)
        return asset, amount_cell(move.amount, currency)
    amount = count_cell(move.amount)
    if move.kind is AssetKind.ERC721:
        amount = Cell(f"id {amount.text}", amount.exact, amount.sort)
    return labels.cell(move.asset), amount


def _total(value: int, move: Transfer, currency: str) -> Cell:
    """Return an address's running total after a move, in the move's asset."""
    if move.asset == NATIVE:
        return signed_cell(value, currency)
    return Cell(f"{value:+,}".replace("-", "−"), str(value), sort=value)  # the RBTC's minus


def move_rows(
    transfers: tuple[Transfer, ...], labels: Labels, currency: str
) -> Iterator[tuple[Cell, ...]]:
    """Yield the money trail in execution order, with each side's running total after it.

    The totals are kept as the rows go (not copied per move): a long trail streams evenly.
    """
    totals: dict[tuple[str, str], int] = defaultdict(int)
    for index, move in enumerate(transfers):
        totals[(move.asset, move.sender)] -= move.amount
        totals[(move.asset, move.receiver)] += move.amount
        asset, amount = _amount(move, labels, currency)
        depth = Cell("receipt", sort=-1) if move.depth is None else count_cell(move.depth)
        yield (
            count_cell(index + 1), asset, amount, labels.cell(move.sender),
            labels.cell(move.receiver), depth,
            _total(totals[(move.asset, move.sender)], move, currency),
            _total(totals[(move.asset, move.receiver)], move, currency),
        )  # fmt: skip
