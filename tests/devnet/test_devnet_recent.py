"""The shipped newest blocks: current with the seed, and served at once by a cold devnet."""

from __future__ import annotations

from pathlib import Path

import httpx

from explorer.devnet.buildprofile import BuildProfile
from explorer.devnet.process import DevnetOptions, DevnetProcess
from explorer.devnet.recent import RECENT_COUNT, RecentBlocks, load_recent, recent_path
from explorer.devnet.seed import FULL
from tests.helpers.devnet import START_TIMEOUT, LoopThread, devnet_cache_dir
from tests.helpers.devnet_client import RawRpc

STALE = (
    "the devnet's shipped newest blocks do not match its seeded history: run "
    "`make devnet-recent` and commit explorer/devnet/recent/"
)


def shipped() -> RecentBlocks:
    """Return the shipped newest blocks of the test network, failing when they are stale."""
    recent = load_recent(31)
    assert recent is not None, f"{STALE} (no {recent_path(31).name})"
    return recent


def test_the_shipped_newest_blocks_are_named_by_the_current_seed() -> None:
    recent = shipped()
    assert len(recent.blocks) == RECENT_COUNT
    assert [b.number for b in recent.blocks] == list(
        range(FULL.head - RECENT_COUNT + 1, FULL.head + 1)
    )
    assert recent_path(31).stat().st_size < 200_000  # small in git
    profile = BuildProfile.load(FULL)
    assert profile is not None, "no measured build profile: run `make devnet-recent`"
    assert profile.numbers[-1] == FULL.head
    assert profile.shares == sorted(profile.shares)
    assert profile.shares[-1] == 1.0


def test_the_shipped_blocks_are_the_seeded_history_s_newest(rpc: RawRpc) -> None:
    recent = shipped()
    for block in recent.blocks:
        served = rpc("eth_getBlockByNumber", hex(block.number), False)
        assert served["hash"] == "0x" + block.hash.hex(), f"block {block.number}: {STALE}"
    assert rpc("eth_getBlockByNumber", hex(FULL.head), False)["stateRoot"] == (
        "0x" + recent.blocks[-1].state_root.hex()
    )


def test_a_cold_devnet_serves_the_newest_blocks_before_it_builds_the_rest(
    devnet_loop: LoopThread, tmp_path: Path
) -> None:
    stages: list[str] = []
    options = DevnetOptions(cache_dir=tmp_path / "empty-cache", network="test", recent_first=True)
    process = DevnetProcess(options, on_progress=lambda _, stage, __: stages.append(stage))
    devnet_loop.run(process.start(120))
    try:
        at_ready = list(stages)
        with httpx.Client(timeout=30) as client:
            head = RawRpc(client, process.url("testnet"))("eth_getBlockByNumber", "latest", False)
    finally:
        devnet_loop.run(process.stop())
    assert "loaded the snapshot" not in at_ready  # served before the whole chain was there
    assert not any(stage.startswith("building block 12,000") for stage in at_ready)
    assert head["hash"] == "0x" + shipped().blocks[-1].hash.hex()


def test_a_restart_keeps_the_chain_and_a_reset_forgets_it(
    devnet_loop: LoopThread, tmp_path: Path
) -> None:
    kept = tmp_path / "kept"

    def start(*extra: str) -> tuple[DevnetProcess, RawRpc, httpx.Client]:
        options = DevnetOptions(
            cache_dir=devnet_cache_dir(),
            network="test",
            extra_arguments=("--keep-chain", str(kept), *extra),
        )
        process = DevnetProcess(options)
        devnet_loop.run(process.start(START_TIMEOUT))
        client = httpx.Client(timeout=60)
        return process, RawRpc(client, process.url("testnet")), client

    def head(*extra: str, mine: int = 0) -> int:
        process, rpc, client = start(*extra)
        try:
            for _ in range(mine):
                rpc("evm_mine")
            return int(rpc("eth_blockNumber"), 16)
        finally:
            client.close()
            devnet_loop.run(process.stop(grace=30))  # it saves the chain as it stops

    seeded = head()
    assert head(mine=2) == seeded + 2
    assert list(kept.glob("devnet-31-full-*.chain.pickle"))
    assert head() == seeded + 2  # the restart serves the kept chain
    assert head("--reset-chain") == seeded
