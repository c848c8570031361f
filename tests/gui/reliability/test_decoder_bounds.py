"""The window on a node whose Bridge log nests its RLP a thousand lists deep: the page renders."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from explorer.services.routes import tx_route
from tests.gui.reliability.conftest import AppFactory
from tests.helpers.forged_node import ForgedNode, deep_bridge_log
from tests.helpers.timing import WAIT
from tests.helpers.widget_texts import visible_texts

REFUSED = "release_btc (pre-RSKIP146 RLP) refused: RLP nests deeper than 4 lists"


WINDOW_RECURSION_LIMIT = 1000  # the window's (py-evm, imported by tests, raises it for itself)


@pytest.fixture
def window_limit() -> Iterator[None]:
    """Run with the recursion limit the window runs with."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(WINDOW_RECURSION_LIMIT)
    yield
    sys.setrecursionlimit(limit)


@pytest.fixture
def hostile() -> Iterator[ForgedNode]:
    """Serve block 798,248 with transaction 2's receipt carrying the deep legacy log."""
    node = ForgedNode(deep_bridge_log(1000))
    yield node
    node.close()


def test_the_transaction_page_renders_and_names_the_refused_log(
    app_on: AppFactory, hostile: ForgedNode, qtbot: QtBot, window_limit: None
) -> None:
    """The page loads (not Loading… forever), with no crash, and says which log it refused."""
    app = app_on({"Hostile": (hostile.url, 31)})
    view = app.open_loaded(tx_route(hostile.block["transactions"][2]["hash"]))

    def shows(words: str) -> bool:
        return any(words in text for text in visible_texts(view))

    qtbot.waitUntil(lambda: shows(REFUSED), timeout=WAIT)  # sections render a turn each
    qtbot.waitUntil(lambda: shows("Verified: hash"), timeout=WAIT)  # and the page completes
