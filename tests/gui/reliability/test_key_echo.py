"""A value equal to a known key is never searched or echoed: pasted into the search bar.

The key may be the session's, or any stored key; typed in any letter case or %-encoded.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.services.network_forms import NetworkForm
from tests.gui.reliability.conftest import AppFactory, NodeFactory
from tests.gui.reliability.node import Mode
from tests.helpers.rpc import API_KEY
from tests.helpers.timing import WAIT

OTHER = "anotherStoredKey0123456789"  # a stored key of a network never opened
FORMS = {
    "as-is": API_KEY,
    "upper": API_KEY.upper(),
    "encoded": "".join(f"%{ord(c):02x}" for c in API_KEY),
    "stored": OTHER.lower(),
}
POLLS = ("eth_blockNumber", "eth_chainId", None)  # the head poll goes on (None: a batch)


@pytest.mark.parametrize("pasted", list(FORMS.values()), ids=list(FORMS))
def test_a_key_pasted_into_the_search_bar_is_neither_searched_nor_shown(
    pasted: str, app_on: AppFactory, nodes: NodeFactory, qtbot: QtBot
) -> None:
    """The bar says it is a key; no request is sent for it; no part of it is shown."""
    node = nodes(Mode.GOOD)
    app = app_on({"Mine": (node, 31)})
    form = NetworkForm(name="Other", url="https://other.example", chain_id="31", api_key=OTHER)
    assert app.app.networks.save(form) == {}
    qtbot.waitUntil(lambda: app.session.check.verified, timeout=WAIT)
    asked = len(node.server.requests)
    app.window.search_bar.setText(pasted)
    qtbot.keyClick(app.window.search_bar, Qt.Key.Key_Return)
    message = app.window.search_message.text()
    assert message == "That is an API key: it is not searched, and not shown."
    assert not app.app.search.busy
    assert app.window.search_bar.text() == ""  # not left on screen either
    assert pasted not in app.app.search.recent_searches()
    searched = [r for r in node.server.requests[asked:] if r.rpc_method not in POLLS]
    assert searched == []
