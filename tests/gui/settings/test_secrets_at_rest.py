"""Secrets at rest: a private settings file, fixed at start, and the keyring as an option.

The file is 0600 in a 0700 directory on every save; loosened modes and damaged files are
fixed at start with a message.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail
from PySide6.QtCore import QPoint, QSettings, Qt
from pytestqt.qtbot import QtBot

from explorer.services.keystore import REFERENCE, SERVICE, KeyStoreError
from explorer.services.label_entries import Bookmark
from explorer.services.labels_file import export_text
from explorer.services.networks import TESTNET
from explorer.services.routes import tx_route
from explorer.settings.store import WINDOW_GEOMETRY, Settings, keyring_name
from explorer.viewmodels.keyring_option import KeyringState
from explorer.viewmodels.network_settings import NetworkSettingsViewModel
from explorer.viewmodels.networks import NetworksViewModel
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow
from explorer.views.settings_dialog import SettingsDialog
from tests.helpers.keyrings import MemoryKeyring, memory_keyring
from tests.helpers.settings import KEY, reread

FORMATS = (QSettings.Format.NativeFormat, QSettings.Format.IniFormat)


def mode(path: Path) -> int:
    """Return the permission bits of a file or directory."""
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def config_home(tmp_path: Path, qapp: object) -> Iterator[Path]:
    """Point the app's own settings file (QSettings("explorer", "explorer")) into tmp_path."""
    home = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "probe", "probe")
    original = str(Path(home.fileName()).parent.parent)
    for fmt in FORMATS:
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "config"))
    try:
        yield tmp_path / "config"
    finally:
        for fmt in FORMATS:
            QSettings.setPath(fmt, QSettings.Scope.UserScope, original)


@pytest.fixture
def no_keyring() -> Iterator[None]:
    """Leave the keyring package with no backend, as on a headless machine."""
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())  # type: ignore[no-untyped-call]
    try:
        yield
    finally:
        keyring.set_keyring(previous)


def test_a_new_settings_file_is_private_and_rewritten_private_on_every_save(
    config_home: Path,
) -> None:
    """Created 0600 in a 0700 directory; each save writes a new file (atomic), still 0600."""
    settings, notices = Settings.for_app()
    path = Path(settings.path)
    assert notices == []
    assert path.parent == config_home / "explorer"
    assert mode(path.parent) == 0o700
    assert mode(path) == 0o600
    settings.set_api_key(TESTNET.id, KEY)
    first = path.stat().st_ino
    assert mode(path) == 0o600
    settings.set(WINDOW_GEOMETRY, "geometry")
    assert path.stat().st_ino != first  # a new file renamed over the old one
    assert mode(path) == 0o600
    assert KEY in path.read_text()  # the key is where the design keeps it: a private file


@pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")
def test_a_loosened_file_is_tightened_at_start_and_the_window_says_so(
    config_home: Path, qtbot: QtBot
) -> None:
    """A 0644 file in a 0755 directory (as older versions left it) is fixed, with a message."""
    directory = config_home / "explorer"
    directory.mkdir(parents=True)
    path = directory / "explorer.conf"
    path.write_text(f"[api_keys]\ntestnet={KEY}\n")
    os.chmod(path, 0o644)
    os.chmod(directory, 0o755)
    settings, notices = Settings.for_app()
    assert mode(path) == 0o600
    assert mode(directory) == 0o700
    assert settings.api_key(TESTNET.id) == KEY
    assert len(notices) == 1
    assert "other users" in notices[0]
    assert "644" in notices[0]
    shell = ShellViewModel()
    window = MainWindow(shell)
    qtbot.addWidget(window)
    window.show()
    shell.show_startup_notices(notices)
    assert window.banner.isVisible()
    assert "could be read by other users" in window.banner.text()


@pytest.mark.parametrize(
    "content",
    [b"\x00\x01\x02binary", b"[network\ncurrent=testnet\n", "[a]\nb=\xe9\n".encode("latin-1")],
    ids=["binary", "unterminated section", "not utf-8"],
)
def test_a_damaged_settings_file_is_moved_aside_with_a_message(
    config_home: Path, content: bytes
) -> None:
    """The app starts on defaults; the damaged file is kept beside it, private."""
    directory = config_home / "explorer"
    directory.mkdir(parents=True)
    (directory / "explorer.conf").write_bytes(content)
    settings, notices = Settings.for_app()
    aside = [p for p in directory.iterdir() if ".damaged-" in p.name]
    assert len(aside) == 1
    assert aside[0].read_bytes() == content
    assert mode(aside[0]) == 0o600
    assert any("moved aside" in notice for notice in notices)
    assert settings.current_network() == ""
    assert mode(Path(settings.path)) == 0o600


def test_keys_move_to_the_keyring_and_back(tmp_path: Path, qapp: object) -> None:
    """In the keyring the file holds only a reference; moved back, the keyring forgets them."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with memory_keyring() as backend:
        settings = Settings(store)
        settings.set_api_key(TESTNET.id, KEY)
        settings.set_keys_in_keyring(True)
        text = Path(store.fileName()).read_text()
        assert KEY not in text
        assert REFERENCE in text
        assert backend.secrets == {(SERVICE, keyring_name(TESTNET.id)): KEY}
        assert reread(store).api_key(TESTNET.id) == KEY  # the next start reads the keyring
        settings.set_api_key(TESTNET.id, KEY + "x")  # a changed key goes to the keyring too
        assert backend.secrets[(SERVICE, keyring_name(TESTNET.id))] == KEY + "x"
        settings.set_keys_in_keyring(False)
        assert backend.secrets == {}
        assert reread(store).api_key(TESTNET.id) == KEY + "x"


def test_a_refusing_keyring_leaves_every_key_where_it_was(tmp_path: Path, qapp: object) -> None:
    """A locked keyring: an error to show, the choice unchanged, the key still readable."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with memory_keyring() as backend:
        settings = Settings(store)
        settings.set_api_key(TESTNET.id, KEY)
        backend.refuse = True
        with pytest.raises(KeyStoreError):
            settings.set_keys_in_keyring(True)
        assert not settings.keys_in_keyring()
        assert reread(store).api_key(TESTNET.id) == KEY


def open_dialog(qtbot: QtBot, settings: Settings) -> SettingsDialog:
    """Open the Settings dialog over settings, with the keyring option."""
    model = NetworkSettingsViewModel(NetworksViewModel(settings), safe=settings)
    dialog = SettingsDialog(model)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(lambda: model.keyring.state is not KeyringState.CHECKING, timeout=10_000)
    return dialog


def test_settings_offers_the_keyring_where_one_answers(
    tmp_path: Path, qtbot: QtBot, qloop: object
) -> None:
    """The option names the keyring found; ticking it and OK moves the keys there."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    with memory_keyring() as backend:
        settings = Settings(store)
        settings.set_api_key(TESTNET.id, KEY)
        dialog = open_dialog(qtbot, settings)
        option = dialog.keyring_option
        assert option.check.isEnabled()
        assert MemoryKeyring.name in option.note.text()
        box = QPoint(8, option.check.height() // 2)  # on the box itself (the row is wide)
        qtbot.mouseClick(option.check, Qt.MouseButton.LeftButton, pos=box)
        assert "reference" in option.note.text()
        dialog.accept()
        assert settings.keys_in_keyring()
        assert KEY not in Path(store.fileName()).read_text()
        assert KEY in backend.secrets.values()


def test_without_a_keyring_the_option_is_disabled_and_says_why(
    tmp_path: Path, qtbot: QtBot, qloop: object, no_keyring: None
) -> None:
    """As on a headless machine: no backend, the box cannot be ticked, the note says why."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    dialog = open_dialog(qtbot, Settings(store))
    option = dialog.keyring_option
    assert not option.check.isEnabled()
    assert option.note.text().startswith("Not available: no system keyring was found")
    assert "only you can read" in option.note.text()


def test_a_labels_export_never_holds_a_key(tmp_path: Path, qapp: object) -> None:
    """The export names the network, never its endpoint or key."""
    store = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    Settings(store).set_api_key(TESTNET.id, KEY)
    text = export_text(
        {"0x" + "ab" * 20: "mine"}, [Bookmark(tx_route("0x" + "cd" * 32), "t", 1.0)], TESTNET.id, 31
    )
    assert KEY not in text
    assert KEY[-4:] not in text
