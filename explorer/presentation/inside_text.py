"""The Inside tab's words: the verdict first, where the trace came from, the receipt's facts."""

from __future__ import annotations

from explorer.chain.trace import TraceResult, TraceSource
from explorer.chain.units import format_rbtc
from explorer.presentation.trace_text import verdict

SOURCE_WORDS = {
    TraceSource.NODE_TRACE: "the node's own trace",
    TraceSource.REPLAY: "a replay here over the state at block N−1",
    TraceSource.REPLAY_WITH_BLOCK: "a replay here, with the block's earlier transactions first",
}

#: A note about the replay's own diff: left out when the replay diverged (it is not shown).
OF_THE_RUN = "the state diff does not reconcile"


def headline(result: TraceResult) -> str:
    """Return the verdict: a faithful trace is fact; a diverged replay says where, and no more."""
    if result.faithful:
        return verdict(result) + "."
    where = result.divergence.text if result.divergence else "it does not match the receipt"
    return (f"The replay diverged: {where}. What it did is not shown, since it is not what "
            "happened; the receipt's facts below stand.")  # fmt: skip


def source_text(result: TraceResult) -> str:
    """Return the trace's source, its rules and what it cost."""
    text = f"Source: {SOURCE_WORDS[result.source]}"
    if result.rules:  # the rule set's name; its upgrades in the JSON
        text += f" ({result.rules.partition(':')[0]} rules)"
    if result.requests:
        text += f" · {result.requests:,} requests in {result.round_trips:,} round trips"
    else:
        text += " · no request: from the data saved on this computer"
    return text


def facts_lines(result: TraceResult, currency: str) -> list[str]:
    """Return the receipt's facts when the replay diverged, then the trace's notes."""
    lines = []
    if not result.faithful:
        lines += [
            f"Receipt: {'succeeded' if result.status else 'failed'}, gas used "
            f"{result.gas_used:,}, fee {format_rbtc(result.fee, currency)} "
            f"(block {result.block:,}, index {result.index}).",
            "Its logs and token transfers are on the Overview tab.",
        ]
    notes = [n for n in result.notes if result.faithful or not n.startswith(OF_THE_RUN)]
    lines += [note[:1].upper() + note[1:] + ("" if note.endswith(".") else ".") for note in notes]
    return lines
