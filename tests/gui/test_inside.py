"""The transaction page's Inside tab in the window, on the devnet over real HTTP (issue 28)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.chain.known import BRIDGE
from explorer.presentation.inside_rows import GAS_COLUMN
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.routes import tx_route
from explorer.services.session import Session
from explorer.viewmodels.shell import ShellViewModel
from explorer.viewmodels.tx_inside import InsideState
from explorer.views.inside_tables import CellItem, CellTree
from explorer.views.main_window import MainWindow
from explorer.views.tx_page_view import TxPageView
from tests.helpers.devnet import Devnet
from tests.helpers.gui import wait_loaded, wired_window
from tests.helpers.qt import run_in_qloop
from tests.helpers.relay import Relay
from tests.helpers.schemas import assert_follows
from tests.helpers.scripted_server import Recorded, Reply

STATE_READS = ("eth_getBalance", "eth_getTransactionCount", "eth_getCode", "eth_getStorageAt")


def open_tx(qtbot: QtBot, window: MainWindow, tx_hash: str) -> TxPageView:
    """Open a transaction's page and wait for its overview."""
    window.navigator.go(tx_route(tx_hash))
    page = wait_loaded(qtbot, window, timeout=60_000)
    assert isinstance(page, TxPageView)
    return page


def choose_inside(qtbot: QtBot, page: TxPageView, until: InsideState = InsideState.SHOWN) -> None:
    """Choose the Inside tab and wait until it reaches a state (and has streamed its rows)."""
    page.content.setCurrentWidget(page.inside)
    model = page.tx_model.inside
    qtbot.waitUntil(lambda: model.state is until and not model.streaming, timeout=60_000)


def items(tree: CellTree) -> list[CellItem]:
    """Return every row of a tree, depth first."""
    found: list[CellItem] = []

    def visit(item: Any) -> None:
        found.append(item)
        for index in range(item.childCount()):
            visit(item.child(index))

    for index in range(tree.topLevelItemCount()):
        visit(tree.topLevelItem(index))
    return found


def depth_of(item: CellItem) -> int:
    """Return how deep a row sits in its tree."""
    depth = 0
    while item.parent() is not None:
        item, depth = item.parent(), depth + 1  # type: ignore[assignment]
    return depth


def test_the_deep_call_is_asked_only_when_chosen_and_shown_whole(
    qtbot: QtBot, window: MainWindow, session: Session, devnet_manifest: dict[str, Any],
    tmp_path: Path,
) -> None:  # fmt: skip
    page = open_tx(qtbot, window, devnet_manifest["inside"]["deep_call"])
    before = dict(session.client.stats.by_method)
    qtbot.wait(300)
    assert page.tx_model.inside.state is InsideState.IDLE
    assert dict(session.client.stats.by_method) == before  # nothing asked before the tab is chosen
    choose_inside(qtbot, page)
    inside = page.inside
    result = page.tx_model.inside.result
    assert result is not None
    assert result.faithful
    assert result.root is not None
    assert inside.headline.text().startswith("Faithful")
    assert inside.source.text().startswith("Source: a replay here")
    rows = items(inside.calls)
    assert len(rows) == result.root.frame_count
    assert max(depth_of(row) for row in rows) == result.root.max_depth >= 4
    assert inside.sections.tabText(0) == f"Calls ({len(rows):,})"
    paid = [row for row in items(inside.moves) if row.cell(1).text == "tRBTC"]
    assert any(row.cell(2).exact == "0.5 tRBTC" for row in paid)
    assert all(row.cell(6).text == "✓" for row in items(inside.diff) if depth_of(row) == 0)
    inside.calls.sortByColumn(GAS_COLUMN, Qt.SortOrder.DescendingOrder)
    top = inside.calls.topLevelItem(0)
    assert top is not None
    assert top.childCount() >= 1
    children = [top.child(i) for i in range(top.childCount())]
    gases = [c.cell(GAS_COLUMN).key for c in children if isinstance(c, CellItem)]
    assert gases == sorted(gases, reverse=True)
    top.setExpanded(False)
    assert not top.isExpanded()
    exported = tmp_path / "deep.json"
    assert page.tx_model.inside.save(exported).startswith("Saved")
    data = json.loads(exported.read_text())
    assert_follows(data, "trace", chain_id=31)
    assert data["faithful"]
    assert data["source"] == "replay"
    csv_text = page.tx_model.inside.export_csv()
    assert csv_text.count("\ncall,") == result.root.frame_count


def traced_calls(
    qtbot: QtBot, window: MainWindow, tx_hash: str
) -> tuple[TxPageView, list[CellItem]]:
    """Open a transaction, choose its Inside tab, return the page and its call rows."""
    page = open_tx(qtbot, window, tx_hash)
    choose_inside(qtbot, page)
    return page, items(page.inside.calls)


def test_a_revert_inside_try_catch_shows_its_reason_and_the_call_that_went_on(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    _page, rows = traced_calls(qtbot, window, devnet_manifest["inside"]["caught_revert"])
    assert rows[0].cell(5).text == "ok"
    reverted = [row for row in rows if row.cell(5).text.startswith("reverted")]
    assert reverted
    assert all(row.failed for row in reverted)
    assert any(not row.failed for row in rows[rows.index(reverted[0]) + 1 :])


def test_a_bridge_call_from_a_contract_is_kept_and_decoded(
    qtbot: QtBot, window: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    page, rows = traced_calls(qtbot, window, devnet_manifest["inside"]["bridge_write"])
    bridge = [row for row in rows if row.cell(2).address == BRIDGE]
    assert bridge, [row.cell(0).text for row in rows]
    assert "[Bridge]" in bridge[0].cell(0).text
    assert "releaseBtc()" in bridge[0].cell(0).text  # a plain transfer to the Bridge: a peg-out
    assert bridge[0].cell(2).text.startswith("Bridge")
    assert any("not replayed" in line for line in page.tx_model.inside.facts)


class LyingRelay(Relay):
    """A hostile node: every receipt it returns claims one more unit of gas than was used."""

    def _relay(self, request: Recorded) -> Reply:
        """Relay, adding one to gasUsed in receipts."""
        reply = super()._relay(request)
        if request.rpc_method != "eth_getTransactionReceipt":
            return reply
        answer = json.loads(reply.body)
        if isinstance(answer.get("result"), dict):
            answer["result"]["gasUsed"] = hex(int(answer["result"]["gasUsed"], 16) + 1)
        return Reply(200, json.dumps(answer).encode(), {"Content-Type": "application/json"})


class SlowRelay(Relay):
    """A node slow at state reads (for a cancel), or keeping no old state at all (pruned)."""

    def __init__(self, target: str, pruned: bool = False) -> None:
        super().__init__(target)
        self.pruned = pruned

    def _relay(self, request: Recorded) -> Reply:
        """Delay or refuse state reads at a numbered block; relay the rest."""
        body = request.json
        calls = body if isinstance(body, list) else [body]
        reads = [c for c in calls if isinstance(c, dict) and c.get("method") in STATE_READS]
        if not reads or any(c["params"][-1] in ("latest", "pending") for c in reads):
            return super()._relay(request)
        if not self.pruned:
            time.sleep(1.5)
            return super()._relay(request)
        refused = [
            {
                "jsonrpc": "2.0",
                "id": c["id"],
                "error": {"code": -32000, "message": "missing trie node"},
            }
            for c in calls
        ]
        answer = refused if isinstance(body, list) else refused[0]
        return Reply(200, json.dumps(answer).encode(), {"Content-Type": "application/json"})


def window_on(qtbot: QtBot, url: str) -> tuple[MainWindow, Session]:
    """Return a window and its session on an endpoint."""
    session = Session(DEVNET, Endpoint.parse(url))
    shell = ShellViewModel()
    window = wired_window(qtbot, shell)
    shell.set_session(session)
    window.show()
    qtbot.waitUntil(lambda: shell.head is not None, timeout=20_000)
    return window, session


@pytest.fixture
def relayed(qloop: qasync.QEventLoop, qtbot: QtBot, devnet: Devnet,
            request: pytest.FixtureRequest) -> Iterator[MainWindow]:  # fmt: skip
    """Yield a window on the devnet through the relay class the test names."""
    kind, options = request.param
    relay = kind(devnet.url("testnet"), **options)
    window, session = window_on(qtbot, relay.url)
    yield window
    run_in_qloop(qtbot, session.aclose())
    relay.close()


@pytest.mark.parametrize("relayed", [(LyingRelay, {})], indirect=True)
def test_a_replay_diverging_from_a_lying_receipt_shows_the_receipt_and_no_tree(
    qtbot: QtBot, relayed: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    page = open_tx(qtbot, relayed, devnet_manifest["inside"]["deep_call"])
    choose_inside(qtbot, page)
    inside = page.inside
    assert inside.headline.text().startswith("The replay diverged: ")
    assert "gas" in inside.headline.text()
    assert not inside.sections.isVisibleTo(inside)
    assert inside.calls.topLevelItemCount() == 0  # the diverged tree is never shown
    assert inside.facts.text().startswith("Receipt: succeeded, gas used")


@pytest.mark.parametrize("relayed", [(SlowRelay, {"pruned": True})], indirect=True)
def test_a_node_without_old_state_is_said_in_a_sentence(
    qtbot: QtBot, relayed: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    page = open_tx(qtbot, relayed, devnet_manifest["inside"]["payroll_call"])
    choose_inside(qtbot, page, InsideState.ERROR)
    text = page.inside.headline.text()
    assert text.startswith("This node keeps no state before block ")
    assert "archive node" in text
    assert page.inside.retry_button.isVisibleTo(page.inside)


@pytest.mark.parametrize("relayed", [(SlowRelay, {})], indirect=True)
def test_cancel_mid_replay_stops_and_trace_again_finishes(
    qtbot: QtBot, relayed: MainWindow, devnet_manifest: dict[str, Any]
) -> None:
    page = open_tx(qtbot, relayed, devnet_manifest["inside"]["proxy_call"])
    page.content.setCurrentWidget(page.inside)
    model = page.tx_model.inside
    qtbot.waitUntil(lambda: "accounts and slots at block" in model.message, timeout=30_000)
    page.inside.cancel_button.click()
    qtbot.waitUntil(lambda: model.state is not InsideState.LOADING, timeout=5_000)
    assert model.state is InsideState.CANCELLED, (model.state, model.message)
    assert page.inside.headline.text().startswith("Stopped")
    assert page.inside.calls.topLevelItemCount() == 0
    page.inside.retry_button.click()
    qtbot.waitUntil(lambda: model.state is InsideState.SHOWN, timeout=60_000)
    assert model.result is not None
    assert model.result.faithful


def test_an_over_budget_replay_asks_first_with_its_estimate(
    qtbot: QtBot, window: MainWindow, session: Session, devnet_manifest: dict[str, Any],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setattr("explorer.viewmodels.tx_inside.ASK_ABOVE", 2)
    page = open_tx(qtbot, window, devnet_manifest["inside"]["wide_call"])
    reads = sum(session.client.stats.by_method.get(m, 0) for m in STATE_READS)
    choose_inside(qtbot, page, InsideState.ASKING)
    assert "would cost about " in page.inside.headline.text()
    assert page.inside.headline.text().endswith("Replay it?")
    assert sum(session.client.stats.by_method.get(m, 0) for m in STATE_READS) == reads
    page.inside.allow_button.click()
    qtbot.waitUntil(lambda: page.tx_model.inside.state is InsideState.SHOWN, timeout=60_000)
    assert page.inside.calls.topLevelItemCount() == 1
