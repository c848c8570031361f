"""What happened inside a transaction, from any node: ask for its trace first, else replay it.

`Tracer.trace(hash)` reads the transaction and its receipt in one round trip, asking the
node's own trace beside them (rskj's `debug_traceTransaction` with `callTracer`, then
`trace_transaction`; a node that refuses one is not asked again). Without one, it replays
the transaction with Rootstock's VM (explorer/vm) for the network and height over the state
at block N−1, read through the service's own methods in rounds: run, fetch every read the
run lacked in one round trip, run again, until a run lacks nothing (the block itself only
when a run read its time, miner, difficulty, gas limit or minimum gas price). When that
replay disagrees with the receipt, the block's earlier transactions are replayed before it.
A trace is proven against the receipt before it is called faithful (services/trace_build.py),
and a faithful one is kept in the chain's saved data for good, so a second look costs nothing.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from explorer.chain.records import Block, Receipt, Transaction
from explorer.chain.trace import TraceResult, TraceSource
from explorer.chain.trace_codec import decode, encode
from explorer.saved.cache import records_of
from explorer.services.budget import Estimate
from explorer.services.networks import NetworkKind
from explorer.services.probes import ReadCounts
from explorer.services.trace_build import (
    TraceFacts,
    from_node,
    from_remasc,
    from_replay,
    receipt_logs,
    replay_tx,
)
from explorer.services.trace_reads import TRACE_METHODS, fetch_needs, node_trace
from explorer.vm.lazy import HIGH_ADDRESS, Known, Need, NeedKind
from explorer.vm.natives import REMASC
from explorer.vm.replay import BlockEnv, ReplayTx, RunOutcome, run
from explorer.vm.rules import UnsupportedHeight, rule_set_of, rules_at

RECORD_KIND = "trace"
MAX_ROUNDS = 64  # a replay that has not settled by then is given up
ASK_ABOVE = 100  # a replay estimated above this many requests is asked for first


class TraceChoice(enum.Enum):
    """Which source `explorer trace --source` and the Inside tab ask for."""

    AUTO = "auto"  # the node's trace when it serves one, else a replay
    NODE = "node"
    REPLAY = "replay"


class TraceProblem(Exception):
    """A trace that cannot be made; the message says why in one sentence."""


class TraceNotFound(TraceProblem):
    """The transaction is not known to the node, or not mined: nothing ran inside it yet."""


class TraceOverBudget(TraceProblem):
    """A replay would cost more requests than allowed: it asks first, with the estimate."""

    def __init__(self, estimate: int, allowed: int, spent: int = 0) -> None:
        started = f" after {spent:,} requests" if spent else ""
        super().__init__(
            f"this replay would cost about {estimate:,} requests{started}, more than the "
            f"{allowed:,} allowed without asking"
        )
        self.estimate, self.allowed, self.spent = estimate, allowed, spent


@dataclass
class TraceProgress:
    """How far a trace has come: rounds done and requests spent (for a page to show)."""

    round_trips: int = 0
    requests: int = 0
    what: str = "reading the transaction"


Progress = Callable[[TraceProgress], None]


def replay_estimate(facts: TraceFacts) -> Estimate:
    """Return about what a replay costs: accounts and slots guessed from gas and logs."""
    receipt = facts.receipt
    addresses = {log.address for log in receipt.logs}
    guess = 3 + 3 * len(addresses) + 2 * len(receipt.logs) + receipt.gas_used // 5_000
    return Estimate(guess, f"Replaying transaction {facts.tx.hash[:10]}…")


class Tracer:
    """Traces transactions of one session's chain (its client, reader and saved data)."""

    def __init__(
        self,
        client: Any,
        reader: Any,
        chain_id: int,
        genesis_hash: str | None,
        node_traces: bool = True,
    ) -> None:
        """Trace through client and reader; node_traces: whether the node may serve traces."""
        self.client, self.reader = client, reader
        self.chain_id, self.genesis_hash = chain_id, genesis_hash
        self.node_traces = node_traces
        self.counts = ReadCounts()

    async def saved(self, tx_hash: str) -> TraceResult | None:
        """Return the kept trace of a transaction (no request), or None."""
        records = records_of(self.client)
        found = decode(await records.get(RECORD_KIND, tx_hash.lower())) if records else None
        return replace(found, requests=0, round_trips=0) if found else None

    async def _keep(self, result: TraceResult) -> bool:
        """Keep a faithful trace in the saved data once its block is settled.

        Whether it is needs the head: read once (one request) when nothing told it yet; tell
        whether it was read.
        """
        records = records_of(self.client)
        if records is None or not result.faithful:
            return False
        asked = records.state.head is None
        if asked:
            await self.reader.latest_number()  # the saved data sees the head go by
        records.keep(RECORD_KIND, result.tx, encode(result), result.block)
        return asked

    @staticmethod
    def _mined(tx_hash: str, tx: Transaction | None, receipt: Receipt | None) -> TraceFacts:
        """Return what was read of a mined transaction (TraceNotFound otherwise)."""
        if tx is None:
            raise TraceNotFound(f"transaction {tx_hash} is not known to this node")
        if receipt is None or tx.block_hash is None:
            raise TraceNotFound(f"transaction {tx_hash} is not mined yet: nothing ran inside it")
        return TraceFacts(tx, receipt, None)

    async def _block(self, facts: TraceFacts) -> Block:
        """Read the transaction's block (its context: time, miner, minimum gas price …)."""
        block: Block | None = await self.reader.block(facts.receipt.block_hash)
        if block is None:
            raise TraceProblem(f"the node does not return block {facts.receipt.block_hash}")
        return block

    async def trace(
        self,
        tx_hash: str,
        choice: TraceChoice = TraceChoice.AUTO,
        allowed: int | None = ASK_ABOVE,
        progress: Progress | None = None,
    ) -> TraceResult:
        """Return what happened inside a transaction, proven against its receipt.

        allowed caps the requests a replay may spend (None: any); above it TraceOverBudget
        asks first. Cancelling the task stops the trace between rounds.
        """
        kept = await self.saved(tx_hash)
        if kept is not None and choice in (TraceChoice.AUTO, _choice_of(kept.source)):
            return kept
        shown = progress or (lambda _p: None)
        state = TraceProgress()
        start = self.client.stats.total  # requests sent meanwhile (the quota's count)
        asks = choice is TraceChoice.NODE or (choice is TraceChoice.AUTO and self.node_traces)
        methods = TRACE_METHODS if asks else ()
        read = asyncio.gather(self.reader.transaction(tx_hash), self.reader.receipt(tx_hash))
        asked = asyncio.ensure_future(node_trace(self.client, tx_hash, self.counts, methods))
        try:
            (tx, receipt), traced = await asyncio.gather(read, asked)
        finally:
            asked.cancel()
        facts = self._mined(tx_hash, tx, receipt)
        state.round_trips = 1
        if traced is not None:
            result = from_node(facts, *traced)
        elif choice is TraceChoice.NODE:
            raise TraceProblem(
                "this node serves no trace of transactions (debug_traceTransaction, "
                "trace_transaction): choose the replay instead"
            )
        else:
            result = await self._replay(facts, allowed, state, shown)
        if await self._keep(result):
            state.round_trips += 1
        spent = self.client.stats.total - start
        return replace(result, requests=spent, round_trips=state.round_trips)

    async def _replay(
        self, facts: TraceFacts, allowed: int | None, state: TraceProgress, shown: Progress
    ) -> TraceResult:
        """Replay a transaction alone, then after its block's earlier ones if it diverged."""
        if facts.is_remasc:
            return from_remasc(facts)
        estimate = replay_estimate(facts).requests
        if allowed is not None and estimate > allowed:
            raise TraceOverBudget(estimate, allowed)
        target = replay_tx(facts.tx)
        known = _known_nonces([target])
        await self._fetch(known, _first_needs(target), facts.receipt.block_number - 1)
        state.round_trips += 1
        env = self._env(facts.receipt.block_number, None)
        logs = receipt_logs(facts.receipt)
        base = f"replayed under {env.rules.rule_set.value} rules over the state at block "
        base += f"{env.number - 1:,}"
        alone, env = await self._rounds(facts, [target], env, logs, allowed, state, shown, known)
        result = from_replay(facts, alone.runs[-1], TraceSource.REPLAY, [base], env.rules.key)
        if result.faithful or facts.receipt.transaction_index == 0:
            return _with_floor(result, alone)
        earlier = await self._earlier(facts)
        state.what = f"replaying the {len(earlier)} earlier transactions of the block first"
        shown(state)
        state.round_trips += 1
        both, _ = await self._rounds(facts, [*earlier, target], env, logs, allowed, state,
                                     shown, _known_nonces([*earlier, target], known))  # fmt: skip
        why = result.divergence.text if result.divergence else ""
        note = (f"the block's {len(earlier)} earlier transactions replayed first: from block "
                f"N−1 alone the replay diverged ({why})")  # fmt: skip
        again = from_replay(facts, both.runs[-1], TraceSource.REPLAY_WITH_BLOCK, [base, note],
                            env.rules.key)  # fmt: skip
        return _with_floor(again, both)

    async def _earlier(self, facts: TraceFacts) -> list[ReplayTx]:
        """Return the transactions before this one in its block (one request)."""
        block = await self.reader.block(facts.receipt.block_hash, full=True)
        if block is None or block.transactions is None:
            raise TraceProblem(f"the node does not return block {block_name(facts)}'s transactions")
        return [replay_tx(tx) for tx in block.transactions[: facts.receipt.transaction_index]]

    async def _fetch(self, known: Known, needs: set[Need], block: int) -> None:
        """Read needs at block in one round trip and add them to what is known."""
        for need, value in (await fetch_needs(self.client, needs, block, self.counts)).items():
            known.add(need, value)

    def _env(self, number: int, block: Block | None) -> BlockEnv:
        """Return the block the replay runs in, with the rules of its network and height.

        Without the block (not read yet: most replays never need it) its header's fields are
        zero, and a run that reads one of them says so (vm/lazy.py's LazyHeader).
        """
        try:
            rules = rules_at(rule_set_of(self.chain_id, self.genesis_hash), number)
        except UnsupportedHeight as error:
            raise TraceProblem(str(error)) from None
        if block is None:
            return BlockEnv(number=number, timestamp=0, coinbase=bytes(20), difficulty=0,
                            gas_limit=0, minimum_gas_price=0, chain_id=self.chain_id,
                            rules=rules, header_known=False)  # fmt: skip
        return BlockEnv(
            number=number, timestamp=block.timestamp,
            coinbase=bytes.fromhex((block.miner or "0x" + "00" * 20)[2:]),
            difficulty=block.difficulty, gas_limit=block.gas_limit,
            minimum_gas_price=block.minimum_gas_price or 0, chain_id=self.chain_id, rules=rules,
        )  # fmt: skip

    async def _rounds(
        self,
        facts: TraceFacts,
        txs: Sequence[ReplayTx],
        env: BlockEnv,
        logs: Sequence[Any],
        allowed: int | None,
        state: TraceProgress,
        shown: Progress,
        known: Known,
    ) -> tuple[RunOutcome, BlockEnv]:
        """Run, fetch what the run lacked, run again, until a run lacks nothing.

        The block's header is read in the round whose run first read one of its fields.
        """
        for _round in range(MAX_ROUNDS):
            outcome = await asyncio.to_thread(run, txs, env, known, logs)
            needs = {n for n in outcome.needs if n not in known}
            if not needs:
                return outcome, env
            if any(n.kind in (NeedKind.BALANCE, NeedKind.STORAGE) for n in needs):
                explored = await asyncio.to_thread(run, txs, env, known, logs, True)
                needs |= {n for n in explored.needs if n not in known and n.address != HIGH_ADDRESS}
            spent = self.counts.reads
            if allowed is not None and spent + len(needs) > allowed:
                raise TraceOverBudget(spent + len(needs), allowed, spent)
            state.what = f"reading {len(needs)} accounts and slots at block {env.number - 1:,}"
            shown(state)
            header = {n for n in needs if n.kind is NeedKind.HEADER}
            fetched = self._fetch(known, needs - header, env.number - 1)
            if header:
                block, _ = await asyncio.gather(self._block(facts), fetched)
                env = self._env(env.number, block)
            else:
                await fetched
            state.round_trips += 1
            state.requests = self.counts.reads  # the replay's own reads so far
            shown(state)
        raise TraceProblem(f"the replay did not settle after {MAX_ROUNDS} rounds of reads")


def _known_nonces(txs: Sequence[ReplayTx], known: Known | None = None) -> Known:
    """Return what is known before any read: each sender's nonce at N−1, from its transaction."""
    found = Known(dict(known.values) if known else {})
    for tx in reversed(txs):  # the earliest transaction of a sender names its nonce at N−1
        found.add(Need(NeedKind.NONCE, tx.sender), tx.nonce)
    return found


def _first_needs(tx: ReplayTx) -> set[Need]:
    """Return what every replay of tx reads: its sender's and REMASC's balances, the code run."""
    needs = {Need(NeedKind.BALANCE, tx.sender), Need(NeedKind.BALANCE, REMASC)}
    if tx.to is not None:
        needs.add(Need(NeedKind.CODE, tx.to))
        if tx.value:
            needs.add(Need(NeedKind.BALANCE, tx.to))
    return needs


def block_name(facts: TraceFacts) -> str:
    """Name a transaction's block by number."""
    return f"{facts.receipt.block_number:,}"


def tracer_of(session: Any) -> Tracer:
    """Return a Tracer of a verified session's chain (its chain id and genesis block).

    The hosted service (and the devnet that stands in for it) has no trace method (its 26
    methods, docs/service.md §4.2): AUTO does not ask it; a custom endpoint may be a node
    with rskj's debug or trace module on.
    """
    genesis = session.check.genesis_hash or session.network.genesis_hash
    asks = session.network.kind is NetworkKind.CUSTOM
    return Tracer(session.client, session.reader, session.network.chain_id, genesis, asks)


def _choice_of(source: TraceSource) -> TraceChoice:
    """Return the choice a kept trace answers."""
    return TraceChoice.NODE if source is TraceSource.NODE_TRACE else TraceChoice.REPLAY


def _with_floor(result: TraceResult, outcome: RunOutcome) -> TraceResult:
    """Add how many distinct accounts and slots the replay touched (its floor of requests)."""
    keys = {key for tx_run in outcome.runs for key in tx_run.before}
    accounts = {address for kind, address, _slot in keys if kind is not NeedKind.STORAGE}
    slots = {(address, slot) for kind, address, slot in keys if kind is NeedKind.STORAGE}
    return replace(result, accounts_read=len(accounts), slots_read=len(slots))
