"""A TraceResult made from what a trace source produced: a replay's run, a node's trace, REMASC's.

Each is proven against the receipt first (chain/trace_proof.py); the money trail and, for a
replay, the state diff follow, and the notes say what the reader must know.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from explorer.chain.known import REMASC
from explorer.chain.node_trace import INPUTS_UNKNOWN, LEAVES_OUT_NATIVES, OUTPUTS_STRIPPED
from explorer.chain.records import Block, Receipt, Transaction
from explorer.chain.remasc import decode_remasc_log
from explorer.chain.trace import (
    MOVED_BY_EVENT,
    NOT_REPLAYED,
    CallFrame,
    CallKind,
    Divergence,
    DivergenceKind,
    TraceLog,
    TraceResult,
    TraceSource,
)
from explorer.chain.trace_money import money_trail, reconcile
from explorer.chain.trace_proof import RunFacts, RunLog, prove
from explorer.vm.replay import ReplayTx, TxRun
from explorer.vm.replay_result import call_frame, run_facts, state_diff, unknown_opcodes

ZERO_ADDRESS = "0x" + "00" * 20


@dataclass(frozen=True)
class TraceFacts:
    """What a trace rests on: the transaction, its receipt and (for a replay) its block."""

    tx: Transaction
    receipt: Receipt
    block: Block | None

    @property
    def fee(self) -> int:
        """The fee the sender paid (wei)."""
        return self.receipt.fee(self.tx.gas_price)

    @property
    def is_remasc(self) -> bool:
        """Tell whether this is a block's REMASC transaction (not replayed)."""
        return self.tx.to == REMASC and self.tx.sender == ZERO_ADDRESS


def replay_tx(tx: Transaction) -> ReplayTx:
    """Return a transaction as the replayer takes it."""
    to = bytes.fromhex(tx.to[2:]) if tx.to else None
    return ReplayTx(bytes.fromhex(tx.hash[2:]), bytes.fromhex(tx.sender[2:]), to, tx.nonce,
                    tx.gas, tx.gas_price, tx.value, tx.input)  # fmt: skip


def receipt_logs(receipt: Receipt) -> tuple[RunLog, ...]:
    """Return the receipt's logs as a run would produce them."""
    return tuple(
        RunLog(log.address.lower(), tuple(t.lower() for t in log.topics), log.data)
        for log in receipt.logs
    )


def proven(facts: TraceFacts, ran: RunFacts) -> Divergence | None:
    """Return where a trace leaves the receipt (None: it reproduces it)."""
    receipt = facts.receipt
    return prove(ran, receipt.succeeded, receipt.gas_used, receipt.logs)


def _result(
    facts: TraceFacts,
    source: TraceSource,
    divergence: Divergence | None,
    root: CallFrame | None,
    notes: Sequence[str],
) -> TraceResult:
    """Return a TraceResult without a state diff (filled in by the replay's builder)."""
    tx, receipt = facts.tx, facts.receipt
    transfers = money_trail(root, tx.sender, facts.fee, receipt.logs)
    return TraceResult(
        tx=tx.hash, block=receipt.block_number, block_hash=receipt.block_hash,
        index=receipt.transaction_index, source=source, faithful=divergence is None,
        divergence=divergence, status=bool(receipt.succeeded), gas_used=receipt.gas_used,
        fee=facts.fee, root=root, transfers=transfers, diff=None, notes=tuple(notes),
    )  # fmt: skip


def from_node(facts: TraceFacts, root: CallFrame, parity: bool) -> TraceResult:
    """Return a node's trace (parity: trace_transaction's), proven against the receipt."""
    divergence = proven(facts, RunFacts(root.ok, root.gas_used, None))
    notes = [LEAVES_OUT_NATIVES, INPUTS_UNKNOWN if parity else OUTPUTS_STRIPPED]
    return _result(facts, TraceSource.NODE_TRACE, divergence, root, notes)


def _native_notes(root: CallFrame) -> list[str]:
    """Return a note for each native contract whose call was not replayed."""
    names = sorted({f.native or "a native contract" for f in root.walk() if f.note == NOT_REPLAYED})
    return [f"{name}: {NOT_REPLAYED}" for name in names]


def from_replay(
    facts: TraceFacts, run: TxRun, source: TraceSource, notes: Sequence[str], rules: str
) -> TraceResult:
    """Return a replay's run, proven against the receipt, with its state diff reconciled."""
    root = call_frame(run.recorder.top) if run.recorder.top is not None else None
    refused = f"the replay's VM refused the transaction: {run.refused}"
    divergence = (
        proven(facts, run_facts(run))
        if run.refused is None
        else Divergence(DivergenceKind.NOT_REPLAYED, refused)
    )
    if divergence is not None and run.recorder.unknown_opcodes:
        met = "; ".join(unknown_opcodes(run))
        divergence = Divergence(divergence.kind, f"{divergence.text} (the replay met {met}, "
                                "which its rules do not run)", divergence.log_index)  # fmt: skip
    said = list(notes) + (_native_notes(root) if root else [])
    result = _result(facts, source, divergence, root, said)
    diff = state_diff(run)
    problems = reconcile(diff, result.transfers)
    if problems:
        said.append(
            "the state diff does not reconcile with the money trail: " + "; ".join(problems)
        )
    return replace(result, diff=diff, notes=tuple(said), rules=rules)


def from_remasc(facts: TraceFacts) -> TraceResult:
    """Return REMASC's transaction: its payments, as its events tell (it is not replayed)."""
    receipt = facts.receipt
    logs = tuple(TraceLog(log.address.lower(), tuple(t.lower() for t in log.topics), log.data, i)
                 for i, log in enumerate(receipt.logs, start=1))  # fmt: skip
    paid = []
    for log in logs:
        payment = decode_remasc_log(log.topics, log.data)
        if payment is not None:
            paid.append(CallFrame(CallKind.CALL, REMASC, payment.receiver, payment.amount, b"",
                                  b"", None, 0, 0, 1, log.seq, note=MOVED_BY_EVENT))  # fmt: skip
    root = CallFrame(CallKind.CALL, facts.tx.sender, REMASC, 0, facts.tx.input, b"", None,
                     facts.tx.gas, receipt.gas_used, 0, 0, logs, tuple(paid), "REMASC",
                     NOT_REPLAYED)  # fmt: skip
    divergence = proven(
        facts, RunFacts(True, 0, tuple(RunLog(x.address, x.topics, x.data) for x in logs))
    )
    note = "REMASC's transaction (the block's last) is not replayed: its payments are its events"
    return _result(facts, TraceSource.REPLAY, divergence, root, [note])
