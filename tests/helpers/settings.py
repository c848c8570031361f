"""Network settings tests: a tiny JSON-RPC node on real sockets and ways to drive the dialog."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from explorer.services.network_forms import NetworkForm
from explorer.settings.store import Settings
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.testnet_node import genesis_block

KEY = "k3yAbcdefGhijkLMNop0123456789x"
CLIENT = "RskJ/6.2.0/Linux/Java1.8/ARROWHEAD-45eb751"
PROBE_REQUESTS = 4  # a connection test asks chain id, network id, client and genesis at once


class TinyNode:
    """A JSON-RPC node in its own thread, answering by the URL's first segment.

    /c<N>/… serves chain N; /auth/… answers 401; /held/<mode>/… answers like /<mode>/… once the
    gate is open.
    """

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
        assert self._runner is not None
        self._loop.run_until_complete(self._runner.cleanup())
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
        """Answer the chain check (chain id, net_version, client, genesis) for the path's chain."""
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
            "eth_getBlockByNumber": genesis_block(f"0x{chain_id:064x}"),  # block 0: the genesis
        }
        return web.json_response(
            {"jsonrpc": "2.0", "id": body["id"], "result": results[body["method"]]}
        )

    def url(self, mode: str) -> str:
        """Return the base URL of one behaviour."""
        return f"http://127.0.0.1:{self.port}/{mode}"

    def __enter__(self) -> TinyNode:
        """Start serving and wait until the node listens."""
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *_exc: object) -> None:
        """Stop the node's loop and its thread."""
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


def custom_form(url: str, name: str = "Mine", chain_id: str = "31", **kw: Any) -> NetworkForm:
    """Return a new custom endpoint form."""
    return NetworkForm(name=name, url=url, chain_id=chain_id, **kw)


def type_into(qtbot: QtBot, edit: QLineEdit, text: str) -> None:
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


def start_held_test(dialog: SettingsDialog, node: TinyNode, qtbot: QtBot) -> None:
    """Test a new endpoint on chain 31 whose node will say chain 30 later.

    The node changes its answer once the gate opens; return when every request of the test
    (the chain check's four, sent at once) waits at the gate.
    """
    form = dialog.form_panel
    qtbot.mouseClick(dialog.list_panel.add_button, Qt.MouseButton.LeftButton)
    type_into(qtbot, form.name_edit, "Slow")
    type_into(qtbot, form.url_edit, node.url("held/c30"))
    type_into(qtbot, form.chain_edit, "31")
    already = len(node.paths)
    qtbot.mouseClick(form.test_button, Qt.MouseButton.LeftButton)
    assert form.test_result.text() == "Testing…"
    qtbot.waitUntil(
        lambda: sum("/held/" in p for p in node.paths[already:]) == PROBE_REQUESTS, timeout=10_000
    )


def held_calls(node: TinyNode) -> list[str]:
    """Return the methods asked of the held node, in order."""
    return [method for path, method in node.calls if "/held/" in path]


FORMATS = (QSettings.Format.NativeFormat, QSettings.Format.IniFormat)


@contextlib.contextmanager
def private_home(root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the app's settings, data and cache at root (QSettings' user paths too)."""
    # Asked before the environment changes: Qt reads XDG_CONFIG_HOME on its first QSettings.
    probe = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "probe", "probe")
    original = str(Path(probe.fileName()).parent.parent)
    for variable, name in (
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_DATA_HOME", "data"),
        ("XDG_CACHE_HOME", "cache"),
    ):
        monkeypatch.setenv(variable, str(root / name))
    for fmt in FORMATS:
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(root / "config"))
    try:
        yield root
    finally:
        for fmt in FORMATS:
            QSettings.setPath(fmt, QSettings.Scope.UserScope, original)
