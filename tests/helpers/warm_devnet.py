"""`make setup`: build the devnet histories the tests load into the shared snapshot cache.

Both networks, the full seed (the devnet processes) and the small one (tests/devnet/node), each
built once and then loaded in seconds by every session and every xdist worker. A snapshot
already there is left alone.
"""

from __future__ import annotations

import sys
import time

from explorer.devnet.node import open_node
from explorer.devnet.seed import FULL, SMALL
from explorer.devnet.snapshot import snapshot_path
from tests.helpers.devnet import devnet_cache_dir


def main() -> int:
    """Build each missing snapshot; say what was there and what was built."""
    cache = devnet_cache_dir()
    for size in (FULL, SMALL):
        for chain_id in (31, 30):
            path = snapshot_path(cache, chain_id, size)
            if path.exists():
                print(f"devnet snapshot: {path.name} is there")
                continue
            began = time.monotonic()
            open_node(chain_id, cache_dir=cache, seed=size)
            print(f"devnet snapshot: built {path.name} in {time.monotonic() - began:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
