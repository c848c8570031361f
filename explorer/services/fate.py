"""What became of a transaction this app saw, now that the node no longer returns it.

The node does not say why it forgets a transaction: rskj's eth_getTransactionByHash answers
null for one queued behind a missing nonce, one dropped from the pool and one replaced alike
(docs/service.md §15.5). The sender's nonces tell them apart: a mined nonce past the
transaction's means another transaction used it (found in the blocks since it was last seen,
services/replacement.py); a pending nonce past it means a pool entry with the same nonce took
its place; a nonce beyond the pending one is a gap, kept until rskj's eviction.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from explorer.chain.pooled import PooledTx
from explorer.chain.records import Transaction
from explorer.saved.seen import SeenTx
from explorer.services.diagnosis import (
    PendingDiagnosis,
    judge_pending,
    read_sender_state,
    wait_since,
)
from explorer.services.reader import ChainReader
from explorer.services.replacement import SCAN_LIMIT, Progress, SearchResult, find_nonce_user

JUST_SENT_SECONDS = 90.0  # a transaction sent here is "not available yet" this long (3 blocks)


class Fate(enum.Enum):
    """What became of a transaction the node no longer returns by hash."""

    QUEUED = "queued behind a missing nonce"
    NOT_YET_AVAILABLE = "accepted, not available yet"
    REPLACED_IN_POOL = "replaced in the pool"
    REPLACED = "replaced"
    NONCE_USED = "its nonce was used by another transaction"
    MINED = "mined"
    DROPPED = "dropped"

    @property
    def still_open(self) -> bool:
        """Tell whether it may still change by itself (the page keeps looking)."""
        return self in (Fate.QUEUED, Fate.NOT_YET_AVAILABLE, Fate.REPLACED_IN_POOL)


@dataclass(frozen=True)
class MissingDiagnosis:
    """A forgotten transaction's fate, the sender's state behind it, and its replacement."""

    seen: SeenTx
    fate: Fate
    pending: PendingDiagnosis
    replacement: Transaction | None = None
    search: SearchResult | None = None


async def diagnose_missing(
    reader: ChainReader, seen: SeenTx, now: float, progress: Progress | None = None
) -> MissingDiagnosis:
    """Read the sender's state and, when its nonce is used, find what used it."""
    candidate = seen.tx
    state = await read_sender_state(reader, candidate.sender)
    pending = judge_pending(candidate, state, wait_since(seen, state.head, now))
    if candidate.nonce < state.mined_nonce:
        since = seen.last_block if seen.last_block is not None else seen.first_block
        first = since if since is not None else state.head - SCAN_LIMIT
        result = await find_nonce_user(
            reader, candidate.sender, candidate.nonce, first, state.head, progress
        )
        found = result.transaction
        if found is None:
            return MissingDiagnosis(seen, Fate.NONCE_USED, pending, search=result)
        fate = Fate.MINED if found.hash == candidate.hash else Fate.REPLACED
        return MissingDiagnosis(seen, fate, pending, found, result)
    if candidate.nonce < state.pending_nonce:
        return MissingDiagnosis(
            seen, Fate.REPLACED_IN_POOL, pending, await _pending_with_nonce(reader, candidate)
        )
    wait = pending.wait
    if wait is None or wait.expired:
        return MissingDiagnosis(seen, Fate.DROPPED, pending)
    if candidate.nonce > state.pending_nonce:
        return MissingDiagnosis(seen, Fate.QUEUED, pending)
    if seen.sent_here and wait.seconds < JUST_SENT_SECONDS:
        return MissingDiagnosis(seen, Fate.NOT_YET_AVAILABLE, pending)
    return MissingDiagnosis(seen, Fate.DROPPED, pending)


async def _pending_with_nonce(reader: ChainReader, candidate: PooledTx) -> Transaction | None:
    """Return the pool's executable transaction of the sender with that nonce (pending block)."""
    block = await reader.client.get_block_by_number("pending", True)
    if block is None or block.transactions is None:
        return None
    return next(
        (
            tx
            for tx in block.transactions.well_formed()
            if tx.sender == candidate.sender and tx.nonce == candidate.nonce
        ),
        None,
    )
