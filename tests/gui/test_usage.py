"""Requests spent today are counted per key across sessions and restarts, never storing the key."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from explorer.rpc.endpoint import Endpoint
from explorer.services.networks import TESTNET
from explorer.services.session import Session
from explorer.settings import Settings

KEY = "secret-key-0123456789abcdef"


def test_usage_is_stored_per_key_by_hash_and_adds_up(tmp_path: Path, qapp: QApplication) -> None:
    """Two sessions on one key add up; another key counts apart; the file never holds the key."""
    path = tmp_path / "settings.ini"
    settings = Settings(QSettings(str(path), QSettings.Format.IniFormat))
    first = Session(TESTNET, TESTNET.endpoint(KEY))
    other = Session(TESTNET, TESTNET.endpoint("another-key-0123456789abcdef"))
    assert first.usage_id != other.usage_id
    settings.add_requests(first.usage_id, 7)
    settings.add_requests(first.usage_id, 5)
    settings.add_requests(other.usage_id, 1)
    again = Session(TESTNET, Endpoint(TESTNET.hosted_base or "", KEY))
    again.earlier_today = settings.requests_today(again.usage_id)
    assert again.requests_today == 12
    assert settings.requests_today(other.usage_id) == 1
    QSettings(str(path), QSettings.Format.IniFormat).sync()
    del settings
    assert KEY not in path.read_text()
