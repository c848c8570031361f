"""The node page against the devnet and against a scripted node that says odd things."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Document, Tone
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import DEVNET, TESTNET
from explorer.services.nodeinfo import default_daily_quota
from explorer.services.routes import NODE
from explorer.services.session import Session
from explorer.viewmodels.node_page import NodePageViewModel
from explorer.viewmodels.page import PageState
from explorer.views.main_window import MainWindow
from explorer.views.node_view import NodeView
from tests.helpers.qt import run_in_qloop
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply
from tests.helpers.testnet_node import serve_testnet

KEY = "node-page-key-0000001"
STRANGER = "0x00000000000000000000000000000000000000aa"


class MemoryQuotas:
    """A quota store that forgets on exit."""

    def __init__(self) -> None:
        self.quotas: dict[str, int] = {}

    def daily_quota(self, network: str, default: int) -> int:
        """Return a stored quota or the default."""
        return self.quotas.get(network, default)

    def set_daily_quota(self, network: str, quota: int) -> None:
        """Store a quota."""
        self.quotas[network] = quota


def answering(**answers: Any) -> Callable[[Recorded], Reply]:
    """Return a testnet-like node whose methods in answers say something else."""

    def act(request: Recorded) -> Reply:
        method = request.rpc_method or ""
        if method in answers:
            envelope = {"jsonrpc": "2.0", "id": request.rpc_id, "result": answers[method]}
            return json_reply(envelope)
        return serve_testnet(request)

    return act


def fields(document: Document) -> dict[str, tuple[str, Tone]]:
    """Return every field's text and tone by label."""
    return {f.label: (f.text, f.tone) for s in document.sections for f in s.fields}


def loaded_document(qtbot: QtBot, model: NodePageViewModel) -> Document:
    """Wait for the node page's document."""
    qtbot.waitUntil(lambda: model.state is PageState.LOADED and not model.busy, timeout=20_000)
    assert model.document is not None
    return model.document


@pytest.fixture
def odd_node(request: pytest.FixtureRequest) -> Iterator[ScriptedServer]:
    """Yield a scripted testnet node answering the parametrised methods differently."""
    server = ScriptedServer(answering(**request.param))
    yield server
    server.close()


@pytest.fixture
def odd_session(
    qloop: qasync.QEventLoop, qtbot: QtBot, odd_node: ScriptedServer
) -> Iterator[Session]:
    """Yield a Rootstock Testnet session on the odd node."""
    session = Session(TESTNET, Endpoint.parse(f"{odd_node.url}/v2/{KEY}"))
    session.daily_quota = default_daily_quota(TESTNET, session.endpoint)  # as the app sets it
    yield session
    run_in_qloop(qtbot, session.aclose())


def test_node_page_on_the_devnet_shows_the_node_and_sets_the_quota(
    qtbot: QtBot, window: MainWindow, session: Session
) -> None:
    """The Node action opens the facts: agreeing ids, parsed client, no accounts, the quota."""
    window.node_action.trigger()
    view = window.tabs.currentWidget()
    assert isinstance(view, NodeView)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Node"
    assert str(window.navigator.route()) == str(NODE)
    document = loaded_document(qtbot, view.model)
    shown = fields(document)
    assert document.headline.text == "Serves Local devnet (chain 31)"
    assert shown["The two agree"] == ("yes", Tone.GOOD)
    assert shown["Client"][0] == "RskJ"
    assert shown["Protocol version"][0] == "0x3e (62)"
    assert shown["Accounts (eth_accounts)"][1] is Tone.GOOD
    assert shown["URL form"][0].startswith("{base}/<KEY>")
    assert str(session.endpoint.api_key) not in document.to_text()
    assert shown["Requests today (UTC)"][0].endswith("(no daily quota set)")
    store = MemoryQuotas()
    view.model.store = store
    view.quota.setValue(1_000)
    view.quota.editingFinished.emit()
    assert session.daily_quota == 1_000
    assert store.quotas == {DEVNET.id: 1_000}
    assert " of 1,000 (" in fields(view.model.document or document)["Requests today (UTC)"][0]


@pytest.mark.parametrize(
    "odd_node", [{"net_version": "30", "eth_accounts": [STRANGER]}], indirect=True
)
def test_node_page_flags_disagreeing_ids_and_accounts(qtbot: QtBot, odd_session: Session) -> None:
    """eth_chainId 31 with net_version 30, and an account: both flagged; the page still loads."""
    model = NodePageViewModel(odd_session)
    model.load()
    document = loaded_document(qtbot, model)
    shown = fields(document)
    assert document.headline.tone is Tone.BAD
    assert document.headline.text == "eth_chainId and net_version disagree"
    assert shown["The two agree"] == ("NO: a misconfigured node or proxy", Tone.BAD)
    accounts, tone = shown["Accounts (eth_accounts)"]
    assert tone is Tone.BAD
    assert accounts.startswith("1: 0x")
    assert "should hold no keys" in accounts
    assert shown["URL form"][0].startswith("{base}/v2/<KEY>")
    assert shown["Requests today (UTC)"][0].startswith("7 of 25,000")
    model.dispose()


@pytest.mark.parametrize("odd_node", [{"eth_chainId": "0x1e", "net_version": "30"}], indirect=True)
def test_node_page_of_a_node_serving_another_chain(qtbot: QtBot, odd_session: Session) -> None:
    """A mainnet node behind the testnet's URL: the page says which chain it serves."""
    model = NodePageViewModel(odd_session)
    model.load()
    document = loaded_document(qtbot, model)
    assert document.headline.text == ("Serves Rootstock Mainnet, not Rootstock Testnet (chain 31)")
    assert fields(document)["Chosen network"][1] is Tone.BAD
    model.dispose()
