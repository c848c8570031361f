"""Rules that hold everywhere, each with a test that fails when its guard is removed."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Document, Field, Kind, Section, Tone
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.transport import make_http_client
from explorer.services.chaincheck import Verification
from explorer.services.networks import TESTNET
from explorer.services.routes import tx_route
from explorer.services.session import Session
from explorer.viewmodels.page import PageState, PageViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.document_view import DocumentView
from explorer.views.main_window import MainWindow
from explorer.views.page_view import PageView
from tests.helpers.qt import run_in_qloop
from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import Recorded, Reply, ScriptedServer, json_reply
from tests.helpers.testnet import TX, load
from tests.helpers.testnet_node import TX_HASH, serve_testnet

SLOW = 1.5  # seconds the superseded answer takes
RICH = "<b>bold</b> <a href='x'>link</a>"


class PendingTx:
    """A script answering eth_getTransactionByHash with a pending copy of the sample.

    The first answer comes slowly with one value, every later one at once with another.
    """

    def __init__(self, first_value: int, later_value: int) -> None:
        self.values = (first_value, later_value)
        self.asked = threading.Event()
        self._calls = 0
        self._lock = threading.Lock()

    def __call__(self, request: Recorded) -> Reply:
        """Answer one request (everything but the transaction comes from the samples)."""
        if request.rpc_method == "eth_getTransactionReceipt":
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": None})
        if request.rpc_method != "eth_getTransactionByHash":
            return serve_testnet(request)
        with self._lock:
            first, self._calls = self._calls == 0, self._calls + 1
        self.asked.set()
        tx = {**load(TX), "blockHash": None, "blockNumber": None, "transactionIndex": None}
        tx["value"] = hex(self.values[0 if first else 1])
        answer = json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": tx})
        return Reply(**{**answer.__dict__, "delay": SLOW if first else 0.0})


def wait_event(qtbot: QtBot, event: threading.Event) -> None:
    """Wait (processing Qt events) until a server thread sets event."""
    qtbot.waitUntil(event.is_set, timeout=10_000)


def linger(qtbot: QtBot, seconds: float) -> None:
    """Process events for a while (long enough for a late answer to land)."""
    deadline = time.monotonic() + seconds
    qtbot.waitUntil(lambda: time.monotonic() > deadline, timeout=int(seconds * 1000) + 5_000)


@pytest.fixture
def pending_node() -> Iterator[tuple[ScriptedServer, PendingTx]]:
    """Yield a node whose first transaction answer is slow and stale."""
    answers = PendingTx(first_value=111, later_value=222)
    server = ScriptedServer(answers)
    yield server, answers
    server.close()


def test_a_superseded_page_load_publishes_nothing(
    qtbot: QtBot, qloop: Any, pending_node: tuple[ScriptedServer, PendingTx]
) -> None:
    """A page loaded again while its first load waits never shows the first load's answer."""
    server, answers = pending_node
    session = Session(TESTNET, Endpoint.parse(f"{server.url}/{API_KEY}"))
    model = PageViewModel(session, tx_route(TX_HASH))
    view = PageView(model)
    qtbot.addWidget(view)
    values: list[str] = []
    model.document_changed.connect(
        lambda: values.append(field_value(model, "Value")) if model.document else None
    )
    model.load()
    wait_event(qtbot, answers.asked)
    model.reload()  # supersedes the first load, whose answer is still on its way
    qtbot.waitUntil(lambda: model.state is PageState.LOADED, timeout=10_000)
    linger(qtbot, SLOW + 0.5)
    assert values
    assert all("222" in value for value in values), values
    assert "222" in field_value(model, "Value")
    model.dispose()
    run_in_qloop(qtbot, session.aclose())


def field_value(model: PageViewModel, label: str) -> str:
    """Return the text of a field of the model's document."""
    assert model.document is not None
    fields = [f for section in model.document.sections for f in section.fields]
    return next(f.text + " " + str(f.value) for f in fields if f.label == label)


def chain_id_node(chain_id: str, delay: float) -> ScriptedServer:
    """Return a testnet-like node that reports chain_id, answering eth_chainId after delay."""

    def answer(request: Recorded) -> Reply:
        if request.rpc_method not in ("eth_chainId", "net_version"):
            return serve_testnet(request)
        value = chain_id if request.rpc_method == "eth_chainId" else str(int(chain_id, 16))
        reply = json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": value})
        return Reply(**{**reply.__dict__, "delay": delay})

    return ScriptedServer(answer)


def test_a_replaced_sessions_late_probe_is_ignored(qtbot: QtBot, qloop: Any) -> None:
    """The chain check of a session the user left never lands on the session they chose."""
    wrong, right = chain_id_node("0x1e", SLOW), chain_id_node("0x1f", 0.0)
    http = make_http_client()  # shared by every session, as in the app: closing one stops nothing
    shell = ShellViewModel()
    window = MainWindow(shell)
    qtbot.addWidget(window)
    verdicts: list[Verification] = []
    shell.connection_changed.connect(lambda connection: verdicts.append(connection.verification))
    shell.set_session(Session(TESTNET, Endpoint.parse(f"{wrong.url}/{API_KEY}"), http))
    qtbot.waitUntil(lambda: "eth_chainId" in wrong.rpc_methods, timeout=10_000)
    shell.set_session(Session(TESTNET, Endpoint.parse(f"{right.url}/{API_KEY}"), http))
    qtbot.waitUntil(lambda: shell.connection.verification is Verification.VERIFIED, timeout=10_000)
    linger(qtbot, SLOW + 0.5)  # the first node's chain id (30) has had time to arrive
    assert shell.connection.verification is Verification.VERIFIED
    assert Verification.MISMATCH not in verdicts
    assert Verification.UNREACHABLE not in verdicts
    assert not window.banner.isVisible()
    assert "✓" in window.status_label.text()
    assert shell.session is not None
    run_in_qloop(qtbot, shell.session.aclose())
    run_in_qloop(qtbot, http.aclose())
    wrong.close()
    right.close()


def rich_document() -> Document:
    """Return a document whose every text holds markup, as a hostile node could send."""
    fields = tuple(
        Field(f"{kind.value} {RICH}", RICH, kind, tooltip=RICH, tone=Tone.BAD)
        for kind in (Kind.TEXT, Kind.STATUS, Kind.HEX, Kind.AMOUNT, Kind.TIME)
    )
    return Document(
        title=RICH,
        headline=Field("Status", RICH),
        sections=(Section(RICH, fields, note=RICH),),
        chain_id=31,
    )


def test_every_label_of_the_document_view_shows_markup_literally(qtbot: QtBot) -> None:
    """Chain data with tags renders the tags as text, never as bold or a link."""
    view = DocumentView()
    qtbot.addWidget(view)
    view.show_document(rich_document())
    view.show()
    qtbot.waitUntil(lambda: view.is_complete, timeout=5_000)
    labels = [label for label in view.findChildren(QLabel) if "<b>" in label.text()]
    assert len(labels) >= 12  # title, headline, note, and each field's label and value
    for label in labels:
        assert label.textFormat() is Qt.TextFormat.PlainText, label.text()
        literal_width = QFontMetrics(label.font()).horizontalAdvance(RICH)
        assert label.sizeHint().width() >= literal_width * 0.9 or label.wordWrap()
