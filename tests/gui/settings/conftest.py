"""Network settings fixtures: real QSettings in a file per test, the view models, the dialog."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from explorer.settings.store import Settings
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.settings import TinyNode


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
    """Return the typed settings over that file."""
    return Settings(store)


@pytest.fixture
def model(settings: Settings) -> NetworksViewModel:
    """Return the view model over those settings."""
    return NetworksViewModel(settings)


@pytest.fixture
def dialog(model: NetworksViewModel, qtbot: QtBot) -> SettingsDialog:
    """Return an open Settings dialog."""
    window = SettingsDialog(NetworkSettingsViewModel(model))
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.fixture
def held(node: TinyNode) -> Iterator[TinyNode]:
    """Yield the tiny node with its gate closed: /held/… requests wait until the test opens it."""
    node.calls.clear()
    node.gate.clear()
    try:
        yield node
    finally:
        node.gate.set()
