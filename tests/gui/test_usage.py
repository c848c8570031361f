"""Request counts kept in the settings by older versions move to the shared counts once."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from explorer.services.networks import TESTNET
from explorer.services.session import Session
from explorer.settings.store import Settings, utc_day

KEY = "secret-key-0123456789abcdef"


def test_legacy_counts_are_taken_once_and_forgotten(tmp_path: Path, qapp: QApplication) -> None:
    """Today's count of a key is handed over once; the settings keep no usage after."""
    path = tmp_path / "settings.ini"
    store = QSettings(str(path), QSettings.Format.IniFormat)
    session = Session(TESTNET, TESTNET.endpoint(KEY))
    store.setValue(f"usage/{session.usage_id}/{utc_day()}", 12)
    store.setValue(f"usage/{session.usage_id}/2001-01-01", 40)
    store.setValue("network/current", "testnet")
    settings = Settings(store)
    assert settings.take_legacy_requests(session.usage_id) == 12
    assert settings.take_legacy_requests(session.usage_id) == 0
    QSettings(str(path), QSettings.Format.IniFormat).sync()
    del settings
    text = path.read_text()
    assert "testnet" in text
    assert "usage" not in text
    assert KEY not in text
