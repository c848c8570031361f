"""Network settings: the view model, the Settings dialog and the toolbar combo, on real sockets."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog, QLineEdit
from qt_helpers import run_in_qloop

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind
from explorer.services.network_forms import FormField, NetworkForm, parse_chain_id
from explorer.services.networks import DEVNET, GET_A_KEY, MAINNET, TESTNET
from explorer.services.probe import ConnectionReport, ProbeOutcome
from explorer.settings import USE_PUBLIC_NODE, Settings
from explorer.viewmodels.network_settings import NetworkSettingsViewModel, ProbeState
from explorer.viewmodels.networks import NetworksViewModel
from explorer.views.network_combo import network_combo
from explorer.views.settings_dialog import SettingsDialog

KEY = "k3yAbcdefGhijkLMNop0123456789x"
CLIENT = "RskJ/6.2.0/Linux/Java1.8/ARROWHEAD-45eb751"


class TinyNode:
    """A JSON-RPC node in its own thread: /c<N>/… serves chain N; /auth/… answers 401;
    /held/<mode>/… answers like /<mode>/… once the gate is open."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.calls: list[tuple[str, str]] = []
        self.gate = threading.Event()
        self.gate.set()
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._runner: web.AppRunner | None = None
        self.port = 0

    def _serve(self) -> None:
        """Run the server loop until stopped."""
        asyncio.set_event_loop(self._loop)
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(self._runner.cleanup())  # type: ignore[union-attr]
        self._loop.close()

    async def _start(self) -> None:
        """Bind to a free loopback port."""
        app = web.Application()
        app.router.add_post("/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0, backlog=128)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def _handle(self, request: web.Request) -> web.Response:
        """Answer eth_chainId, net_version and web3_clientVersion for the path's chain."""
        self.paths.append(request.path)
        body: dict[str, Any] = await request.json()
        self.calls.append((request.path, body["method"]))
        parts = request.path.strip("/").split("/")
        if parts[0] == "held":
            while not self.gate.is_set():
                await asyncio.sleep(0.01)
            parts = parts[1:]
        mode = parts[0]
        if mode == "auth":
            return web.Response(status=401, text="Unauthorized")
        chain_id = int(mode[1:])
        results = {
            "eth_chainId": hex(chain_id),
            "net_version": str(chain_id),
            "web3_clientVersion": CLIENT,
        }
        return web.json_response(
            {"jsonrpc": "2.0", "id": body["id"], "result": results[body["method"]]}
        )

    def url(self, mode: str) -> str:
        """Return the base URL of one behaviour."""
        return f"http://127.0.0.1:{self.port}/{mode}"

    def __enter__(self) -> TinyNode:
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


@pytest.fixture(scope="module")
def node() -> Iterator[TinyNode]:
    """One tiny node for the module."""
    with TinyNode() as server:
        yield server


@pytest.fixture
def store(tmp_path: Path) -> QSettings:
    """Real QSettings in an ini file of the test's own."""
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def settings(store: QSettings) -> Settings:
    """The typed settings over that file."""
    return Settings(store)


@pytest.fixture
def model(settings: Settings) -> NetworksViewModel:
    """The view model over those settings."""
    return NetworksViewModel(settings)


@pytest.fixture
def dialog(model: NetworksViewModel, qtbot: Any) -> SettingsDialog:
    """An open Settings dialog."""
    window = SettingsDialog(NetworkSettingsViewModel(model))
    qtbot.addWidget(window)
    window.show()
    return window


def custom_form(url: str, name: str = "Mine", chain_id: str = "31", **kw: Any) -> NetworkForm:
    """Return a new custom endpoint form."""
    return NetworkForm(name=name, url=url, chain_id=chain_id, **kw)


def type_into(qtbot: Any, edit: QLineEdit, text: str) -> None:
    """Replace an edit's text by typing, then leave the field."""
    edit.setFocus()
    edit.selectAll()
    qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    edit.editingFinished.emit()


def choose(dialog: SettingsDialog, draft_id: str) -> None:
    """Pick a network in the dialog's list, as a click would."""
    items = dialog.list_panel.network_list.findItems("*", Qt.MatchFlag.MatchWildcard)
    item = next(i for i in items if i.data(Qt.ItemDataRole.UserRole) == draft_id)
    dialog.list_panel.network_list.setCurrentItem(item)
    assert dialog.model.selected_id == draft_id


def reread(store: QSettings) -> Settings:
    """Write the settings file, then open it afresh as the next start of the app would."""
    store.sync()
    return Settings(QSettings(store.fileName(), QSettings.Format.IniFormat))


def test_nothing_configured_opens_the_devnet_with_the_key_hint(model: NetworksViewModel) -> None:
    """Fresh settings: devnet is current; the hint says how to get a key."""
    assert [n.name for n in model.networks] == [
        "Rootstock Mainnet",
        "Rootstock Testnet",
        "Local devnet",
    ]
    assert model.current_id == DEVNET.id
    assert model.startup() == (DEVNET, GET_A_KEY)
    assert model.endpoint_for(MAINNET) is None
    assert GET_A_KEY in model.unavailable_reason(MAINNET)


def test_hosted_network_without_key_falls_back_to_devnet_at_start(
    model: NetworksViewModel,
) -> None:
    """A stored hosted network that has no key opens the devnet, saying why."""
    model.set_current(TESTNET.id)
    network, info = model.startup()
    assert network is DEVNET and info.startswith("Rootstock Testnet has no API key")
    model.save(dataclasses.replace(model.form_for(TESTNET.id), use_public_node=True))
    assert model.startup() == (TESTNET, "")
    endpoint = model.endpoint_for(TESTNET)
    assert endpoint is not None and endpoint.url == "https://public-node.testnet.rsk.co"
    assert model.hint == ""


def test_a_broken_custom_endpoint_falls_back_to_devnet_at_start(settings: Settings) -> None:
    """A stored custom endpoint that no longer validates opens the devnet and says why."""
    entry = '{"name": "Gone", "url": "ftp://x", "chain_id": 31, "allow_insecure_http": false}'
    settings.set_custom_networks([entry, "not json"])
    settings.set_current_network("custom:Gone")
    model = NetworksViewModel(settings)
    assert [c.name for c in model.customs()] == ["Gone"]
    network, info = model.startup()
    assert network is DEVNET
    assert info.startswith("Gone cannot be used (the endpoint URL must start with https://")


def test_the_old_global_public_node_choice_still_counts(settings: Settings) -> None:
    """network/use_public_node set by an earlier version is each hosted network's default."""
    settings.set(USE_PUBLIC_NODE, True)
    settings.set_current_network(MAINNET.id)
    model = NetworksViewModel(settings)
    assert model.form_for(TESTNET.id).use_public_node is True
    assert model.startup() == (MAINNET, "")
    settings.set_use_public_node(MAINNET.id, False)
    assert model.startup()[0] is DEVNET


def test_key_and_url_form_are_stored_and_persist(
    store: QSettings, model: NetworksViewModel
) -> None:
    """The key goes into QSettings; /v2/<KEY> is chosen per network; redacted hides the key."""
    errors = model.save(dataclasses.replace(model.form_for(MAINNET.id), api_key=KEY, v2=True))
    assert errors == {}
    again = NetworksViewModel(reread(store))
    endpoint = again.endpoint_for(MAINNET)
    assert endpoint is not None
    assert endpoint.url == f"https://rpc.mainnet.rootstock.io/v2/{KEY}"
    assert KEY not in endpoint.redacted and endpoint.redacted.endswith(KEY[-4:])
    assert again.form_for(MAINNET.id).v2 is True


def test_bad_key_characters_are_refused_without_echoing_the_key(
    settings: Settings, model: NetworksViewModel
) -> None:
    """A key with a space or slash is an error that does not repeat the key."""
    errors = model.save(dataclasses.replace(model.form_for(TESTNET.id), api_key="abc/def ghi"))
    assert set(errors) == {FormField.API_KEY} and "abc" not in errors[FormField.API_KEY]
    assert settings.api_key(TESTNET.id) == ""


@pytest.mark.parametrize("text", ["0", "-3", "abc", "3.5", "", "0x0", "३१"])
def test_chain_id_must_be_a_positive_whole_number(model: NetworksViewModel, text: str) -> None:
    """Zero, negatives, fractions, words and non-ASCII digits are refused."""
    errors = model.validate(custom_form("https://node.example", chain_id=text))
    assert errors == {FormField.CHAIN_ID: "the chain id must be a positive whole number, e.g. 31"}


def test_chain_id_in_hex_or_decimal() -> None:
    """31 and 0x1f are the same chain id."""
    assert parse_chain_id(" 31 ") == parse_chain_id("0x1F") == 31


def test_names_must_be_unique_and_present(model: NetworksViewModel) -> None:
    """A name already used (any case) or empty is refused; nothing is lost."""
    assert model.save(custom_form("https://a.example", name="Node A")) == {}
    for name, message in [
        ("node a", "another network is already called node a"),
        ("rootstock testnet", "another network is already called rootstock testnet"),
        ("  ", "give the endpoint a name"),
    ]:
        form = custom_form("https://b.example", name=name)
        assert model.save(form) == {FormField.NAME: message}
    assert [c.name for c in model.customs()] == ["Node A"]


def test_http_to_a_remote_host_needs_the_explicit_flag(model: NetworksViewModel) -> None:
    """http:// to another machine is refused unless allowed; loopback http is fine."""
    form = custom_form("http://rsk.example.org:4444")
    assert "allow insecure http" in model.validate(form)[FormField.URL]
    assert model.validate(custom_form("http://127.0.0.1:4444")) == {}
    assert model.save(dataclasses.replace(form, allow_insecure_http=True)) == {}
    assert model.customs()[0].allow_insecure_http is True


def test_key_pasted_in_the_url_is_split_off(model: NetworksViewModel) -> None:
    """…/v2/<KEY> becomes the base URL, the key and the v2 form; short segments stay path."""
    assert model.save(custom_form(f"https://rpc.example.org/v2/{KEY}")) == {}
    form = model.form_for("custom:Mine")
    assert (form.url, form.api_key, form.v2) == ("https://rpc.example.org", KEY, True)
    assert model.save(custom_form("https://rpc.example.org/rpc", name="Path")) == {}
    path = model.form_for("custom:Path")
    assert (path.url, path.api_key) == ("https://rpc.example.org/rpc", "")


def test_rename_and_remove_follow_the_current_network(
    settings: Settings, model: NetworksViewModel, qtbot: Any
) -> None:
    """Renaming the current custom keeps it current (with its key); removing it falls back."""
    model.save(custom_form("https://a.example", name="Old", api_key=KEY))
    model.set_current("custom:Old")
    with qtbot.waitSignal(model.current_changed) as changed:
        model.save(dataclasses.replace(model.form_for("custom:Old"), name="New"))
    assert changed.args == ["custom:New"]
    assert settings.api_key("custom:New") == KEY and settings.api_key("custom:Old") == ""
    with qtbot.waitSignal(model.current_changed) as changed:
        model.remove("custom:New")
    assert changed.args == [DEVNET.id] and model.customs() == []
    assert settings.api_key("custom:New") == ""


def test_custom_testnet_endpoint_keeps_currency_and_rns(model: NetworksViewModel) -> None:
    """A custom endpoint on chain 31 is a testnet: tRBTC and the testnet RNS registry."""
    model.save(custom_form("http://localhost:4444", name="Local rskj"))
    network = model.network("custom:Local rskj")
    assert network is not None
    assert (network.currency, network.rns_registry) == ("tRBTC", TESTNET.rns_registry)


def test_key_field_is_masked_and_saved_on_ok(
    store: QSettings, settings: Settings, dialog: SettingsDialog, qtbot: Any
) -> None:
    """The key is typed masked, shown masked, and stored only when OK is pressed."""
    form = dialog.form_panel
    choose(dialog, TESTNET.id)
    type_into(qtbot, form.key_edit, KEY)
    assert form.key_edit.echoMode() == QLineEdit.EchoMode.Password
    assert KEY not in form.key_edit.displayText()
    assert KEY not in form.endpoint_label.text() and KEY[-4:] in form.endpoint_label.text()
    assert settings.api_key(TESTNET.id) == ""
    qtbot.mouseClick(
        dialog.buttons.button(dialog.buttons.StandardButton.Ok), Qt.MouseButton.LeftButton
    )
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert reread(store).api_key(TESTNET.id) == KEY


def test_reveal_toggles_and_resets_on_another_network(dialog: SettingsDialog, qtbot: Any) -> None:
    """Show reveals the key, Hide masks it; choosing another network masks it again."""
    form = dialog.form_panel
    choose(dialog, TESTNET.id)
    type_into(qtbot, form.key_edit, KEY)
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    assert form.key_edit.displayText() == KEY and form.reveal_button.text() == "Hide"
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    assert KEY not in form.key_edit.displayText() and form.reveal_button.text() == "Show"
    qtbot.mouseClick(form.reveal_button, Qt.MouseButton.LeftButton)
    choose(dialog, MAINNET.id)
    choose(dialog, TESTNET.id)
    assert form.key_edit.text() == KEY
    assert form.key_edit.echoMode() == QLineEdit.EchoMode.Password


def test_cancel_keeps_what_was_saved(
    settings: Settings, model: NetworksViewModel, qtbot: Any
) -> None:
    """Edits and removals are dropped by Cancel."""
    model.save(dataclasses.replace(model.form_for(TESTNET.id), api_key=KEY))
    model.save(custom_form("https://a.example", name="Kept"))
    window = SettingsDialog(NetworkSettingsViewModel(model))
    form = window.form_panel
    qtbot.addWidget(window)
    choose(window, TESTNET.id)
    type_into(qtbot, form.key_edit, "other-key-1234567890")
    choose(window, "custom:Kept")
    qtbot.mouseClick(window.list_panel.remove_button, Qt.MouseButton.LeftButton)
    window.reject()
    assert settings.api_key(TESTNET.id) == KEY
    assert [c.name for c in model.customs()] == ["Kept"]


def test_invalid_custom_url_shows_a_message_and_keeps_the_text(
    dialog: SettingsDialog, qtbot: Any
) -> None:
    """OK with a bad URL stays open, says what is wrong under the field, loses nothing."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "My node")
    type_into(qtbot, form.url_edit, "node.example:4444")
    type_into(qtbot, form.chain_edit, "0x1f")
    assert form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.isVisible() and dialog.result() != QDialog.DialogCode.Accepted
    assert form.url_edit.text() == "node.example:4444"
    assert form.name_edit.text() == "My node" and form.chain_edit.text() == "0x1f"
    assert (
        form.errors[FormField.URL].text()
        == "the endpoint URL must start with https:// and name a host"
    )
    assert form.errors[FormField.URL].textFormat() == Qt.TextFormat.PlainText
    assert not form.errors[FormField.NAME].isVisible()
    assert dialog.model.networks.customs() == []
    type_into(qtbot, form.url_edit, "https://node.example:4444")
    assert not form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert [(c.name, c.url, c.chain_id) for c in dialog.model.networks.customs()] == [
        ("My node", "https://node.example:4444", 31)
    ]


def test_http_remote_in_the_dialog_needs_the_checkbox(dialog: SettingsDialog, qtbot: Any) -> None:
    """The http:// message shows under the URL and goes once the flag is ticked."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Plain")
    type_into(qtbot, form.url_edit, "http://rsk.example.org:4444")
    type_into(qtbot, form.chain_edit, "30")
    dialog.accept()
    assert "clear text" in form.errors[FormField.URL].text() and dialog.isVisible()
    form.insecure_check.setChecked(True)
    assert not form.errors[FormField.URL].isVisible()
    dialog.accept()
    assert dialog.model.networks.customs()[0].allow_insecure_http is True


def test_duplicate_names_across_new_drafts_are_caught(dialog: SettingsDialog, qtbot: Any) -> None:
    """Two new endpoints with one name: OK shows the error and saves neither."""
    form = dialog.form_panel
    for _ in range(2):
        qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
        type_into(qtbot, form.name_edit, "Twin")
        type_into(qtbot, form.url_edit, "https://twin.example")
        type_into(qtbot, form.chain_edit, "31")
    assert form.errors[FormField.NAME].text() == "another network is already called Twin"
    dialog.accept()
    assert dialog.isVisible() and dialog.model.networks.customs() == []


def test_pasting_a_keyed_url_fills_the_key_field(dialog: SettingsDialog, qtbot: Any) -> None:
    """Leaving the URL field moves the pasted key into the masked key field."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.url_edit, f"https://rpc.example.org/v2/{KEY}")
    assert form.url_edit.text() == "https://rpc.example.org"
    assert form.key_edit.text() == KEY and form.url_form_combo.currentIndex() == 1
    assert form.url_form_combo.currentText() == "https://rpc.example.org/v2/<KEY>"


def probe(qtbot: Any, model: NetworksViewModel, target: Any) -> ConnectionReport:
    """Run a connection test on the qasync loop."""
    report = run_in_qloop(qtbot, model.test_connection(target))
    assert isinstance(report, ConnectionReport)
    return report


def test_connection_to_the_expected_chain(
    model: NetworksViewModel, node: TinyNode, qtbot: Any, qloop: object
) -> None:
    """chain 31 as expected: ✓ with the client version and latency."""
    report = probe(qtbot, model, custom_form(node.url("c31")))
    assert report.ok and report.chain_id == 31 and report.client_version == CLIENT
    assert report.latency_ms is not None and 0 < report.latency_ms < 10_000
    assert report.text.startswith(f"✓ chain 31 · {CLIENT} · ") and report.text.endswith("ms")


def test_connection_to_another_chain_is_a_mismatch(
    model: NetworksViewModel, node: TinyNode, qtbot: Any, qloop: object
) -> None:
    """The node serves chain 30 where 31 was expected: ✗ chain mismatch."""
    model.save(custom_form(node.url("c30"), name="Wrong"))
    network = model.network("custom:Wrong")
    report = probe(qtbot, model, network)
    assert not report.ok and (report.chain_id, report.expected_chain_id) == (30, 31)
    assert report.text.startswith("✗ chain mismatch: the node serves chain 30 (network 30), ")


def test_connection_refused_by_auth_never_shows_the_key(
    model: NetworksViewModel, node: TinyNode, qtbot: Any, qloop: object
) -> None:
    """HTTP 401: ✗ auth with the host, and the key appears nowhere in the report."""
    report = probe(qtbot, model, custom_form(f"{node.url('auth')}/{KEY}"))
    assert report.error_kind is ErrorKind.AUTH and not report.ok
    assert report.text == "✗ auth: 127.0.0.1 refused the API key (HTTP 401 Unauthorized)"
    assert KEY not in repr(report) and KEY[-4:] in report.endpoint
    assert f"/auth/{KEY}" in node.paths


def test_connection_to_a_closed_port_is_a_transport_error(
    model: NetworksViewModel, qtbot: Any, qloop: object
) -> None:
    """Nothing listens: ✗ transport, fast, no retries."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    report = probe(qtbot, model, custom_form(f"http://127.0.0.1:{port}"))
    assert report.text == "✗ transport: cannot connect to 127.0.0.1"


def test_connection_with_an_unfinished_form_costs_no_request(
    model: NetworksViewModel, qtbot: Any, qloop: object
) -> None:
    """A bad URL or a hosted network without a key is reported before anything is sent."""
    bad = probe(qtbot, model, custom_form("ftp://x"))
    assert bad.text.startswith("✗ invalid input: the endpoint URL must start with https://")
    assert probe(qtbot, model, MAINNET).outcome is ProbeOutcome.NOT_SET_UP
    assert probe(qtbot, model, DEVNET).outcome is ProbeOutcome.NOT_SET_UP


def test_dialog_test_button_shows_the_verdict(
    dialog: SettingsDialog, node: TinyNode, qtbot: Any, qloop: object
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


@pytest.fixture
def held(node: TinyNode) -> Iterator[TinyNode]:
    """The tiny node with its gate closed: /held/… requests wait until the test opens it."""
    node.calls.clear()
    node.gate.clear()
    try:
        yield node
    finally:
        node.gate.set()


def start_held_test(dialog: SettingsDialog, node: TinyNode, qtbot: Any) -> None:
    """Test a new endpoint on chain 31 whose node will say chain 30 once the gate opens; wait
    until its first request waits at the gate."""
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Slow")
    type_into(qtbot, form.url_edit, node.url("held/c30"))
    type_into(qtbot, form.chain_edit, "31")
    already = len(node.paths)
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    assert form.test_result.text() == "Testing…"
    qtbot.waitUntil(lambda: any("/held/" in p for p in node.paths[already:]), timeout=10_000)


def held_methods(node: TinyNode) -> set[str]:
    """Return the methods asked of the held node."""
    return {method for path, method in node.calls if "/held/" in path}


def test_a_test_superseded_by_a_new_one_is_never_reported(
    dialog: SettingsDialog, held: TinyNode, qtbot: Any, qloop: object
) -> None:
    """A first test still waits for its node when the URL is edited and tested again: only the
    second verdict is shown and emitted; the first one's late answer is dropped."""
    form, model = dialog.form_panel, dialog.model
    start_held_test(dialog, held, qtbot)
    type_into(qtbot, form.url_edit, held.url("c31"))
    with qtbot.waitSignal(model.connection_tested, timeout=10_000) as tested:
        qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    assert tested.args[0].ok and form.test_result.text().startswith("✓ chain 31")
    with qtbot.assertNotEmitted(model.connection_tested, wait=1_500):
        held.gate.set()
    assert form.test_result.text().startswith("✓ chain 31")
    assert "web3_clientVersion" not in held_methods(held)  # the dropped test asked no more
    assert model.probe_state is ProbeState.DONE and model.report == tested.args[0]


def test_a_test_of_a_network_left_is_never_reported(
    dialog: SettingsDialog, held: TinyNode, qtbot: Any, qloop: object
) -> None:
    """A test still waits for its node when the user picks another network: the late answer
    shows neither there nor back on the tested network, and is not emitted."""
    form, model = dialog.form_panel, dialog.model
    start_held_test(dialog, held, qtbot)
    tested_id = model.selected_id
    choose(dialog, TESTNET.id)
    assert form.test_result.text() == "" and model.probe_state is ProbeState.IDLE
    with qtbot.assertNotEmitted(model.connection_tested, wait=1_500):
        held.gate.set()
    assert form.test_result.text() == "" and model.report is None
    assert "web3_clientVersion" not in held_methods(held)
    choose(dialog, tested_id)
    assert form.test_result.text() == "" and model.probe_state is ProbeState.IDLE


def test_devnet_endpoint_comes_from_the_app(
    model: NetworksViewModel, node: TinyNode, qtbot: Any, qloop: object
) -> None:
    """Once the app tells where the devnet listens, it has an endpoint and can be tested."""
    model.set_devnet_endpoint(Endpoint.parse(node.url("c31") + "/" + KEY))
    assert model.endpoint_for(DEVNET) is not None
    report = probe(qtbot, model, DEVNET)
    assert report.ok and report.endpoint.endswith(KEY[-4:])


def test_network_combo_lists_and_switches(model: NetworksViewModel, qtbot: Any) -> None:
    """The combo lists every network, sets the current one, follows the model."""
    combo = network_combo(model)
    qtbot.addWidget(combo)
    assert [combo.itemText(i) for i in range(combo.count())] == [n.name for n in model.networks]
    assert combo.currentData() == DEVNET.id
    with qtbot.waitSignal(model.current_changed) as changed:
        combo.activated.emit(combo.findData(TESTNET.id))
    assert changed.args == [TESTNET.id]
    assert model.current_id == TESTNET.id
    model.save(custom_form("https://a.example", name="Added"))
    assert combo.itemText(combo.count() - 1) == "Added"
    assert combo.currentData() == TESTNET.id
    model.set_current("custom:Added")
    assert combo.currentData() == "custom:Added"
    tip = combo.itemData(combo.findData(MAINNET.id), Qt.ItemDataRole.ToolTipRole)
    assert "needs an API key" in tip
