"""The address page opens on its History: table, sorting, filters, chart, export, notices."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.chain.history import NATIVE, EntryKind
from explorer.chain.units import format_rbtc
from explorer.rpc.endpoint import Endpoint
from explorer.services.history_store import MemoryHistoryStore
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from explorer.viewmodels.address.history_table import Column
from explorer.views.address.page import AddressView
from tests.helpers.address import open_address
from tests.helpers.devnet import Devnet
from tests.helpers.lying import Lie, LyingNode
from tests.helpers.pruned import OldState, PrunedNode
from tests.helpers.qt import run_in_qloop
from tests.helpers.schemas import assert_follows

COMPLETE_MS = 120_000


def settled(qtbot: QtBot, view: AddressView) -> None:
    """Choose the History tab; wait until it has run to its end, waits for a go or met old state."""
    history = view.address_model.history
    view.content.setCurrentWidget(view.history_tab)
    qtbot.waitUntil(
        lambda: (
            history.result.startswith("Complete")
            or bool(history.estimate_text)
            or bool(history.old_state)
        ),
        timeout=COMPLETE_MS,
    )


def searched_to_old_state(qtbot: QtBot, session: Session, address: str) -> AddressView:
    """Open an address and let its history search run (given the go) until it says why not."""
    view = open_address(qtbot, session, address, history_store=MemoryHistoryStore())
    model = view.address_model.history
    settled(qtbot, view)
    if model.estimate_text:
        model.search_anyway()
        qtbot.waitUntil(lambda: bool(model.old_state), timeout=COMPLETE_MS)
    return view


def finished(qtbot: QtBot, view: AddressView) -> None:
    """Run the history to its end (the go a costly search waits for, on past each pause)."""
    settled(qtbot, view)
    history = view.address_model.history
    while not history.result.startswith("Complete"):
        if history.estimate_text:
            history.on_action()
        qtbot.waitUntil(
            lambda: history.result.startswith("Complete") or bool(history.estimate_text),
            timeout=COMPLETE_MS,
        )


def cell(view: AddressView, row: int, column: Column) -> str:
    """Return the text of a shown cell (sorted and filtered)."""
    rows = view.history_tab.table.model()
    return str(rows.index(row, column).data())


def balance(devnet: Devnet, address: str, block: int) -> int:
    """Ask the devnet directly."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "eth_getBalance", "params": [address, hex(block)]}
    return int(httpx.post(devnet.url("testnet"), json=body).json()["result"], 16)


def top_buttons(view: AddressView) -> list[str]:
    """Return the titles of the History tab's visible buttons above its filters."""
    tab = view.history_tab
    buttons = [tab.action_button, tab.estimate.action, tab.old_state.action, tab.caveat.action]
    return [b.text() for b in buttons if b.isVisibleTo(view)]


def test_the_page_opens_on_its_overview_and_searches_its_history_when_chosen(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """Balance, nonce and tokens first; no search, no empty table, until History is chosen."""
    view = open_address(qtbot, session, devnet_manifest["busy_account"],
                        history_store=MemoryHistoryStore())  # fmt: skip
    history = view.address_model.history
    assert view.content.currentIndex() == 0
    assert view.content.tabText(0) == "Overview"
    qtbot.wait(300)
    assert not history.started
    assert history.result == ""
    assert not view.history_tab.chart.isVisibleTo(view.history_tab)  # no "no change yet"
    settled(qtbot, view)  # chosen: the search starts, and this one waits for the go
    assert history.estimate_text
    assert top_buttons(view) == ["Search"]  # one button, not "Search again" beside "Search"
    view.history_tab.action_button.click()
    qtbot.waitUntil(lambda: history.running, timeout=10_000)
    assert top_buttons(view) == ["Stop"]
    qtbot.waitUntil(lambda: history.result.startswith("Complete"), timeout=COMPLETE_MS)
    assert top_buttons(view) == ["Search again"]
    assert view.history_tab.chart.isVisibleTo(view.history_tab)
    view.content.setCurrentIndex(0)
    view.content.setCurrentWidget(view.history_tab)  # shown again: the result stays
    assert history.result.startswith("Complete")


def test_the_history_lists_newest_first(
    qtbot: QtBot, session: Session, devnet: Devnet, devnet_manifest: dict[str, Any]
) -> None:
    address = devnet_manifest["contract_paid"]
    view = open_address(qtbot, session, address, history_store=MemoryHistoryStore())
    finished(qtbot, view)
    model = view.address_model.history
    assert model.result.startswith("Complete")
    rows = view.history_tab.table.model()
    assert rows.rowCount() >= 20
    blocks = [int(cell(view, row, Column.BLOCK).replace(",", "")) for row in range(rows.rowCount())]
    assert blocks == sorted(blocks, reverse=True)
    assert cell(view, 0, Column.KIND) == "contract execution, depth 1"
    payout = to_checksum_address(devnet_manifest["payout"], 31)
    assert cell(view, 0, Column.COUNTERPARTY) == payout
    first = model.rows.shown()[0]
    tip = view.history_tab.table.model().index(0, Column.KIND).data(Qt.ItemDataRole.ToolTipRole)
    said = f"Received {format_rbtc(first.amount, 'tRBTC')} from {payout}, inside a call by 0x"
    assert tip.startswith(said)
    high = model.history.span[1] if model.history else 0
    assert model.steps.balance_at(high) == balance(devnet, address, high) > 0
    assert len(model.steps.steps) == len(set(blocks))  # a step per block (a block may pay twice)


def test_any_column_sorts_and_filters_narrow(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    view = open_address(qtbot, session, devnet_manifest["accounts"][5],
                        history_store=MemoryHistoryStore())  # fmt: skip
    model = view.address_model.history
    finished(qtbot, view)
    table = view.history_tab.table
    table.sortByColumn(Column.FEE, Qt.SortOrder.DescendingOrder)
    fees = [e.fee or 0 for e in model.rows.shown()]
    assert fees == sorted(fees, reverse=True)
    assert fees[0] > 0
    kinds = {e.kind for e in model.rows.shown()}
    assert {EntryKind.SENT, EntryKind.TOKEN} <= kinds
    kinds_choice = view.history_tab.kind_choice
    kinds_choice.setCurrentIndex(kinds_choice.findData(EntryKind.SENT))
    assert {e.kind for e in model.rows.shown()} == {EntryKind.SENT}
    kinds_choice.setCurrentIndex(0)
    assets = view.history_tab.asset_choice
    assert assets.count() >= 3  # all, RBTC and at least one token
    assets.setCurrentIndex(assets.findData(NATIVE))
    assert {e.asset for e in model.rows.shown()} == {NATIVE}


def test_export_writes_what_is_shown(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any], tmp_path: Path
) -> None:
    view = open_address(qtbot, session, devnet_manifest["miners"][2],
                        history_store=MemoryHistoryStore())  # fmt: skip
    model = view.address_model.history
    finished(qtbot, view)
    shown = model.rows.shown()
    assert shown
    assert {e.kind for e in shown} == {EntryKind.REWARD}
    target = tmp_path / "history.json"
    model.export(target, "json")
    qtbot.waitUntil(target.exists, timeout=10_000)
    written = json.loads(target.read_text())
    assert_follows(written, "history", chain_id=session.network.chain_id)  # as `explorer history`
    assert [w["block"] for w in written] == [e.block for e in shown]
    model.export(tmp_path / "history.csv", "csv")
    qtbot.waitUntil((tmp_path / "history.csv").exists, timeout=10_000)
    lines = (tmp_path / "history.csv").read_text().splitlines()
    assert len(lines) == len(shown) + 1
    assert lines[0].startswith("block,time_utc,kind")


def test_a_costly_search_waits_for_a_go(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    view = open_address(qtbot, session, devnet_manifest["busy_account"],
                        history_store=MemoryHistoryStore())  # fmt: skip
    model = view.address_model.history
    settled(qtbot, view)
    assert "requests" in model.estimate_text
    assert view.history_tab.estimate.isVisible()
    assert model.table.rowCount() == 0
    view.history_tab.action_button.click()
    qtbot.waitUntil(lambda: model.result.startswith("Complete"), timeout=COMPLETE_MS)
    assert model.table.rowCount() > 400
    assert not view.history_tab.estimate.isVisible()


def test_a_go_given_the_moment_the_estimate_shows_starts_the_search(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """The estimate shows while its preparation is still ending: a go then is a go.

    It used to be taken for "go on past a pause": the search never started and the tab said
    "Waiting for your go" with no estimate left to answer (a bench waited on it for 600 s).
    """
    view = open_address(qtbot, session, devnet_manifest["busy_account"],
                        history_store=MemoryHistoryStore())  # fmt: skip
    model = view.address_model.history

    def go_at_once(text: str) -> None:
        if text:
            model.on_action()

    model.estimate_changed.connect(go_at_once)
    view.content.setCurrentWidget(view.history_tab)
    qtbot.waitUntil(lambda: model.result.startswith("Complete"), timeout=COMPLETE_MS)
    assert model.table.rowCount() > 400


def test_a_contract_says_balance_alone_and_offers_the_scan(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    view = open_address(qtbot, session, devnet_manifest["payout"],
                        history_store=MemoryHistoryStore())  # fmt: skip
    model = view.address_model.history
    view.content.setCurrentWidget(view.history_tab)
    qtbot.waitUntil(lambda: bool(model.note), timeout=COMPLETE_MS)
    assert "balances alone" in view.history_tab.caveat.text.text()
    view.history_tab.caveat.action.click()
    assert view.content.currentWidget() is view.activity_tab
    assert view.activity_tab.kind_choice.currentText() == "Transactions"
    assert view.activity_tab.scan_from.text() == str(model.history.span[0] if model.history else "")


def test_a_revisit_costs_one_request(qtbot: QtBot, devnet: Devnet, qloop: Any) -> None:
    node = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    session = Session(DEVNET, Endpoint.parse(node.url, allow_insecure_http=True))
    store = MemoryHistoryStore()
    try:
        address = devnet.manifest("testnet")["counted_accounts"][1][1]
        first = open_address(qtbot, session, address, history_store=store)
        finished(qtbot, first)
        entries = first.address_model.history.table.rowCount()
        first.address_model.dispose()
        asked = len(node.server.requests)
        again = open_address(qtbot, session, address, history_store=store)
        finished(qtbot, again)
        assert again.address_model.history.table.rowCount() == entries == 10
        revisit = [r.json for r in node.server.requests[asked:]]
        summary = [r for r in revisit if isinstance(r, dict) and page_read(r)]
        assert len(revisit) - len(summary) == 1  # the history's: one batch
    finally:
        run_in_qloop(qtbot, session.aclose())
        node.close()


def page_read(call: dict[str, Any]) -> bool:
    """Tell whether a call is the summary's own (state at latest, token facts), not history's."""
    return call.get("method") == "eth_call" or call.get("params", [None])[-1] == "latest"


@pytest.mark.parametrize("old_state", [OldState.ERROR, OldState.ZEROS])
def test_a_node_without_old_state_is_said_with_the_scan_offered(
    qtbot: QtBot, devnet: Devnet, qloop: Any, old_state: OldState
) -> None:
    node = PrunedNode(devnet.url("testnet"), old_state, oldest=11_990)
    session = Session(DEVNET, Endpoint.parse(node.url, allow_insecure_http=True))
    try:
        view = searched_to_old_state(qtbot, session, devnet.manifest("testnet")["busy_account"])
        model = view.address_model.history
        assert "does not serve old state" in view.history_tab.old_state.text.text()
        assert view.history_tab.old_state.isVisible()
        assert not [e for e in model.table.entries if e.is_native]
        model.open(11_950, 12_000)  # a short range, to scan it whole

        def reopened() -> bool:
            opening = model.history.opening if model.history else None
            waiting = bool(model.old_state) or bool(model.estimate_text)
            return opening is not None and opening.low == 11_949 and waiting

        qtbot.waitUntil(reopened, timeout=COMPLETE_MS)
        if model.estimate_text:  # zeros look like a rich past: the search is costly
            model.search_anyway()
            qtbot.waitUntil(lambda: bool(model.old_state), timeout=COMPLETE_MS)
        view.history_tab.old_state.action.click()
        qtbot.waitUntil(lambda: model.result.startswith("Read 51 blocks"), timeout=COMPLETE_MS)
        assert {e.kind for e in model.table.entries} <= {EntryKind.SENT, EntryKind.RECEIVED}
        assert model.table.rowCount() > 0
    finally:
        run_in_qloop(qtbot, session.aclose())
        node.close()


@pytest.mark.parametrize("lie", [Lie.RANDOM_BALANCES, Lie.NONCE_DOWN])
def test_a_node_that_contradicts_itself_is_named_with_the_scan_offered(
    qtbot: QtBot, devnet: Devnet, qloop: Any, lie: Lie
) -> None:
    """Balances that differ between reads of one block, a nonce that goes down: said, scan offered.

    Nothing the search found from such answers stays in the table.
    """
    busy = devnet.manifest("testnet")["busy_account"]
    node = LyingNode(devnet.url("testnet"), busy, lie, since=11_000)
    session = Session(DEVNET, Endpoint.parse(node.url, allow_insecure_http=True))
    try:
        view = searched_to_old_state(qtbot, session, busy)
        model = view.address_model.history
        shown = view.history_tab.old_state.text.text()
        assert shown.startswith("This node contradicts itself (")
        assert "Reading every block instead costs" in shown
        assert view.history_tab.old_state.isVisible()
        assert view.history_tab.old_state.action.isVisible()
        assert not [e for e in model.table.entries if e.is_native]
        assert len(node.calls) < 1_000  # stopped early, not thousands of requests
    finally:
        run_in_qloop(qtbot, session.aclose())
        node.close()
