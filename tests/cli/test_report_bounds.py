"""`explorer report` on a node whose Bridge log nests its RLP a thousand lists deep."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.helpers.cli import explorer
from tests.helpers.forged_node import ForgedNode, deep_bridge_log


@pytest.fixture
def hostile() -> Iterator[ForgedNode]:
    """Serve block 798,248 with transaction 2's receipt carrying the deep legacy log."""
    node = ForgedNode(deep_bridge_log(1000))
    yield node
    node.close()


def test_a_deep_legacy_bridge_log_is_refused_and_named(hostile: ForgedNode) -> None:
    """No traceback: the page prints, the refused log named with the bound it crossed."""
    tx = hostile.block["transactions"][2]["hash"]
    done = explorer("report", tx, "--endpoint", hostile.url, "--chain-id", "31", "--no-cache")
    assert "Traceback" not in done.stderr
    assert "RecursionError" not in done.stderr
    assert done.returncode == 0, done.stderr
    assert "release_btc (pre-RSKIP146 RLP) refused: RLP nests deeper than 4 lists" in done.stdout
    assert "== Logs" in done.stdout
