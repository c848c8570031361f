"""The Tracer against the devnet: replays proven, agreeing with the node's trace, reconciled raw."""

from __future__ import annotations

import asyncio
import contextlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account

from explorer.chain.node_trace import shapes, without_natives
from explorer.chain.trace import TraceResult, TraceSource
from explorer.rpc.client import RpcClient
from explorer.services.reader import ChainReader
from explorer.services.session import Session
from explorer.services.trace import (
    TraceChoice,
    TraceOverBudget,
    TraceProgress,
    Tracer,
    tracer_of,
)
from explorer.services.trace_reads import NoOldState
from explorer.vm.rules import RuleSet
from tests.helpers.cache import post, with_saved_session
from tests.helpers.devnet import Devnet
from tests.helpers.logs_node import with_client
from tests.helpers.relay import Relay
from tests.helpers.scripted_server import Recorded, Reply
from tests.helpers.trace import INSIDE_STORIES, seeded_calls

TESTNET_GENESIS = "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42"


def trace_at(
    url: str, tx_hash: str, choice: TraceChoice = TraceChoice.REPLAY, **options: Any
) -> TraceResult:
    """Trace one transaction with a fresh client (no saved data), as the devnet's chain."""

    async def use(client: RpcClient) -> TraceResult:
        chain_id = int(await client.request("eth_chainId"), 16)
        genesis = options.pop("genesis", None)
        tracer = Tracer(client, ChainReader(client), chain_id, genesis)
        return await tracer.trace(tx_hash, choice, allowed=None, **options)

    return with_client(url, use)


def test_every_seeded_transaction_with_internal_calls_replays_faithfully(
    devnet: Devnet, devnet_trace: Devnet
) -> None:
    """Each replay matches its receipt, and the devnet's own trace tells the same tree."""
    for name, tx_hash in seeded_calls(devnet.manifest()).items():
        replayed = trace_at(devnet.url(), tx_hash)
        assert replayed.faithful, (name, replayed.divergence)
        assert replayed.source is TraceSource.REPLAY
        node = trace_at(devnet_trace.url(), tx_hash, TraceChoice.NODE)
        assert node.source is TraceSource.NODE_TRACE
        assert node.faithful, name
        assert replayed.root is not None
        assert node.root is not None
        assert list(shapes(without_natives(replayed.root))) == list(shapes(node.root)), name


def sign_raw(tx: dict[str, Any], key: str) -> bytes:
    """Return a legacy transaction signed with key."""
    signed: bytes = Account.sign_transaction(tx, key).raw_transaction
    return signed


def _raw(url: str, method: str, *params: Any) -> int:
    """Read a quantity with a plain HTTP POST (a path independent of the app's client)."""
    return int(post(url, method, *params), 16)


def _touched_by_others(url: str, result: TraceResult) -> set[str]:
    """Return the accounts the block's other transactions changed (their own faithful replays)."""
    block = post(url, "eth_getBlockByNumber", hex(result.block), False)
    touched: set[str] = set()
    for other in block["transactions"]:
        if other == result.tx:
            continue
        traced = trace_at(url, other)
        assert traced.faithful, other
        if traced.diff is not None:
            diff = traced.diff
            touched |= {change.address for change in (*diff.balances, *diff.nonces)}
            touched |= {change.address for change in diff.storage}
    return touched


def test_every_replay_reconciles_with_balances_read_raw_at_n_minus_1_and_n(devnet: Devnet) -> None:
    """The state diff's before and after are the node's own balances, nonces and slots.

    Each inside story is alone in its block; the payroll's and the split's blocks hold other
    transactions too, so an account those changed as well is left out (the rest is checked).
    """
    url = devnet.url()
    for name, tx_hash in seeded_calls(devnet.manifest()).items():
        result = trace_at(url, tx_hash)
        assert result.diff is not None
        others = _touched_by_others(url, result)
        assert not others or name not in INSIDE_STORIES, (name, others)
        before, after = hex(result.block - 1), hex(result.block)
        balances = [c for c in result.diff.balances if c.address not in others]
        nonces = [c for c in result.diff.nonces if c.address not in others]
        slots = [c for c in result.diff.storage if c.address not in others]
        assert balances, name  # something is left to compare
        for change in balances:
            read = (_raw(url, "eth_getBalance", change.address, before),
                    _raw(url, "eth_getBalance", change.address, after))  # fmt: skip
            assert read == (change.before, change.after), (name, change.address)
        for nonce in nonces:
            read = (_raw(url, "eth_getTransactionCount", nonce.address, before),
                    _raw(url, "eth_getTransactionCount", nonce.address, after))  # fmt: skip
            assert read == (nonce.before, nonce.after), (name, nonce.address)
        for slot in slots:
            read = (_raw(url, "eth_getStorageAt", slot.address, hex(slot.slot), before),
                    _raw(url, "eth_getStorageAt", slot.address, hex(slot.slot), after))  # fmt: skip
            assert read == (slot.before, slot.after), (name, slot.address, slot.slot)
        assert not [n for n in result.notes if "does not match" in n], name


def test_the_deep_call_shows_value_events_and_tokens_deep_inside(devnet: Devnet) -> None:
    """The treasury's payment is a frame at depth 5, the token's Transfer an event at depth 4."""
    result = trace_at(devnet.url(), str(devnet.manifest()["inside"]["deep_call"]))
    kinds = [(move.kind.value, move.depth) for move in result.transfers]
    assert ("native", 5) in kinds
    assert ("erc20", 4) in kinds
    assert kinds[-1] == ("fee", 0)
    assert result.root is not None
    assert result.root.max_depth == 5


def test_a_revert_caught_inside_try_catch_is_shown_and_undoes_only_its_frame(
    devnet: Devnet,
) -> None:
    """The failed payment is a reverted frame; the transaction and the second payment stand."""
    result = trace_at(devnet.url(), str(devnet.manifest()["inside"]["caught_revert"]))
    assert result.status
    frames = list(result.frames())
    reverted = [frame for frame in frames if frame.reverted]
    assert len(reverted) == 1
    assert [m.kind.value for m in result.transfers] == ["native", "fee"]


def test_bridge_calls_from_a_contract_are_kept_and_say_how_they_were_answered(
    devnet: Devnet,
) -> None:
    """Reads are answered by eth_call at N−1; a peg-out request is the receipt's event."""
    inside = devnet.manifest()["inside"]
    read = trace_at(devnet.url(), str(inside["bridge_read"]))
    natives = [frame for frame in read.frames() if frame.native == "Bridge"]
    assert len(natives) == 2
    assert all("eth_call" in (frame.note or "") for frame in natives)
    write = trace_at(devnet.url(), str(inside["bridge_write"]))
    pegout = [frame for frame in write.frames() if frame.native == "Bridge"]
    assert len(pegout) == 1
    assert "not replayed" in (pegout[0].note or "")
    assert any("Bridge" in note for note in write.notes)


def test_a_transaction_needing_its_block_s_earlier_ones_is_replayed_after_them(
    devnet: Devnet,
) -> None:
    """The approval's spend reads the allowance set just before it in the same block."""
    approval = post(devnet.url(), "eth_getTransactionByHash", devnet.manifest()["approval"])
    spend = post(devnet.url(), "eth_getTransactionByBlockNumberAndIndex",
                 approval["blockNumber"], "0x1")  # fmt: skip
    result = trace_at(devnet.url(), spend["hash"])
    assert result.faithful
    assert result.source is TraceSource.REPLAY_WITH_BLOCK
    assert any("earlier transactions" in note for note in result.notes)


def test_an_opcode_the_rules_do_not_know_makes_the_replay_diverge_and_is_named(
    devnet: Devnet,
) -> None:
    """Replayed under testnet's heights, SELFBALANCE (RSKIP151, Papyrus) is not there yet."""
    tx_hash = str(devnet.manifest()["inside"]["create2_call"])
    result = trace_at(devnet.url(), tx_hash, genesis=TESTNET_GENESIS)
    assert not result.faithful
    assert result.divergence is not None
    assert "0x47" in result.divergence.text
    assert RuleSet.TESTNET.value in result.rules


def test_a_replay_over_the_allowed_requests_asks_first_with_its_estimate(devnet: Devnet) -> None:
    """Nothing is read at N−1 before the caller says yes."""

    async def use(client: RpcClient) -> tuple[TraceOverBudget, int]:
        tracer = Tracer(client, ChainReader(client), 31, None)
        with pytest.raises(TraceOverBudget) as asked:
            await tracer.trace(str(devnet.manifest()["inside"]["wide_call"]), allowed=10)
        return asked.value, client.stats.by_method["eth_getBalance"]

    asked, balances = with_client(devnet.url(), use)
    assert asked.estimate > 10
    assert "would cost about" in str(asked)
    assert balances == 0


def test_a_second_look_costs_no_request(devnet: Devnet, tmp_path: Path) -> None:
    """A faithful trace is kept in the saved data; the next session reads it from there."""
    tx_hash = str(devnet.manifest()["inside"]["payroll_call"])
    relay = Relay(devnet.url())
    try:

        async def look(session: Session) -> tuple[TraceResult, int]:
            before = len(relay.server.requests)
            result = await tracer_of(session).trace(tx_hash, allowed=None)
            return result, len(relay.server.requests) - before

        first, spent = with_saved_session(relay.url, tmp_path, look)
        again, spent_again = with_saved_session(relay.url, tmp_path, look)
    finally:
        relay.close()
    assert (first.faithful, first.requests > 0, spent > 0) == (True, True, True)
    assert (again.requests, spent_again) == (0, 0)
    assert again.root == first.root


def test_cancel_mid_replay_stops_between_rounds(devnet: Devnet) -> None:
    """Cancelling the task after its first round of reads ends it; nothing more is read."""

    async def use(client: RpcClient) -> tuple[bool, int, int]:
        tracer = Tracer(client, ChainReader(client), 31, None)
        rounds: list[int] = []
        task: asyncio.Task[TraceResult] | None = None

        def seen(progress: TraceProgress) -> None:
            rounds.append(progress.round_trips)
            if progress.round_trips >= 2 and task is not None:
                task.cancel()

        tx_hash = str(devnet.manifest()["inside"]["deep_call"])
        task = asyncio.ensure_future(tracer.trace(tx_hash, allowed=None, progress=seen))
        with contextlib.suppress(asyncio.CancelledError):
            await task
        spent = tracer.counts.reads
        await asyncio.sleep(0.2)
        return task.cancelled(), spent, tracer.counts.reads

    cancelled, spent, later = with_client(devnet.url(), use)
    assert cancelled
    assert later == spent


STATE_READS = ("eth_getBalance", "eth_getTransactionCount", "eth_getCode", "eth_getStorageAt")


class PrunedRelay(Relay):
    """A node that keeps no old state: state reads at any numbered block fail, as pruned ones do."""

    def _relay(self, request: Recorded) -> Reply:
        """Refuse old state reads (alone or in a batch); relay the rest."""
        body = request.json
        calls = body if isinstance(body, list) else [body]
        if not any(isinstance(c, dict) and c.get("method") in STATE_READS for c in calls):
            return super()._relay(request)
        answers = [
            {
                "jsonrpc": "2.0",
                "id": c["id"],
                "error": {"code": -32000, "message": "missing trie node"},
            }
            if c.get("method") in STATE_READS
            else json.loads(super()._relay(replace(request, body=json.dumps(c).encode())).body)
            for c in calls
        ]
        answer = answers if isinstance(body, list) else answers[0]
        return Reply(200, json.dumps(answer).encode(), {"Content-Type": "application/json"})


def test_a_node_without_old_state_is_named_and_nothing_is_shown(devnet: Devnet) -> None:
    """The replay needs the state at N−1: a node that has none is said in one sentence."""
    relay = PrunedRelay(devnet.url())
    try:
        with pytest.raises(NoOldState, match=r"keeps no state before block .*archive node"):
            trace_at(relay.url, str(devnet.manifest()["inside"]["payroll_call"]))
    finally:
        relay.close()


def test_the_block_is_read_only_when_the_replay_reads_its_header(
    devnet: Devnet, devnet_trace: Devnet
) -> None:
    """A token transfer reads no block; a creation storing TIMESTAMP and COINBASE reads it once."""
    url = devnet_trace.url()

    async def use(client: RpcClient) -> tuple[TraceResult, int]:
        tracer = Tracer(client, ChainReader(client), 31, None, node_traces=False)
        result = await tracer.trace(tx_hash, allowed=None)
        return result, client.stats.by_method["eth_getBlockByHash"]

    tx_hash = str(devnet.manifest()["token_transfer"])
    plain, plain_blocks = with_client(devnet.url(), use)
    assert (plain.faithful, plain_blocks) == (True, 0)
    manifest = devnet_trace.manifest()
    sender, key = manifest["accounts"][3], manifest["private_keys"][3]
    init = bytes([0x42, 0x60, 0x00, 0x55, 0x41, 0x60, 0x01, 0x55, 0x00])  # slots 0, 1: time, miner
    nonce = _raw(url, "eth_getTransactionCount", sender, "pending")
    price = _raw(url, "eth_gasPrice")
    tx = {"nonce": nonce, "gas": 100_000, "gasPrice": price, "value": 0, "data": init}
    tx["chainId"] = 31
    tx_hash = post(url, "eth_sendRawTransaction", "0x" + sign_raw(tx, key).hex())
    result, blocks = with_client(url, use)
    assert (result.faithful, result.source, blocks) == (True, TraceSource.REPLAY, 1)
    block = post(url, "eth_getBlockByNumber", hex(result.block), False)
    assert result.diff is not None
    stored = {change.slot: change.after for change in result.diff.storage}
    assert stored == {0: int(block["timestamp"], 16), 1: int(block["miner"], 16)}
