"""Every page and state, driven through the real window against the devnet over HTTP."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel
from pytestqt.qtbot import QtBot

from explorer.presentation.home_cards import CardId
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind
from explorer.services.networks import DEVNET
from explorer.services.routes import Route, address_route, block_route, tx_route
from explorer.services.session import Session
from explorer.viewmodels.page import PageState, PageViewModel
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.views.home_view import HomeView
from explorer.views.logs_view import LogsView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from explorer.views.widgets.address import AddressLabel
from explorer.views.widgets.hashlabel import HashLabel
from explorer.views.widgets.hexview import HexViewer
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.gui import field_text, wait_loaded
from tests.helpers.pool import pending_transfer
from tests.helpers.qt import run_in_qloop

MISSING = "0x" + "ab" * 32


def open_route(qtbot: QtBot, window: MainWindow, route: Route) -> PageView:
    """Navigate the current tab and wait for the page to load."""
    window.navigator.go(route)
    return wait_loaded(qtbot, window)


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_block_page_shows_fields_merge_mining_and_transactions(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A mined block: every §2.3 field, the decoded merge mining, the transactions table."""
    number = devnet_manifest["head_at_build"] - 1
    page = open_route(qtbot, window, block_route(number))
    assert page.model.state is PageState.LOADED
    assert field_text(page, "Number") == f"{number:,}"
    for label in (
        "Hash",
        "Miner",
        "Gas used",
        "Minimum gas price",
        "Paid fees",
        "Total difficulty",
        "Cumulative difficulty (block + uncles)",
        "Bitcoin block hash",
        "RSKBLOCK: tag",
        "Folded merkle root",
        "Height in hashForMergedMining",
        "State root",
    ):
        assert field_text(page, label), label
    assert "equals hashForMergedMining" in field_text(page, "RSKBLOCK: tag")
    assert field_text(page, "Verified").startswith("Yes")
    assert field_text(page, "Height in hashForMergedMining") == f"{number:,}"
    table = page.model.transactions
    assert table.total >= 1
    last = table.rowCount() - 1
    assert table.data(table.index(last, 2)) == "REMASC"
    assert page.raw_json.toPlainText() == ""  # filled only when its tab is shown
    page.content.setCurrentWidget(page.raw_json)
    assert page.raw_json.toPlainText().count('"hashForMergedMining"') == 1


def test_big_block_table_is_lazy(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """The 1,000-transaction block loads rows in batches and fills receipts for shown rows."""
    page = open_route(qtbot, window, block_route(devnet_manifest["big_block"]))
    table = page.model.transactions
    assert table.total >= 1000
    assert table.rowCount() < table.total
    assert table.canFetchMore(table.index(-1, -1).parent())
    before = table.rowCount()
    table.fetchMore(table.index(-1, -1).parent())
    assert table.rowCount() > before
    requests = page.model.spending.requests
    table.data(table.index(0, 5))
    qtbot.waitUntil(lambda: table.data(table.index(0, 5)) in ("Success", "Failed"), timeout=10_000)
    assert page.model.spending.requests > requests  # the receipts count in the page's cost
    assert page.cost.text().strip() == page.model.cost_text


def test_successful_token_transfer(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A mined, successful transaction says so first, with its fee and decoded input and logs."""
    page = open_route(qtbot, window, tx_route(devnet_manifest["token_transfer"]))
    headline = page.document_view.headline.text()
    assert headline.startswith("SUCCESS")
    assert "confirmations" in headline
    assert field_text(page, "Method").startswith("transfer(")
    assert "RBTC" in field_text(page, "Fee")
    assert field_text(page, "  Event").startswith("Transfer(")
    assert field_text(page, "Chain id from v") == "31 (EIP-155)"


def open_recording(qtbot: QtBot, window: MainWindow, route: Route) -> tuple[PageView, list[Any]]:
    """Open a route, recording (headline, Timestamp text, From widget) at every publish.

    The reader waits for no quick answer, so the partial stage always shows first.
    """
    assert window.shell.session is not None
    window.shell.session.reader.quick_answer_seconds = 0
    window.navigator.go(route)
    page = window.current_page()
    assert page is not None
    seen: list[Any] = []

    def record() -> None:
        if page.model.document is not None:
            labels = page.document_view.value_labels
            stamp = labels["Timestamp"].text() if "Timestamp" in labels else None
            seen.append((page.document_view.headline.text(), stamp, labels.get("From")))

    page.model.document_changed.connect(record)
    return wait_loaded(qtbot, window), seen


def test_transaction_shows_before_its_block_time_then_updates_in_place(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """Status and overview show while the block is read; the time then fills in place."""
    page, seen = open_recording(qtbot, window, tx_route(devnet_manifest["token_transfer"]))
    assert len(seen) == 2
    (first_headline, first_time, first_from), (_, last_time, last_from) = seen
    assert first_headline.startswith("SUCCESS")
    assert first_time == "reading the block…"
    assert last_time is not None
    assert "UTC" in last_time
    assert last_from is first_from  # unchanged values keep their widgets
    assert field_text(page, "Timestamp") == last_time
    assert page.document_view.is_complete
    assert not page.model.busy


def test_failed_transaction_says_a_replay_runs_then_why(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A failed transaction is FAILED at once; the revert reason follows from the replay."""
    _page, seen = open_recording(qtbot, window, tx_route(devnet_manifest["failed_tx"]))
    headlines = [headline for headline, _, _ in seen]
    assert headlines[0].startswith("FAILED (replaying it to learn why…)")
    assert headlines[-1].startswith("FAILED: reverted with")


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_failed_transaction_shows_why(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A failed transaction is marked FAILED with the revert reason from a replay."""
    page = open_route(qtbot, window, tx_route(devnet_manifest["failed_tx"]))
    headline = page.document_view.headline.text()
    assert headline.startswith("FAILED")
    assert "reverted with" in headline


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_pending_transaction(qtbot: QtBot, window: MainWindow, devnet: Devnet) -> None:
    """A pending transaction is shown as pending, with no block."""
    with pending_transfer(devnet) as tx_hash:
        page = open_route(qtbot, window, tx_route(tx_hash))
        assert page.document_view.headline.text().startswith("PENDING")
        assert field_text(page, "Block") == "pending"


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_queued_transaction_is_not_found(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A transaction behind a nonce gap waits in the pool, but no node shows it by hash."""
    page = open_route(qtbot, window, tx_route(devnet_manifest["pending_txs"][0]))
    assert page.model.state is PageState.NOT_FOUND


def test_contract_creation_links_created_address(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A contract creation links the created contract; its init code has no "selector" line."""
    page = open_route(qtbot, window, tx_route(devnet_manifest["contract_creation"]))
    created = page.document_view.value_labels["Contract created"]
    assert str(created.route()).startswith("address/0x")  # type: ignore[attr-defined]
    viewers = page.document_view.findChildren(HexViewer)
    assert viewers
    assert not any(viewer.text().startswith("selector") for viewer in viewers)
    labels = {label.text() for label in page.document_view.findChildren(QLabel)}
    assert "Init code" in labels
    assert "Raw input" not in labels


def test_not_found_is_not_an_error(qtbot: QtBot, window: MainWindow) -> None:
    """An unknown hash gives the not-found state, not an error."""
    page = open_route(qtbot, window, tx_route(MISSING))
    assert page.model.state is PageState.NOT_FOUND
    assert page.currentWidget() is page.not_found
    assert MISSING in page.not_found_text.text()


def test_a_block_after_the_head_says_how_far_it_is(qtbot: QtBot, window: MainWindow) -> None:
    """A block not mined yet gives the head, the blocks between and about when (not "No block")."""
    page = open_route(qtbot, window, block_route(99_999_999))
    assert page.model.state is PageState.NOT_FOUND
    head = page.model.session.reader.head
    assert head is not None
    ahead = 99_999_999 - head
    assert page.not_found_text.text() == (
        f"Block 99,999,999 is not mined yet on Local devnet: the newest is #{head:,}, "
        f"{ahead:,} blocks before it (about 95 years at a block every 30 s)."
    )


def test_error_state_has_kind_message_and_retry(
    qtbot: QtBot, window: MainWindow, devnet: Any
) -> None:
    """A wrong key gives an auth error with its message (never the key) and a retry button."""
    endpoint = Endpoint.parse(devnet.base("testnet") + "/not-the-right-key-123")
    broken = Session(DEVNET, endpoint)
    model = window.shell.pages.create(broken, tx_route(MISSING))
    assert isinstance(model, PageViewModel)
    page = PageView(model)
    qtbot.addWidget(page)
    qtbot.waitUntil(lambda: model.state is PageState.ERROR, timeout=20_000)
    assert page.currentWidget() is page.error
    assert model.error_kind is ErrorKind.AUTH
    assert page.error_title.text() == f"Could not load this page: {ErrorKind.AUTH.said}"
    assert "not-the-right-key-123" not in page.error_text.text()
    qtbot.mouseClick(page.retry_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: model.state is PageState.ERROR, timeout=20_000)
    run_in_qloop(qtbot, broken.aclose())


def test_chain_mismatch_banner_and_state(qtbot: QtBot, window: MainWindow, devnet: Any) -> None:
    """A node serving chain 30 for a network expecting 31 gets a banner and no page data."""
    wrong = Session(DEVNET, Endpoint.parse(devnet.url("mainnet")))
    window.shell.set_session(wrong)
    qtbot.waitUntil(lambda: window.shell.banner.text.startswith("Chain mismatch"), timeout=20_000)
    assert window.banner.isVisible()
    window.navigator.go(block_route(1))
    page = wait_loaded(qtbot, window)
    assert page.model.state is PageState.MISMATCH
    assert page.currentWidget() is page.mismatch
    run_in_qloop(qtbot, wrong.aclose())


def test_search_routes_and_inline_errors(qtbot: QtBot, window: MainWindow) -> None:
    """Bad input gets an inline message and costs no request; a block number opens the block."""
    session = window.shell.session
    assert session is not None
    stats = session.client.stats
    before = stats.total
    window.search_bar.setText("0x" + "1" * 63)
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    assert window.search_message.isVisible()
    assert "hex" in window.search_message.text()
    assert stats.total == before
    window.search_bar.setText("12")
    qtbot.keyClick(window.search_bar, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: str(window.navigator.route()) == "block/12", timeout=10_000)
    page = wait_loaded(qtbot, window)
    assert field_text(page, "Number") == "12"
    assert window.search.recent_searches()[0] == "12"


def test_hash_search_finds_transaction(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A 32-byte hash is looked up as a transaction with its receipt, as a block only if not.

    A transaction's page so costs one request fewer. The transaction's block (for its time)
    is asked before the page is built, and the page shares that read.
    """
    tx_hash = devnet_manifest["plain_transfer"]
    session = window.shell.session
    assert session is not None
    stats = session.client.stats
    methods = ("eth_getTransactionByHash", "eth_getTransactionReceipt", "eth_getBlockByHash")

    def page_requests() -> list[int]:
        return [stats.by_method[method] for method in methods]

    before = page_requests()
    asked_when_navigating: list[list[int]] = []
    window.navigator.route_changed.connect(
        lambda *_: asked_when_navigating.append(
            [now - then for now, then in zip(page_requests(), before, strict=True)]
        )
    )
    window.search.on_submit(tx_hash)
    qtbot.waitUntil(lambda: str(window.navigator.route()) == f"tx/{tx_hash}", timeout=10_000)
    page = wait_loaded(qtbot, window)
    assert "UTC" in field_text(page, "Timestamp")
    # the transaction and its receipt, then the transaction's block (never the hash as a block)
    assert asked_when_navigating == [[1, 1, 1]]
    assert [now - then for now, then in zip(page_requests(), before, strict=True)] == [1, 1, 1]


def test_a_block_hash_search_opens_the_block_after_the_transaction_lookup(
    qtbot: QtBot, window: MainWindow
) -> None:
    """A hash that is no transaction is looked up as a block next, and its page opens."""
    session = window.shell.session
    assert session is not None
    block = run_in_qloop(qtbot, session.client.get_block_by_number(3, False))
    assert block is not None
    assert block.hash is not None
    stats = session.client.stats
    before = stats.by_method["eth_getBlockByHash"]
    window.search.on_submit(block.hash)
    qtbot.waitUntil(lambda: str(window.navigator.route()) == f"block/{block.hash}", timeout=10_000)
    page = wait_loaded(qtbot, window)
    assert page.model.state is PageState.LOADED
    assert stats.by_method["eth_getBlockByHash"] > before


@pytest.mark.parametrize("number_of", [lambda manifest: manifest["big_block"], lambda _: 1])
def test_block_number_search_reads_the_block_once(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any], number_of: Any
) -> None:
    """The search starts reading the block before the page exists; the page shares that read."""
    number = number_of(devnet_manifest)
    session = window.shell.session
    assert session is not None
    stats = session.client.stats
    before = stats.by_method["eth_getBlockByNumber"]
    asked_when_navigating: list[int] = []
    window.navigator.route_changed.connect(
        lambda *_: asked_when_navigating.append(stats.by_method["eth_getBlockByNumber"] - before)
    )
    window.search.on_submit(str(number))
    qtbot.waitUntil(lambda: str(window.navigator.route()) == f"block/{number}", timeout=10_000)
    page = wait_loaded(qtbot, window)
    assert page.model.state is PageState.LOADED
    document = page.model.document
    assert document is not None
    assert page.model.transactions.total == len(document.raw["transactions"])
    assert len(asked_when_navigating) == 1
    assert asked_when_navigating[0] >= 1  # the request left before the page was built
    # Read once: the window's own head watch may read other blocks meanwhile, never this one.
    reads = [
        entry
        for entry in session.client.journal.entries()
        if entry.method == "eth_getBlockByNumber"
        and not entry.from_cache
        and json.loads(entry.params)[0] == hex(number)
    ]
    assert len(reads) == 1


def test_history_and_tabs(qtbot: QtBot, window: MainWindow) -> None:
    """Back/forward move through a tab's history; links open new tabs on request."""
    window.navigator.go(block_route(3))
    window.navigator.go(block_route(4))
    assert window.navigator.back()
    assert str(window.navigator.route()) == "block/3"
    assert window.navigator.forward()
    assert str(window.navigator.route()) == "block/4"
    tabs = window.tabs.count()
    window.navigator.go(block_route(5), new_tab=True)
    assert window.tabs.count() == tabs + 1
    window.navigator.close_tab(window.tabs.count() - 1)
    assert window.tabs.count() == tabs


def test_logs_action_opens_the_logs_explorer_tab(qtbot: QtBot, window: MainWindow) -> None:
    """The toolbar's Logs action opens the Logs explorer in a new tab of the navigator."""
    tabs = window.tabs.count()
    window.logs_action.trigger()
    assert window.tabs.count() == tabs + 1
    assert str(window.navigator.route()) == "logs"
    assert isinstance(window.tabs.currentWidget(), LogsView)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Logs"


def test_home_lists_the_latest_blocks(qtbot: QtBot, window: MainWindow) -> None:
    """The home tab lists the newest blocks, newest first, each linking to its page."""
    window.navigator.go(Route.parse("home"))
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), HomeView), timeout=5_000)
    home = window.tabs.currentWidget()
    assert isinstance(home, HomeView)
    blocks = home.model.blocks
    qtbot.waitUntil(lambda: blocks.rowCount() > 0, timeout=20_000)
    head = window.shell.head
    assert blocks.data(blocks.index(0, 0)) == f"{head:,}"
    assert str(blocks.data(blocks.index(0, 0), ROUTE_ROLE)) == f"block/{head}"
    assert "chain id 31" in home.summary.text()


def test_status_bar_counts_requests_between_heads(
    qtbot: QtBot, window: MainWindow, session: Session
) -> None:
    """Requests made while the head stays put show in the status bar as they are made.

    It compared with a count taken once, while the home page went on asking (flaky); the
    count shown now follows each request, and the home page's Requests card shows the same.
    """
    qtbot.waitUntil(lambda: "requests today" in window.budget_label.text(), timeout=10_000)
    before = session.requests_today
    for _ in range(3):
        run_in_qloop(qtbot, session.client.chain_id())
        qtbot.waitUntil(lambda: shown_requests(window) == [session.requests_today] * 2, timeout=300)
    assert session.requests_today >= before + 3


def shown_requests(window: MainWindow) -> list[int]:
    """Return the requests today in the status bar and on the home page's card."""
    status = re.search(r"([\d,]+) requests today", window.budget_label.text())
    home = window.tabs.widget(0)
    assert isinstance(home, HomeView)
    card = {c.id: c for c in home.model.cards}[CardId.REQUESTS].value
    return [int(status.group(1).replace(",", "")) if status else -1, int(card.replace(",", ""))]


def test_the_block_hash_has_a_copy_button(qtbot: QtBot, window: MainWindow) -> None:
    """The block page's own hash is shown whole on hover and copied with one click."""
    window.navigator.go(block_route(12))
    page = wait_loaded(qtbot, window)
    document = page.model.document
    assert document is not None
    block_hash = document.raw["hash"]
    shown = page.document_view.value_labels["Hash"]
    value = shown.parentWidget()
    assert isinstance(value, HashLabel)
    assert value.copy_button.isVisible()
    qtbot.mouseClick(value.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == block_hash
    assert value.route() is None  # the page it is on: not a link


def test_token_amounts_read_in_the_tokens_units_and_arguments_link(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    """A token transfer's input and log say `1,000,000 DVT` (raw on hover), not base units.

    The decimals and symbol are read once for the session: a second page asks nothing more.
    The addresses among the arguments are links with labels.
    """
    session = window.shell.session
    assert session is not None
    window.navigator.go(tx_route(devnet_manifest["token_transfer"]))
    page = wait_loaded(qtbot, window)
    amount = page.document_view.value_labels["  amount (uint256)"]
    assert amount.text() == "1,000,000 DVT"
    assert amount.toolTip() == f"{10**24:,} (raw)"
    assert field_text(page, "  value (uint256)") == "1,000,000 DVT"  # the Transfer log
    receiver = page.document_view.value_labels["  to (address)"]
    value = receiver.parentWidget()
    assert isinstance(value, AddressLabel)
    assert value.route() == address_route(value.address)
    document = page.model.document
    assert document is not None
    assert document.raw["transaction"]["input"].endswith(f"{10**24:064x}")  # raw in Raw JSON
    calls = session.client.stats.by_method["eth_call"]
    window.navigator.go(tx_route(devnet_manifest["approval"]))
    page = wait_loaded(qtbot, window)
    amounts = [k for k in page.document_view.value_labels if k.endswith("(uint256)")]
    assert amounts
    assert all(field_text(page, label).endswith(" DVT") for label in amounts)
    assert session.client.stats.by_method["eth_call"] == calls  # units read once
