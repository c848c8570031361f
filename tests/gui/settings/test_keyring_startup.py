"""Keys kept in the system keyring are read at start in a worker thread, never on the GUI's."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from explorer.app.application import Application
from explorer.services.network_forms import NetworkForm
from explorer.settings.store import Settings
from explorer.viewmodels.networks import NetworksViewModel
from tests.helpers.keyrings import MemoryKeyring, memory_keyring
from tests.helpers.qt import run_in_qloop
from tests.helpers.settings import KEY, TinyNode


@pytest.fixture
def backend() -> Iterator[MemoryKeyring]:
    """Yield the in-memory keyring the app's settings use for the test."""
    with memory_keyring() as kept:
        yield kept


def started(
    qtbot: QtBot, store: QSettings, node: TinyNode, backend: MemoryKeyring, locked: bool = False
) -> Application:
    """Save a custom network whose key is in the keyring; start the app afresh on it."""
    first = Settings(store)
    first.set_keys_in_keyring(True)
    form = NetworkForm(name="Kept", url=node.url("c31"), chain_id="31", api_key=KEY)
    assert NetworksViewModel(first).save(form) == {}
    first.set_current_network("custom:Kept")
    backend.read_on.clear()
    backend.locked = locked
    app = Application(Settings(QSettings(store.fileName(), store.format())), use_devnet=False)
    qtbot.addWidget(app.window)
    run_in_qloop(qtbot, app.start())
    return app


def test_the_key_is_read_off_the_gui_thread(
    qtbot: QtBot, qloop: object, store: QSettings, node: TinyNode, backend: MemoryKeyring
) -> None:
    """The session opens with the key, read once by a worker thread."""
    app = started(qtbot, store, node, backend)
    try:
        session = app.shell.session
        assert session is not None
        assert session.endpoint.api_key == KEY
        assert len(backend.read_on) == 1
        assert threading.main_thread().name not in backend.read_on
    finally:
        run_in_qloop(qtbot, app.aclose())


def test_a_locked_keyring_says_so_and_nothing_crashes(
    qtbot: QtBot, qloop: object, store: QSettings, node: TinyNode, backend: MemoryKeyring
) -> None:
    """A keyring that refuses to read: the banner says why the network has no key."""
    app = started(qtbot, store, node, backend, locked=True)
    try:
        session = app.shell.session
        assert session is not None
        assert session.endpoint.api_key != KEY  # (the node's path, c31, is taken as a key)
        assert "The system keyring gave no API key" in app.shell.banner.text
        assert "locked" in app.shell.banner.text
        assert threading.main_thread().name not in backend.read_on
    finally:
        run_in_qloop(qtbot, app.aclose())
