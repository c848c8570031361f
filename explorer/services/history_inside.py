"""Who moved a contract execution's value: the block's transactions traced (services/trace.py).

A balance change that no transaction of the address explains moved inside another one's
execution. The block's transactions (REMASC's aside; contract calls first, a few at most) are
traced in turn (a node's trace or a replay, proven against its receipt; kept once settled, so
a second look costs nothing) until the RBTC moved to and from the address inside calls
accounts for the change exactly. Then the one "contract execution" entry becomes an entry
per move: its counterparty (the frame's other side), the depth of the call that moved it,
the transaction's sender. Anything short of that leaves the entry as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from explorer.chain.history import NATIVE, Direction, EntryKind, HistoryEntry
from explorer.chain.known import REMASC
from explorer.chain.records import Block, Transaction
from explorer.chain.trace import AssetKind, Transfer
from explorer.rpc.errors import RpcError

if TYPE_CHECKING:
    from explorer.services.trace import Tracer

MAX_TRACED = 8  # transactions traced per block at most (contract calls first)


def inside_moves(transfers: Sequence[Transfer], address: str) -> list[Transfer]:
    """Return the RBTC moved to or from an address inside calls (the transaction's own aside)."""
    return [
        move
        for move in transfers
        if move.kind is AssetKind.NATIVE
        and (move.depth or 0) > 0
        and move.sender != move.receiver
        and address in (move.sender, move.receiver)
    ]


def signed(move: Transfer, address: str) -> int:
    """Return what a move did to the address's balance."""
    return move.amount if move.receiver == address else -move.amount


def moved_entry(unexplained: HistoryEntry, tx: Transaction, move: Transfer,
                address: str) -> HistoryEntry:  # fmt: skip
    """Return the entry of one move found inside a transaction."""
    incoming = move.receiver == address
    return replace(
        unexplained,
        tx_hash=tx.hash,
        counterparty=move.sender if incoming else move.receiver,
        amount=move.amount,
        direction=Direction.IN if incoming else Direction.OUT,
        order=tx.transaction_index or 0,
        log_index=move.seq,
        depth=move.depth,
        caller=tx.sender,
    )


class InsideExplainer:
    """Finds the transactions and calls behind an address's contract executions."""

    def __init__(self, tracer_of: Callable[[], Tracer], address: str) -> None:
        """Trace with a fresh Tracer each time: a Tracer's request cap counts all it read."""
        self.tracer_of, self.address = tracer_of, address

    async def explain(self, entries: list[HistoryEntry], block: Block) -> list[HistoryEntry]:
        """Return entries with the block's contract execution split into the moves behind it."""
        unexplained = [e for e in entries if e.kind is EntryKind.CONTRACT and e.tx_hash is None
                       and e.asset == NATIVE and e.amount and not e.provisional]  # fmt: skip
        calls = [tx for tx in block.transactions or () if tx.to != REMASC]
        candidates = sorted(calls, key=lambda tx: not tx.input)[:MAX_TRACED]  # calls first
        if len(unexplained) != 1 or not candidates:
            return entries
        entry = unexplained[0]
        wanted = entry.amount if entry.direction is Direction.IN else -entry.amount
        found: list[HistoryEntry] = []
        total = 0
        for tx in candidates:
            moves = await self._moves(tx)
            if moves is None:
                return entries
            found += [moved_entry(entry, tx, move, self.address) for move in moves]
            total += sum(signed(move, self.address) for move in moves)
            if found and total == wanted:
                return [e for e in entries if e is not entry] + found
        return entries

    async def _moves(self, tx: Transaction) -> list[Transfer] | None:
        """Return a transaction's moves of the address inside calls (None: no trace to trust)."""
        # loaded on use: a history that never meets a contract execution loads no VM
        from explorer.services.trace import ASK_ABOVE, TraceChoice, TraceProblem
        from explorer.services.trace_reads import NoOldState

        try:
            tracer = self.tracer_of()
            result = await tracer.trace(tx.hash, TraceChoice.AUTO, allowed=ASK_ABOVE)
        except (TraceProblem, NoOldState, RpcError):
            return None
        return inside_moves(result.transfers, self.address) if result.faithful else []
