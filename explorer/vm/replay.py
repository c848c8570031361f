"""One replay run: transactions of a block, in order, over what is known of block N−1.

Pure: no IO. A run returns what it lacked (`needs`) and, per transaction, what it did: its
frames, status, gas and logs, and the state it changed. services/trace.py runs it in rounds,
fetching the needs between runs, until a run lacks nothing; that run is the replay.

Native contracts are not run here: a read-only call is answered by what eth_call at N−1
answered (a need until fetched); a state-changing one emits the receipt's own events from
that contract and moves the RBTC they tell of (a peg-in's credit, a refused peg-out's refund),
and its frame says it was not replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from eth.abc import ComputationAPI, SignedTransactionAPI
from eth.vm.forks.frontier.transactions import FrontierUnsignedTransaction
from eth.vm.spoof import SpoofTransaction
from eth_typing import Address, BlockNumber, Hash32
from eth_utils.exceptions import ValidationError

from explorer.chain.bridge_events import LockBtc, PeginBtc, ReleaseRequestRejected
from explorer.chain.bridge_logs import decode_bridge_log
from explorer.chain.trace import ANSWERED_BY_CALL, MOVED_BY_EVENT, NOT_REPLAYED
from explorer.chain.trace_proof import RunLog
from explorer.vm.computation import NativeFailure
from explorer.vm.frames import Frame, Recorder
from explorer.vm.lazy import Known, LazyHeader, LazyReads, Need, NeedKind, preload
from explorer.vm.natives import BRIDGE, REMASC, bridge_reads, natives_at
from explorer.vm.rules import Rules
from explorer.vm.state import RskState, state_class

WEI_PER_SATOSHI = 10**10


@dataclass(frozen=True)
class ReplayTx:
    """A transaction to replay, as the node gave it."""

    hash: bytes
    sender: bytes
    to: bytes | None
    nonce: int
    gas: int
    gas_price: int
    value: int
    data: bytes


@dataclass(frozen=True)
class BlockEnv:
    """The block the transactions run in: what NUMBER, TIMESTAMP, COINBASE … answer."""

    number: int
    timestamp: int
    coinbase: bytes
    difficulty: int
    gas_limit: int
    minimum_gas_price: int
    chain_id: int
    rules: Rules
    header_known: bool = True  # False: the fields above the number are not read yet


Key = tuple[NeedKind, bytes, int]


@dataclass
class TxRun:
    """What one transaction did in a run."""

    tx: ReplayTx
    recorder: Recorder
    status: bool = False
    gas_used: int = 0
    logs: tuple[RunLog, ...] = ()
    refused: str | None = None  # the VM refused the transaction (nonce, balance, gas)
    before: dict[Key, Any] = field(default_factory=dict)
    after: dict[Key, Any] = field(default_factory=dict)
    codes: dict[bytes, bytes] = field(default_factory=dict)


@dataclass
class RunOutcome:
    """A run's needs (empty: it knew everything) and each transaction's run."""

    needs: set[Need]
    runs: list[TxRun]


class _ReplayStateBase(LazyReads, RskState):
    """Typing aid: a Rootstock state that reads lazily."""

    native_logs: list[RunLog]
    claimed: int


@cache
def _replay_state(rules: Rules) -> type[_ReplayStateBase]:
    """Return the lazily reading state class of one set of rules."""
    return type("ReplayState", (LazyReads, state_class(rules)), {})


def _context(env: BlockEnv) -> LazyHeader:
    """Return py-evm's execution context of the block."""
    return LazyHeader(
        coinbase=Address(env.coinbase), timestamp=env.timestamp,
        block_number=BlockNumber(env.number), difficulty=env.difficulty,
        mix_hash=Hash32(bytes(32)), gas_limit=env.gas_limit, prev_hashes=(),
        chain_id=env.chain_id,
    )  # fmt: skip


def _spoofed(tx: ReplayTx) -> SignedTransactionAPI:
    """Return the transaction as py-evm runs it, posing as signed by its sender."""
    unsigned = FrontierUnsignedTransaction(
        nonce=tx.nonce, gas_price=tx.gas_price, gas=tx.gas, to=Address(tx.to or b""),
        value=tx.value, data=tx.data,
    )  # fmt: skip
    return SpoofTransaction(unsigned, from_=Address(tx.sender))  # type: ignore[return-value]


def _reads_only(address: bytes, data: bytes, value: int) -> bool:
    """Tell whether a native call only reads (the natives other than Bridge and REMASC do)."""
    if address == BRIDGE:
        return bridge_reads(data) and not value
    return address != REMASC


def _claim_logs(state: _ReplayStateBase, address: bytes) -> list[RunLog]:
    """Take the receipt's next run of events from a native contract, in order."""
    wanted = "0x" + address.hex()
    logs, start = state.native_logs, state.claimed
    first = next((i for i in range(start, len(logs)) if logs[i].address == wanted), None)
    if first is None:
        return []
    end = first
    while end < len(logs) and logs[end].address == wanted:
        end += 1
    state.claimed = end
    return logs[first:end]


def _bridge_moves(log: RunLog, caller: bytes, value: int) -> list[tuple[bytes, int]]:
    """Return the RBTC a Bridge event says moved out of the Bridge: (receiver, wei)."""
    decoded = decode_bridge_log(list(log.topics), log.data)
    event = decoded.event if decoded else None
    if isinstance(event, PeginBtc | LockBtc):
        return [(bytes.fromhex(event.receiver[2:]), event.amount_sat * WEI_PER_SATOSHI)]
    if isinstance(event, ReleaseRequestRejected) and event.reason != 2 and value:
        return [(caller, value)]  # a contract (reason 2) gets no refund (rskj)
    return []


def _native(state: _ReplayStateBase) -> Callable[[ComputationAPI], None]:
    """Return the code standing in for every native contract in a replay."""

    def run(computation: ComputationAPI) -> None:
        msg = computation.msg
        address, data = bytes(msg.code_address), bytes(msg.data_as_bytes)
        frame = state.recorder.current if state.recorder else None
        if _reads_only(address, data, msg.value):
            need = Need(NeedKind.NATIVE_CALL, address, 0, bytes(msg.sender), msg.value, data)
            if frame is not None:
                frame.note = ANSWERED_BY_CALL
            if need not in state.known:
                state.needs.add(need)
                return
            answer = state.known.get(need)
            if not answer.ok:
                raise NativeFailure(answer.error or "the native contract refused the call")
            computation.output = answer.output
            return
        if frame is not None:
            frame.note = NOT_REPLAYED
        for log in _claim_logs(state, address):
            topics = tuple(int(t, 16) for t in log.topics)
            computation.add_log_entry(Address(address), topics, log.data)
            for receiver, amount in _bridge_moves(log, bytes(msg.sender), msg.value):
                _pay_out(computation, state, frame, receiver, amount)

    return run


def _pay_out(
    computation: ComputationAPI,
    state: _ReplayStateBase,
    frame: Frame | None,
    receiver: bytes,
    amount: int,
) -> None:
    """Move RBTC out of a native contract as its event tells, as a frame of its own."""
    own = computation.msg.storage_address
    state.delta_balance(own, -amount)
    state.delta_balance(Address(receiver), amount)
    if frame is not None:
        seq = computation.transaction_context.get_next_log_counter()
        paid = Frame("CALL", bytes(own), receiver, amount, b"", 0, frame.depth + 1, seq,
                     note=MOVED_BY_EVENT)  # fmt: skip
        frame.children.append(paid)


def _values(state: _ReplayStateBase, keys: Sequence[Key], base: type[RskState]) -> dict[Key, Any]:
    """Return the current values of fields and slots, read without noting needs."""
    readers: Mapping[NeedKind, Callable[..., Any]] = {
        NeedKind.BALANCE: lambda a, _s: base.get_balance(state, a),
        NeedKind.NONCE: lambda a, _s: base.get_nonce(state, a),
        NeedKind.CODE: lambda a, _s: base.get_code(state, a),
        NeedKind.STORAGE: lambda a, s: base.get_storage(state, a, s),
    }
    return {key: readers[key[0]](Address(key[1]), key[2]) for key in keys if key[0] in readers}


def run(
    txs: Sequence[ReplayTx],
    env: BlockEnv,
    known: Known,
    receipt_logs: Sequence[RunLog] = (),
    high: bool = False,
) -> RunOutcome:
    """Run txs in order over what is known; the last one's receipt logs feed native writes."""
    db, root = preload(known)
    base = state_class(env.rules)
    context = _context(env)
    state = _replay_state(env.rules)(db, context, root)
    state.minimum_gas_price = env.minimum_gas_price
    state.natives = dict.fromkeys(natives_at(env.rules), _native(state))
    state.start_lazy(known, high)
    context.lacking = None if env.header_known else state.needs
    runs: list[TxRun] = []
    for position, tx in enumerate(txs):
        recorder = Recorder()
        state.recorder, state.claimed = recorder, 0
        state.native_logs = list(receipt_logs) if position == len(txs) - 1 else []
        state.begin_transaction()
        outcome = TxRun(tx, recorder)
        try:
            computation = state.apply_transaction(_spoofed(tx))
        except ValidationError as refused:
            outcome.refused = str(refused)
        else:
            outcome.status = computation.is_success
            outcome.gas_used = recorder.top.gas_used if recorder.top else 0
            outcome.logs = tuple(
                RunLog("0x" + bytes(a).hex(), tuple(f"0x{t:064x}" for t in topics), bytes(d))
                for a, topics, d in computation.get_log_entries()
            )
        outcome.before = dict(state.first)
        outcome.after = _values(state, list(state.first), base)
        outcome.codes = dict(state.codes_set)
        runs.append(outcome)
    return RunOutcome(set(state.needs), runs)
