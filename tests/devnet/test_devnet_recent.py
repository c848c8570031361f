"""The shipped newest blocks: current with the seed, and served at once by a cold devnet."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from explorer.devnet.buildprofile import BuildProfile
from explorer.devnet.clock import dated_to_start
from explorer.devnet.process import DevnetOptions, DevnetProcess, devnet_command
from explorer.devnet.recent import (
    RECENT_COUNT,
    SHIPPED_CHAIN_IDS,
    RecentBlocks,
    load_recent,
    recent_path,
)
from explorer.devnet.seed import FULL
from tests.helpers.devnet import START_TIMEOUT, LoopThread, devnet_cache_dir
from tests.helpers.devnet_client import RawRpc

STALE = (
    "the devnet's shipped newest blocks do not match its seeded history: run "
    "`make devnet-recent` and commit explorer/devnet/recent/"
)
FRESH = 120  # seconds: the newest seeded block is dated to the devnet's start, not months back


def shipped(chain_id: int = 31) -> RecentBlocks:
    """Return the shipped newest blocks of a network, failing when they are stale."""
    recent = load_recent(chain_id)
    assert recent is not None, f"{STALE} (no {recent_path(chain_id).name})"
    return recent


@pytest.mark.parametrize("chain_id", SHIPPED_CHAIN_IDS)
def test_the_shipped_newest_blocks_are_named_by_the_current_seed(chain_id: int) -> None:
    recent = shipped(chain_id)
    assert len(recent.blocks) == RECENT_COUNT
    assert [b.number for b in recent.blocks] == list(
        range(FULL.head - RECENT_COUNT + 1, FULL.head + 1)
    )
    assert recent.genesis.number == 0
    assert recent_path(chain_id).stat().st_size < 200_000  # small in git
    profile = BuildProfile.load(FULL)
    assert profile is not None, "no measured build profile: run `make devnet-recent`"
    assert profile.numbers[-1] == FULL.head
    assert profile.shares == sorted(profile.shares)
    assert profile.shares[-1] == 1.0


@pytest.mark.parametrize(("network", "chain_id"), [("testnet", 31), ("mainnet", 30)])
def test_the_shipped_blocks_are_the_seeded_history_s_newest_dated_to_the_start(
    network: str, chain_id: int, http: httpx.Client, request: pytest.FixtureRequest
) -> None:
    rpc = RawRpc(http, request.getfixturevalue("devnet").url(network))
    recent = shipped(chain_id)
    assert rpc("eth_getBlockByNumber", "0x0", False)["hash"] == "0x" + recent.genesis.hash.hex()
    served_head = rpc("eth_getBlockByNumber", hex(FULL.head), False)
    dated = dated_to_start(recent.blocks, now=int(served_head["timestamp"], 16))
    for block in dated:
        served = rpc("eth_getBlockByNumber", hex(block.number), False)
        assert served["hash"] == "0x" + block.hash.hex(), f"block {block.number}: {STALE}"
        assert served["stateRoot"] == "0x" + block.state_root.hex()
    older = rpc("eth_getBlockByNumber", hex(FULL.head - RECENT_COUNT), False)
    assert dated[0].parent_hash.hex() == older["hash"][2:]  # the chain holds across the step
    assert older["hash"] == "0x" + recent.blocks[0].parent_hash.hex()  # older blocks keep theirs


def _json_lines(process: subprocess.Popen[str], until: str) -> list[dict[str, object]]:
    """Read a devnet's PROGRESS lines up to the `until` line (READY); return them."""
    lines: list[dict[str, object]] = []
    assert process.stdout is not None
    for raw in process.stdout:
        tag, _, rest = raw.strip().partition(" ")
        if tag == until:
            lines.append({"tag": tag, **json.loads(rest)})
            return lines
        if tag == "PROGRESS":
            lines.append(json.loads(rest))
    raise AssertionError(f"the devnet stopped before {until}")


def test_a_cold_standalone_devnet_serves_both_networks_and_their_genesis_at_once(
    tmp_path: Path,
) -> None:
    """`explorer devnet` as a person runs it: blocks, block 0 and a recent head at once."""
    command = [*devnet_command(), "--testnet-port", "0", "--mainnet-port", "0", "--json-lines"]
    command += ["--key", "k", "--cache-dir", str(tmp_path / "empty-cache"), "--stop-on-stdin-eof"]
    with subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as process:
        try:
            lines = _json_lines(process, "READY")
            urls = {name: f"{lines[-1][name]}/k" for name in ("testnet", "mainnet")}
            with httpx.Client(timeout=1.0) as client:  # answered within a second, not after
                for network, chain_id in (("testnet", 31), ("mainnet", 30)):
                    rpc = RawRpc(client, urls[network])
                    genesis = rpc("eth_getBlockByNumber", "0x0", False)
                    assert genesis["hash"] == "0x" + shipped(chain_id).genesis.hash.hex()
                    head = rpc("eth_getBlockByNumber", "latest", False)
                    assert abs(time.time() - int(head["timestamp"], 16)) < FRESH
                    assert rpc("eth_chainId") == hex(chain_id)
        finally:
            assert process.stdin is not None
            process.stdin.close()
            process.wait(60)
    stages = [str(line.get("stage", "")) for line in lines]
    assert "loaded the snapshot" not in stages  # served before the whole chain was there
    assert not any(stage.startswith("building block 12,000") for stage in stages)


def test_a_cold_devnet_serves_the_newest_blocks_before_it_builds_the_rest(
    devnet_loop: LoopThread, tmp_path: Path
) -> None:
    stages: list[str] = []
    options = DevnetOptions(cache_dir=tmp_path / "empty-cache", network="test", recent_first=True)
    process = DevnetProcess(options, on_progress=lambda _, stage, __: stages.append(stage))
    devnet_loop.run(process.start(120))
    try:
        at_ready = list(stages)
        with httpx.Client(timeout=1.0) as client:  # the chain check's reads: within a second
            rpc = RawRpc(client, process.url("testnet"))
            head = rpc("eth_getBlockByNumber", "latest", False)
            genesis = rpc("eth_getBlockByNumber", "0x0", False)
            by_hash = rpc("eth_getBlockByHash", genesis["hash"], False)
        at_answer = list(stages)
    finally:
        devnet_loop.run(process.stop())
    assert "loaded the snapshot" not in at_ready  # served before the whole chain was there
    assert "loaded the snapshot" not in at_answer  # block 0 too, not after the build
    assert not any(stage.startswith("building block 12,000") for stage in at_ready)
    assert genesis["hash"] == "0x" + shipped().genesis.hash.hex()
    assert by_hash["number"] == "0x0"
    assert head["number"] == hex(FULL.head)
    assert abs(time.time() - int(head["timestamp"], 16)) < FRESH  # not the seed's 2025 date


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
