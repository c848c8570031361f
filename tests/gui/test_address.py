"""The address page and its services, against the devnet over real HTTP."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from PySide6.QtGui import QPalette
from pytestqt.qtbot import QtBot

from explorer.chain.abi_input import ERC20_ABI, ERC721_ABI, parse_abi
from explorer.chain.units import readable_rbtc
from explorer.presentation.format import chart_amount
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.activity import ActivityCache, ActivityKind, ActivityScanner
from explorer.services.contracts import PROXY_SLOTS, read_contract, read_slot
from explorer.services.estimate import SPEC_RULE, preflight
from explorer.services.session import Session
from explorer.services.tokens import TokenReader, selector
from explorer.viewmodels.address.tokens import MemoryTokenStore
from explorer.viewmodels.page import PageState
from explorer.viewmodels.roles import ROUTE_ROLE
from explorer.views.charts import Chart, ChartKind, axis_text
from tests.helpers.address import (
    holder_of,
    open_address,
    raw_rpc,
    select_token_row,
    tab_titles,
    token_cell,
    token_rows,
)
from tests.helpers.devnet import PROFILES, Devnet
from tests.helpers.gui import field_text
from tests.helpers.qt import run_in_qloop


@pytest.fixture
def manifest(devnet: Devnet) -> dict[str, Any]:
    """Return the test network's seed manifest."""
    return devnet.manifest("testnet")


@pytest.fixture
def client(qloop: Any, qtbot: QtBot, devnet: Devnet) -> Any:
    """Yield an RPC client on the devnet's test network."""
    rpc = RpcClient(Endpoint.parse(devnet.url("testnet")))
    yield rpc
    run_in_qloop(qtbot, rpc.aclose())


def run(qtbot: QtBot, coro: Any) -> Any:
    """Run a coroutine on the qasync loop."""
    return run_in_qloop(qtbot, coro, timeout_ms=60_000)


def test_token_detection(qtbot: QtBot, client: Any, manifest: dict[str, Any]) -> None:
    """The manifest's token is ERC-20 and its collectible ERC-721; an account is neither."""
    reader = TokenReader(client, manifest.get("multicall") or "0x" + "00" * 20)
    token = run(qtbot, reader.token_info(manifest["token"]))
    assert token.kind == "ERC-20"
    assert token.decimals == 18
    assert token.name
    assert token.symbol
    assert token.total_supply > 0
    nft = run(qtbot, reader.token_info(manifest["collectible"]))
    assert nft.kind == "ERC-721"
    assert nft.name
    plain = run(qtbot, reader.token_info(manifest["accounts"][0]))
    assert not plain.is_token


def test_multicall_balances_equal_single_calls(
    qtbot: QtBot,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """Balances read through one aggregate3 equal those of single eth_calls and of raw RPC."""
    assert manifest["multicall"]
    reader = TokenReader(client, manifest["multicall"])
    holder = holder_of(manifest)
    tokens = [manifest["token"], manifest["collectible"]]
    batched = run(qtbot, reader.balances(holder, tokens))
    assert reader.multicall_used == 1
    single = run(qtbot, reader.balances(holder, tokens, batch=False))
    assert batched == single
    data = "0x" + (selector("balanceOf(address)")).hex() + holder[2:].rjust(64, "0")
    raw = raw_rpc(devnet, "eth_call", {"to": manifest["token"], "data": data}, "latest")
    assert batched[0].balance == int(raw, 16) > 0
    assert batched[0].token.symbol


def test_storage_slot_zero_of_the_token(
    qtbot: QtBot,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """Slot 0 holds the token's short name inline (length*2 in the last byte)."""
    value = run(qtbot, read_slot(client, manifest["token"], 0))
    raw = raw_rpc(devnet, "eth_getStorageAt", manifest["token"], "0x0", "latest")
    assert value.word == bytes.fromhex(raw[2:].rjust(64, "0"))
    token = run(qtbot, TokenReader(client).token_info(manifest["token"]))
    length = value.word[-1] // 2
    assert value.word[:length].decode() == token.name
    assert value.address is None


def test_read_contract_with_typed_inputs(
    qtbot: QtBot, client: Any, manifest: dict[str, Any]
) -> None:
    """balanceOf(address) and ownerOf(uint256) decode; a revert shows its reason."""
    erc20 = {f.name: f for f in parse_abi(ERC20_ABI)}
    holder = holder_of(manifest)
    result = run(
        qtbot, read_contract(client, manifest["token"], erc20["balanceOf"], [holder.upper()])
    )
    assert not result.error
    assert result.outputs[0].value > 0
    erc721 = {f.name: f for f in parse_abi(ERC721_ABI)}
    missing = run(
        qtbot, read_contract(client, manifest["collectible"], erc721["tokenURI"], ["0xffff"])
    )
    assert "DevCollectible: no such token" in missing.error


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_simulate_on_the_reverter(
    qtbot: QtBot, client: Any, manifest: dict[str, Any], devnet: Devnet
) -> None:
    """fail(): the service still estimates (§4.3.1), rskj refuses with -32015.

    Either way the revert and its reason are seen.
    """
    call = {
        "from": manifest["accounts"][0],
        "to": manifest["reverter"],
        "data": "0x" + selector("fail()").hex(),
    }
    result = run(qtbot, preflight(client, call))
    assert result.would_fail
    assert result.revert_reason == "Reverter: always fails"
    if devnet.profile == "rskj":
        assert result.estimate.reverts
        assert result.estimate.gas is None
    else:
        assert result.estimate_despite_failure
    assert "hosted service may estimate gas" in SPEC_RULE
    poke = "0x" + selector("poke(uint256)").hex() + "0" * 63 + "3"
    ok = run(qtbot, preflight(client, {**call, "data": poke}))
    assert not ok.would_fail
    assert ok.estimate.gas is not None
    assert ok.estimate.gas > 21_000


def test_activity_finds_the_manifest_transfers(
    qtbot: QtBot,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """The transfers scan finds the token transfer of the manifest's transaction."""
    tx = raw_rpc(devnet, "eth_getTransactionByHash", manifest["token_transfer"])
    receiver = "0x" + tx["input"][2 + 8 + 24 : 2 + 8 + 64]
    block = int(tx["blockNumber"], 16)

    async def collect() -> list[Any]:
        scanner = ActivityScanner(client)
        found = []
        async for items in scanner.scan(ActivityKind.TRANSFERS, receiver, 0, block + 10):
            found.extend(items)
        return found

    items = run(qtbot, collect())
    mine = [i for i in items if i.tx_hash == manifest["token_transfer"]]
    assert len(mine) == 1
    assert mine[0].direction == "in"
    assert mine[0].counterparty == tx["from"].lower()


def test_activity_scan_can_be_cancelled(
    qtbot: QtBot, client: Any, manifest: dict[str, Any]
) -> None:
    """A transactions scan over many blocks stops when its task is cancelled."""
    seen: list[Any] = []

    async def scan() -> None:
        scanner = ActivityScanner(client)
        async for _items in scanner.scan(
            ActivityKind.TRANSACTIONS,
            manifest["accounts"][0],
            0,
            manifest["head_at_build"],
            seen.append,
        ):
            pass

    task = asyncio.ensure_future(scan())
    qtbot.waitUntil(lambda: len(seen) >= 2, timeout=30_000)
    task.cancel()
    qtbot.waitUntil(task.done, timeout=10_000)
    assert task.cancelled()
    stopped_at = len(seen)
    qtbot.wait(300)
    assert len(seen) == stopped_at
    assert seen[-1].fraction < 1.0


def test_account_page_matches_raw_rpc_and_lists_tokens(
    qtbot: QtBot,
    session: Session,
    manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """Balance and nonce equal the node's raw answers; token balances fill the table."""
    holder = holder_of(manifest)
    extra = [manifest["token"], manifest["collectible"]]
    view = open_address(qtbot, session, holder, extra_tokens=extra)
    model = view.address_model
    assert model.state is PageState.LOADED
    balance = int(raw_rpc(devnet, "eth_getBalance", holder, "latest"), 16)
    nonce = int(raw_rpc(devnet, "eth_getTransactionCount", holder, "latest"), 16)
    assert field_text(view, "Balance") == readable_rbtc(balance, "tRBTC")  # the exact one on hover
    assert field_text(view, "Nonce (transactions sent)") == f"{nonce:,}"
    assert field_text(view, "Kind") == "Account (no code)"
    assert "Disassembly" not in tab_titles(view)
    assert "Tokens" in tab_titles(view)
    qtbot.waitUntil(lambda: "Multicall3" in view.tokens_tab.status.text(), timeout=30_000)
    assert token_rows(view) == 2  # tRIF, a known token without a contract here, is left out
    texts = {token_cell(view, row, 3): token_cell(view, row, 1) for row in range(2)}
    assert texts["ERC-20"].endswith(" DVT")
    assert texts["ERC-721"].endswith(" DVC")
    assert view.tokens_tab.status.text() == "2 token(s), read with one Multicall3 request."


def test_old_state_error_is_shown_honestly(
    qtbot: QtBot, session: Session, manifest: dict[str, Any]
) -> None:
    """A block the node cannot answer for shows the node's own message, and a past block loads."""
    view = open_address(qtbot, session, holder_of(manifest))
    picker = view.block_picker
    picker.edit.setText("1000000000")
    picker.on_chosen()
    model = view.address_model
    qtbot.waitUntil(lambda: model.state is PageState.ERROR, timeout=30_000)
    assert "could not answer for block 1000000000" in view.error_text.text()
    assert "block not found" in view.error_text.text()
    picker.edit.setText("not a block")
    picker.on_chosen()
    assert "not a block number" in picker.error.text()
    picker.edit.setText("5")
    picker.on_chosen()
    qtbot.waitUntil(lambda: model.state is PageState.LOADED, timeout=30_000)
    assert model.overview.facts is not None
    assert model.overview.block == 5


def test_token_contract_page_and_contract_tools(
    qtbot: QtBot, session: Session, manifest: dict[str, Any]
) -> None:
    """Token facts, disassembly, slot 0, a typed read-contract call and a simulation, via the UI."""
    view = open_address(qtbot, session, manifest["token"])
    model = view.address_model
    assert field_text(view, "Standard") == "ERC-20"
    assert field_text(view, "Symbol") == "DVT"
    assert {"Disassembly", "Contract"} <= set(tab_titles(view))
    assert view.code_view.toPlainText().startswith("000000  PUSH1 0x80")
    slots = view.contract_tab.slot_box
    presets = [slots.slot_edit.itemText(i) for i in range(slots.slot_edit.count())]
    assert hex(PROXY_SLOTS["EIP-1967 implementation"]) in presets
    slots.on_read()
    qtbot.waitUntil(lambda: bool(model.storage.result), timeout=30_000)
    assert "as a short string: 'Devnet Token'" in slots.result.text()
    reader = view.contract_tab.read_box
    names = [reader.function_choice.itemText(i) for i in range(reader.function_choice.count())]
    reader.function_choice.setCurrentIndex(names.index("balanceOf(address)"))
    reader.input_edits[0].setText("0x1234")
    reader.on_call()
    qtbot.waitUntil(lambda: bool(model.read_contract.result), timeout=30_000)
    assert "Invalid input" in reader.result.text()
    reader.input_edits[0].setText(holder_of(manifest))
    reader.on_call()
    qtbot.waitUntil(lambda: "uint256" in model.read_contract.result, timeout=30_000)
    simulation = view.contract_tab.simulation_box
    simulation.edits["to"].setText(manifest["reverter"])
    simulation.edits["data"].setText("0x" + selector("fail()").hex())
    simulation.on_simulate()
    qtbot.waitUntil(lambda: bool(model.simulation.result), timeout=30_000)
    shown = simulation.result.text()
    assert "Reverter: always fails" in shown
    assert "eth_estimateGas:" in shown


def test_user_tokens_persist_in_the_store(
    qtbot: QtBot, session: Session, manifest: dict[str, Any]
) -> None:
    """An added token is kept in the injected store and read again by the next page."""
    store = MemoryTokenStore()
    view = open_address(qtbot, session, holder_of(manifest), store=store)
    tokens = view.tokens_tab
    tokens.edit.setText("nonsense")
    tokens.on_add()
    assert "not an address" in tokens.error.text()
    tokens.edit.setText(manifest["token"].upper().replace("0X", "0x"))
    tokens.on_add()
    assert store.tokens("devnet") == [manifest["token"]]
    assert tokens.edit.text() == ""
    assert tokens.error.text() == ""
    known = [manifest["collectible"]]
    again = open_address(qtbot, session, holder_of(manifest), store=store, extra_tokens=known)
    qtbot.waitUntil(lambda: token_rows(again) >= 2, timeout=30_000)
    rows = range(token_rows(again))
    names = [token_cell(again, row, 0) for row in rows]
    assert any("DVT" in token_cell(again, row, 1) for row in rows)
    select_token_row(again, names.index("Devnet Collectible (DVC)"))
    again.tokens_tab.on_remove()
    assert "Only tokens you added" in again.tokens_tab.error.text()
    select_token_row(again, names.index("Devnet Token (DVT)"))
    again.tokens_tab.on_remove()
    assert store.tokens("devnet") == []


def test_activity_scan_streams_then_reopens_from_cache(
    qtbot: QtBot, session: Session, manifest: dict[str, Any]
) -> None:
    """A transfers scan fills the table with links and a histogram; reopening is instant."""
    cache = ActivityCache()
    holder = holder_of(manifest)
    view = open_address(qtbot, session, holder, cache=cache, extra_tokens=[manifest["token"]])
    model = view.address_model
    activity = model.activity
    activity.start(ActivityKind.TRANSFERS, "0", "")
    qtbot.waitUntil(lambda: activity.complete, timeout=60_000)
    table = activity.table
    assert table.rowCount() > 0
    assert view.activity_tab.progress.value() == 1000
    assert str(table.data(table.index(0, 1), ROUTE_ROLE)).startswith("tx/0x")
    assert sum(activity.histogram()) == len(table.items)
    again = open_address(qtbot, session, holder, cache=cache)
    qtbot.waitUntil(lambda: "read with" in again.tokens_tab.status.text(), timeout=30_000)
    requests = session.client.stats.today
    before = dict(session.client.stats.by_method)
    assert activity.scan_range is not None
    again.address_model.activity.start(ActivityKind.TRANSFERS, "0", str(activity.scan_range[1]))
    qtbot.waitUntil(lambda: again.address_model.activity.complete, timeout=10_000)
    assert "(cached)" in again.activity_tab.status.text()
    assert len(again.address_model.activity.table.items) == len(table.items)
    assert session.client.stats.by_method == before
    assert session.client.stats.today == requests


def test_charts_draw_lines_with_gaps_and_bars(qtbot: QtBot) -> None:
    """The QPainter charts paint data in the palette's highlight colour, and a note when empty."""
    chart = Chart("Balance", kind=ChartKind.LINE)
    qtbot.addWidget(chart)
    chart.resize(400, 200)
    highlight = chart.palette().color(QPalette.ColorRole.Highlight).rgb()

    def painted() -> int:
        image = chart.grab().toImage()
        return sum(
            image.pixel(x, y) == highlight
            for x in range(0, image.width(), 2)
            for y in range(0, image.height(), 2)
        )

    assert painted() == 0
    chart.set_data([1.0, None, 3.0, 4.0], "block 1", "block 4")
    assert painted() > 0
    chart.kind = ChartKind.BARS
    chart.set_data([0.0, 5.0, 2.0])
    assert painted() > 0
    chart.kind = ChartKind.LINE
    chart.set_data([1e24] * 5)  # a balance that never moved: floats this large ignore +-1
    assert painted() > 0


def test_chart_axes_read_round_and_a_flat_series_shows_its_one_value(qtbot: QtBot) -> None:
    """Axes round outward; a flat series shows its one value; never "0–0".

    Seen: 9,993,159.996938–9,993,158.557907 tRBTC, 9,494,071.997621–10,493,447.997419
    around a flat balance, and 0–0 on a chart of zeros.
    """
    chart = Chart("Balance", kind=ChartKind.LINE)
    qtbot.addWidget(chart)
    chart.resize(600, 220)
    chart.format_value = lambda wei: chart_amount(wei, "tRBTC")

    def axis(values: list[float]) -> list[str]:
        chart.set_data(values)
        chart.grab()  # paints
        return chart.y_labels

    moved = [9_993_159.996938e18] * 20 + [9_993_158.557907e18]
    assert axis(moved) == ["9,993,160 tRBTC", "9,993,158.4 tRBTC"]
    assert axis([9_993_159.996938e18] * 20) == ["9,993,159.9969 tRBTC"]  # one value, once
    assert axis([0.0, 1e11, 2e11]) == ["0.0000002 tRBTC", "0 tRBTC"]
    chart.format_value = lambda value: f"{value:.0f}"
    assert axis([0.1, 0.2, 0.3]) == ["0"]  # both ends read alike: said once
    chart.kind, chart.zero_based = ChartKind.BARS, True
    chart.format_value = axis_text
    assert axis([0.0] * 10) == ["0"]  # not 0–0
    assert axis([0.0, 264_107.0, 5.0]) == ["300,000", "0"]
    assert axis([4.0] * 10) == ["4", "0"]  # bars stand on zero


def test_activity_finds_transactions_and_emitted_events(
    qtbot: QtBot,
    client: Any,
    manifest: dict[str, Any],
    devnet: Devnet,
) -> None:
    """A block scan finds the sender's plain transfer; an events scan finds the token's log."""
    plain = raw_rpc(devnet, "eth_getTransactionByHash", manifest["plain_transfer"])
    plain_block = int(plain["blockNumber"], 16)
    token_tx = raw_rpc(devnet, "eth_getTransactionByHash", manifest["token_transfer"])
    token_block = int(token_tx["blockNumber"], 16)

    async def collect(kind: ActivityKind, address: str, block: int) -> list[Any]:
        found: list[Any] = []
        async for items in ActivityScanner(client).scan(kind, address, block - 2, block + 2):
            found.extend(items)
        return found

    sent = run(qtbot, collect(ActivityKind.TRANSACTIONS, plain["from"], plain_block))
    match = [i for i in sent if i.tx_hash == manifest["plain_transfer"]]
    assert len(match) == 1
    assert match[0].direction == "out"
    assert match[0].counterparty == plain["to"].lower()
    emitted = run(qtbot, collect(ActivityKind.EVENTS, manifest["token"], token_block))
    transfer = [i for i in emitted if i.tx_hash == manifest["token_transfer"]]
    assert transfer
    assert transfer[0].detail.startswith("Transfer(")
    assert all(i.contract == manifest["token"] for i in emitted)


def test_activity_transactions_show_values_in_the_networks_currency(
    qtbot: QtBot, session: Session, manifest: dict[str, Any], devnet: Devnet
) -> None:
    """Plain transfers read `1 tRBTC`, never wei; no Contract repeating the counterparty.

    They read `value 1,000,000,000,000,000,000 wei`, and the counterparty showed twice.
    """
    tx = raw_rpc(devnet, "eth_getTransactionByHash", manifest["plain_transfer"])
    block, sender = int(tx["blockNumber"], 16), tx["from"]
    view = open_address(qtbot, session, sender, cache=ActivityCache())
    activity = view.address_model.activity
    activity.start(ActivityKind.TRANSACTIONS, str(block), str(block))
    qtbot.waitUntil(lambda: activity.complete, timeout=30_000)
    table = activity.table
    assert table.rowCount() >= 1
    details = [str(table.index(row, 5).data()) for row in range(table.rowCount())]
    assert all(d.endswith(" tRBTC") for d in details), details
    assert not any("wei" in d for d in details)
    assert {str(table.index(row, 4).data()) for row in range(table.rowCount())} == {""}
    assert str(table.index(0, 3).data()).startswith("0x")  # the counterparty is there
