"""The window never shows what a hostile endpoint saved under mainnet's chain (issue 29 §4).

`explorer report 100` through a node posing as mainnet saves its forged block; then the
window through an honest endpoint of chain 30, and on Rootstock Mainnet offline, opens
block 100: neither shows the forgery.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy
from explorer.saved.directory import DIRECTORY_VARIABLE, CacheDirectory
from explorer.services.chaincheck import Verification
from explorer.services.networks import MAINNET, Network, custom_network
from explorer.services.routes import block_route
from explorer.services.session import Session, WaitBudget
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.page import PageState
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow
from tests.helpers.cli import explorer
from tests.helpers.forging import FORGED_AT, ForgingNode, mainnet_was_used, poisoned
from tests.helpers.qt import run_in_qloop
from tests.helpers.widget_texts import visible_texts

QUICK = WaitBudget(retry=RetryPolicy(attempts=1), check_delays=(0.5, 1.0), connect_timeout=2.0)


@pytest.fixture
def saved(qloop: qasync.QEventLoop, qtbot: QtBot) -> Iterator[CacheDirectory]:
    """Yield the saved-data folder the command line writes to (the test's own)."""
    directory = CacheDirectory(Path(os.environ[DIRECTORY_VARIABLE]))
    yield directory
    run_in_qloop(qtbot, directory.aclose())


def forged_and_saved(hostile: ForgingNode) -> None:
    """Read block 100 through the hostile node on the command line (it saves the forgery)."""
    done = explorer("report", str(FORGED_AT), "--endpoint", hostile.url, "--chain-id", "30")
    assert done.returncode == 0, done.stderr
    assert poisoned(done.stdout)


def block_page_texts(
    qtbot: QtBot, saved: CacheDirectory, network: Network, endpoint: Endpoint
) -> tuple[PageState, list[str]]:
    """Open block 100 in a window on network through endpoint; return its state and texts."""
    session = Session(network, endpoint, saved=saved, budget=QUICK)
    shell = ShellViewModel()
    window = MainWindow(shell, Navigator(), SearchViewModel())
    qtbot.addWidget(window)
    shell.set_session(session)
    window.show()
    try:
        session.verify()
        answered = (Verification.VERIFIED, Verification.UNREACHABLE)
        qtbot.waitUntil(lambda: session.check.verification in answered, timeout=30_000)
        qtbot.waitUntil(lambda: session._offline_task is None, timeout=10_000)  # offline or not
        window.navigator.go(block_route(FORGED_AT))
        qtbot.waitUntil(lambda: window.current_page() is not None, timeout=5_000)
        page = window.current_page()
        assert page is not None
        ended = (PageState.LOADED, PageState.ERROR)
        qtbot.waitUntil(lambda: page.model.state in ended and not page.model.busy, timeout=30_000)
        return page.model.state, visible_texts(window)
    finally:
        window.close()
        run_in_qloop(qtbot, session.aclose())


def test_an_honest_endpoint_shows_its_own_block_in_the_window(
    qtbot: QtBot, saved: CacheDirectory, hostile: ForgingNode, honest: ForgingNode
) -> None:
    """Chain 30 through the honest endpoint: block 100 loads, and it is not the forgery."""
    forged_and_saved(hostile)
    endpoint = Endpoint.parse(honest.url, allow_insecure_http=True)
    state, texts = block_page_texts(qtbot, saved, custom_network("Honest", 30), endpoint)
    assert state is PageState.LOADED
    assert not any(poisoned(text) for text in texts), texts


def test_mainnet_offline_in_the_window_never_shows_the_forgery(
    qtbot: QtBot, saved: CacheDirectory, hostile: ForgingNode
) -> None:
    """Rootstock Mainnet's node cannot be reached: block 100 is not saved for it, said so."""
    run_in_qloop(qtbot, mainnet_was_used(saved.root))
    forged_and_saved(hostile)
    state, texts = block_page_texts(qtbot, saved, MAINNET, MAINNET.endpoint(None))
    assert not any(poisoned(text) for text in texts), texts
    assert state is PageState.ERROR
