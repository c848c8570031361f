"""The Broadcast screen, driven through its widgets against the devnet and a scripted node."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rlp
from eth_abi.abi import encode
from eth_hash.auto import keccak
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox
from pytestqt.qtbot import QtBot

from explorer.devnet.contracts import load_artifact
from explorer.presentation.document import Document
from explorer.presentation.missing import TxSupport
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenStore
from explorer.services.broadcast import ZERO_HASH
from explorer.services.networks import DEVNET
from explorer.services.routes import BROADCAST
from explorer.services.session import Session
from explorer.viewmodels.broadcast import BroadcastViewModel, Stage
from explorer.viewmodels.page import PageState
from explorer.views.broadcast_view import BroadcastView
from explorer.views.main_window import MainWindow
from explorer.views.tx_page_view import TxPageView
from tests.helpers.devnet import PROFILES
from tests.helpers.gui import wait_loaded
from tests.helpers.qt import run_in_qloop
from tests.helpers.scripted_server import Action, Recorded, Reply, ScriptedServer, drop, json_reply
from tests.helpers.support import Pool
from tests.helpers.testnet import load
from tests.helpers.testnet_node import serve_testnet


@pytest.fixture
def store(window: MainWindow, tmp_path: Path, qtbot: QtBot) -> Iterator[SeenStore]:
    """Give the window a store of seen transactions in tmp_path."""
    seen = SeenStore(tmp_path / "seen.sqlite3")
    window.shell.pages.support = TxSupport(seen)
    yield seen
    run_in_qloop(qtbot, seen.aclose())


def open_broadcast(qtbot: QtBot, window: MainWindow) -> BroadcastView:
    """Open the Broadcast screen from the toolbar, in a new tab."""
    window.broadcast_action.trigger()
    view = window.tabs.currentWidget()
    assert isinstance(view, BroadcastView)
    assert window.tabs.tabText(window.tabs.currentIndex()) == "Broadcast"
    return view


def paste(qtbot: QtBot, view: BroadcastView, raw: str, stage: Stage = Stage.READY) -> None:
    """Paste a transaction and wait until it is decoded and checked (or refused)."""
    view.raw.setPlainText(raw)
    qtbot.waitUntil(lambda: view.model.stage is stage, timeout=20_000)


def send(qtbot: QtBot, view: BroadcastView) -> None:
    """Press Send, then the confirmation's button, and wait for the node's answer."""
    qtbot.mouseClick(view.send_button, Qt.MouseButton.LeftButton)
    assert view.model.stage is Stage.CONFIRMING
    assert view.confirm_button.isVisible()
    qtbot.mouseClick(view.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.model.stage is not Stage.SENDING, timeout=20_000)


def stage_of(view: BroadcastView) -> Stage:
    """Return where the broadcast is (read afresh: it moves on by itself)."""
    return view.model.stage


def texts(document: Document | None) -> dict[str, str]:
    """Return a document's field texts by label (first of each label)."""
    assert document is not None
    found: dict[str, str] = {}
    for section in document.sections:
        for field in section.fields:
            found.setdefault(field.label, field.text)
    return found


def tracked(qtbot: QtBot, window: MainWindow, headline: str) -> TxPageView:
    """Wait until the transaction page the send opened shows a headline starting so."""
    page = wait_loaded(qtbot, window)
    assert isinstance(page, TxPageView)
    qtbot.waitUntil(lambda: page.document_view.headline.text().startswith(headline), timeout=20_000)
    return page


def call_data(signature: str, *args: int) -> bytes:
    """Return the calldata of a function with uint256 arguments."""
    types = signature[signature.index("(") + 1 : -1].split(",")
    return keccak(signature.encode())[:4] + encode(types, list(args))


def test_a_transfer_is_confirmed_for_the_network_sent_once_and_followed(
    qtbot: QtBot, window: MainWindow, pool: Pool, store: SeenStore
) -> None:
    view = open_broadcast(qtbot, window)
    assert not view.send_button.isEnabled()
    raw = pool.sign("broadcast")
    paste(qtbot, view, raw)
    shown = texts(view.model.document)
    assert shown["Verdict"] == "nothing stands in its way"
    assert shown["From (recovered)"].lower() == pool.account("broadcast").address.lower()
    assert shown["Chain id"] == "31 (EIP-155, from v = " + shown["Chain id"].split("v = ")[1]
    assert view.send_button.isEnabled()
    qtbot.mouseClick(view.send_button, Qt.MouseButton.LeftButton)
    assert view.confirm_button.text() == "Send to Local devnet (chain id 31)"
    assert view.status.text().startswith("Send to Local devnet (chain id 31)? ")
    qtbot.mouseClick(view.cancel_button, Qt.MouseButton.LeftButton)
    assert stage_of(view) is Stage.READY
    stats = view.model.session.client.stats
    before = stats.by_method["eth_sendRawTransaction"]
    send(qtbot, view)
    assert stage_of(view) is Stage.SENT
    assert stats.by_method["eth_sendRawTransaction"] - before == 1
    assert "(the hash decoded here)" in texts(view.model.document)["Answer"]
    page = tracked(qtbot, window, "SUCCESS")
    assert view.model.tx is not None
    assert page.model.route.target == view.model.tx.hash


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("hello", "This is not hex"),
        ("0xc0", "Not a signed legacy transaction"),
        ("0x" + "02f8" + "00" * 40, "Rootstock takes legacy transactions only"),
    ],
)
def test_what_must_not_be_sent_is_refused_without_a_request(
    qtbot: QtBot, window: MainWindow, raw: str, words: str
) -> None:
    view = open_broadcast(qtbot, window)
    stats = view.model.session.client.stats
    before = stats.total
    paste(qtbot, view, raw, Stage.REFUSED)
    assert view.status.text().startswith("Refused, nothing sent: ")
    assert words in view.status.text()
    assert not view.send_button.isEnabled()
    qtbot.mouseClick(view.send_button, Qt.MouseButton.LeftButton)
    assert view.model.stage is Stage.REFUSED
    assert stats.total == before


def test_another_chain_and_a_bad_signature_are_refused(
    qtbot: QtBot, window: MainWindow, pool: Pool
) -> None:
    view = open_broadcast(qtbot, window)
    paste(qtbot, view, pool.sign("broadcast", chainId=30), Stage.REFUSED)
    assert "Signed for chain id 30, but Local devnet is chain 31" in view.status.text()
    items = rlp.decode(bytes.fromhex(pool.sign("broadcast")[2:]))
    items[8] = b""  # s = 0: no signature at all
    unsigned: bytes = rlp.encode(items)
    paste(qtbot, view, "0x" + unsigned.hex(), Stage.REFUSED)
    assert "r or s is zero" in view.status.text()


@pytest.mark.parametrize(
    ("fields", "check", "refusal"),
    [
        (
            {"gasPrice": 50_000_000},
            "is below the latest block's minimum 0.06 gwei: the node will refuse it",
            "refused: transaction's gas price lower than block's minimum (node error -32010)",
        ),
        (
            {"nonce": 0},
            "is already used",
            "refused: transaction nonce too low (node error -32010)",
        ),
    ],
)
def test_the_checks_warn_and_the_nodes_refusal_is_shown_as_it_said(
    qtbot: QtBot, window: MainWindow, pool: Pool, fields: dict[str, Any], check: str, refusal: str
) -> None:
    view = open_broadcast(qtbot, window)
    paste(qtbot, view, pool.sign("broadcast", **fields))
    assert any(check in text for text in texts(view.model.document).values())
    send(qtbot, view)
    assert view.model.stage is Stage.FAILED
    assert texts(view.model.document)["Answer"].startswith(refusal)
    reason = refusal.removeprefix("refused: ")  # the node's own words come first: on top,
    assert view.status.text().startswith(f"Not taken by the node: {reason}")  # and the first
    assert section_titles(view)[0] == "The node's answer"  # section below
    assert window.tabs.count() == 2  # nothing to follow: no page opened


@pytest.mark.parametrize("devnet", PROFILES, indirect=True)
def test_a_call_that_reverts_is_said_before_and_after(
    qtbot: QtBot, window: MainWindow, pool: Pool, store: SeenStore
) -> None:
    data = call_data("poke(uint256)", 50)
    raw = pool.sign("broadcast", to=pool.manifest["reverter"], gas=100_000, value=0, data=data)
    view = open_broadcast(qtbot, window)
    paste(qtbot, view, raw)
    shown = texts(view.model.document)
    assert shown["Dry run check"] == (
        "the call reverts with “Reverter: value too large”: it would be mined as FAILED and "
        "still cost its fee"
    )
    send(qtbot, view)
    tracked(qtbot, window, "FAILED: reverted with “Reverter: value too large”")


def test_out_of_gas_is_said(qtbot: QtBot, window: MainWindow, pool: Pool, store: SeenStore) -> None:
    reverter = pool.manifest["reverter"]
    raw = pool.sign(
        "broadcast", to=reverter, gas=22_000, value=0, data=call_data("poke(uint256)", 5)
    )
    view = open_broadcast(qtbot, window)
    paste(qtbot, view, raw)
    send(qtbot, view)
    tracked(qtbot, window, "FAILED: ran out of gas (used all 22,000 gas of its limit)")


def test_a_contract_creation_links_the_created_contract(
    qtbot: QtBot, window: MainWindow, pool: Pool, store: SeenStore
) -> None:
    code = load_artifact("Reverter").bytecode
    raw = pool.sign("broadcast", to=b"", gas=1_000_000, value=0, data=code)
    view = open_broadcast(qtbot, window)
    paste(qtbot, view, raw)
    shown = texts(view.model.document)
    assert shown["To"] == "none: a contract creation"
    assert "a contract creation is not dry-run" in shown["Dry run check"]
    send(qtbot, view)
    page = tracked(qtbot, window, "SUCCESS")
    created = page.document_view.value_labels["Contract created"]
    receipt = page.model.document.raw["receipt"]  # type: ignore[union-attr]
    assert str(created.route()) == f"address/{receipt['contractAddress']}"  # type: ignore[attr-defined]


def scripted_node(send_answer: Action) -> Action:
    """Answer as a testnet node does, the send with send_answer, `latest` with a sample block."""

    def act(request: Recorded) -> Reply:
        if request.rpc_method == "eth_sendRawTransaction":
            return send_answer(request)
        if request.rpc_method == "eth_getBlockByNumber" and request.params[0] == "latest":
            block = load("block-0x1b4-header-only.json")
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": block})
        return serve_testnet(request)

    return act


def zero_hash(request: Recorded) -> Reply:
    """Answer a send with the zero hash: accepted, not yet available."""
    return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": ZERO_HASH})


@pytest.mark.parametrize(
    ("answer", "stage", "said"),
    [
        (zero_hash, Stage.SENT, "sent from here moments ago, and the node does not show it yet"),
        (drop(), Stage.UNCERTAIN, "sent from here moments ago, and the node does not show it yet"),
    ],
)
def test_a_send_without_a_usable_answer_is_followed_by_its_decoded_hash(
    qtbot: QtBot,
    window: MainWindow,
    pool: Pool,
    store: SeenStore,
    answer: Action,
    stage: Stage,
    said: str,
) -> None:
    node = ScriptedServer(scripted_node(answer))
    session = Session(DEVNET, Endpoint.parse(node.url))
    window.shell.set_session(session)
    try:
        view = open_broadcast(qtbot, window)
        paste(qtbot, view, pool.sign("broadcast", nonce=0x10))
        send(qtbot, view)
        assert view.model.stage is stage
        assert node.rpc_methods.count("eth_sendRawTransaction") == 1  # never resent
        page = wait_loaded(qtbot, window)
        assert isinstance(page, TxPageView)
        assert page.model.state is PageState.NOT_FOUND
        assert page.details_view.headline.text() == f"NOT FOUND — {said}; still looking"
        if stage is Stage.UNCERTAIN:
            assert "may have arrived" in texts(view.model.document)["Answer"]
    finally:
        run_in_qloop(qtbot, session.aclose())
        node.close()


def test_the_screen_is_a_route_of_its_own(window: MainWindow) -> None:
    assert str(BROADCAST) == "broadcast"
    model = window.shell.create_page(BROADCAST)
    assert isinstance(model, BroadcastViewModel)
    model.dispose()


def section_titles(view: BroadcastView) -> list[str]:
    """Return the titles of the sections shown, top to bottom."""
    layout = view.document_view.layout()
    assert layout is not None
    items = (layout.itemAt(i) for i in range(layout.count()))
    boxes = (item.widget() for item in items if item is not None)
    return [box.title() for box in boxes if isinstance(box, QGroupBox)]
