"""The pure parts of a trace: its proof, money trail, state diff check, saved form, node shapes."""

from __future__ import annotations

from dataclasses import replace

from explorer.chain.known import REMASC
from explorer.chain.logrecords import Log
from explorer.chain.node_trace import from_call_tracer, from_parity, shapes
from explorer.chain.trace import (
    REVERTED,
    AccountChange,
    AssetKind,
    CallFrame,
    CallKind,
    DivergenceKind,
    StateDiff,
    TraceLog,
    TraceResult,
    TraceSource,
)
from explorer.chain.trace_codec import decode, encode
from explorer.chain.trace_money import TRANSFER_TOPIC, money_trail, reconcile, running_totals
from explorer.chain.trace_proof import RunFacts, RunLog, prove

A, B, C = "0x" + "aa" * 20, "0x" + "bb" * 20, "0x" + "cc" * 20
TOKEN = "0x" + "70" * 20


def _log(address: str, *topics: str, data: bytes = b"") -> Log:
    """Return a receipt's log."""
    return Log(address, topics, data, None, None, None, None, None)


def _word(address: str) -> str:
    """Return an address as a 32-byte topic."""
    return "0x" + "00" * 12 + address[2:]


def test_a_trace_matching_the_receipt_is_proven() -> None:
    """Same status, logs and gas: no divergence."""
    logs = (RunLog(A, ("0x01",), b"x"),)
    assert prove(RunFacts(True, 50_000, logs), True, 50_000, [_log(A, "0x01", data=b"x")]) is None


def test_the_first_difference_is_named_status_then_log_then_gas() -> None:
    """Status outranks logs, logs outrank gas; a log difference names its index."""
    receipt = [_log(A, "0x01"), _log(B, "0x02")]
    ours = (RunLog(A, ("0x01",), b""), RunLog(C, ("0x02",), b""))
    status = prove(RunFacts(False, 1, ours), True, 2, receipt)
    assert status is not None
    assert status.kind is DivergenceKind.STATUS
    log = prove(RunFacts(True, 1, ours), True, 2, receipt)
    assert log is not None
    assert (log.kind, log.log_index) == (DivergenceKind.LOG, 1)
    assert "address" in log.text
    count = prove(RunFacts(True, 2, ours[:1]), True, 2, receipt)
    assert count is not None
    assert "2 logs" in count.text
    gas = prove(RunFacts(True, 1, (ours[0], RunLog(B, ("0x02",), b""))), True, 2, receipt)
    assert gas is not None
    assert gas.kind is DivergenceKind.GAS


def _frame(
    kind: CallKind,
    sender: str,
    to: str,
    value: int,
    depth: int,
    seq: int,
    *calls: CallFrame,
    error: str | None = None,
    logs: tuple[TraceLog, ...] = (),
) -> CallFrame:
    """Return a frame for the money trail's tests."""
    return CallFrame(kind, sender, to, value, b"", b"", error, 0, 0, depth, seq, logs, calls)


def test_the_money_trail_keeps_what_took_effect_in_order_and_the_fee_last() -> None:
    """A reverted frame's moves are gone; a token event is a move at its frame's depth."""
    event = TraceLog(TOKEN, (TRANSFER_TOPIC, _word(B), _word(C)), (7).to_bytes(32, "big"), 4)
    failed = _frame(
        CallKind.CALL, B, C, 9, 1, 2, _frame(CallKind.CALL, C, A, 1, 2, 3), error=REVERTED
    )
    root = _frame(CallKind.CALL, A, B, 5, 0, 1, failed,
                  _frame(CallKind.CALL, B, TOKEN, 0, 1, 4, logs=(event,)),
                  _frame(CallKind.DELEGATECALL, B, C, 5, 1, 5))  # fmt: skip
    trail = money_trail(root, A, 21, ())
    assert [(m.kind, m.sender, m.receiver, m.amount, m.depth) for m in trail] == [
        (AssetKind.NATIVE, A, B, 5, 0),
        (AssetKind.ERC20, B, C, 7, 1),
        (AssetKind.FEE, A, REMASC, 21, 0),
    ]
    assert trail[1].asset == TOKEN
    totals = running_totals(trail)
    assert totals[-1][("native", A)] == -26


def test_reconcile_names_a_balance_the_trail_does_not_explain() -> None:
    """Before + received − sent = after, or the address is named."""
    trail = money_trail(_frame(CallKind.CALL, A, B, 5, 0, 1), A, 2, ())
    good = StateDiff((AccountChange(A, 100, 93), AccountChange(B, 0, 5),
                      AccountChange(REMASC, 0, 2)), (), (), ())  # fmt: skip
    assert reconcile(good, trail) == []
    bad = replace(good, balances=(AccountChange(A, 100, 93), AccountChange(B, 0, 4),
                                  AccountChange(REMASC, 0, 2)))  # fmt: skip
    assert [p.split(":")[0] for p in reconcile(bad, trail)] == [B]


def test_a_kept_trace_reads_back_equal_and_another_version_reads_as_none() -> None:
    """The saved form round-trips; a record of another format is made again."""
    root = _frame(CallKind.CALL, A, B, 2**200, 0, 1, _frame(CallKind.CREATE2, B, C, 0, 1, 2))
    diff = StateDiff((AccountChange(A, 3, 2),), (), (), ())
    result = TraceResult("0x" + "11" * 32, 7, "0x" + "22" * 32, 0, TraceSource.REPLAY, True,
                         None, True, 21_000, 10**18, root, money_trail(root, A, 10**18), diff,
                         ("a note",), "regtest")  # fmt: skip
    assert decode(encode(result)) == result
    assert decode({**encode(result), "version": 0}) is None


def test_rskj_s_two_trace_shapes_read_into_the_same_tree() -> None:
    """CallTracer's nested calls and trace_transaction's paths give one tree; quirks undone."""
    nested = {"type": "CALL", "from": A, "to": B, "value": "0x5", "gas": "0x100",
              "gasUsed": "0x50", "input": "0x1234", "output": "0x1",
              "calls": [{"type": "CREATE", "from": B, "value": "0x0", "gas": "0x10",
                         "gasUsed": "0x8", "input": "0x60", "output": C}]}  # fmt: skip
    flat = [
        {"action": {"callType": "call", "from": A, "to": B, "value": "0x5", "gas": "0x100",
                    "input": "0x1234"}, "type": "call", "traceAddress": [],
         "result": {"gasUsed": "0x50", "output": "0x" + "00" * 31 + "01"}},
        {"action": {"from": B, "value": "0x0", "gas": "0x10", "init": "0x60",
                    "creationMethod": "create"}, "type": "create", "traceAddress": [0],
         "result": {"gasUsed": "0x8", "address": C, "code": "0x"}},
    ]  # fmt: skip
    tree = from_call_tracer(nested)
    assert tree.output == (1).to_bytes(32, "big")  # rskj's quantity output, padded back
    assert list(shapes(tree)) == list(shapes(from_parity(flat)))
    assert tree.calls[0].to == C


def test_an_internal_input_repeating_the_transaction_s_is_dropped() -> None:
    """Rskj's trace_transaction repeats the transaction's input for every internal call."""
    flat = [
        {"action": {"callType": "call", "from": A, "to": B, "value": "0x0", "gas": "0x1",
                    "input": "0xabcd"}, "type": "call", "traceAddress": [], "result": {}},
        {"action": {"callType": "call", "from": B, "to": C, "value": "0x0", "gas": "0x1",
                    "input": "0xabcd"}, "type": "call", "traceAddress": [0], "result": {}},
    ]  # fmt: skip
    tree = from_parity(flat)
    assert (tree.input, tree.calls[0].input) == (bytes.fromhex("abcd"), b"")
