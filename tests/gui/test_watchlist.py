"""The watchlist against the devnet: one request per new head, activity told, catch-up, quota."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from explorer.app.watching import SettingsLists
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.routes import address_route
from explorer.services.session import Session
from explorer.settings.store import KEEP_IN_TRAY, Settings
from explorer.viewmodels.address.page import AddressPageViewModel
from explorer.viewmodels.watchlist import (
    MemoryListStore,
    WatchlistPageViewModel,
    WatchlistViewModel,
)
from explorer.viewmodels.watchlist_table import WatchColumn
from explorer.views.address.page import AddressView
from explorer.views.watchlist_view import WatchlistView
from tests.helpers.devnet import Devnet
from tests.helpers.devnet_client import RawRpc
from tests.helpers.pruned import OldState, PrunedNode
from tests.helpers.qt import run_in_qloop
from tests.helpers.watching import checked, fresh_address, head, send

TRANSFER = "0xa9059cbb"  # transfer(address,uint256)


def mine(devnet: Devnet) -> int:
    """Mine an empty block; return the new head."""
    with httpx.Client(timeout=60) as http:
        RawRpc(http, devnet.url("testnet"))("evm_mine")
    return head(devnet)


@pytest.fixture
def relayed(qloop: Any, qtbot: QtBot, devnet: Devnet) -> Any:
    """Yield (session, node): a session through a relay that counts requests."""
    node = PrunedNode(devnet.url("testnet"), OldState.KEPT)
    session = Session(DEVNET, Endpoint.parse(node.url, allow_insecure_http=True))
    yield session, node
    run_in_qloop(qtbot, session.aclose())
    node.close()


def test_the_star_adds_and_the_screen_lists(
    qtbot: QtBot, session: Session, devnet_manifest: dict[str, Any]
) -> None:
    watchlist = WatchlistViewModel(MemoryListStore())
    watchlist.bind(session)
    model = AddressPageViewModel(session, address_route(devnet_manifest["busy_account"]))
    model.watchlist = watchlist
    page = AddressView(model)
    qtbot.addWidget(page)
    assert page.star is not None
    assert page.star.text() == "☆ Watch"
    page.star.click()
    assert watchlist.is_watched(devnet_manifest["busy_account"])
    assert page.star.text() == "★ Watching"
    screen = WatchlistView(WatchlistPageViewModel(watchlist))
    qtbot.addWidget(screen)
    assert screen.table.model().rowCount() == 1
    assert "each new block costs 1 request (3 reads" in screen.status.text()
    checked(qtbot, watchlist, devnet_manifest["head_at_build"])
    cell = screen.table.model().index(0, WatchColumn.BALANCE).data()
    assert cell.endswith("tRBTC")
    page.star.click()
    assert not watchlist.is_watched(devnet_manifest["busy_account"])
    model.dispose()


def test_each_new_head_costs_one_request_and_activity_is_told(
    qtbot: QtBot, relayed: Any, devnet: Devnet
) -> None:
    session, node = relayed
    store = MemoryListStore()
    watchlist = WatchlistViewModel(store)
    watchlist.bind(session)
    targets = [fresh_address() for _ in range(3)]
    for index, target in enumerate(targets):
        watchlist.add(target, f"target {index}")
    checked(qtbot, watchlist, head(devnet))  # the first check learns the states
    told: list[tuple[str, str]] = []
    watchlist.activity.connect(lambda title, text: told.append((title, text)))
    asked = len(node.server.requests)
    checked(qtbot, watchlist, mine(devnet))
    assert len(node.server.requests) - asked == 1  # one batch: 3 × 2 reads and one eth_getLogs
    assert node.calls[-7:].count("eth_getLogs") == 1
    assert not told
    block = send(devnet, targets[1], value=10**15)
    checked(qtbot, watchlist, block)
    qtbot.waitUntil(lambda: bool(told), timeout=60_000)
    assert told[0][0] == "Watchlist: target 1"
    assert "received 0.001 tRBTC" in told[0][1]
    entry = next(e for e in watchlist.entries if e.address == targets[1])
    assert entry.unseen
    assert entry.last_activity == block
    assert entry.balance == 10**15
    assert watchlist.table.index(1, WatchColumn.NEW).data() == "●"
    assert watchlist.table.index(0, WatchColumn.NEW).data() == ""
    watchlist.mark_seen()
    assert not any(e.unseen for e in watchlist.entries)


def test_a_token_received_is_activity_too(
    qtbot: QtBot, session: Session, devnet: Devnet, devnet_manifest: dict[str, Any]
) -> None:
    watchlist = WatchlistViewModel(MemoryListStore())
    watchlist.bind(session)
    target = fresh_address()
    watchlist.add(target)
    checked(qtbot, watchlist, head(devnet))
    told: list[str] = []
    watchlist.activity.connect(lambda _title, text: told.append(text))
    data = TRANSFER + target[2:].rjust(64, "0") + hex(5 * 10**18)[2:].rjust(64, "0")
    block = send(devnet, devnet_manifest["token"], data=data)
    checked(qtbot, watchlist, block)
    qtbot.waitUntil(lambda: bool(told), timeout=60_000)
    assert "received 5 DVT" in told[0]
    assert watchlist.entries[0].balance == 0  # no RBTC moved: only the logs told


def test_a_restart_catches_up_with_the_history_search(
    qtbot: QtBot, session: Session, devnet: Devnet
) -> None:
    store = MemoryListStore()
    first = WatchlistViewModel(store)
    first.bind(session)
    target = fresh_address()
    first.add(target, "while closed")
    checked(qtbot, first, head(devnet))
    run_in_qloop(qtbot, first.aclose())
    block = send(devnet, target, value=2 * 10**15)  # the app was closed
    for _ in range(3):
        send(devnet, fresh_address(), value=1)
    again = WatchlistViewModel(store)
    again.bind(session)
    told: list[str] = []
    again.activity.connect(lambda _title, text: told.append(text))
    checked(qtbot, again, head(devnet))
    qtbot.waitUntil(lambda: bool(told), timeout=60_000)
    assert "received 0.002 tRBTC" in told[0]
    assert again.entries[0].last_activity == block


def test_checks_pause_at_the_daily_quota(qtbot: QtBot, relayed: Any, devnet: Devnet) -> None:
    session, node = relayed
    watchlist = WatchlistViewModel(MemoryListStore())
    watchlist.bind(session)
    watchlist.add(fresh_address())
    session.earlier_today = session.daily_quota = 25_000  # no request left today
    asked = len(node.server.requests)
    watchlist.on_head(head(devnet))
    assert "Paused" in watchlist.status
    assert len(node.server.requests) == asked


def test_the_tray_choice_is_kept() -> None:
    watchlist = WatchlistViewModel(MemoryListStore())
    page = WatchlistPageViewModel(watchlist)
    assert not page.keep_in_tray
    page.set_keep_in_tray(True)
    assert watchlist.tray_choice()


def test_watched_lists_and_the_tray_choice_live_in_the_settings_file(tmp_path: Path) -> None:
    """The app's store keeps each network's list under its declared key, read by a new process."""
    path = str(tmp_path / "explorer.ini")
    lists = SettingsLists(Settings(QSettings(path, QSettings.Format.IniFormat)))
    lists.set_list("watchlist/testnet", ['{"address": "0x01"}', '{"address": "0x02"}'])
    lists.settings.set(KEEP_IN_TRAY, True)
    again = Settings(QSettings(path, QSettings.Format.IniFormat))
    assert SettingsLists(again).get_list("watchlist/testnet") == [
        '{"address": "0x01"}',
        '{"address": "0x02"}',
    ]
    assert SettingsLists(again).get_list("watchlist/mainnet") == []
    assert again.get(KEEP_IN_TRAY) is True
