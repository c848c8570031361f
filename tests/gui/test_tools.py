"""The Tools menu and the search box's way to the tools, on the devnet and a scripted node."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import qasync
from eth_abi.abi import decode
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from explorer.presentation.document import Tone
from explorer.presentation.tool_results import TOOLS, UNITS_EXAMPLES, ToolKind
from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import TESTNET
from explorer.services.session import Session
from explorer.viewmodels.tools import NODE_HASH, ToolViewModel
from explorer.views.main_window import MainWindow
from explorer.views.tools_view import ToolView
from tests.helpers.qt import run_in_qloop
from tests.helpers.scripted_server import ScriptedServer
from tests.helpers.testnet_node import serve_testnet

HELLO_KECCAK = "0x1c8aff950685c2ed4bc3174f3472287b56d9517b9c948127319a09a7a36deac8"
RECEIVER = "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd"  # chain 31's EIP-1191 vector


def search(qtbot: QtBot, window: MainWindow, text: str) -> ToolView:
    """Type text in the search box, press Enter, return the tool page it opened."""
    window.search_bar.setText(text)
    window.search_bar.returnPressed.emit()
    qtbot.waitUntil(lambda: isinstance(window.tabs.currentWidget(), ToolView), timeout=5_000)
    view = window.tabs.currentWidget()
    assert isinstance(view, ToolView)
    return view


def result(view: ToolView) -> dict[str, str]:
    """Return the tool's result lines by label."""
    return {line.label: line.text for line in view.model.result}


def test_the_tools_menu_opens_every_tool(window: MainWindow) -> None:
    """Each tool of the menu opens in a new tab titled after it."""
    titles = [action.text() for action in window.tools_menu.actions()]
    assert titles[0] == "Node"
    for spec in TOOLS.values():
        action = next(a for a in window.tools_menu.actions() if a.text() == spec.title)
        action.trigger()
        assert window.tabs.tabText(window.tabs.currentIndex()) == spec.title
        assert isinstance(window.tabs.currentWidget(), ToolView)


def test_keccak_from_the_search_box_matches_the_node(qtbot: QtBot, window: MainWindow) -> None:
    """`keccak hello`: computed here, asked of the devnet (web3_sha3), the two the same."""
    view = search(qtbot, window, "keccak hello")
    assert result(view)["Keccak-256 (computed here)"] == HELLO_KECCAK
    qtbot.waitUntil(lambda: "the same" in result(view)[NODE_HASH], timeout=10_000)
    assert view.model.result[-1].tone is Tone.GOOD
    editor = view.inputs["input"]
    assert isinstance(editor, QPlainTextEdit)
    editor.setPlainText("0x68656c6c6f")  # the same bytes in hex
    assert result(view)["Read as"] == "hex, 5 bytes"
    assert result(view)[NODE_HASH] == "press Compare"
    view.compare.click()
    qtbot.waitUntil(lambda: "the same" in result(view)[NODE_HASH], timeout=10_000)


@pytest.fixture
def lying_session(qloop: qasync.QEventLoop, qtbot: QtBot) -> Iterator[Session]:
    """Yield a session on a scripted node whose web3_sha3 answers a wrong hash."""
    server = ScriptedServer(serve_testnet)
    session = Session(TESTNET, Endpoint.parse(f"{server.url}/lying-node-key-01"))
    yield session
    run_in_qloop(qtbot, session.aclose())
    server.close()


def test_a_node_computing_another_keccak_is_flagged(qtbot: QtBot, lying_session: Session) -> None:
    """web3_sha3 differing from the local keccak is the node's fault, shown as such."""
    model = ToolViewModel(ToolKind.KECCAK, lying_session, "hello")
    qtbot.waitUntil(lambda: "DIFFERENT" in model.result[-1].text, timeout=10_000)
    assert model.result[-1].tone is Tone.BAD
    model.dispose()


def test_amounts_and_signatures_from_the_search_box(qtbot: QtBot, window: MainWindow) -> None:
    """`1.5 rbtc` opens Units with the amount; a signature opens the lookup."""
    units = search(qtbot, window, "1.5 rbtc")
    assert result(units)["wei"] == "1,500,000,000,000,000,000"
    selector = search(qtbot, window, "transfer(address,uint256)")
    assert result(selector)["Selector"] == "0xa9059cbb"
    checksum = search(qtbot, window, f"checksum {RECEIVER.lower()}")
    assert result(checksum)["EIP-1191 chain 31 (Rootstock Testnet)"] == RECEIVER


def test_abi_encode_then_decode_round_trip(qtbot: QtBot, window: MainWindow) -> None:
    """Calldata typed into the encoder decodes back in the decoder, and with eth-abi."""
    encoder = search(qtbot, window, "encode transfer(address to, uint256 amount)")
    arguments = encoder.inputs["arguments"]
    assert isinstance(arguments, QPlainTextEdit)
    arguments.setPlainText(f"{RECEIVER}\n1000")
    calldata = result(encoder)["Calldata"]
    assert decode(["address", "uint256"], bytes.fromhex(calldata[10:])) == (
        RECEIVER.lower(),
        1000,
    )
    decoder = search(qtbot, window, f"decode {calldata}")
    shown = result(decoder)
    assert shown["Function"] == "transfer(address to, uint256 amount)"
    assert shown["to (address)"] == RECEIVER  # in the devnet's (chain 31) checksum
    assert shown["amount (uint256)"] == "1000"


def test_every_example_a_tool_shows_works(qtbot: QtBot, window: MainWindow) -> None:
    """Each tool's example (its placeholders, the Units hint's amounts) typed in gives a result.

    The Units tool once suggested "1.5" beside the unit wei: "Cannot compute".
    """
    for spec in TOOLS.values():
        next(a for a in window.tools_menu.actions() if a.text() == spec.title).trigger()
        view = window.tabs.currentWidget()
        assert isinstance(view, ToolView)
        examples = [(i.key, i.placeholder) for i in spec.inputs if i.placeholder]
        examples = [(key, text) for key, text in examples if "…" not in text]  # hints, not values
        if spec is TOOLS[ToolKind.UNITS]:
            examples += [("amount", amount) for amount in UNITS_EXAMPLES]
        for key, text in examples:  # every example input at once: they go together
            widget = view.inputs[key]
            if isinstance(widget, QPlainTextEdit):
                widget.setPlainText(text)
            else:
                assert isinstance(widget, QLineEdit)
                widget.clear()
                qtbot.keyClicks(widget, text)
            if key == "amount":  # the Units hint's amounts, each alone
                check(spec.title, text, view)
        check(spec.title, "all examples", view)


def check(title: str, example: str, view: ToolView) -> None:
    """Fail when a tool's result says it cannot compute."""
    bad = [line for line in view.model.result if line.tone is Tone.BAD]
    assert view.model.result
    assert not bad, (title, example, bad)
