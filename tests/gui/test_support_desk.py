"""The transaction page says why: pending, queued, short of funds, dropped, replaced, elsewhere.

Every case is made on the devnet as it happens on a node: transactions signed with seeded
keys, mining held with evm_stopMining, blocks mined with evm_mine, the pool's own rules.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox
from pytestqt.qtbot import QtBot

from explorer.presentation.diagnosis_document import short
from explorer.presentation.missing import TxSupport
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenStore
from explorer.services.elsewhere import OtherNetworks
from explorer.services.networks import custom_network
from explorer.services.routes import HOME, Route, tx_at_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.broadcast import BroadcastViewModel, Stage
from explorer.viewmodels.page import PageState
from explorer.views.main_window import MainWindow
from explorer.views.tx_page_view import TxPageView
from tests.helpers.devnet import Devnet
from tests.helpers.gui import field_text, wait_loaded
from tests.helpers.qt import run_in_qloop
from tests.helpers.support import Pool
from tests.helpers.timing import WAIT

DIAGNOSIS = (
    "eth_getTransactionCount",
    "eth_getBalance",
    "eth_getBlockByNumber",
    "eth_gasPrice",
)


@pytest.fixture
def switched(
    window: MainWindow, devnet: Devnet, tmp_path: Path, qtbot: QtBot
) -> Iterator[list[str]]:
    """Give the window a store in tmp_path and the devnet's main network as another network.

    Yield the network ids the page asked the window to switch to.
    """
    asked: list[str] = []
    main = custom_network("Devnet main", 30), Endpoint.parse(devnet.url("mainnet"))
    support = TxSupport(SeenStore(tmp_path / "seen.sqlite3"), OtherNetworks(lambda: [main]))
    support.switch_network = asked.append
    window.shell.pages.support = support
    yield asked
    assert support.elsewhere is not None
    assert support.store is not None
    run_in_qloop(qtbot, support.elsewhere.aclose())
    run_in_qloop(qtbot, support.store.aclose())


def open_tx(qtbot: QtBot, window: MainWindow, route: Route) -> TxPageView:
    """Open a transaction page afresh (leaving it first) and wait until it settled."""
    window.navigator.go(HOME)
    window.navigator.go(route)
    page = wait_loaded(qtbot, window)
    assert isinstance(page, TxPageView)
    return page


def details_headline(page: TxPageView) -> str:
    """Return the headline of a not-found page's details."""
    return page.details_view.headline.text()


def detail(page: TxPageView, label: str) -> str:
    """Return a field of a not-found page's details."""
    return str(page.details_view.value_labels[label].text())


def section_titles(page: TxPageView) -> list[str]:
    """Return the titles of a not-found page's detail sections."""
    return [box.title() for box in page.details_view.findChildren(QGroupBox)]


def session_of(window: MainWindow) -> Session:
    """Return the window's session."""
    session = window.shell.session
    assert session is not None
    return session


def broadcast(qtbot: QtBot, window: MainWindow, raw: str) -> BroadcastViewModel:
    """Paste, check, confirm and send through the Broadcast screen's view model."""
    model = window.shell.pages.create(session_of(window), Route.parse("broadcast"))
    assert isinstance(model, BroadcastViewModel)
    model.tracking_started.connect(window.navigator.go)
    model.set_raw(raw)
    qtbot.waitUntil(lambda: model.stage is Stage.READY, timeout=20_000)
    model.on_send()
    model.on_confirm()
    qtbot.waitUntil(lambda: model.stage not in (Stage.SENDING, Stage.CONFIRMING), timeout=20_000)
    return model


def test_a_pending_transaction_says_what_holds_it_with_few_requests(
    qtbot: QtBot, window: MainWindow, pool: Pool, switched: list[str]
) -> None:
    stats = session_of(window).client.stats
    with pool.held():
        first = pool.send(pool.sign("pending"))
        nonce = pool.mined_nonce("pending")
        before = {method: stats.by_method[method] for method in DIAGNOSIS}
        page = open_tx(qtbot, window, tx_route(first))
        spent = sum(stats.by_method[method] - before[method] for method in DIAGNOSIS)
        headline = page.document_view.headline.text()
        assert (
            headline
            == f"PENDING — next in line: nonce {nonce} is the sender's next; it waits for a block"
        )
        assert field_text(page, "Verdict") == headline.removeprefix("PENDING — ")
        assert "since this app first saw it" in field_text(page, "Waiting")
        assert "at most 10 blocks or" in field_text(page, "Eviction")
        assert "at least 0.0924 gwei (40% more)" in field_text(page, "Replacement")
        assert spent == 5  # two nonces, the balance, the latest block, the gas price: at once
        second = pool.send(pool.sign("pending"))
        behind = open_tx(qtbot, window, tx_route(second))
        assert behind.document_view.headline.text() == (
            f"PENDING — behind 1 pending transaction from this sender (nonce {nonce}), mined first"
        )
    assert switched == []


def test_a_queued_transaction_sent_here_waits_for_its_missing_nonces(
    qtbot: QtBot, window: MainWindow, pool: Pool, switched: list[str]
) -> None:
    nonce = pool.next_nonce("gap")
    stats = session_of(window).client.stats
    sends = stats.by_method["eth_sendRawTransaction"]
    model = broadcast(qtbot, window, pool.sign("gap", ahead=2))
    assert model.stage is Stage.SENT
    assert stats.by_method["eth_sendRawTransaction"] - sends == 1
    page = wait_loaded(qtbot, window)
    assert isinstance(page, TxPageView)
    assert page.model.state is PageState.NOT_FOUND
    assert details_headline(page) == (
        f"NOT FOUND — queued: waiting for nonces {nonce}–{nonce + 1} from this sender, "
        "which the node has not seen"
    )
    assert detail(page, "Sent from here") == "yes"
    assert not page.not_found_text.isVisible()


def test_a_queued_transaction_the_sender_cannot_pay_says_both(
    qtbot: QtBot, window: MainWindow, pool: Pool, switched: list[str]
) -> None:
    model = broadcast(qtbot, window, pool.sign("funds", ahead=1, value=10**27))
    assert model.document is not None
    texts = [f.text for section in model.document.sections for f in section.fields]
    assert any("cannot be mined until the sender can pay" in text for text in texts)
    page = wait_loaded(qtbot, window)
    assert isinstance(page, TxPageView)
    headline = details_headline(page)
    assert headline.startswith("NOT FOUND — queued: waiting for nonce ")
    assert "; and the sender cannot pay it: a balance of " in headline
    assert "short by" in detail(page, "Verdict")


def test_a_queued_transaction_is_dropped_after_rskjs_eviction(
    qtbot: QtBot, window: MainWindow, pool: Pool, switched: list[str]
) -> None:
    nonce = pool.next_nonce("dropped")
    sent = broadcast(qtbot, window, pool.sign("dropped", ahead=1)).tx
    assert sent is not None
    pool.mine(11)
    page = open_tx(qtbot, window, tx_route(sent.hash))
    assert details_headline(page) == (
        f"NOT FOUND — probably dropped from the pool: it stayed waiting for nonce {nonce} past "
        "rskj's default eviction (10 blocks or 650 s)"
    )


def test_a_replaced_transaction_links_its_replacement(
    qtbot: QtBot, window: MainWindow, pool: Pool, switched: list[str]
) -> None:
    with pool.held():
        original = pool.send(pool.sign("replaced"))
        nonce = pool.mined_nonce("replaced")
        assert open_tx(qtbot, window, tx_route(original)).model.state is PageState.LOADED
        replacement = pool.send(pool.sign("replaced", nonce=nonce, gasPrice=100_000_000, value=2))
        in_pool = open_tx(qtbot, window, tx_route(original))
        assert details_headline(in_pool) == (
            f"NOT FOUND — replaced in the pool by {short(replacement)} (gas price 0.1 gwei) with "
            f"the same nonce {nonce}, not mined yet"
        )
        # It is out of the pool: no countdown to its eviction, no advice on replacing it.
        assert not {"Eviction", "Replacement"} & set(in_pool.details_view.value_labels)
        assert "What not found can mean" not in section_titles(in_pool)  # the verdict says
    page = open_tx(qtbot, window, tx_route(original))
    assert details_headline(page).startswith(
        f"NOT FOUND — replaced by {short(replacement)} with the same nonce {nonce}, mined in block "
    )
    link = page.details_view.value_labels["Replaced by"]
    assert str(link.route()) == f"tx/{replacement}"  # type: ignore[attr-defined]


def test_a_transaction_of_another_network_is_found_and_opened_there(
    qtbot: QtBot, window: MainWindow, devnet: Devnet, switched: list[str]
) -> None:
    page = open_tx(qtbot, window, tx_route(devnet.manifest("mainnet")["token_transfer"]))
    assert page.model.state is PageState.NOT_FOUND
    assert (
        details_headline(page) == "NOT FOUND on Local devnet — found on Devnet main: open it there"
    )
    assert detail(page, "Devnet main").startswith("mined there (block ")
    (button,) = page.open_buttons
    assert button.text() == "Open it on Devnet main"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert switched == ["custom:Devnet main"]


def test_previous_and_next_read_by_index(
    qtbot: QtBot, window: MainWindow, devnet: Devnet, switched: list[str]
) -> None:
    stats = session_of(window).client.stats
    page = open_tx(qtbot, window, tx_route(devnet.manifest()["token_transfer"]))
    document = page.model.document
    assert document is not None
    tx = document.raw["transaction"]
    index, block_hash = int(tx["transactionIndex"], 16), tx["blockHash"]
    following = page.document_view.value_labels["Next in block"]
    route = following.route()  # type: ignore[attr-defined]
    assert route == tx_at_route(block_hash, index + 1)
    by_hash = stats.by_method["eth_getTransactionByBlockHashAndIndex"]
    qtbot.waitUntil(lambda: following.height() > 0, timeout=WAIT)  # laid out: a click lands on it
    qtbot.mouseClick(following, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: (shown := window.current_page()) is not None and shown is not page, timeout=WAIT
    )
    next_page = wait_loaded(qtbot, window)
    assert next_page.model.route == route
    assert stats.by_method["eth_getTransactionByBlockHashAndIndex"] - by_hash == 1
    assert field_text(next_page, "Position in block") == f"{index + 1:,}"
    assert "← transaction" in field_text(next_page, "Previous in block")
    number = int(tx["blockNumber"], 16)
    by_number = stats.by_method["eth_getTransactionByBlockNumberAndIndex"]
    first = open_tx(qtbot, window, tx_at_route(number, 0))
    assert stats.by_method["eth_getTransactionByBlockNumberAndIndex"] - by_number == 1
    assert field_text(first, "Previous in block") == "none: it is the first"
    missing = open_tx(qtbot, window, tx_at_route(number, 999))
    assert missing.model.state is PageState.NOT_FOUND
    assert (
        missing.not_found_text.text() == f"No transaction 999 in block {number:,} on Local devnet."
    )
