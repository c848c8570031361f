"""Snapshots: deterministic builds, keyed by the seed definition, atomic and self-healing."""

from __future__ import annotations

from pathlib import Path

from explorer.devnet.node import open_node
from explorer.devnet.seed import FULL, SMALL
from explorer.devnet.snapshot import build_snapshot, load_snapshot, seed_key, snapshot_path


def test_builds_are_deterministic() -> None:
    first, second = build_snapshot(31, SMALL), build_snapshot(31, SMALL)
    assert [b.hash for b in first.blocks] == [b.hash for b in second.blocks]
    assert first.manifest == second.manifest
    assert first.pending == second.pending


def test_networks_differ() -> None:
    assert seed_key(30, SMALL) != seed_key(31, SMALL) != seed_key(31, FULL)


def test_snapshot_is_written_atomically_and_reloaded(tmp_path: Path) -> None:
    node = open_node(31, cache_dir=tmp_path, seed=SMALL)
    path = snapshot_path(tmp_path, 31, SMALL)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    again = open_node(31, cache_dir=tmp_path, seed=SMALL)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # loaded, not rebuilt
    assert again.handle("eth_getBlockByNumber", ["latest", False]) == node.handle(
        "eth_getBlockByNumber", ["latest", False]
    )


def test_corrupt_snapshot_is_rebuilt(tmp_path: Path) -> None:
    path = snapshot_path(tmp_path, 31, SMALL)
    path.write_bytes(b"not a pickle")
    assert load_snapshot(path) is None
    node = open_node(31, cache_dir=tmp_path, seed=SMALL)
    assert node.handle("eth_blockNumber", []) == hex(node.manifest.head_at_build)
    assert load_snapshot(path) is not None


def test_progress_is_reported(tmp_path: Path) -> None:
    seen: list[tuple[str, float]] = []
    open_node(
        30, cache_dir=tmp_path, seed=SMALL, progress=lambda text, part: seen.append((text, part))
    )
    assert seen
    assert all(0.0 <= part <= 1.0 for _, part in seen)
    seen.clear()
    open_node(
        30, cache_dir=tmp_path, seed=SMALL, progress=lambda text, part: seen.append((text, part))
    )
    assert seen == [("loaded the snapshot", 1.0)]


def test_stale_snapshots_are_pruned(tmp_path: Path) -> None:
    stale = tmp_path / "devnet-31-small-0000000000000000.pickle"
    other = tmp_path / "devnet-30-small-0000000000000000.pickle"
    stale.write_bytes(b"old")
    other.write_bytes(b"old")
    open_node(31, cache_dir=tmp_path, seed=SMALL)
    assert not stale.exists()
    assert other.exists()


def test_unwritable_cache_still_gives_a_node(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    node = open_node(31, cache_dir=blocker / "cache", seed=SMALL)
    assert node.handle("eth_chainId", []) == "0x1f"
