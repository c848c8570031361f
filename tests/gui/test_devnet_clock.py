"""The devnet's clock: its new blocks follow its seeded history, no pause of months between."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.presentation.home_cards import Card, CardId
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from explorer.views.home_view import HomeView
from tests.helpers.address import raw_rpc
from tests.helpers.devnet import Devnet
from tests.helpers.home import home_view, open_window
from tests.helpers.qt import run_in_qloop

DAY = 86_400


@pytest.fixture
def live_session(qloop: qasync.QEventLoop, qtbot: QtBot, devnet_live: Devnet) -> Iterator[Session]:
    """Yield a session on the live devnet (a block a second)."""
    session = Session(DEVNET, Endpoint.parse(devnet_live.url("testnet")))
    yield session
    run_in_qloop(qtbot, session.aclose())


def card(home: HomeView, which: CardId) -> Card:
    """Return one of the home page's header cards."""
    return next(card for card in home.model.cards if card.id is which)


def test_the_block_time_card_sees_no_pause_between_the_history_and_new_blocks(
    qtbot: QtBot, live_session: Session, devnet_live: Devnet
) -> None:
    seeded = int(devnet_live.manifest()["head_at_build"])
    newest_seeded = raw_rpc(devnet_live, "eth_getBlockByNumber", hex(seeded), False)
    assert time.time() - int(newest_seeded["timestamp"], 16) < DAY  # not the seed's 2025 date
    home = home_view(open_window(qtbot, live_session))
    qtbot.waitUntil(lambda: (live_session.reader.head or 0) > seeded + 2, timeout=60_000)
    qtbot.waitUntil(lambda: card(home, CardId.BLOCK_TIME).value != "—", timeout=30_000)
    block_time = card(home, CardId.BLOCK_TIME)
    assert "longest" not in block_time.detail, block_time  # no pause of days among the shown
    assert "day" not in block_time.tooltip, block_time
