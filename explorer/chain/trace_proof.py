"""Proof before display: a trace is fact only when it reproduces the receipt.

Status, gas used and logs (address, topics, data, in order) must equal the receipt's; the first
difference is named (status, then the first differing log, then gas), and the trace is then
"diverged": the page shows the receipt's facts and never the diverged tree as what happened.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explorer.chain.logrecords import Log
from explorer.chain.trace import Divergence, DivergenceKind


@dataclass(frozen=True)
class RunLog:
    """A log as a run produced it."""

    address: str
    topics: tuple[str, ...]
    data: bytes


@dataclass(frozen=True)
class RunFacts:
    """What a run (or a node's trace) says the receipt should hold."""

    status: bool
    gas_used: int
    logs: tuple[RunLog, ...] | None  # None: the source tells no logs (some node traces)


def _short(log: RunLog | Log) -> str:
    """Name a log briefly: its address and first topic."""
    topic = log.topics[0][:10] + "…" if log.topics else "no topic"
    return f"{log.address} ({topic})"


def _same(ours: RunLog, theirs: Log) -> bool:
    """Tell whether two logs agree on address, topics and data."""
    return (
        ours.address == theirs.address.lower()
        and ours.topics == tuple(t.lower() for t in theirs.topics)
        and ours.data == theirs.data
    )


def _log_divergence(ours: Sequence[RunLog], theirs: Sequence[Log]) -> Divergence | None:
    """Return the first log where a run and the receipt differ, if any."""
    for index, (mine, real) in enumerate(zip(ours, theirs, strict=False)):
        if not _same(mine, real):
            what = "address" if mine.address != real.address.lower() else "topics or data"
            text = (
                f"log {index} differs in {what}: the receipt has {_short(real)}, "
                f"the trace {_short(mine)}"
            )
            return Divergence(DivergenceKind.LOG, text, index)
    if len(ours) != len(theirs):
        index = min(len(ours), len(theirs))
        text = f"the receipt has {len(theirs)} logs, the trace {len(ours)}"
        return Divergence(DivergenceKind.LOG, text, index)
    return None


def prove(
    facts: RunFacts, receipt_status: bool | None, receipt_gas: int, receipt_logs: Sequence[Log]
) -> Divergence | None:
    """Return where a trace leaves the receipt, or None when it reproduces it."""
    if receipt_status is not None and facts.status != receipt_status:
        said = "succeeded" if receipt_status else "failed"
        ran = "succeeds" if facts.status else "fails"
        return Divergence(DivergenceKind.STATUS, f"the receipt says it {said}; the trace {ran}")
    if facts.logs is not None:
        found = _log_divergence(facts.logs, receipt_logs)
        if found is not None:
            return found
    if facts.gas_used != receipt_gas:
        text = f"gas used {facts.gas_used:,} where the receipt says {receipt_gas:,}"
        return Divergence(DivergenceKind.GAS, text)
    return None
