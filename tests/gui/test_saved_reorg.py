"""In the window: a page resting on a block the chain replaced is read again, and says so."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.saved.directory import CacheDirectory
from explorer.saved.reorg import Reorganised
from explorer.services.networks import DEVNET
from explorer.services.routes import block_route
from explorer.services.session import Session
from explorer.viewmodels.page import PageState
from explorer.views.page_view import PageView
from tests.helpers.cache import post
from tests.helpers.devnet import Devnet
from tests.helpers.gui import wait_loaded
from tests.helpers.home import home_view, open_window
from tests.helpers.qt import run_in_qloop


@pytest.fixture
def saved_session(
    qloop: qasync.QEventLoop, qtbot: QtBot, devnet_live: Devnet, tmp_path: Path
) -> Iterator[Session]:
    """Yield a session on the live devnet keeping saved data, settled at 2 confirmations."""
    directory = CacheDirectory(tmp_path / "chains", confirmations=lambda _network: 2)
    session = Session(DEVNET, Endpoint.parse(devnet_live.url("testnet")), saved=directory)
    yield session
    run_in_qloop(qtbot, session.aclose())
    run_in_qloop(qtbot, directory.aclose())


def test_a_block_page_on_a_replaced_block_is_read_again_with_a_note(
    qtbot: QtBot, saved_session: Session, devnet_live: Devnet
) -> None:
    """Block h saved (settled at N = 2) in a tab is replaced: dropped, read again, said so.

    The home page mends its list after the reorganisation (the chain checked again first, as
    it is deeper than a few blocks); the new hash it reads for h contradicts the saved one.
    """
    url = devnet_live.url("testnet")
    seeded = devnet_live.manifest()["head_at_build"]
    window = open_window(qtbot, saved_session)
    model = home_view(window).model
    qtbot.waitUntil(lambda: (model.chain.newest or 0) >= seeded + 6, timeout=60_000)
    target = (model.chain.newest or 0) - 3
    events: list[Reorganised] = []
    assert saved_session.cache is not None
    saved_session.cache.reorg_listeners.append(events.append)
    window.navigator.open_tab(block_route(target))
    page = wait_loaded(qtbot, window)
    old_hash = page.model.document.raw["hash"] if page.model.document else None
    store = saved_session.cache.store
    assert store is not None
    run_in_qloop(qtbot, store.flush())
    assert run_in_qloop(qtbot, store.block_at(target, True)) is not None  # saved as settled
    window.tabs.setCurrentIndex(0)  # the home page follows the head again (the page waits)
    # Two blocks deeper than the head read here: a block mined (every second) before the
    # reorganisation is asked for must not leave the target on the winning branch.
    depth = int(post(url, "eth_blockNumber"), 16) - target + 3
    post(url, "devnet_reorganise", hex(depth))
    qtbot.waitUntil(lambda: any(event.number <= target for event in events), timeout=60_000)
    qtbot.waitUntil(lambda: page.notice.text().startswith("The chain reorganised"), timeout=30_000)

    def read_again() -> bool:  # the chain checked again (a deep reorganisation), then read
        document = page.model.document
        shown = document.raw.get("hash") if document is not None else None
        return saved_session.check.verified and not page.model.busy and shown != old_hash

    qtbot.waitUntil(read_again, timeout=30_000)
    assert isinstance(page, PageView)
    assert page.model.state is PageState.LOADED
    document = page.model.document
    assert document is not None
    assert document.raw["hash"] == post(url, "eth_getBlockByNumber", hex(target), False)["hash"]
