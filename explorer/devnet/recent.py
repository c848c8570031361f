"""The newest seeded blocks, shipped in the repository: served at once while the rest is built.

A first start from source has no snapshot: building the seeded history takes 20-60 s. The test
network's newest RECENT_COUNT blocks (with the manifest) are kept here, made by
`make devnet-recent` and named by the seed key, so the devnet can serve the home page's blocks
at once; calls that need older blocks, state or the pool wait until the whole chain is built
behind (filling.py). A test fails when the file no longer matches the seed.
"""

from __future__ import annotations

import lzma
import pickle
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from explorer.devnet.blockdata import DevBlock
from explorer.devnet.buildprofile import Stopwatch
from explorer.devnet.clock import DATED_COUNT, dated_to_start, is_seeded
from explorer.devnet.filling import NotYetLoaded
from explorer.devnet.ledger import Ledger, TxLocation
from explorer.devnet.manifest import SeedManifest
from explorer.devnet.node import DevnetNode
from explorer.devnet.profile import NodeRules
from explorer.devnet.seed import FULL, SeedSize
from explorer.devnet.snapshot import (
    Snapshot,
    build_snapshot,
    prune_stale,
    save_snapshot,
    seed_key,
    snapshot_path,
)
from explorer.devnet.txpool import TxPool

RECENT_DIR = Path(__file__).resolve().parent / "recent"
RECENT_SUFFIX = ".xz"
RECENT_COUNT = DATED_COUNT  # the home page shows the newest 100; served dated to the start
SHIPPED_CHAIN_IDS = (31, 30)  # the app's devnet serves the test network; `explorer devnet` both


@dataclass(frozen=True)
class RecentBlocks:
    """The newest blocks of a seeded history, its genesis block and manifest, under the seed's key.

    The genesis block is there so that a chain check (chain id and genesis hash) is answered at
    once, before the whole history is built.
    """

    key: str
    blocks: tuple[DevBlock, ...]
    manifest: SeedManifest
    genesis: DevBlock


def recent_path(chain_id: int, size: SeedSize = FULL, directory: Path = RECENT_DIR) -> Path:
    """Where the newest blocks of this seed are shipped."""
    return directory / f"devnet-{chain_id}-{size.name}-{seed_key(chain_id, size)}{RECENT_SUFFIX}"


def load_recent(
    chain_id: int, size: SeedSize = FULL, directory: Path = RECENT_DIR
) -> RecentBlocks | None:
    """Return the shipped newest blocks of the current seed; None when missing or stale."""
    path = recent_path(chain_id, size, directory)
    try:
        with lzma.open(path, "rb") as handle:
            recent = pickle.load(handle)
    except (OSError, EOFError, lzma.LZMAError, pickle.UnpicklingError, AttributeError, ImportError):
        return None
    if not isinstance(recent, RecentBlocks) or recent.key != seed_key(chain_id, size):
        return None
    return recent if isinstance(getattr(recent, "genesis", None), DevBlock) else None


def recent_of(snapshot: Snapshot, chain_id: int, size: SeedSize = FULL) -> RecentBlocks:
    """Return the newest blocks and the manifest of a seeded history's snapshot."""
    newest = tuple(snapshot.blocks[-RECENT_COUNT:])
    return RecentBlocks(seed_key(chain_id, size), newest, snapshot.manifest, snapshot.blocks[0])


def write_recent(
    chain_id: int, cache_dir: Path, size: SeedSize = FULL, directory: Path = RECENT_DIR
) -> Path:
    """Build the seeded history, timed; write its newest blocks and its build profile here.

    The snapshot is saved in cache_dir too; files of older seeds here are deleted.
    """
    stopwatch = Stopwatch()
    snapshot = build_snapshot(chain_id, size, stopwatch=stopwatch)
    stopwatch.save(size, directory)
    cached = snapshot_path(cache_dir, chain_id, size)
    save_snapshot(cached, snapshot)
    prune_stale(cached, chain_id, size)
    path = recent_path(chain_id, size, directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    with lzma.open(path, "wb", preset=9 | lzma.PRESET_EXTREME) as handle:
        pickle.dump(recent_of(snapshot, chain_id, size), handle, protocol=pickle.HIGHEST_PROTOCOL)
    for stale in directory.glob(f"devnet-{chain_id}-{size.name}-*{RECENT_SUFFIX}"):
        if stale != path:
            stale.unlink()
    return path


class RecentWindow:
    """Blocks by number where only the genesis and the newest are known; another is NotYetLoaded."""

    def __init__(self, genesis: DevBlock, first: int) -> None:
        self._genesis = genesis
        self._first = first
        self._known: list[DevBlock] = []

    def __len__(self) -> int:
        """Count every block, the unknown older ones too."""
        return self._first + len(self._known)

    def __getitem__(self, index: int | slice) -> Any:
        """Return a block (or a list of them); an older one is not yet known."""
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        at = index + len(self) if index < 0 else index
        if at == 0:
            return self._genesis
        if not self._first <= at < len(self):
            raise NotYetLoaded(f"block {at}") if at < self._first else IndexError(at)
        return self._known[at - self._first]

    def __iter__(self) -> Iterator[DevBlock]:
        """Every block: only once the whole chain is there."""
        raise NotYetLoaded("every block")

    def append(self, block: DevBlock) -> None:
        """Add the next block (while indexing)."""
        self._known.append(block)


class RecentIndex(dict[bytes, Any]):
    """Blocks or transactions by hash: one not among the newest may be older (NotYetLoaded)."""

    def get(self, key: bytes, default: Any = None) -> Any:
        """Return the entry of a recent hash; wait for the whole chain for any other."""
        if key in self:
            return self[key]
        raise NotYetLoaded("a hash not among the newest blocks")


class UnbuiltState:
    """The state of a chain whose history is not built yet: every read waits."""

    def __getattr__(self, name: str) -> Any:
        """Every read waits for the whole chain."""
        raise NotYetLoaded(f"state ({name})")


class UnbuiltEngine:
    """The engine of a chain being built: its chain id is known, nothing else yet."""

    def __init__(self, chain_id: int) -> None:
        self.chain_id = chain_id

    def state_at(self, number: int) -> UnbuiltState:
        """Return a state whose reads wait for the whole chain."""
        return UnbuiltState()

    def __getattr__(self, name: str) -> Any:
        """Everything but the chain id waits for the whole chain."""
        raise NotYetLoaded(f"the engine ({name})")


class RecentLedger(Ledger):
    """The ledger of the genesis block and the newest blocks alone."""

    def __init__(self, chain_id: int, genesis: DevBlock, blocks: tuple[DevBlock, ...]) -> None:
        super().__init__(cast(Any, UnbuiltEngine(chain_id)), ())
        self.blocks = cast(list[DevBlock], RecentWindow(genesis, blocks[0].number))
        self.by_hash = RecentIndex({genesis.hash: 0})
        self.tx_locations = cast(dict[bytes, TxLocation], RecentIndex())
        for block in blocks:
            self._index(block)


def recent_node(
    recent: RecentBlocks, *, instant_mining: bool, rules: NodeRules | None = None
) -> DevnetNode:
    """Return a node serving the newest blocks; older history, state and pool calls wait."""
    blocks = recent.blocks
    if is_seeded(blocks, recent.manifest.head_at_build):
        blocks = tuple(dated_to_start(blocks))  # as the whole chain will be (clock.py)
    ledger = RecentLedger(recent.manifest.chain_id, recent.genesis, blocks)
    rules = rules or NodeRules()
    node = DevnetNode(
        ledger,
        recent.manifest,
        TxPool(()),
        instant_mining=instant_mining,
        log_limits=rules.log_limits,
        miner=recent.blocks[-1].miner,
    )
    node.configure(rules)
    return node


def main(argv: list[str] | None = None) -> int:
    """`python -m explorer.devnet.recent [CACHE_DIR]`: write the shipped newest blocks."""
    from explorer.devnet.process import default_cache_dir

    args = sys.argv[1:] if argv is None else argv
    cache_dir = Path(args[0]) if args else default_cache_dir()
    for chain_id in SHIPPED_CHAIN_IDS:
        path = write_recent(chain_id, cache_dir)
        shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
        print(f"{shown}: {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    from explorer.devnet import recent  # pickled records must name this module, not __main__

    sys.exit(recent.main())
