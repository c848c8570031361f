"""A slow block page shows the count methods' facts before the full block arrives."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.routes import Route, block_route
from explorer.services.session import Session
from explorer.views.main_window import MainWindow
from tests.helpers.address import raw_rpc
from tests.helpers.devnet import Devnet
from tests.helpers.gui import wait_loaded
from tests.helpers.home import open_window
from tests.helpers.qt import run_in_qloop
from tests.helpers.relay import Relay


@pytest.fixture
def relayed(qloop: qasync.QEventLoop, qtbot: QtBot, relay: Relay) -> Iterator[Session]:
    """Yield a session on the devnet through the relay."""
    session = Session(DEVNET, Endpoint.parse(relay.url))
    yield session
    run_in_qloop(qtbot, session.aclose())


def published(qtbot: QtBot, window: MainWindow, route: Route) -> list[tuple[str, str]]:
    """Open route and return (headline, Transactions field) of every document it published."""
    window.navigator.go(route)
    page = window.current_page()
    assert page is not None
    seen: list[tuple[str, str]] = []

    def record() -> None:
        document = page.model.document
        if document is not None:
            fields = {f.label: f.text for s in document.sections for f in s.fields}
            seen.append((document.headline.text, fields.get("Transactions", "")))

    page.model.document_changed.connect(record)
    wait_loaded(qtbot, window, timeout=30_000)
    return seen


@pytest.mark.parametrize("by", ["ByNumber", "ByHash"])
def test_a_slow_block_shows_its_counts_first(
    qtbot: QtBot,
    relayed: Session,
    relay: Relay,
    devnet: Devnet,
    devnet_manifest: dict[str, Any],
    by: str,
) -> None:
    """The full 1,001-transaction block is slow: its counts show first, asked by number or hash."""
    window = open_window(qtbot, relayed)
    relay.full_block_delay = 1.0
    number = int(devnet_manifest["big_block"])
    count = int(devnet_manifest["big_block_tx_count"])
    block_hash = raw_rpc(devnet, "eth_getBlockByNumber", hex(number), False)["hash"]
    seen = published(qtbot, window, block_route(number if by == "ByNumber" else block_hash))
    assert seen[0] == (f"Reading the block's {count:,} transactions…", f"{count:,}")
    assert seen[-1][1] == f"{count:,}"
    assert not seen[-1][0].startswith("Reading")
    methods = relayed.client.stats.by_method
    assert methods[f"eth_getBlockTransactionCount{by}"] == 1
    assert methods[f"eth_getUncleCount{by.replace('By', 'ByBlock')}"] == 1


def test_a_quick_block_costs_no_count_requests(
    qtbot: QtBot, window: MainWindow, session: Session
) -> None:
    """A block read within the patience shows at once: the count methods are not asked.

    It is published with its check under way, then with its verdict: never its counts.
    """
    seen = published(qtbot, window, block_route(5))
    assert 1 <= len(seen) <= 2
    assert not any(headline.startswith("Reading") for headline, _count in seen)
    methods = session.client.stats.by_method
    assert methods["eth_getBlockTransactionCountByNumber"] == 0
    assert methods["eth_getUncleCountByBlockNumber"] == 0
