"""The address page's tools, one rule each, driven through their widgets against the devnet."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFormLayout, QLabel
from pytestqt.qtbot import QtBot

from explorer.chain.checksum import to_checksum_address
from explorer.presentation.simulation import call_object
from explorer.rpc.params import BlockSelector
from explorer.services.activity import DEFAULT_RANGE, ActivityKind
from explorer.services.routes import address_route
from explorer.services.session import Session
from explorer.services.tokens import selector
from explorer.viewmodels.address.blocks import parse_block_text, resolve_range
from explorer.viewmodels.address.page import AddressTab
from explorer.viewmodels.address.read_contract import AbiChoice
from explorer.viewmodels.address.tokens import TokenColumn
from explorer.viewmodels.roles import ROUTE_ROLE
from tests.helpers.address import holder_of, open_address, raw_rpc, token_cell, token_rows
from tests.helpers.devnet import Devnet
from tests.helpers.qt import run_in_qloop

PASTED_ABI = [
    {
        "type": "function",
        "name": "sumOf",
        "stateMutability": "view",
        "inputs": [{"name": "ids", "type": "uint256[]"}],
        "outputs": [{"name": "", "type": "uint256"}],
    },
    {
        "type": "function",
        "name": "burn",
        "stateMutability": "nonpayable",
        "inputs": [{"name": "amount", "type": "uint256"}],
        "outputs": [],
    },
]


def test_typed_blocks_and_ranges(qtbot: QtBot, session: Session) -> None:
    """Blocks are tags or numbers; a range defaults to the last blocks and never runs backwards."""
    assert parse_block_text("") == "latest"
    assert parse_block_text(" Pending ") == "pending"
    assert parse_block_text("0x10") == 16
    assert parse_block_text("12") == 12
    with pytest.raises(ValueError, match="not a block number or tag"):
        parse_block_text("tomorrow")
    head = run_in_qloop(qtbot, session.reader.latest_number())
    start, end = run_in_qloop(qtbot, resolve_range(session.reader, "", ""))
    assert end >= head
    assert end - start == DEFAULT_RANGE - 1
    assert run_in_qloop(qtbot, resolve_range(session.reader, "3", "0x5")) == (3, 5)
    with pytest.raises(ValueError, match=r"starts \(5\) after it ends \(3\)"):
        run_in_qloop(qtbot, resolve_range(session.reader, "5", "3"))


def test_block_picker_error_clears_and_account_tabs(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """A refused block says why until a valid one is chosen; an account has no code tabs."""
    view = open_address(qtbot, session, holder_of(devnet_manifest))
    model = view.address_model
    assert model.tabs == (
        AddressTab.HISTORY,
        AddressTab.TOKENS,
        AddressTab.ACTIVITY,
        AddressTab.CHARTS,
    )
    picker = view.block_picker

    def chosen_block() -> BlockSelector:  # read anew after each step (no narrowing kept)
        return model.overview.block

    picker.edit.setText("soon")
    picker.on_chosen()
    assert "'soon' is not a block number or tag" in picker.error.text()
    assert chosen_block() == "latest"
    picker.edit.setText("3")
    picker.on_chosen()
    assert picker.error.text() == ""
    assert chosen_block() == 3


def test_read_contract_abi_choice_and_pasted_functions(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """A pasted ABI shows its paste field, lists only view functions and asks arrays as JSON.

    Once read, the contract's own functions (recovered from its code) are chosen first.
    """
    view = open_address(qtbot, session, devnet_manifest["token"])
    box = view.contract_tab.read_box
    reader = view.address_model.read_contract
    qtbot.waitUntil(lambda: reader.abi is AbiChoice.CONTRACT, timeout=30_000)
    assert box.abi_text.isHidden()
    assert "read function(s) to call" in box.functions_status.text()
    box.abi_choice.setCurrentIndex(list(AbiChoice).index(AbiChoice.ERC20))
    assert box.functions_status.text() == "6 view function(s)."
    box.abi_choice.setCurrentIndex(list(AbiChoice).index(AbiChoice.PASTED))
    assert not box.abi_text.isHidden()
    assert box.functions_status.text().startswith("Invalid ABI")
    assert box.function_choice.count() == 0
    assert box.input_edits == []
    box.on_call()  # nothing to call: nothing happens
    assert view.address_model.read_contract.result == ""
    box.abi_text.setPlainText(json.dumps(PASTED_ABI))
    assert (
        box.functions_status.text() == "1 view function(s) (1 state-changing function(s) left out)."
    )
    assert [box.function_choice.itemText(i) for i in range(box.function_choice.count())] == [
        "sumOf(uint256[])"
    ]
    assert [edit.placeholderText() for edit in box.input_edits] == ["uint256[] (JSON array)"]
    label = box.inputs_form.labelForField(box.input_edits[0])
    assert isinstance(label, QLabel)
    assert label.text() == "ids (uint256[]):"
    box.abi_choice.setCurrentIndex(list(AbiChoice).index(AbiChoice.ERC721))
    assert box.abi_text.isHidden()
    names = [box.function_choice.itemText(i) for i in range(box.function_choice.count())]
    assert "ownerOf(uint256)" in names
    assert box.function_choice.currentIndex() == 0


def test_storage_slot_links_the_address_it_holds(
    qtbot: QtBot,
    session: Session,
    devnet_manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """The RNS registry's slot 0 holds its admin: shown checksummed and opened by a click."""
    registry = devnet_manifest["rns_registry"]
    word = raw_rpc(devnet, "eth_getStorageAt", registry, "0x0", "latest")
    admin = "0x" + word[2:].rjust(64, "0")[-40:]
    view = open_address(qtbot, session, registry)
    view.content.setCurrentWidget(view.contract_tab)
    slots = view.contract_tab.slot_box
    slots.slot_edit.setEditText("0")
    slots.on_read()
    qtbot.waitUntil(lambda: "as an address" in slots.result.text(), timeout=30_000)
    checksummed = to_checksum_address(admin, devnet_manifest["chain_id"])
    assert f"as an address: {checksummed}" in slots.result.text()
    assert slots.link.text() == "Open this address"
    assert slots.link.route() == address_route(admin)
    view.contract_tab.ensureWidgetVisible(slots.link)
    with qtbot.waitSignal(view.link_activated, timeout=5_000) as opened:
        QTest.mouseClick(slots.link, Qt.MouseButton.LeftButton)
    assert opened.args == [address_route(admin), False]
    slots.slot_edit.setEditText("0xzz")
    slots.on_read()
    assert slots.result.text().startswith("Invalid input")
    assert slots.link.text() == ""
    assert slots.link.route() is None


def test_a_new_run_cancels_the_one_before(
    qtbot: QtBot,
    session: Session,
    devnet_manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """Two reads in a row: only the second reports, and the tool runs once, then stops."""
    token = devnet_manifest["token"]
    view = open_address(qtbot, session, token)
    storage = view.address_model.storage
    results: list[str] = []
    running: list[bool] = []
    storage.result_changed.connect(results.append)
    storage.running_changed.connect(running.append)
    storage.read("0")
    storage.read("1")
    qtbot.waitUntil(lambda: running == [True, False], timeout=30_000)
    qtbot.wait(200)
    word = raw_rpc(devnet, "eth_getStorageAt", token, "0x1", "latest")
    assert results == [storage.result]
    assert running == [True, False]
    assert storage.result.startswith("0x" + word[2:].rjust(64, "0") + "\n")


def test_simulation_fields_build_the_call_object(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """Amounts as on every page (gas price in gwei, value in tRBTC), each field saying its unit.

    The tab asked the gas price in wei but the value in RBTC, neither said on its field.
    """
    token, sender = devnet_manifest["token"], devnet_manifest["accounts"][0]
    fields = {"from": sender, "gas": "21000", "gasPrice": "0.06", "value": "0.001", "data": "0xab"}
    assert call_object(fields, token) == {
        "to": token,
        "from": sender,
        "gas": hex(21_000),
        "gasPrice": hex(60_000_000),
        "value": hex(10**15),
        "data": "0xab",
    }
    assert call_object({"gasPrice": "0.06 gwei", "value": "1 tRBTC"}, token)["value"] == hex(10**18)
    view = open_address(qtbot, session, token)
    box = view.contract_tab.simulation_box
    form = box.layout()
    assert isinstance(form, QFormLayout)
    labels = [form.labelForField(edit) for edit in box.edits.values()]
    texts = [label.text() if isinstance(label, QLabel) else "" for label in labels]
    assert texts == ["to:", "from:", "gas:", "gasPrice, gwei:", "value, tRBTC:", "data:"]
    box.edits["from"].setText("nonsense")
    box.on_simulate()
    assert box.result.text().startswith("Invalid input")
    box.edits["from"].setText("")
    box.edits["data"].setText("0x" + selector("totalSupply()").hex())
    box.on_simulate()
    qtbot.waitUntil(lambda: "eth_estimateGas" in box.result.text(), timeout=30_000)
    assert box.result.text().startswith("eth_call: succeeds, output 0x")
    assert box.result.text().endswith(" gas")


def test_activity_refuses_a_backward_range_and_cancels(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """A range that runs backwards is refused; Cancel stops a scan and keeps what it found."""
    view = open_address(qtbot, session, devnet_manifest["accounts"][0])
    tab, activity = view.activity_tab, view.address_model.activity
    assert "no address index" in tab.status.text()
    assert tab.scan_button.isEnabled()
    assert not tab.cancel_button.isEnabled()
    tab.scan_from.setText("10")
    tab.scan_to.setText("5")
    tab.on_scan()
    qtbot.waitUntil(lambda: "Cannot scan" in tab.status.text(), timeout=10_000)
    assert "the range starts (10) after it ends (5)" in tab.status.text()
    statuses: list[str] = []
    activity.result_changed.connect(statuses.append)
    tab.kind_choice.setCurrentIndex(list(ActivityKind).index(ActivityKind.TRANSACTIONS))
    tab.scan_from.setText("0")
    tab.scan_to.setText("")
    tab.on_scan()
    qtbot.waitUntil(lambda: activity.fraction > 0, timeout=30_000)
    started = [status for status in statuses if status.startswith("Scanning blocks 0–")]
    last = int(started[0].split("–")[1].split(" ")[0].replace(",", ""))
    assert f"about {last + 1:,} requests" in started[0]  # one request per block
    assert not tab.scan_button.isEnabled()
    assert tab.cancel_button.isEnabled()
    tab.cancel_button.click()
    assert tab.status.text().startswith("Cancelled — ")
    assert tab.status.text().endswith(" found before stopping.")
    assert tab.scan_button.isEnabled()
    assert not tab.cancel_button.isEnabled()
    shown, found = tab.progress.value(), len(activity.table.items)
    qtbot.wait(300)
    assert tab.progress.value() == shown < 1000
    assert len(activity.table.items) == found
    assert tab.status.text().startswith("Cancelled — ")


def test_dispose_cancels_every_tool(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """Disposing the page stops each tool's task: nothing runs or reports afterwards."""
    view = open_address(qtbot, session, devnet_manifest["accounts"][0])
    model = view.address_model
    model.activity.start(ActivityKind.TRANSACTIONS, "0", "")
    model.charts.sample_balance(200, "0", "")
    model.tokens.load()
    assert model.activity.running
    assert model.charts.running
    assert model.tokens.running
    qtbot.waitUntil(lambda: model.activity.fraction > 0, timeout=30_000)
    model.dispose()
    assert not any(tool.running for tool in model.tools)
    results = [tool.result for tool in model.tools]
    found = len(model.activity.table.items)
    qtbot.wait(500)
    assert [tool.result for tool in model.tools] == results
    assert len(model.activity.table.items) == found


def test_token_contract_cell_opens_the_token(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    """The contract column links to the token's page with a Route; other columns do not."""
    token = devnet_manifest["token"]
    view = open_address(qtbot, session, holder_of(devnet_manifest), extra_tokens=[token])
    qtbot.waitUntil(lambda: token_rows(view) >= 1, timeout=30_000)
    shown = to_checksum_address(token, devnet_manifest["chain_id"])
    row = [token_cell(view, r, TokenColumn.CONTRACT) for r in range(token_rows(view))].index(shown)
    table = view.tokens_tab.table
    cell = table.model().index(row, TokenColumn.CONTRACT)
    assert cell.data(ROUTE_ROLE) == address_route(token)
    assert table.model().index(row, TokenColumn.TOKEN).data(ROUTE_ROLE) is None
    view.content.setCurrentWidget(view.tokens_tab)
    with qtbot.waitSignal(view.link_activated, timeout=5_000) as opened:
        QTest.mouseClick(
            table.viewport(), Qt.MouseButton.LeftButton, pos=table.visualRect(cell).center()
        )
    assert opened.args == [address_route(token), False]


def test_charts_follow_the_samples_and_the_last_scan(
    qtbot: QtBot,
    session: Session,
    devnet_manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """The balance chart shows the node's balances; the histogram counts the last scan."""
    holder = holder_of(devnet_manifest)
    view = open_address(qtbot, session, holder)
    tab, model = view.charts_tab, view.address_model
    assert tab.balance_chart.values == []
    assert "24 samples" in tab.balance_chart.empty_text
    tab.on_sample_balance()
    qtbot.waitUntil(lambda: "sample(s) in blocks" in tab.status.text(), timeout=30_000)
    values = tab.balance_chart.values
    last = int(tab.balance_chart.x_labels[1].removeprefix("block ").replace(",", ""))
    balance = int(raw_rpc(devnet, "eth_getBalance", holder, hex(last)), 16)
    assert len(values) == 24
    assert values[-1] == float(balance)
    assert tab.balance_chart.format_value(1_234_567_890_123_456_789.0) == "1.2346 tRBTC"  # as read
    model.activity.start(ActivityKind.TRANSFERS, "0", "")
    qtbot.waitUntil(lambda: model.activity.complete, timeout=60_000)
    chart = tab.activity_chart
    assert model.activity.scan_range is not None
    first, end = model.activity.scan_range
    assert len(chart.values) == 20
    assert sum(v or 0 for v in chart.values) == len(model.activity.table.items)
    per_bar = round((end - first + 1) / 20)
    assert chart.title == f"Activity per block range (last scan, {per_bar:,} blocks a bar)"
    assert chart.x_labels == (f"block {first:,}", f"block {end:,}")
