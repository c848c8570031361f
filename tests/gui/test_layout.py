"""Every screen fits the window's default 1200×800, with and without the bookmarks panel."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import qasync
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QAbstractScrollArea, QPushButton, QTableView, QWidget
from pytestqt.qtbot import QtBot

from explorer.devnet.process import DevnetOptions
from explorer.services.routes import (
    BROADCAST,
    HOME,
    LOGS,
    NODE,
    WATCHLIST,
    Route,
    address_route,
    block_route,
    tool_route,
    tx_route,
)
from explorer.tour.routes import screens as tour_screens
from explorer.viewmodels.labels import LabelsViewModel
from explorer.viewmodels.watchlist import MemoryListStore, WatchlistViewModel
from explorer.views.address.page import AddressView
from explorer.views.bookmarks_view import BookmarksView, install_labels
from explorer.views.home_view import HomeView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from explorer.views.widgets.address import set_label_lookup
from explorer.views.widgets.menus import set_entity_actions
from tests.helpers.devnet import Devnet, devnet_cache_dir, shared_loop, start_devnet
from tests.helpers.elision import cut_texts
from tests.helpers.qt import run_in_qloop
from tests.helpers.watching import checked, fresh_address, head, send

SIZE = (1200, 800)


@pytest.fixture(scope="module")
def devnet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Devnet]:
    """Yield a devnet of this module's own, as the tour has: no other test's transfers.

    (A 1-wei transfer another test sends reads 0.000000000000000001 tRBTC: a wider Value
    column than the tour's screens ever show.)
    """
    workdir = tmp_path_factory.mktemp("layout-devnet")
    options = DevnetOptions(cache_dir=devnet_cache_dir(), profile="service")
    running = start_devnet(shared_loop(), workdir, options)
    yield running
    shared_loop().run(running.process.stop())


@pytest.fixture
def panel(
    qloop: qasync.QEventLoop, qtbot: QtBot, window: MainWindow, tmp_path: Path
) -> Iterator[BookmarksView]:
    """Give the window its bookmarks panel (hidden), as the app does."""
    labels = LabelsViewModel(tmp_path / "data")
    run_in_qloop(qtbot, labels.open_network("devnet", 31))
    dock = install_labels(window, labels)
    yield dock
    set_label_lookup(None)
    set_entity_actions(None)
    run_in_qloop(qtbot, labels.aclose())


def routes(manifest: dict[str, Any]) -> list[Route]:
    """Return a route of every kind of screen."""
    return [
        HOME,
        tx_route(manifest["token_transfer"]),
        block_route(manifest["big_block"]),
        address_route(manifest["accounts"][0]),
        address_route(manifest["token"]),
        LOGS,
        NODE,
        BROADCAST,
        tool_route("abi-decode"),
    ]


def screen_tabs(qtbot: QtBot, window: MainWindow, route: Route) -> Iterator[str]:
    """Open a route, loaded, and show each of its tabs in turn; yield each tab's title."""
    window.navigator.go(route)
    qtbot.wait(300)
    page = window.tabs.currentWidget()
    if not isinstance(page, AddressView):
        document = window.current_page()
        if document is not None:
            qtbot.waitUntil(functools.partial(complete, document), timeout=20_000)
            qtbot.wait(300)
        yield ""
        return
    qtbot.waitUntil(functools.partial(loaded, page), timeout=20_000)
    for index in range(page.content.count()):
        page.content.setCurrentIndex(index)
        qtbot.wait(150)
        if page.content.tabText(index) == "History":  # it searches when chosen
            run_history(qtbot, page)
            qtbot.wait(300)
        yield page.content.tabText(index)


def watched_with_news(qtbot: QtBot, window: MainWindow, devnet: Devnet) -> WatchlistViewModel:
    """Return a watchlist of two addresses, one of them just paid (its news in the table)."""
    watched = WatchlistViewModel(MemoryListStore())
    assert window.shell.session is not None
    watched.bind(window.shell.session)
    target = fresh_address()
    for address in (devnet.manifest("testnet")["busy_account"], target):
        watched.add(address)
    checked(qtbot, watched, head(devnet))
    checked(qtbot, watched, send(devnet, target, value=10**15))
    return watched


def run_history(qtbot: QtBot, page: AddressView) -> None:
    """Run an address's History search to its end, giving the go each time it asks."""
    history = page.address_model.history

    def waiting_or_done() -> bool:
        return bool(history.estimate_text) or history.result.startswith("Complete")

    qtbot.waitUntil(waiting_or_done, timeout=120_000)
    while history.estimate_text:
        history.on_action()
        qtbot.waitUntil(waiting_or_done, timeout=300_000)
    qtbot.wait(300)


def complete(page: PageView) -> bool:
    """Tell whether a page has loaded and laid out its whole document."""
    return not page.model.waiting and not page.model.busy and page.document_view.is_complete


def loaded(page: AddressView) -> bool:
    """Tell whether an address page has its summary."""
    return not page.model.waiting


def overflowing(page: QWidget) -> list[str]:
    """Return the visible scroll areas of a page that scroll sideways (their content is wider)."""
    return [
        f"{area.metaObject().className()} {area.objectName()}"
        for area in page.findChildren(QAbstractScrollArea)
        if area.isVisible()
        and area.horizontalScrollBar().isVisible()
        and not isinstance(area, QTableView)  # tables of many columns may scroll (Logs)
    ]


def outside(window: MainWindow, page: QWidget) -> list[str]:
    """Return the visible buttons of a page that are not wholly inside the window."""
    right = window.width()
    found = []
    for button in page.findChildren(QPushButton):
        if button.isVisible() and button.window() is window:
            left = button.mapTo(window, QPoint(0, 0)).x()
            if left < 0 or left + button.width() > right:
                found.append(button.text())
    return found


@pytest.mark.parametrize("with_panel", [False, True])
def test_every_screen_fits_1200_by_800(
    qtbot: QtBot,
    window: MainWindow,
    panel: BookmarksView,
    devnet_manifest: dict[str, Any],
    with_panel: bool,
) -> None:
    """No screen makes the window wider, scrolls sideways or puts a button out of reach.

    With the panel open the pages did not reflow (the Contract tab's Call button went off
    the window); the home tables cut Value and Age.
    """
    window.resize(*SIZE)
    panel.setVisible(with_panel)
    for route in routes(devnet_manifest):
        window.navigator.go(route)
        qtbot.wait(300)
        page = window.tabs.currentWidget()
        tabs = [page]
        if isinstance(page, AddressView):
            qtbot.waitUntil(functools.partial(loaded, page), timeout=20_000)
            found = (page.content.widget(i) for i in range(page.content.count()))
            tabs = [tab for tab in found if tab is not None]
        for tab in tabs:
            if isinstance(page, AddressView):
                page.content.setCurrentWidget(tab)
                qtbot.wait(100)
            assert window.width() == SIZE[0], (route, window.minimumSizeHint())
            assert overflowing(tab) == [], route
            assert outside(window, tab) == [], route
    window.navigator.go(HOME)
    qtbot.wait(300)
    home = window.tabs.currentWidget()
    assert isinstance(home, HomeView)
    for table, columns in ((home.table, (1,)), (home.transactions_table, (1, 4))):
        widths = [table.columnWidth(c) for c in range(table.model().columnCount())]
        assert not table.horizontalScrollBar().isVisible(), (widths, table.viewport().width())
        for column in columns:  # ages and values whole
            assert table.columnWidth(column) >= table.sizeHintForColumn(column), column


@pytest.mark.parametrize("with_panel", [False, True])
def test_no_screen_cuts_its_text_at_1200_by_800(
    qtbot: QtBot,
    window: MainWindow,
    panel: BookmarksView,
    devnet_manifest: dict[str, Any],
    devnet: Devnet,
    with_panel: bool,
) -> None:
    """Every cell, column title and label reads whole, measured against its room.

    Only an address or hash may be shortened, in the middle, keeping its first and last
    four digits. Seen: History cut Tx and scrolled sideways, the panel hid "Balance after",
    Home showed "0x6…46d" and "(con…ion)"; beside the panel, History's Counterparty and Tx
    kept fewer than four digits each side (its Kind column stayed as wide as the
    "balance change…" rows that streamed in, and Fee repeated its unit on every row).
    """
    window.resize(*SIZE)
    panel.setVisible(with_panel)
    window.shell.pages.watchlist = watched_with_news(qtbot, window, devnet)
    tour = [route for _, route in tour_screens(devnet_manifest)]
    found: list[str] = []
    busy = address_route(devnet_manifest["busy_account"])
    for route in [*routes(devnet_manifest), busy, *tour, WATCHLIST]:
        for tab in screen_tabs(qtbot, window, route):
            cuts = cut_texts(window.tabs.currentWidget())
            found += [f"{route} {tab}: {cut}" for cut in cuts]
    assert not found, "\n".join(found)
