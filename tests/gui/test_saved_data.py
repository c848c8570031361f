"""The window with saved data: warm pages, offline browsing, each page's cost, the budget."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Tone
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.retry import RetryPolicy
from explorer.saved.directory import CacheDirectory
from explorer.services.networks import DEVNET
from explorer.services.routes import tx_route
from explorer.services.session import Session, WaitBudget
from explorer.viewmodels.navigator import Navigator
from explorer.viewmodels.page import PageState
from explorer.viewmodels.requests import RequestsViewModel, Source
from explorer.viewmodels.saved_data import MemoryChoices, SavedDataViewModel
from explorer.viewmodels.search import SearchViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.helpers.cache import beyond_check
from tests.helpers.devnet import Devnet, shared_loop
from tests.helpers.gui import wait_loaded
from tests.helpers.qt import run_in_qloop
from tests.helpers.relay import Relay
from tests.helpers.timing import WAIT

QUICK = WaitBudget(retry=RetryPolicy(attempts=1), check_delays=(0.5, 1.0), connect_timeout=2.0)


@pytest.fixture
def saved(qloop: qasync.QEventLoop, qtbot: QtBot, tmp_path: Path) -> Iterator[CacheDirectory]:
    """Yield a saved-data folder of the test's own, closed at the end."""
    directory = CacheDirectory(tmp_path / "chains")
    yield directory
    run_in_qloop(qtbot, directory.aclose())


def open_window(qtbot: QtBot, url: str, saved: CacheDirectory) -> tuple[MainWindow, Session]:
    """Return a window on a new session with saved data, its chain check started."""
    session = Session(DEVNET, Endpoint.parse(url), saved=saved, budget=QUICK)
    shell = ShellViewModel()
    window = MainWindow(shell, Navigator(), SearchViewModel())
    qtbot.addWidget(window)
    shell.set_session(session)
    window.show()
    return window, session


def wait_home(qtbot: QtBot, window: MainWindow) -> None:
    """Wait until the head is known and the home page has read what it shows."""
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    home = window.tabs.currentWidget()
    assert isinstance(home, HomeView)
    qtbot.waitUntil(lambda: home.model.blocks.rowCount() > 0, timeout=20_000)
    qtbot.waitUntil(lambda: not home.model.busy, timeout=30_000)


def close(qtbot: QtBot, window: MainWindow, session: Session) -> None:
    """Close a window and its session."""
    window.close()
    run_in_qloop(qtbot, session.aclose())


def open_page(qtbot: QtBot, window: MainWindow, tx_hash: str) -> PageView:
    """Open a transaction page in the current tab and wait for it to settle."""
    window.navigator.go(tx_route(tx_hash))
    return wait_loaded(qtbot, window)


def read_once(qtbot: QtBot, url: str, saved: CacheDirectory, tx_hash: str) -> PageView:
    """Open a window, read a transaction page in it (saving it), and close the window."""
    window, session = open_window(qtbot, url, saved)
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    page = open_page(qtbot, window, tx_hash)
    close(qtbot, window, session)
    return page


def test_a_page_opened_again_in_a_new_window_costs_no_request_and_says_so(
    qtbot: QtBot, relay: Relay, devnet: Devnet, saved: CacheDirectory
) -> None:
    """Cold, the page's requests reach the node; warm (a new window), none; each page says so."""
    tx_hash = devnet.manifest()["token_transfer"]
    window, session = open_window(qtbot, relay.url, saved)
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    cold = open_page(qtbot, window, tx_hash)
    assert cold.model.spending.requests >= 3
    assert cold.cost.text().strip() == cold.model.cost_text
    close(qtbot, window, session)
    window, session = open_window(qtbot, relay.url, saved)
    wait_home(qtbot, window)
    before = len(relay.server.requests)
    warm = open_page(qtbot, window, tx_hash)
    page_requests = {k: v for k, v in beyond_check(relay, before).items() if k != "eth_blockNumber"}
    assert page_requests == {}
    assert warm.model.spending.requests == 0
    assert warm.model.spending.from_cache >= 3
    assert warm.cost.text().strip() == f"no requests, {warm.model.spending.from_cache} from cache"
    close(qtbot, window, session)


def test_offline_the_window_opens_saved_pages_under_the_bar_and_says_others_are_not_saved(
    qtbot: QtBot, stoppable: Devnet, saved: CacheDirectory
) -> None:
    """The devnet stopped, a new window: the bar, a saved page from the data, an unsaved one not."""
    manifest = stoppable.manifest()
    tx_hash, other = manifest["token_transfer"], manifest["failed_tx"]
    url = stoppable.url("testnet")
    window, session = open_window(qtbot, url, saved)
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    online = open_page(qtbot, window, tx_hash)
    status = online.document_view.value_labels["Status"].text()
    close(qtbot, window, session)
    shared_loop().run(stoppable.process.stop())
    window, session = open_window(qtbot, url, saved)
    qtbot.waitUntil(lambda: session.offline, timeout=30_000)
    qtbot.waitUntil(
        lambda: window.banner.text().startswith("Offline — saved data from "), timeout=WAIT
    )
    assert window.banner_bar.isVisible()
    page = open_page(qtbot, window, tx_hash)
    assert page.model.state is PageState.LOADED
    assert page.document_view.value_labels["Status"].text() == status
    assert page.notice.isVisibleTo(page)
    assert page.notice.text().startswith("Offline: this page is from the saved data")
    window.navigator.go(tx_route(other))
    qtbot.waitUntil(lambda: window.current_page() is not None, timeout=5_000)
    missing = window.current_page()
    assert missing is not None
    qtbot.waitUntil(lambda: missing.model.state is PageState.ERROR, timeout=20_000)
    assert "not in the saved data" in missing.error_text.text()
    close(qtbot, window, session)


def test_when_the_node_comes_back_the_bar_goes_and_the_page_is_read_live(
    qtbot: QtBot, relay: Relay, devnet: Devnet, saved: CacheDirectory
) -> None:
    """The relay fails, then answers again: offline bar and note, then neither, page live."""
    tx_hash = devnet.manifest()["token_transfer"]
    read_once(qtbot, relay.url, saved, tx_hash)
    relay.failing = True
    window, session = open_window(qtbot, relay.url, saved)
    qtbot.waitUntil(lambda: session.offline, timeout=30_000)
    page = open_page(qtbot, window, tx_hash)
    assert page.notice.text()
    relay.failing = False
    window.banner_retry.click()
    qtbot.waitUntil(lambda: session.check.verified, timeout=20_000)
    assert session.cache is not None
    qtbot.waitUntil(lambda: not session.offline, timeout=20_000)
    qtbot.waitUntil(lambda: not window.banner_bar.isVisible(), timeout=10_000)
    qtbot.waitUntil(lambda: page.notice.text() == "" and not page.model.busy, timeout=20_000)
    assert page.model.state is PageState.LOADED
    close(qtbot, window, session)


def test_the_requests_view_lists_filters_and_copies_without_the_key(
    qtbot: QtBot, relay: Relay, devnet: Devnet, saved: CacheDirectory, qapp: QApplication
) -> None:
    """Sent and saved answers are listed; the filter and source narrow them; JSON has no key."""
    tx_hash = devnet.manifest()["token_transfer"]
    window, session = open_window(qtbot, relay.url, saved)
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    open_page(qtbot, window, tx_hash)
    window.navigator.go(tx_route(devnet.manifest()["failed_tx"]))
    wait_loaded(qtbot, window)
    window.navigator.back()
    wait_loaded(qtbot, window)  # the first transaction again, from memory or saved data
    model = RequestsViewModel(window.shell)
    assert model.requests.rowCount() > 5
    model.set_text("eth_getTransactionReceipt")
    shown = model.shown_entries()
    assert shown
    assert {entry.method for entry in shown} == {"eth_getTransactionReceipt"}
    model.set_text("")
    model.set_source(Source.NODE)
    assert all(not entry.from_cache for entry in model.shown_entries())
    copied = json.loads(model.copy_json())
    assert copied[0].keys() >= {"method", "params", "at", "size", "from_cache"}
    assert "relay-key" not in model.copy_json()
    assert "of the last" in model.summary
    model.dispose()
    close(qtbot, window, session)


def test_the_status_bar_warns_from_eighty_percent_of_the_quota(
    qtbot: QtBot, relay: Relay, saved: CacheDirectory
) -> None:
    """Under 80 % the count is plain; from 80 % it warns; at the quota it says used up."""
    window, session = open_window(qtbot, relay.url, saved)
    qtbot.waitUntil(lambda: window.shell.head is not None, timeout=20_000)
    spent = session.requests_today
    session.daily_quota = spent * 10
    window.shell.refresh_status()
    assert window.budget_label.text() == f"{spent:,} / {spent * 10:,} requests today"
    assert window.shell.budget.tone is Tone.NORMAL
    session.daily_quota = spent + 1
    window.shell.refresh_status()
    assert "of the daily quota" in window.budget_label.text()
    assert window.shell.budget.tone.value == Tone.WAITING.value
    session.daily_quota = max(spent - 1, 1)
    window.shell.refresh_status()
    assert "used up" in window.budget_label.text()
    assert window.shell.budget.tone.value == Tone.BAD.value
    close(qtbot, window, session)


def test_clear_empties_the_networks_saved_data_and_the_limits_apply(
    qtbot: QtBot, relay: Relay, devnet: Devnet, saved: CacheDirectory
) -> None:
    """Clear: the size goes to nothing saved, and the page asks the node again."""
    tx_hash = devnet.manifest()["token_transfer"]
    read_once(qtbot, relay.url, saved, tx_hash)
    endpoint = Endpoint.parse(relay.url)
    choices = MemoryChoices()
    model = SavedDataViewModel([DEVNET], choices, saved, lambda _network: endpoint, DEVNET)
    qtbot.waitUntil(lambda: model.saved_bytes is not None, timeout=10_000)
    assert model.saved_text.endswith("MB saved for this network.")
    model.set_size_mb(3)
    assert saved.size_limit == 3 * 1024 * 1024
    model.set_quota(1234)
    assert choices.quotas[DEVNET.id] == 1234
    model.clear()
    qtbot.waitUntil(lambda: model.message.startswith("The saved data of"), timeout=10_000)
    before = len(relay.server.requests)
    read_once(qtbot, relay.url, saved, tx_hash)
    assert beyond_check(relay, before)["eth_getTransactionByHash"] == 1
    model.dispose()
