"""What a hostile endpoint said is never shown for another: `explorer report` as a user runs it.

The hostile node claims chain id 30 and mainnet's genesis and forges block 100 (21,000,000
RBTC to 0x…dEaD); an honest endpoint of the same chain, mainnet offline and the hostile
endpoint itself once its next block contradicts the forgery must not show it (issue 29 §4).
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from explorer.saved.directory import DIRECTORY_VARIABLE
from tests.helpers.cli import explorer
from tests.helpers.forging import FORGED_AT, ForgingNode, mainnet_was_used, poisoned


def block_report(url: str, number: int = FORGED_AT) -> str:
    """Return `explorer report NUMBER` through an endpoint of chain 30 (it must succeed)."""
    done = explorer("report", str(number), "--endpoint", url, "--chain-id", "30")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return done.stdout


def saved_by_the_hostile_node(hostile: ForgingNode) -> None:
    """Have the hostile node's forged block read and saved, as the issue's first step did."""
    assert poisoned(block_report(hostile.url))


def test_an_honest_endpoint_never_shows_what_a_hostile_one_saved(
    hostile: ForgingNode, honest: ForgingNode
) -> None:
    """The honest endpoint's report of block 100 is its own block, not the saved forgery."""
    saved_by_the_hostile_node(hostile)
    before = len(honest.server.requests)
    shown = block_report(honest.url)
    assert not poisoned(shown), shown
    assert any(r.rpc_method == "eth_getBlockByNumber" for r in honest.server.requests[before:])


def test_mainnet_offline_never_shows_what_a_custom_endpoint_saved(hostile: ForgingNode) -> None:
    """Mainnet's own endpoint served mainnet before; offline, the forgery is not its data."""
    asyncio.run(mainnet_was_used(Path(os.environ[DIRECTORY_VARIABLE])))
    saved_by_the_hostile_node(hostile)
    offline = explorer("report", str(FORGED_AT), "--network", "mainnet")
    assert not poisoned(offline.stdout + offline.stderr), offline.stdout
    assert offline.returncode == 3, offline.stderr  # the node cannot be reached, nothing saved


def test_a_block_its_child_contradicts_is_dropped(hostile: ForgingNode) -> None:
    """The same endpoint turned honest: block 101's parent hash evicts the saved forgery."""
    saved_by_the_hostile_node(hostile)
    hostile.forging = False
    assert not poisoned(block_report(hostile.url, FORGED_AT + 1))
    again = block_report(hostile.url)
    assert not poisoned(again), again


def test_a_forged_block_deep_in_a_saved_run_is_dropped(hostile: ForgingNode) -> None:
    """Honest 101 saved, then the forgery at 100 under it: 102's saved ancestors reach it.

    Block 102 names 101 as its parent, which is saved and right; the saved 101 names a block
    100 that is not the one saved. Walking the run down finds it with no request, and drops it
    with everything above it.
    """
    hostile.forging = False
    block_report(hostile.url, FORGED_AT + 1)
    hostile.forging = True
    assert poisoned(block_report(hostile.url))  # saved under the honest block 101
    hostile.forging = False
    before = len(hostile.calls)
    assert not poisoned(block_report(hostile.url, FORGED_AT + 2))
    assert hostile.calls[before:].count("eth_getBlockByNumber") <= 2  # its genesis, block 102
    again = block_report(hostile.url)
    assert not poisoned(again), again
