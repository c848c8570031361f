"""The live home page on a devnet mining every second with traffic: follows, reorgs, staleness."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
import qasync
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QPalette
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Tone
from explorer.rpc.endpoint import Endpoint
from explorer.services.live import KEEP
from explorer.services.networks import DEVNET
from explorer.services.routes import LOGS, block_route
from explorer.services.session import Session
from explorer.viewmodels.home import HomeState
from explorer.viewmodels.roles import TONE_ROLE
from explorer.views.main_window import MainWindow
from tests.helpers.address import raw_rpc
from tests.helpers.devnet import Devnet
from tests.helpers.home import devnet_head, home_view, open_window
from tests.helpers.qt import run_in_qloop
from tests.helpers.relay import Relay
from tests.helpers.timing import WAIT


@pytest.fixture
def relay(devnet_live: Devnet) -> Iterator[Relay]:
    """Yield a relay to the live devnet that a test can make fail."""
    running = Relay(devnet_live.url("testnet"))
    yield running
    running.close()


def block_reads(relay: Relay, since: int) -> list[list[object]]:
    """Return the params of the block reads that passed the relay since request number since."""
    return [
        r.params for r in relay.server.requests[since:] if r.rpc_method == "eth_getBlockByNumber"
    ]


def session_on(url: str) -> Session:
    """Return a devnet session on url."""
    return Session(DEVNET, Endpoint.parse(url))


@pytest.fixture
def live_session(qloop: qasync.QEventLoop, qtbot: QtBot, devnet_live: Devnet) -> Iterator[Session]:
    """Yield a session on the live devnet."""
    session = session_on(devnet_live.url("testnet"))
    yield session
    run_in_qloop(qtbot, session.aclose())


@pytest.fixture
def relayed_session(qloop: qasync.QEventLoop, qtbot: QtBot, relay: Relay) -> Iterator[Session]:
    """Yield a session on the live devnet through the relay."""
    session = session_on(relay.url)
    yield session
    run_in_qloop(qtbot, session.aclose())


def test_home_follows_new_heads_reading_each_block_once(
    qtbot: QtBot, live_session: Session
) -> None:
    """New blocks join both lists as they come: one block read each, one poll per block or so."""
    window = open_window(qtbot, live_session)
    model = home_view(window).model
    stats = live_session.client.stats.by_method
    loaded = model.chain.loaded_head
    assert loaded is not None
    qtbot.waitUntil(lambda: len(model.chain.blocks) == KEEP, timeout=WAIT)  # charts filled
    qtbot.waitUntil(lambda: (model.chain.newest or 0) >= loaded + 5, timeout=WAIT)
    newest = model.chain.newest
    assert newest is not None
    assert model.blocks.rows[0].block.number == newest
    read = [  # every block read, as the client's journal lists them
        int(json.loads(entry.params)[0], 16)
        for entry in live_session.client.journal.entries()
        if entry.method == "eth_getBlockByNumber" and not entry.from_cache
    ]
    again = {number for number in read if read.count(number) > 1}
    assert again <= set(model.chain.replaced)  # each block read once, unless it was replaced
    assert read.count(0) == 1  # block 0, read once by the chain check (its genesis)
    assert set(range(newest - KEEP + 1, newest + 1)) <= set(read)  # what the page shows
    assert stats["eth_blockNumber"] <= 2 * (newest - loaded) + 5

    def newest_listed_transaction() -> int:
        rows = model.transactions.rows  # the traffic's transactions, newest first
        return (rows[0].tx.block_number or 0) if rows else 0

    # the transactions follow the blocks a turn later
    qtbot.waitUntil(lambda: newest_listed_transaction() >= newest, timeout=WAIT)
    assert "Live · asking for the head every" in home_view(window).message.text()


def test_home_marks_a_reorganised_block_with_the_hash_it_replaced(
    qtbot: QtBot, live_session: Session, devnet_live: Devnet
) -> None:
    """The devnet replaces blocks shown: each height's row shows the new block and the old hash."""
    window = open_window(qtbot, live_session)
    home = home_view(window)
    model = home.model
    seeded = devnet_live.manifest()["head_at_build"]
    qtbot.waitUntil(lambda: (model.chain.newest or 0) >= seeded + 3, timeout=WAIT)
    home.live_button.setChecked(False)  # hold still while the devnet changes its chain
    shown = model.chain.newest
    assert shown is not None
    old = {n: model.chain.blocks[n].hash for n in (shown - 1, shown)}
    depth = devnet_head(devnet_live) - shown + 2
    raw_rpc(devnet_live, "devnet_reorganise", hex(depth))
    home.live_button.setChecked(True)
    qtbot.waitUntil(lambda: set(model.chain.replaced) >= set(old), timeout=WAIT)
    for number, old_hash in old.items():
        assert model.chain.replaced[number] == old_hash
        assert model.chain.blocks[number].hash != old_hash
        row = next(i for i, r in enumerate(model.blocks.rows) if r.block.number == number)
        note = model.blocks.index(row, 5)
        assert str(note.data()).startswith("reorganised, was 0x")
        assert note.data(TONE_ROLE) is Tone.BAD
        assert str(note.data(Qt.ItemDataRole.ToolTipRole)).endswith(str(old_hash))


def test_a_failing_poll_shows_stale_data_as_stale(
    qtbot: QtBot, relayed_session: Session, relay: Relay
) -> None:
    """The node stops answering: the page says stale since when, greys its cards, recovers."""
    window = open_window(qtbot, relayed_session)
    home = home_view(window)
    relay.failing = True
    qtbot.waitUntil(lambda: home.model.state is HomeState.STALE, timeout=WAIT)
    assert home.message.text().startswith("Stale: the node did not answer")
    assert "Last good data at" in home.message.text()
    muted = home.palette().color(QPalette.ColorRole.PlaceholderText)
    value = home.cards[0].value
    assert value.palette().color(QPalette.ColorRole.WindowText) == muted
    relay.failing = False
    qtbot.waitUntil(lambda: home.model.state is HomeState.LIVE, timeout=WAIT)
    assert value.palette().color(QPalette.ColorRole.WindowText) != muted


def test_polling_stops_while_the_home_tab_is_hidden_or_the_window_minimised(
    qtbot: QtBot, live_session: Session
) -> None:
    """Another tab, a minimised window or a pause: no eth_blockNumber at all until shown again."""
    window = open_window(qtbot, live_session)
    poller = window.shell.poller
    assert poller.running
    window.navigator.open_tab(LOGS)
    assert not poller.running
    polls = poller.polls
    qtbot.wait(2_500)
    assert poller.polls == polls
    window.tabs.setCurrentIndex(0)
    assert poller.running
    qtbot.waitUntil(lambda: poller.polls > polls, timeout=10_000)
    window.setWindowState(Qt.WindowState.WindowMinimized)
    qtbot.waitUntil(lambda: not poller.running, timeout=5_000)
    window.setWindowState(Qt.WindowState.WindowNoState)
    qtbot.waitUntil(lambda: poller.running, timeout=5_000)
    home = home_view(window)
    home.live_button.setChecked(False)
    assert not poller.running
    assert home.message.text().startswith("Paused")


def test_blocks_are_read_without_transactions_while_their_list_is_hidden(
    qtbot: QtBot, relayed_session: Session, relay: Relay
) -> None:
    """Hiding the transactions list makes the next block reads ask for hashes only."""
    window = open_window(qtbot, relayed_session)
    home = home_view(window)
    model = home.model
    home.transactions_button.setChecked(False)
    hidden_from = len(relay.server.requests)
    start = model.chain.newest or 0
    qtbot.waitUntil(lambda: (model.chain.newest or 0) >= start + 2, timeout=WAIT)
    reads = block_reads(relay, hidden_from)
    assert reads
    assert all(params[1] is False for params in reads)
    qtbot.waitUntil(lambda: not home.gap_note.isHidden(), timeout=5_000)
    assert "read while this list was hidden" in home.gap_note.text()
    home.transactions_button.setChecked(True)
    shown_from = len(relay.server.requests)
    start = model.chain.newest or 0
    qtbot.waitUntil(lambda: (model.chain.newest or 0) >= start + 1, timeout=WAIT)
    reads = block_reads(relay, shown_from)
    assert reads
    assert reads[-1][1] is True  # (one read may have left before the list showed again)


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # the tooltip, offscreen
def test_charts_name_the_block_under_the_mouse_and_open_it_on_click(
    qtbot: QtBot, live_session: Session
) -> None:
    """Hovering a chart shows the block and its value; a click opens the block's page."""
    window: MainWindow = open_window(qtbot, live_session)
    home = home_view(window)
    home.live_button.setChecked(False)
    chart = home.charts[1]  # transactions per block
    plot = chart.plot_rect()
    point = QPoint(int(plot.right()) - 1, int(plot.center().y()))
    QTest.mouseMove(chart, point)
    qtbot.waitUntil(lambda: chart.hovered is not None, timeout=5_000)
    index = chart.hovered
    assert index == len(chart.values) - 1
    newest = home.model.chain.newest
    assert newest is not None
    assert chart.series is not None
    assert chart.series.point(index).startswith(f"Block #{newest:,}: ")
    QTest.mouseClick(chart, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    qtbot.waitUntil(lambda: window.navigator.route() == block_route(newest), timeout=5_000)


def test_the_status_bar_head_stays_fresh_off_the_home_page(
    qtbot: QtBot, live_session: Session
) -> None:
    """With the home tab hidden, the head still follows the chain, at its pace.

    Off the home page the head was read once a minute: the status bar showed an old head,
    "(read 12:00:00)".
    """
    window = open_window(qtbot, live_session)
    qtbot.waitUntil(lambda: window.shell.poller.pace is not None, timeout=20_000)
    window.navigator.open_tab(LOGS)  # the home page hides and stops asking for the head
    assert not home_view(window).isVisible()
    qtbot.waitUntil(lambda: not window.shell.poller.running, timeout=5_000)
    start = window.shell.head
    assert start is not None
    qtbot.waitUntil(lambda: (window.shell.head or 0) >= start + 3, timeout=15_000)
    assert f"head #{window.shell.head:,}" in window.status_label.text()
    assert "(read" not in window.status_label.text()
