"""The newest blocks served before the whole chain exists, and a chain kept across restarts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from explorer.devnet.blocks import retimed_block
from explorer.devnet.buildprofile import BuildProfile, Stopwatch
from explorer.devnet.clock import dated_to_start, is_seeded, started_at
from explorer.devnet.envelope import still_building
from explorer.devnet.errors import STILL_BUILDING_TEXT
from explorer.devnet.filling import FillingNode, NotYetLoaded, StillBuilding, when_loaded
from explorer.devnet.node import DevnetNode, open_node
from explorer.devnet.recent import RECENT_COUNT, recent_node, recent_of
from explorer.devnet.seed import SMALL, seeded_timestamp
from explorer.devnet.snapshot import (
    build_snapshot,
    forget_kept,
    keep_chain,
    load_snapshot,
    snapshot_path,
)
from explorer.rpc.nodefailures import classify
from tests.helpers.node import send, sign


@pytest.fixture
def pair(small_cache: Path) -> tuple[DevnetNode, DevnetNode]:
    """Return the small history's node of its newest blocks alone, and its whole node."""
    snapshot = load_snapshot(snapshot_path(small_cache, 31, SMALL))
    assert snapshot is not None
    recent = recent_node(recent_of(snapshot, 31, SMALL), instant_mining=True)
    return recent, open_node(31, cache_dir=small_cache, seed=SMALL)


def test_the_newest_blocks_answer_as_the_whole_chain_does(
    pair: tuple[DevnetNode, DevnetNode],
) -> None:
    recent, whole = pair
    head = whole.head_number
    first = head - min(RECENT_COUNT, head) + 1
    assert recent.handle("eth_blockNumber", []) == whole.handle("eth_blockNumber", [])
    for number in (first, head - 1, head):
        for full in (False, True):
            asked = [hex(number), full]
            assert recent.handle("eth_getBlockByNumber", asked) == whole.handle(
                "eth_getBlockByNumber", asked
            )
    block = whole.handle("eth_getBlockByNumber", ["latest", True])
    assert recent.handle("eth_getBlockByHash", [block["hash"], False]) == whole.handle(
        "eth_getBlockByHash", [block["hash"], False]
    )
    tx = block["transactions"][0]["hash"]
    for method in ("eth_getTransactionByHash", "eth_getTransactionReceipt"):
        assert recent.handle(method, [tx]) == whole.handle(method, [tx])
    for method in ("eth_chainId", "net_version", "web3_clientVersion", "eth_gasPrice"):
        assert recent.handle(method, []) == whole.handle(method, [])


@pytest.mark.parametrize(
    ("method", "params"),
    [
        ("eth_getBlockByNumber", ["0x1", False]),
        ("eth_getBlockByHash", ["0x" + "ab" * 32, False]),
        ("eth_getTransactionByHash", ["0x" + "cd" * 32]),
        ("eth_getBalance", ["0x" + "11" * 20, "latest"]),
        ("eth_getTransactionCount", ["0x" + "11" * 20, "pending"]),
        ("eth_call", [{"to": "0x" + "11" * 20, "data": "0x"}, "latest"]),
        ("eth_getLogs", [{"fromBlock": "0x0", "toBlock": "latest"}]),
        ("eth_getBlockByNumber", ["pending", False]),
        ("evm_mine", []),
    ],
)
def test_what_needs_older_history_or_state_waits(
    pair: tuple[DevnetNode, DevnetNode], method: str, params: list[Any]
) -> None:
    recent, _ = pair
    with pytest.raises(NotYetLoaded):
        recent.handle(method, params)


def test_a_waiting_call_is_answered_by_the_whole_chain_once_it_is_built(
    pair: tuple[DevnetNode, DevnetNode],
) -> None:
    recent, whole = pair
    filling = FillingNode(recent)
    asked = ["0x1", False]

    async def scenario() -> Any:
        answer = asyncio.ensure_future(
            when_loaded(
                filling, lambda: asyncio.to_thread(filling.handle, "eth_getBlockByNumber", asked)
            )
        )
        await asyncio.sleep(0.2)
        assert not answer.done()  # still waiting for the older history
        assert filling.mine_scheduled() is None  # nor does it mine meanwhile
        filling.finish(whole)
        return await asyncio.wait_for(answer, 10)

    assert asyncio.run(scenario()) == whole.handle("eth_getBlockByNumber", asked)
    assert filling.manifest is whole.manifest


def test_a_call_the_older_history_holds_up_too_long_is_told_so_not_left_unanswered(
    pair: tuple[DevnetNode, DevnetNode],
) -> None:
    recent, _ = pair
    filling = FillingNode(recent)

    async def balance() -> Any:
        asked = ["0x" + "11" * 20, "latest"]
        call = lambda: asyncio.to_thread(filling.handle, "eth_getBalance", asked)  # noqa: E731
        return await when_loaded(filling, call, wait=0.2)

    with pytest.raises(StillBuilding):
        asyncio.run(balance())
    answers = still_building([{"jsonrpc": "2.0", "id": 7, "method": "eth_getBalance"}])
    assert answers == [
        {"jsonrpc": "2.0", "id": 7, "error": {"code": -32000, "message": STILL_BUILDING_TEXT}}
    ]
    assert classify(-32000, STILL_BUILDING_TEXT) is None  # a plain node error, not a limit


def test_a_kept_chain_is_served_again_and_a_reset_forgets_it(
    small_cache: Path, tmp_path: Path
) -> None:
    node = open_node(31, cache_dir=small_cache, seed=SMALL)
    seeded = node.head_number
    sent = send(node, sign(node, 1, value=777))
    node.handle("evm_stopMining", [])
    waiting = send(node, sign(node, 2, value=888))
    keep_chain(node, tmp_path, SMALL)

    again = open_node(31, cache_dir=small_cache, seed=SMALL, kept_dir=tmp_path)
    assert again.head_number == seeded + 1
    assert again.handle("eth_getTransactionByHash", [sent])["value"] == hex(777)
    assert again.handle("eth_getTransactionByHash", [waiting])["blockNumber"] is None  # pending

    forget_kept(tmp_path, 31)
    assert list(tmp_path.iterdir()) == []
    fresh = open_node(31, cache_dir=small_cache, seed=SMALL, kept_dir=tmp_path)
    assert fresh.head_number == seeded


def test_the_build_reports_the_part_of_its_measured_time_done(tmp_path: Path) -> None:
    stopwatch = Stopwatch()
    build_snapshot(31, SMALL, stopwatch=stopwatch)
    stopwatch.save(SMALL, tmp_path)
    profile = BuildProfile.load(SMALL, tmp_path)
    assert profile is not None
    assert profile.numbers == [0, *range(100, SMALL.head + 1, 100)]
    reported: list[tuple[str, float]] = []
    build_snapshot(31, SMALL, lambda stage, done: reported.append((stage, done)), profile=profile)
    assert reported == [
        (f"building block {n:,} of {SMALL.head:,}", profile.share(n)) for n in profile.numbers[1:]
    ]
    assert profile.share(50) == pytest.approx(profile.shares[1] / 2)


def test_a_block_dated_again_at_its_own_time_is_the_same_block(small_cache: Path) -> None:
    snapshot = load_snapshot(snapshot_path(small_cache, 31, SMALL))
    assert snapshot is not None
    for block in snapshot.blocks[-RECENT_COUNT:]:
        assert retimed_block(block, block.parent_hash, block.timestamp) == block
    tail = snapshot.blocks[-RECENT_COUNT:]
    assert dated_to_start(tail, now=tail[-1].timestamp) == tail


def test_the_seeded_head_is_dated_to_the_start_once_and_kept_so(
    small_cache: Path, tmp_path: Path
) -> None:
    snapshot = load_snapshot(snapshot_path(small_cache, 31, SMALL))
    assert snapshot is not None
    head = snapshot.manifest.head_at_build
    assert is_seeded(snapshot.blocks, head)  # the snapshot keeps the seed's fixed dates
    node = open_node(31, cache_dir=small_cache, seed=SMALL, kept_dir=tmp_path)
    served = node.handle("eth_getBlockByNumber", ["latest", False])
    assert int(served["timestamp"], 16) == started_at()  # not the seed's January 2025
    step = head - RECENT_COUNT
    older, first = (node.handle("eth_getBlockByNumber", [hex(n), False]) for n in (step, step + 1))
    assert first["parentHash"] == older["hash"]
    assert int(older["timestamp"], 16) == seeded_timestamp(step)  # older blocks keep their dates
    keep_chain(node, tmp_path, SMALL)
    again = open_node(31, cache_dir=small_cache, seed=SMALL, kept_dir=tmp_path)
    assert again.handle("eth_getBlockByNumber", ["latest", False]) == served  # moved only once
