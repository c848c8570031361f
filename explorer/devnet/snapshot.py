"""Snapshots of the seeded history in the cache dir: keyed by the seed definition, atomic."""

from __future__ import annotations

import gzip
import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path

from explorer.devnet.blockdata import DevBlock, LogRecord, MergeMining, ReceiptRecord, TxRecord
from explorer.devnet.buildprofile import BuildProfile, Stopwatch
from explorer.devnet.clock import dated_chain
from explorer.devnet.contracts import compiled_digest
from explorer.devnet.evm import Engine
from explorer.devnet.history import HistoryBuilder
from explorer.devnet.ledger import Ledger
from explorer.devnet.logs import LogLimits
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.node import DevnetNode
from explorer.devnet.seed import FULL, SeedSize
from explorer.devnet.txpool import TxPool

#: Bump when the history or the block format changes: old snapshots are then rebuilt.
SEED_VERSION = "devnet-seed-10"
Progress = Callable[[str, float], None]
#: Where a package ships snapshots built at package time (absent from source); gzip, not xz:
#: 1.2 MB larger, but it unpacks in 0.07 s instead of 0.4 s.
BUNDLED_DIR = Path(__file__).resolve().parent / "snapshots"
BUNDLED_SUFFIX = ".gz"


@dataclass(frozen=True)
class Snapshot:
    """Everything needed to reopen the seeded chain."""

    store: dict[bytes, bytes]
    blocks: list[DevBlock]
    manifest: SeedManifest
    pending: list[bytes]


def record_layout() -> str:
    """Return the field names of every pickled record, so a changed layout changes the key."""
    records = (Snapshot, DevBlock, TxRecord, ReceiptRecord, LogRecord, MergeMining, SeedManifest)
    return ";".join(f"{r.__name__}:{','.join(f.name for f in fields(r))}" for r in records)


def seed_key(chain_id: int, size: SeedSize) -> str:
    """Hash of the seed definition: version, record layout, contract bytecode, chain id, size."""
    text = f"{SEED_VERSION}|{record_layout()}|{compiled_digest()}|{chain_id}|{size}"
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def snapshot_path(cache_dir: Path, chain_id: int, size: SeedSize) -> Path:
    """Where the snapshot of this seed lives."""
    return cache_dir / f"devnet-{chain_id}-{size.name}-{seed_key(chain_id, size)}.pickle"


def build_snapshot(
    chain_id: int,
    size: SeedSize,
    progress: Progress | None = None,
    stopwatch: Stopwatch | None = None,
    profile: BuildProfile | None = None,
) -> Snapshot:
    """Build the seeded history from scratch; progress is the part of its time done.

    The part done is read off the measured build profile (buildprofile.py; the shipped one by
    default) when there is one.
    """
    profile = profile or BuildProfile.load(size)

    def report(stage: str, fraction: float) -> None:
        number = builder.ledger.head.number
        if stopwatch is not None:
            stopwatch.mark(number)
        if progress is not None:
            progress(stage, fraction if profile is None else profile.share(number))

    builder = HistoryBuilder(chain_id, size, report)
    manifest = builder.build()
    pending = [tx.encode() for tx in builder.pending]
    return Snapshot(builder.engine.store(), builder.ledger.blocks, manifest, pending)


def save_snapshot(path: Path, snapshot: Snapshot) -> None:
    """Write atomically: a temp file (0600) in the same folder (0700), renamed over the target."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(path.parent, 0o700)  # the app's own cache: its files are private
    fd, temp = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            pickle.dump(snapshot, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def prune_stale(current: Path, chain_id: int, size: SeedSize) -> None:
    """Delete snapshots of older seed definitions of the same network and size."""
    for stale in current.parent.glob(f"devnet-{chain_id}-{size.name}-*.pickle"):
        if stale != current:
            stale.unlink(missing_ok=True)


def load_snapshot(path: Path) -> Snapshot | None:
    """Read a snapshot (gzip-compressed when its name ends so); None when missing or unreadable."""
    opener = gzip.open if path.name.endswith(BUNDLED_SUFFIX) else open
    try:
        with opener(path, "rb") as handle:
            snapshot = pickle.load(handle)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ImportError):
        return None
    return snapshot if isinstance(snapshot, Snapshot) else None


def bundled_path(path: Path, bundled_dir: Path = BUNDLED_DIR) -> Path:
    """Where a package ships the snapshot that the cache would keep at path."""
    return bundled_dir / (path.name + BUNDLED_SUFFIX)


def bundle_snapshot(cache_dir: Path, chain_id: int, size: SeedSize, bundled_dir: Path) -> Path:
    """Compress the cached snapshot (built first when missing) into bundled_dir, for packages."""
    path = snapshot_path(cache_dir, chain_id, size)
    snapshot = load_snapshot(path)
    if snapshot is None:
        snapshot = build_snapshot(chain_id, size)
        save_snapshot(path, snapshot)
    target = bundled_path(path, bundled_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(target, "wb", compresslevel=9, mtime=0) as handle:
        pickle.dump(snapshot, handle, protocol=pickle.HIGHEST_PROTOCOL)
    return target


def node_from_snapshot(
    chain_id: int, snapshot: Snapshot, *, instant_mining: bool, log_limits: LogLimits
) -> DevnetNode:
    """Return a node over a snapshot's chain, its pending transactions back in the pool."""
    engine = Engine.restore(chain_id, snapshot.store)
    ledger = Ledger(engine, dated_chain(snapshot.blocks, snapshot.manifest.head_at_build))
    pool = TxPool(Engine.decode_transaction(raw) for raw in snapshot.pending)
    return DevnetNode(
        ledger,
        snapshot.manifest,
        pool,
        instant_mining=instant_mining,
        log_limits=log_limits,
        miner=snapshot.blocks[-1].miner,
    )


def kept_path(directory: Path, chain_id: int, size: SeedSize = FULL) -> Path:
    """Where a devnet keeps its chain across restarts (blocks mined and transactions sent)."""
    return directory / f"devnet-{chain_id}-{size.name}-{seed_key(chain_id, size)}.chain.pickle"


def keep_chain(node: DevnetNode, directory: Path, size: SeedSize = FULL) -> Path:
    """Save a node's chain, its state and its pool, to be served again on the next start."""
    ledger = node.ledger
    waiting = [*node.pool.pending(), *node.pool.queued()]
    snapshot = Snapshot(
        ledger.engine.store(), list(ledger.blocks), node.manifest, [tx.encode() for tx in waiting]
    )
    path = kept_path(directory, node.chain_id, size)
    save_snapshot(path, snapshot)
    for stale in directory.glob(f"devnet-{node.chain_id}-{size.name}-*.chain.pickle"):
        if stale != path:
            stale.unlink(missing_ok=True)  # a chain of an older seed is not served again
    return path


def forget_kept(directory: Path, chain_id: int) -> None:
    """Delete the kept chains of a network: its next start serves the seeded history again."""
    for kept in directory.glob(f"devnet-{chain_id}-*.chain.pickle"):
        kept.unlink(missing_ok=True)


def load_or_build(
    chain_id: int,
    *,
    cache_dir: Path,
    instant_mining: bool,
    log_limits: LogLimits,
    progress: Progress | None,
    seed: SeedSize | None,
    kept_dir: Path | None = None,
    also_read: Sequence[Path] = (),
) -> DevnetNode:
    """Open the node from the kept chain or a snapshot, building and saving the snapshot if needed.

    also_read: more cache folders to load a snapshot from (never written).
    """
    size = seed or FULL
    path = snapshot_path(cache_dir, chain_id, size)
    places = [path, *(snapshot_path(d, chain_id, size) for d in also_read), bundled_path(path)]
    if kept_dir is not None:
        places.insert(0, kept_path(kept_dir, chain_id, size))
    snapshot = next(filter(None, map(load_snapshot, places)), None)
    if snapshot is None:
        if progress:
            progress("building the seeded history", 0.0)
        snapshot = build_snapshot(chain_id, size, progress)
        try:
            save_snapshot(path, snapshot)
            prune_stale(path, chain_id, size)
        except OSError:
            if progress:
                progress("could not save the snapshot; the next start builds again", 1.0)
    elif progress:
        progress("loaded the snapshot", 1.0)
    return node_from_snapshot(
        chain_id, snapshot, instant_mining=instant_mining, log_limits=log_limits
    )
