"""Connection tests against a tiny node on real sockets; a superseded test is never reported."""

from __future__ import annotations

import socket
from typing import Any

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind
from explorer.services.networks import DEVNET, MAINNET, TESTNET
from explorer.services.probe import ConnectionReport, ProbeOutcome
from explorer.viewmodels.network_settings import ProbeState
from explorer.viewmodels.networks import NetworksViewModel
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.qt import run_in_qloop
from tests.helpers.settings import (
    CLIENT,
    KEY,
    TinyNode,
    choose,
    custom_form,
    held_calls,
    start_held_test,
    type_into,
)


def probe(qtbot: QtBot, model: NetworksViewModel, target: Any) -> ConnectionReport:
    """Run a connection test on the qasync loop."""
    report = run_in_qloop(qtbot, model.test_connection(target))
    assert isinstance(report, ConnectionReport)
    return report


def test_connection_to_the_expected_chain(
    model: NetworksViewModel, node: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """Chain 31 as expected: ✓ with the client version and latency."""
    report = probe(qtbot, model, custom_form(node.url("c31")))
    assert report.ok
    assert report.chain_id == 31
    assert report.client_version == CLIENT
    assert report.latency_ms is not None
    assert 0 < report.latency_ms < 10_000
    assert report.text.startswith(f"✓ chain 31 · {CLIENT} · ")
    assert report.text.endswith("ms")


def test_connection_to_another_chain_is_a_mismatch(
    model: NetworksViewModel, node: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """The node serves chain 30 where 31 was expected: ✗ chain mismatch."""
    model.save(custom_form(node.url("c30"), name="Wrong"))
    network = model.network("custom:Wrong")
    report = probe(qtbot, model, network)
    assert not report.ok
    assert (report.chain_id, report.expected_chain_id) == (30, 31)
    assert report.text.startswith("✗ chain mismatch: the node serves chain 30 (network 30), ")


def test_connection_refused_by_auth_never_shows_the_key(
    model: NetworksViewModel, node: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """HTTP 401: ✗ auth with the host, and the key appears nowhere in the report."""
    report = probe(qtbot, model, custom_form(f"{node.url('auth')}/{KEY}"))
    assert report.error_kind is ErrorKind.AUTH
    assert not report.ok
    assert report.text == "✗ 127.0.0.1 refused the API key (HTTP 401 Unauthorized)"
    assert KEY not in repr(report)
    assert KEY[-4:] in report.endpoint
    assert f"/auth/{KEY}" in node.paths


def test_connection_to_a_closed_port_is_a_transport_error(
    model: NetworksViewModel, qtbot: QtBot, qloop: object
) -> None:
    """Nothing listens: ✗ transport, fast, no retries."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    report = probe(qtbot, model, custom_form(f"http://127.0.0.1:{port}"))
    assert report.text == f"✗ the node cannot be reached: cannot connect to 127.0.0.1:{port}"


def test_connection_with_an_unfinished_form_costs_no_request(
    model: NetworksViewModel, qtbot: QtBot, qloop: object
) -> None:
    """A bad URL or a hosted network without a key is reported before anything is sent."""
    bad = probe(qtbot, model, custom_form("ftp://x"))
    assert bad.text.startswith("✗ invalid input: the endpoint URL must start with https://")
    assert probe(qtbot, model, MAINNET).outcome is ProbeOutcome.NOT_SET_UP
    assert probe(qtbot, model, DEVNET).outcome is ProbeOutcome.NOT_SET_UP


def test_dialog_test_button_shows_the_verdict(
    dialog: SettingsDialog, node: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """Test connection on unsaved values shows ✓ and then ✗ on a mismatch, in plain text."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.url_edit, node.url("c31"))
    type_into(qtbot, form.chain_edit, "31")
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    assert form.test_result.text() == "Testing…"
    qtbot.waitUntil(lambda: form.test_result.text().startswith("✓"), timeout=10_000)
    assert CLIENT in form.test_result.text()
    assert form.test_result.textFormat() == Qt.TextFormat.PlainText
    type_into(qtbot, form.chain_edit, "30")
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: form.test_result.text().startswith("✗ chain mismatch"), timeout=10_000)
    assert dialog.model.networks.customs() == []


def test_a_test_superseded_by_a_new_one_is_never_reported(
    dialog: SettingsDialog, held: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """A test repeated on an edited URL shows and emits only the second verdict.

    The first test still waits for its node when the URL is edited and tested again; its late
    answer is dropped.
    """
    form, model = dialog.form_panel, dialog.model
    start_held_test(dialog, held, qtbot)
    type_into(qtbot, form.url_edit, held.url("c31"))
    with qtbot.waitSignal(model.connection_tested, timeout=10_000) as tested:
        qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    assert tested.args[0].ok
    assert form.test_result.text().startswith("✓ chain 31")
    asked = held_calls(held)
    with qtbot.assertNotEmitted(model.connection_tested, wait=1_500):
        held.gate.set()
    assert form.test_result.text().startswith("✓ chain 31")
    assert held_calls(held) == asked  # the dropped test asked no more
    assert model.probe_state is ProbeState.DONE
    assert model.report == tested.args[0]


def test_a_test_of_a_network_left_is_never_reported(
    dialog: SettingsDialog, held: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """A late test answer is dropped once the user picks another network.

    It shows neither there nor back on the tested network, and is not emitted.
    """
    form, model = dialog.form_panel, dialog.model
    start_held_test(dialog, held, qtbot)
    tested_id = model.selected_id
    choose(dialog, TESTNET.id)
    assert form.test_result.text() == ""
    assert model.probe_state is ProbeState.IDLE
    asked = held_calls(held)
    with qtbot.assertNotEmitted(model.connection_tested, wait=1_500):
        held.gate.set()
    assert form.test_result.text() == ""
    assert model.report is None
    assert held_calls(held) == asked
    choose(dialog, tested_id)
    assert form.test_result.text() == ""
    assert model.probe_state is ProbeState.IDLE


def test_devnet_endpoint_comes_from_the_app(
    model: NetworksViewModel, node: TinyNode, qtbot: QtBot, qloop: object
) -> None:
    """Once the app tells where the devnet listens, it has an endpoint and can be tested."""
    model.set_devnet_endpoint(Endpoint.parse(node.url("c31") + "/" + KEY))
    assert model.endpoint_for(DEVNET) is not None
    report = probe(qtbot, model, DEVNET)
    assert report.ok
    assert report.endpoint.endswith(KEY[-4:])
