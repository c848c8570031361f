"""Put the devnet's snapshots, gzip-compressed, where the package build collects them."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from explorer.cli.devnet import CHAIN_IDS
from explorer.devnet.process import default_cache_dir
from explorer.devnet.seed import FULL
from explorer.devnet.snapshot import bundle_snapshot

#: The window runs the devnet's test network only; `explorer devnet` builds the main network's
#: history on its first start (the package stays under 150 MB).
SHIPPED = ("testnet",)


def main() -> None:
    """Compress the shipped snapshots (from the cache, built first if missing) into argv[1]."""
    target = Path(sys.argv[1])
    for stale in target.glob("devnet-*.[gx]z"):
        stale.unlink()
    for name in SHIPPED:
        chain_id = CHAIN_IDS[name]
        began = time.perf_counter()
        path = bundle_snapshot(default_cache_dir(), chain_id, FULL, target)
        took = time.perf_counter() - began
        size = path.stat().st_size / 1e6
        print(f"packaging: {name} snapshot {path.name} ({size:.1f} MB) in {took:.1f} s")


if __name__ == "__main__":
    main()
