"""The Inside tab's state diff: per address, reconciled with the money trail (pure: no Qt).

Each address shows its balance before and after, what it received, sent and paid in fee,
and whether before + received − sent − fee = after; its nonce, slots changed and code created.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from explorer.chain.trace import AssetKind, StateDiff, Transfer
from explorer.presentation.inside_cells import EMPTY, Cell, Labels, amount_cell, count_cell

DIFF_COLUMNS = ("Address", "Balance before", "Received", "Sent", "Fee", "Balance after",
                "Reconciles", "Nonce", "Storage", "Code")  # fmt: skip


@dataclass(frozen=True)
class Flows:
    """What an address received, sent and paid in fee over the money trail (wei)."""

    received: int = 0
    sent: int = 0
    fee: int = 0


@dataclass(frozen=True)
class DiffRow:
    """One address's changes: its cells, whether it reconciles, its slots' rows."""

    address: str
    cells: tuple[Cell, ...]
    reconciles: bool
    slots: tuple[tuple[Cell, ...], ...]


def flows(transfers: Iterable[Transfer]) -> dict[str, Flows]:
    """Return each address's RBTC received, sent and paid in fee over the trail."""
    sums: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for move in transfers:
        if move.kind is AssetKind.FEE:
            sums[move.sender][2] += move.amount
            sums[move.receiver][0] += move.amount
        elif move.kind is AssetKind.NATIVE:
            sums[move.sender][1] += move.amount
            sums[move.receiver][0] += move.amount
    return {address: Flows(*values) for address, values in sums.items()}


def _word(value: int) -> str:
    """Return a 32-byte word short: 0x and its significant hex digits."""
    return f"0x{value:x}"


def _code_cell(code: bytes) -> Cell:
    """Return code created (its size; the bytes on copy), or removed by a self-destruct."""
    return Cell(f"created, {len(code):,} bytes", "0x" + code.hex()) if code else Cell("removed")


def _reconcile_cell(before: int, flow: Flows, after: int, currency: str) -> tuple[Cell, bool]:
    """Return whether before + received − sent − fee = after, and by how much it misses."""
    expected = before + flow.received - flow.sent - flow.fee
    if expected == after:
        return Cell("✓", "before + received − sent − fee = after", sort=1), True
    missed = amount_cell(abs(after - expected), currency)
    return Cell(f"✗ off by {missed.text}", missed.exact, sort=0), False


def diff_rows(diff: StateDiff, transfers: tuple[Transfer, ...], labels: Labels,
              currency: str) -> Iterator[DiffRow]:  # fmt: skip
    """Yield one row per address the transaction changed, in the order they first changed."""
    moved = flows(transfers)
    balances = {c.address: c for c in diff.balances}
    nonces = {c.address: c for c in diff.nonces}
    codes = {c.address: c for c in diff.codes}
    slots: dict[str, list[tuple[Cell, ...]]] = defaultdict(list)
    for change in diff.storage:
        slots[change.address].append((
            Cell(f"slot {_word(change.slot)}", f"0x{change.slot:064x}"),
            Cell(_word(change.before), f"0x{change.before:064x}"),
            Cell(_word(change.after), f"0x{change.after:064x}"),
        ))  # fmt: skip
    order = [*balances, *nonces, *slots, *codes, *(a for a in moved if moved[a] != Flows())]
    for address in dict.fromkeys(order):
        balance, flow = balances.get(address), moved.get(address, Flows())
        nonce, code = nonces.get(address), codes.get(address)
        if balance is None:  # unchanged: its before and after are the same, not read here
            check, fine = (Cell("✓", sort=1), True) if flow.received == flow.sent + flow.fee else (
                Cell("✗ moved without a balance change", sort=0), False)  # fmt: skip
            before = after = Cell("unchanged")
        else:
            check, fine = _reconcile_cell(balance.before, flow, balance.after, currency)
            before = amount_cell(balance.before, currency)
            after = amount_cell(balance.after, currency)
        cells = (
            labels.cell(address), before, amount_cell(flow.received, currency, "—"),
            amount_cell(flow.sent, currency, "—"), amount_cell(flow.fee, currency, "—"), after,
            check, Cell(f"{nonce.before} → {nonce.after}", sort=nonce.after) if nonce else EMPTY,
            count_cell(len(slots[address])) if slots[address] else EMPTY,
            _code_cell(code.code) if code else EMPTY,
        )  # fmt: skip
        yield DiffRow(address, cells, fine, tuple(slots[address]))
